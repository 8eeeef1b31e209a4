// The parts the portable compression functions share (FIPS 180-4 §3.1, §3.2,
// §6.2.2, §6.4.2): reading a block's sixteen words, ROTR, and the SHA-2 round,
// message-schedule step and chaining-value update, written once over the word
// type. Each is `@inline(__always)` and generic only over `FixedWidthInteger`:
// every call has a concrete word and literal rotation counts, so it specialises
// and inlines into the same straight-line code a copy per function would be (held
// by Benchmarks/count-instructions.sh on sha256-portable-*, sha1-portable-16384
// and verify-ed25519, whose SHA-512 runs the portable path; the timed ratios in
// tack-bench).

/// The sixteen words M0 ... M15 of the block at `block`, big-endian (FIPS 180-4
/// §3.1, §5.2): 32-bit words for SHA-1 and SHA-256, 64-bit for the SHA-512 family.
@inline(__always)
func loadMessageWords<Word: FixedWidthInteger>(
    _ block: UnsafeRawPointer, as _: Word.Type
) -> (Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word, Word) {
    @inline(__always)
    func word(_ index: Int) -> Word {
        Word(bigEndian: block.loadUnaligned(fromByteOffset: index &* MemoryLayout<Word>.size, as: Word.self))
    }
    return (
        word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7),
        word(8), word(9), word(10), word(11), word(12), word(13), word(14), word(15)
    )
}

/// ROTRⁿ(x) (FIPS 180-4 §3.2). `n` is a literal in 1 ..< the word's width at
/// every call site, so both shifts are in range; the masking shifts just spare
/// the compiler an overshift check.
@inline(__always)
func rotateRight<Word: FixedWidthInteger>(_ x: Word, _ n: Word) -> Word {
    (x &>> n) | (x &<< (Word(Word.bitWidth) &- n))
}

/// One SHA-2 round (FIPS 180-4 §6.2.2 and §6.4.2, step 3). The caller rotates
/// the names of the eight working variables instead of moving their values: only
/// `d` (which becomes the new `e`) and `h` (the new `a`) are written.
///
/// Written for x86's two-operand instructions and register pressure (the
/// measured difference to the textbook form is about 15%):
/// - Σ0 and Σ1 (§4.1.2 (4.4), (4.5); §4.1.3 (4.10), (4.11)) as nested rotations,
///   ROTRʳ²(ROTRʳ¹(ROTRʳ⁰(x) ⊕ x) ⊕ x), which needs one copy of the input instead
///   of three; `sigma0` and `sigma1` are the three counts (r0, r1, r2) of each;
/// - Ch(e, f, g) as g ⊕ (e ∧ (f ⊕ g)), one operation shorter;
/// - Maj(a, b, c) as b ⊕ ((a ⊕ b) ∧ (b ⊕ c)), where b ⊕ c is the previous
///   round's a ⊕ b, carried in `bc`.
/// All additions are modulo the word size (§6.2.2, §6.4.2): wrapping is the
/// defined arithmetic.
@inline(__always)
func sha2Round<Word: FixedWidthInteger>(
    _ a: Word, _ b: Word, _ c: Word, _ d: inout Word,
    _ e: Word, _ f: Word, _ g: Word, _ h: inout Word,
    _ constantPlusWord: Word, _ bc: inout Word,
    sigma0: (Word, Word, Word), sigma1: (Word, Word, Word)
) {
    let bigSigma1 = rotateRight(rotateRight(rotateRight(e, sigma1.0) ^ e, sigma1.1) ^ e, sigma1.2)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ constantPlusWord &+ choose &+ bigSigma1
    let bigSigma0 = rotateRight(rotateRight(rotateRight(a, sigma0.0) ^ a, sigma0.1) ^ a, sigma0.2)
    let ab = a ^ b
    let majority = b ^ (ab & bc)
    bc = ab
    d = d &+ t1
    h = t1 &+ (bigSigma0 &+ majority)
}

/// One step of the SHA-2 message schedule (FIPS 180-4 §6.2.2 and §6.4.2, step 1)
/// over a rolling 16-word window: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) +
/// W[t-16], where `w` holds W[t-16] on entry. σ0 and σ1 use nested rotations as
/// Σ does in ``sha2Round``: σ(x) = ROTRʳ¹(ROTRʳ⁰(x) ⊕ x) ⊕ SHRˢ, given as
/// (r0, r1, s).
@inline(__always)
func sha2Schedule<Word: FixedWidthInteger>(
    _ w: inout Word, _ wMinus2: Word, _ wMinus7: Word, _ wMinus15: Word,
    sigma0: (Word, Word, Word), sigma1: (Word, Word, Word)
) {
    let s0 = rotateRight(rotateRight(wMinus15, sigma0.0) ^ wMinus15, sigma0.1) ^ (wMinus15 &>> sigma0.2)
    let s1 = rotateRight(rotateRight(wMinus2, sigma1.0) ^ wMinus2, sigma1.1) ^ (wMinus2 &>> sigma1.2)
    w = w &+ s1 &+ wMinus7 &+ s0  // modulo the word size by definition
}

/// FIPS 180-4 §6.2.2 and §6.4.2, step 4: the compressed chunk's working variables
/// added to the chaining value H0 ... H7, modulo the word size.
@inline(__always)
func sha2AddChunk<Word: FixedWidthInteger>(
    _ chain: inout (Word, Word, Word, Word, Word, Word, Word, Word),
    _ a: Word, _ b: Word, _ c: Word, _ d: Word, _ e: Word, _ f: Word, _ g: Word, _ h: Word
) {
    chain = (
        chain.0 &+ a, chain.1 &+ b, chain.2 &+ c, chain.3 &+ d,
        chain.4 &+ e, chain.5 &+ f, chain.6 &+ g, chain.7 &+ h
    )
}

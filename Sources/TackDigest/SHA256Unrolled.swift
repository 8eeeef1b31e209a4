// SHA-256's compression function with its 64 rounds written out: the portable
// path of 64-bit targets (`sha256CompressPortable`, SHA256.swift, says when it
// runs).
//
// It stands apart from the general portable path (`sha256CompressEightRounds`,
// eight rounds a turn) for speed on hosts without SHA instructions, and on any
// host under valgrind, whose CPU has none: count-instructions.sh's e2e-rsa2048
// counts 846,225 instructions with it and 897,237 with the loop (+6%).
// Tests/TackDigestTests/SHA256PortableTests.swift holds the two to the same
// results on seeded random blocks. 32-bit targets, where its 6.6 KB of code
// matter more than its speed (the Cortex-M4 pinning image), do not link it.

/// One round of FIPS 180-4 §6.2.2 step 3. The caller rotates the names of
/// the eight working variables instead of moving their values: only `d`
/// (which becomes the new `e`) and `h` (the new `a`) are written.
///
/// Written for x86's two-operand instructions and register pressure (the
/// measured difference to the textbook form is about 15%):
/// - Σ0 and Σ1 (§4.1.2, (4.4) and (4.5)) as nested rotations,
///   ROTR²(ROTR¹¹(ROTR⁹(a) ⊕ a) ⊕ a) = ROTR² ⊕ ROTR¹³ ⊕ ROTR²², which needs one
///   copy of the input instead of three;
/// - Ch(e, f, g) as g ⊕ (e ∧ (f ⊕ g)), one operation shorter;
/// - Maj(a, b, c) as b ⊕ ((a ⊕ b) ∧ (b ⊕ c)), where b ⊕ c is the previous
///   round's a ⊕ b, carried in `bc`.
/// All additions are modulo 2^32 (§6.2.2): wrapping is the defined arithmetic.
@inline(__always)
private func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
    _ constantPlusWord: UInt32, _ bc: inout UInt32
) {
    let sigma1 = rotateRight(rotateRight(rotateRight(e, 14) ^ e, 5) ^ e, 6)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ constantPlusWord &+ choose &+ sigma1
    let sigma0 = rotateRight(rotateRight(rotateRight(a, 9) ^ a, 11) ^ a, 2)
    let ab = a ^ b
    let majority = b ^ (ab & bc)
    bc = ab
    d = d &+ t1
    h = t1 &+ (sigma0 &+ majority)
}

/// One step of the message schedule (FIPS 180-4 §6.2.2 step 1) over a rolling
/// 16-word window: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], where
/// `w` holds W[t-16] on entry. σ0 and σ1 (§4.1.2, (4.6) and (4.7)) use nested
/// rotations as Σ does in `round`.
@inline(__always)
private func schedule(_ w: inout UInt32, _ wMinus2: UInt32, _ wMinus7: UInt32, _ wMinus15: UInt32) {
    let s0 = rotateRight(rotateRight(wMinus15, 11) ^ wMinus15, 7) ^ (wMinus15 &>> 3)
    let s1 = rotateRight(rotateRight(wMinus2, 2) ^ wMinus2, 17) ^ (wMinus2 &>> 10)
    w = w &+ s1 &+ wMinus7 &+ s0  // modulo 2^32 by definition
}

/// The SHA-256 compression function in portable Swift for 64-bit targets, over
/// `blockCount` consecutive 64-byte blocks. The 64 rounds are unrolled with literal round
/// constants (K, §4.2.2) and the schedule kept in 16 local words, each word
/// computed just before its round, so the loop
/// body has no memory traffic beyond loading the block, no allocation and no
/// bounds checks. The caller guarantees `blocks` points to
/// `64 * blockCount` readable bytes.
func sha256CompressUnrolled(_ state: inout SHA256Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var chaining = state
    var block = blocks
    for _ in 0..<blockCount {
        var (w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15) = bigEndianWords32(block)
        var (a, b, c, d, e, f, g, h) = chaining
        var bc = b ^ c  // Maj's b ^ c for round 0; each round hands on its a ^ b.

        // Rounds 0..<16 use the block's words directly.
        round(a, b, c, &d, e, f, g, &h, 0x428a2f98 &+ w0, &bc)
        round(h, a, b, &c, d, e, f, &g, 0x71374491 &+ w1, &bc)
        round(g, h, a, &b, c, d, e, &f, 0xb5c0fbcf &+ w2, &bc)
        round(f, g, h, &a, b, c, d, &e, 0xe9b5dba5 &+ w3, &bc)
        round(e, f, g, &h, a, b, c, &d, 0x3956c25b &+ w4, &bc)
        round(d, e, f, &g, h, a, b, &c, 0x59f111f1 &+ w5, &bc)
        round(c, d, e, &f, g, h, a, &b, 0x923f82a4 &+ w6, &bc)
        round(b, c, d, &e, f, g, h, &a, 0xab1c5ed5 &+ w7, &bc)
        round(a, b, c, &d, e, f, g, &h, 0xd807aa98 &+ w8, &bc)
        round(h, a, b, &c, d, e, f, &g, 0x12835b01 &+ w9, &bc)
        round(g, h, a, &b, c, d, e, &f, 0x243185be &+ w10, &bc)
        round(f, g, h, &a, b, c, d, &e, 0x550c7dc3 &+ w11, &bc)
        round(e, f, g, &h, a, b, c, &d, 0x72be5d74 &+ w12, &bc)
        round(d, e, f, &g, h, a, b, &c, 0x80deb1fe &+ w13, &bc)
        round(c, d, e, &f, g, h, a, &b, 0x9bdc06a7 &+ w14, &bc)
        round(b, c, d, &e, f, g, h, &a, 0xc19bf174 &+ w15, &bc)

        // Rounds 16..<32, each preceded by its schedule word (§6.2.2 step 1).
        schedule(&w0, w14, w9, w1)
        round(a, b, c, &d, e, f, g, &h, 0xe49b69c1 &+ w0, &bc)
        schedule(&w1, w15, w10, w2)
        round(h, a, b, &c, d, e, f, &g, 0xefbe4786 &+ w1, &bc)
        schedule(&w2, w0, w11, w3)
        round(g, h, a, &b, c, d, e, &f, 0x0fc19dc6 &+ w2, &bc)
        schedule(&w3, w1, w12, w4)
        round(f, g, h, &a, b, c, d, &e, 0x240ca1cc &+ w3, &bc)
        schedule(&w4, w2, w13, w5)
        round(e, f, g, &h, a, b, c, &d, 0x2de92c6f &+ w4, &bc)
        schedule(&w5, w3, w14, w6)
        round(d, e, f, &g, h, a, b, &c, 0x4a7484aa &+ w5, &bc)
        schedule(&w6, w4, w15, w7)
        round(c, d, e, &f, g, h, a, &b, 0x5cb0a9dc &+ w6, &bc)
        schedule(&w7, w5, w0, w8)
        round(b, c, d, &e, f, g, h, &a, 0x76f988da &+ w7, &bc)
        schedule(&w8, w6, w1, w9)
        round(a, b, c, &d, e, f, g, &h, 0x983e5152 &+ w8, &bc)
        schedule(&w9, w7, w2, w10)
        round(h, a, b, &c, d, e, f, &g, 0xa831c66d &+ w9, &bc)
        schedule(&w10, w8, w3, w11)
        round(g, h, a, &b, c, d, e, &f, 0xb00327c8 &+ w10, &bc)
        schedule(&w11, w9, w4, w12)
        round(f, g, h, &a, b, c, d, &e, 0xbf597fc7 &+ w11, &bc)
        schedule(&w12, w10, w5, w13)
        round(e, f, g, &h, a, b, c, &d, 0xc6e00bf3 &+ w12, &bc)
        schedule(&w13, w11, w6, w14)
        round(d, e, f, &g, h, a, b, &c, 0xd5a79147 &+ w13, &bc)
        schedule(&w14, w12, w7, w15)
        round(c, d, e, &f, g, h, a, &b, 0x06ca6351 &+ w14, &bc)
        schedule(&w15, w13, w8, w0)
        round(b, c, d, &e, f, g, h, &a, 0x14292967 &+ w15, &bc)

        // Rounds 32..<48, each preceded by its schedule word (§6.2.2 step 1).
        schedule(&w0, w14, w9, w1)
        round(a, b, c, &d, e, f, g, &h, 0x27b70a85 &+ w0, &bc)
        schedule(&w1, w15, w10, w2)
        round(h, a, b, &c, d, e, f, &g, 0x2e1b2138 &+ w1, &bc)
        schedule(&w2, w0, w11, w3)
        round(g, h, a, &b, c, d, e, &f, 0x4d2c6dfc &+ w2, &bc)
        schedule(&w3, w1, w12, w4)
        round(f, g, h, &a, b, c, d, &e, 0x53380d13 &+ w3, &bc)
        schedule(&w4, w2, w13, w5)
        round(e, f, g, &h, a, b, c, &d, 0x650a7354 &+ w4, &bc)
        schedule(&w5, w3, w14, w6)
        round(d, e, f, &g, h, a, b, &c, 0x766a0abb &+ w5, &bc)
        schedule(&w6, w4, w15, w7)
        round(c, d, e, &f, g, h, a, &b, 0x81c2c92e &+ w6, &bc)
        schedule(&w7, w5, w0, w8)
        round(b, c, d, &e, f, g, h, &a, 0x92722c85 &+ w7, &bc)
        schedule(&w8, w6, w1, w9)
        round(a, b, c, &d, e, f, g, &h, 0xa2bfe8a1 &+ w8, &bc)
        schedule(&w9, w7, w2, w10)
        round(h, a, b, &c, d, e, f, &g, 0xa81a664b &+ w9, &bc)
        schedule(&w10, w8, w3, w11)
        round(g, h, a, &b, c, d, e, &f, 0xc24b8b70 &+ w10, &bc)
        schedule(&w11, w9, w4, w12)
        round(f, g, h, &a, b, c, d, &e, 0xc76c51a3 &+ w11, &bc)
        schedule(&w12, w10, w5, w13)
        round(e, f, g, &h, a, b, c, &d, 0xd192e819 &+ w12, &bc)
        schedule(&w13, w11, w6, w14)
        round(d, e, f, &g, h, a, b, &c, 0xd6990624 &+ w13, &bc)
        schedule(&w14, w12, w7, w15)
        round(c, d, e, &f, g, h, a, &b, 0xf40e3585 &+ w14, &bc)
        schedule(&w15, w13, w8, w0)
        round(b, c, d, &e, f, g, h, &a, 0x106aa070 &+ w15, &bc)

        // Rounds 48..<64, each preceded by its schedule word (§6.2.2 step 1).
        schedule(&w0, w14, w9, w1)
        round(a, b, c, &d, e, f, g, &h, 0x19a4c116 &+ w0, &bc)
        schedule(&w1, w15, w10, w2)
        round(h, a, b, &c, d, e, f, &g, 0x1e376c08 &+ w1, &bc)
        schedule(&w2, w0, w11, w3)
        round(g, h, a, &b, c, d, e, &f, 0x2748774c &+ w2, &bc)
        schedule(&w3, w1, w12, w4)
        round(f, g, h, &a, b, c, d, &e, 0x34b0bcb5 &+ w3, &bc)
        schedule(&w4, w2, w13, w5)
        round(e, f, g, &h, a, b, c, &d, 0x391c0cb3 &+ w4, &bc)
        schedule(&w5, w3, w14, w6)
        round(d, e, f, &g, h, a, b, &c, 0x4ed8aa4a &+ w5, &bc)
        schedule(&w6, w4, w15, w7)
        round(c, d, e, &f, g, h, a, &b, 0x5b9cca4f &+ w6, &bc)
        schedule(&w7, w5, w0, w8)
        round(b, c, d, &e, f, g, h, &a, 0x682e6ff3 &+ w7, &bc)
        schedule(&w8, w6, w1, w9)
        round(a, b, c, &d, e, f, g, &h, 0x748f82ee &+ w8, &bc)
        schedule(&w9, w7, w2, w10)
        round(h, a, b, &c, d, e, f, &g, 0x78a5636f &+ w9, &bc)
        schedule(&w10, w8, w3, w11)
        round(g, h, a, &b, c, d, e, &f, 0x84c87814 &+ w10, &bc)
        schedule(&w11, w9, w4, w12)
        round(f, g, h, &a, b, c, d, &e, 0x8cc70208 &+ w11, &bc)
        schedule(&w12, w10, w5, w13)
        round(e, f, g, &h, a, b, c, &d, 0x90befffa &+ w12, &bc)
        schedule(&w13, w11, w6, w14)
        round(d, e, f, &g, h, a, b, &c, 0xa4506ceb &+ w13, &bc)
        schedule(&w14, w12, w7, w15)
        round(c, d, e, &f, g, h, a, &b, 0xbef9a3f7 &+ w14, &bc)
        schedule(&w15, w13, w8, w0)
        round(b, c, d, &e, f, g, h, &a, 0xc67178f2 &+ w15, &bc)

        // §6.2.2 step 4: add the compressed chunk to the chaining value, mod 2^32.
        chaining = (
            chaining.0 &+ a, chaining.1 &+ b, chaining.2 &+ c, chaining.3 &+ d,
            chaining.4 &+ e, chaining.5 &+ f, chaining.6 &+ g, chaining.7 &+ h
        )
        block += 64
    }
    state = chaining
}

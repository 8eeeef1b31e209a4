// SHA-1 (FIPS 180-4 §6.1): the streaming hasher and the portable compression
// function.
//
// SHA-1 is here for what still needs it: PKCS #12 MACs and legacy PBEs, key
// identifiers (RFC 5280 §4.2.1.2), HMAC-SHA-1 and PBKDF2-HMAC-SHA-1. Its
// collision resistance is broken (SHAttered 2017, "SHA-1 is a Shambles" 2020),
// so it is not a ``SHA2HashFunction`` and no signature API accepts it.

/// The SHA-1 hash function (FIPS 180-4 §6.1): 64-byte blocks, a 20-byte
/// digest.
///
/// For keyed and derived uses (HMAC, PBKDF2, PKCS #12 key derivation) and
/// identifiers only: collisions are practical, so never use it where an
/// attacker could choose colliding inputs (signatures, certificates).
///
/// ```swift
/// let keyID = SHA1.hash(subjectPublicKeyBits)
/// ```
///
/// On CPUs with the ARMv8 SHA-1 instructions the hasher uses them where the
/// build enables them (see ``SHA2Implementation``); elsewhere it runs the
/// portable Swift code. Both give the same digest.
public struct SHA1: HashFunction, BlockHasher {
    /// 20 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 20 }

    /// 64 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 64 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.1).
    static let initialState: SHA1Compression.State = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0)

    var core: BlockHashCore<SHA1Compression>

    /// Whether this CPU and build can run SHA-1 on the hardware path (see
    /// ``SHA2Implementation/hardware``).
    public static var hardwareIsAvailable: Bool { SHA1Compression.hardwareIsAvailable }
}

extension SHA1 {
    /// Creates a hasher that uses the given implementation.
    ///
    /// - Parameter implementation: The compression function to run. If this
    ///   CPU or build has no SHA-1 instructions, the hasher uses
    ///   ``SHA2Implementation/portable`` instead; ``implementation`` tells
    ///   which one it got.
    public init(implementation: SHA2Implementation) {
        self.init(selecting: implementation)
    }

    /// The implementation this hasher runs.
    public var implementation: SHA2Implementation { core.implementation }
}

/// The SHA-1 compression function (FIPS 180-4 §6.1.2) and its sizes, for
/// ``BlockHashCore``.
enum SHA1Compression: BlockCompression {
    /// The five working words H0...H4.
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32)
    typealias Word = UInt32
    /// 64 bytes, inline.
    typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    static var zeroBlock: Block { (0, 0, 0, 0, 0, 0, 0, 0) }
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }
    static var hardwareIsAvailable: Bool { hardwareSHA1IsAvailable }

    @inline(__always)
    static func compress(
        _ state: inout State, _ blocks: UnsafeRawPointer, _ blockCount: Int, _ implementation: SHA2Implementation
    ) {
        #if TACK_HARDWARE_SHA && arch(arm64)
            if implementation == .hardware {
                sha1CompressHardware(&state, blocks, blockCount)
                return
            }
        #endif
        sha1CompressPortable(&state, blocks, blockCount)
    }
}

// MARK: - The portable compression function

/// Rotates left (FIPS 180-4 §3.2, ROTL).
@inline(__always)
private func rotateLeft(_ x: UInt32, _ n: UInt32) -> UInt32 {
    // n is a constant in 1...30 at every call site.
    (x &<< n) | (x &>> (32 - n))
}

/// Ch(x, y, z) (FIPS 180-4 §4.1.1, rounds 0...19) as z ⊕ (x ∧ (y ⊕ z)).
@inline(__always)
private func choose(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { z ^ (x & (y ^ z)) }

/// Parity(x, y, z) (FIPS 180-4 §4.1.1, rounds 20...39 and 60...79).
@inline(__always)
private func parity(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { x ^ y ^ z }

/// Maj(x, y, z) (FIPS 180-4 §4.1.1, rounds 40...59) as (x ∧ y) ∨ (z ∧ (x ∨ y)).
@inline(__always)
private func majority(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) | (z & (x | y)) }

/// One round of FIPS 180-4 §6.1.2 step 3, with the caller renaming the five
/// working variables instead of moving them: `e` becomes T = ROTL⁵(a) +
/// f(b, c, d) + e + K + W (the new a) and `b` becomes ROTL³⁰(b) (the new c).
/// `functionPlusConstantPlusWord` is f(b, c, d) + K + W, computed with the old
/// b. Additions are modulo 2^32 by definition.
@inline(__always)
private func round(
    _ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32,
    _ functionPlusConstantPlusWord: UInt32
) {
    e = e &+ rotateLeft(a, 5) &+ functionPlusConstantPlusWord
    b = rotateLeft(b, 30)
}

/// The SHA-1 compression function in portable Swift, over `blockCount`
/// consecutive 64-byte blocks: 80 unrolled rounds with the constants K
/// (§4.2.1) and a 16-word rolling schedule in locals (W[t] = ROTL¹(W[t-3] ⊕
/// W[t-8] ⊕ W[t-14] ⊕ W[t-16]), §6.1.2 step 1). The caller guarantees
/// `blocks` points to `64 * blockCount` readable bytes.
func sha1CompressPortable(_ state: inout SHA1Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var chaining = state
    var block = blocks
    for _ in 0..<blockCount {
        var (w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15) = bigEndianWords32(block)
        var (a, b, c, d, e) = chaining

        // Rounds 0..<16 use the block's words directly.
        round(a, &b, c, d, &e, choose(b, c, d) &+ 0x5a82_7999 &+ w0)
        round(e, &a, b, c, &d, choose(a, b, c) &+ 0x5a82_7999 &+ w1)
        round(d, &e, a, b, &c, choose(e, a, b) &+ 0x5a82_7999 &+ w2)
        round(c, &d, e, a, &b, choose(d, e, a) &+ 0x5a82_7999 &+ w3)
        round(b, &c, d, e, &a, choose(c, d, e) &+ 0x5a82_7999 &+ w4)
        round(a, &b, c, d, &e, choose(b, c, d) &+ 0x5a82_7999 &+ w5)
        round(e, &a, b, c, &d, choose(a, b, c) &+ 0x5a82_7999 &+ w6)
        round(d, &e, a, b, &c, choose(e, a, b) &+ 0x5a82_7999 &+ w7)
        round(c, &d, e, a, &b, choose(d, e, a) &+ 0x5a82_7999 &+ w8)
        round(b, &c, d, e, &a, choose(c, d, e) &+ 0x5a82_7999 &+ w9)
        round(a, &b, c, d, &e, choose(b, c, d) &+ 0x5a82_7999 &+ w10)
        round(e, &a, b, c, &d, choose(a, b, c) &+ 0x5a82_7999 &+ w11)
        round(d, &e, a, b, &c, choose(e, a, b) &+ 0x5a82_7999 &+ w12)
        round(c, &d, e, a, &b, choose(d, e, a) &+ 0x5a82_7999 &+ w13)
        round(b, &c, d, e, &a, choose(c, d, e) &+ 0x5a82_7999 &+ w14)
        round(a, &b, c, d, &e, choose(b, c, d) &+ 0x5a82_7999 &+ w15)

        // Rounds 16..<80 extend the schedule in place (§6.1.2 step 1).
        w0 = rotateLeft(w13 ^ w8 ^ w2 ^ w0, 1)
        round(e, &a, b, c, &d, choose(a, b, c) &+ 0x5a82_7999 &+ w0)
        w1 = rotateLeft(w14 ^ w9 ^ w3 ^ w1, 1)
        round(d, &e, a, b, &c, choose(e, a, b) &+ 0x5a82_7999 &+ w1)
        w2 = rotateLeft(w15 ^ w10 ^ w4 ^ w2, 1)
        round(c, &d, e, a, &b, choose(d, e, a) &+ 0x5a82_7999 &+ w2)
        w3 = rotateLeft(w0 ^ w11 ^ w5 ^ w3, 1)
        round(b, &c, d, e, &a, choose(c, d, e) &+ 0x5a82_7999 &+ w3)

        w4 = rotateLeft(w1 ^ w12 ^ w6 ^ w4, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0x6ed9_eba1 &+ w4)
        w5 = rotateLeft(w2 ^ w13 ^ w7 ^ w5, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0x6ed9_eba1 &+ w5)
        w6 = rotateLeft(w3 ^ w14 ^ w8 ^ w6, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0x6ed9_eba1 &+ w6)
        w7 = rotateLeft(w4 ^ w15 ^ w9 ^ w7, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0x6ed9_eba1 &+ w7)
        w8 = rotateLeft(w5 ^ w0 ^ w10 ^ w8, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0x6ed9_eba1 &+ w8)
        w9 = rotateLeft(w6 ^ w1 ^ w11 ^ w9, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0x6ed9_eba1 &+ w9)
        w10 = rotateLeft(w7 ^ w2 ^ w12 ^ w10, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0x6ed9_eba1 &+ w10)
        w11 = rotateLeft(w8 ^ w3 ^ w13 ^ w11, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0x6ed9_eba1 &+ w11)
        w12 = rotateLeft(w9 ^ w4 ^ w14 ^ w12, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0x6ed9_eba1 &+ w12)
        w13 = rotateLeft(w10 ^ w5 ^ w15 ^ w13, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0x6ed9_eba1 &+ w13)
        w14 = rotateLeft(w11 ^ w6 ^ w0 ^ w14, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0x6ed9_eba1 &+ w14)
        w15 = rotateLeft(w12 ^ w7 ^ w1 ^ w15, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0x6ed9_eba1 &+ w15)
        w0 = rotateLeft(w13 ^ w8 ^ w2 ^ w0, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0x6ed9_eba1 &+ w0)
        w1 = rotateLeft(w14 ^ w9 ^ w3 ^ w1, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0x6ed9_eba1 &+ w1)
        w2 = rotateLeft(w15 ^ w10 ^ w4 ^ w2, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0x6ed9_eba1 &+ w2)
        w3 = rotateLeft(w0 ^ w11 ^ w5 ^ w3, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0x6ed9_eba1 &+ w3)
        w4 = rotateLeft(w1 ^ w12 ^ w6 ^ w4, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0x6ed9_eba1 &+ w4)
        w5 = rotateLeft(w2 ^ w13 ^ w7 ^ w5, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0x6ed9_eba1 &+ w5)
        w6 = rotateLeft(w3 ^ w14 ^ w8 ^ w6, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0x6ed9_eba1 &+ w6)
        w7 = rotateLeft(w4 ^ w15 ^ w9 ^ w7, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0x6ed9_eba1 &+ w7)

        w8 = rotateLeft(w5 ^ w0 ^ w10 ^ w8, 1)
        round(a, &b, c, d, &e, majority(b, c, d) &+ 0x8f1b_bcdc &+ w8)
        w9 = rotateLeft(w6 ^ w1 ^ w11 ^ w9, 1)
        round(e, &a, b, c, &d, majority(a, b, c) &+ 0x8f1b_bcdc &+ w9)
        w10 = rotateLeft(w7 ^ w2 ^ w12 ^ w10, 1)
        round(d, &e, a, b, &c, majority(e, a, b) &+ 0x8f1b_bcdc &+ w10)
        w11 = rotateLeft(w8 ^ w3 ^ w13 ^ w11, 1)
        round(c, &d, e, a, &b, majority(d, e, a) &+ 0x8f1b_bcdc &+ w11)
        w12 = rotateLeft(w9 ^ w4 ^ w14 ^ w12, 1)
        round(b, &c, d, e, &a, majority(c, d, e) &+ 0x8f1b_bcdc &+ w12)
        w13 = rotateLeft(w10 ^ w5 ^ w15 ^ w13, 1)
        round(a, &b, c, d, &e, majority(b, c, d) &+ 0x8f1b_bcdc &+ w13)
        w14 = rotateLeft(w11 ^ w6 ^ w0 ^ w14, 1)
        round(e, &a, b, c, &d, majority(a, b, c) &+ 0x8f1b_bcdc &+ w14)
        w15 = rotateLeft(w12 ^ w7 ^ w1 ^ w15, 1)
        round(d, &e, a, b, &c, majority(e, a, b) &+ 0x8f1b_bcdc &+ w15)
        w0 = rotateLeft(w13 ^ w8 ^ w2 ^ w0, 1)
        round(c, &d, e, a, &b, majority(d, e, a) &+ 0x8f1b_bcdc &+ w0)
        w1 = rotateLeft(w14 ^ w9 ^ w3 ^ w1, 1)
        round(b, &c, d, e, &a, majority(c, d, e) &+ 0x8f1b_bcdc &+ w1)
        w2 = rotateLeft(w15 ^ w10 ^ w4 ^ w2, 1)
        round(a, &b, c, d, &e, majority(b, c, d) &+ 0x8f1b_bcdc &+ w2)
        w3 = rotateLeft(w0 ^ w11 ^ w5 ^ w3, 1)
        round(e, &a, b, c, &d, majority(a, b, c) &+ 0x8f1b_bcdc &+ w3)
        w4 = rotateLeft(w1 ^ w12 ^ w6 ^ w4, 1)
        round(d, &e, a, b, &c, majority(e, a, b) &+ 0x8f1b_bcdc &+ w4)
        w5 = rotateLeft(w2 ^ w13 ^ w7 ^ w5, 1)
        round(c, &d, e, a, &b, majority(d, e, a) &+ 0x8f1b_bcdc &+ w5)
        w6 = rotateLeft(w3 ^ w14 ^ w8 ^ w6, 1)
        round(b, &c, d, e, &a, majority(c, d, e) &+ 0x8f1b_bcdc &+ w6)
        w7 = rotateLeft(w4 ^ w15 ^ w9 ^ w7, 1)
        round(a, &b, c, d, &e, majority(b, c, d) &+ 0x8f1b_bcdc &+ w7)
        w8 = rotateLeft(w5 ^ w0 ^ w10 ^ w8, 1)
        round(e, &a, b, c, &d, majority(a, b, c) &+ 0x8f1b_bcdc &+ w8)
        w9 = rotateLeft(w6 ^ w1 ^ w11 ^ w9, 1)
        round(d, &e, a, b, &c, majority(e, a, b) &+ 0x8f1b_bcdc &+ w9)
        w10 = rotateLeft(w7 ^ w2 ^ w12 ^ w10, 1)
        round(c, &d, e, a, &b, majority(d, e, a) &+ 0x8f1b_bcdc &+ w10)
        w11 = rotateLeft(w8 ^ w3 ^ w13 ^ w11, 1)
        round(b, &c, d, e, &a, majority(c, d, e) &+ 0x8f1b_bcdc &+ w11)

        w12 = rotateLeft(w9 ^ w4 ^ w14 ^ w12, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0xca62_c1d6 &+ w12)
        w13 = rotateLeft(w10 ^ w5 ^ w15 ^ w13, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0xca62_c1d6 &+ w13)
        w14 = rotateLeft(w11 ^ w6 ^ w0 ^ w14, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0xca62_c1d6 &+ w14)
        w15 = rotateLeft(w12 ^ w7 ^ w1 ^ w15, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0xca62_c1d6 &+ w15)
        w0 = rotateLeft(w13 ^ w8 ^ w2 ^ w0, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0xca62_c1d6 &+ w0)
        w1 = rotateLeft(w14 ^ w9 ^ w3 ^ w1, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0xca62_c1d6 &+ w1)
        w2 = rotateLeft(w15 ^ w10 ^ w4 ^ w2, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0xca62_c1d6 &+ w2)
        w3 = rotateLeft(w0 ^ w11 ^ w5 ^ w3, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0xca62_c1d6 &+ w3)
        w4 = rotateLeft(w1 ^ w12 ^ w6 ^ w4, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0xca62_c1d6 &+ w4)
        w5 = rotateLeft(w2 ^ w13 ^ w7 ^ w5, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0xca62_c1d6 &+ w5)
        w6 = rotateLeft(w3 ^ w14 ^ w8 ^ w6, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0xca62_c1d6 &+ w6)
        w7 = rotateLeft(w4 ^ w15 ^ w9 ^ w7, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0xca62_c1d6 &+ w7)
        w8 = rotateLeft(w5 ^ w0 ^ w10 ^ w8, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0xca62_c1d6 &+ w8)
        w9 = rotateLeft(w6 ^ w1 ^ w11 ^ w9, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0xca62_c1d6 &+ w9)
        w10 = rotateLeft(w7 ^ w2 ^ w12 ^ w10, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0xca62_c1d6 &+ w10)
        w11 = rotateLeft(w8 ^ w3 ^ w13 ^ w11, 1)
        round(a, &b, c, d, &e, parity(b, c, d) &+ 0xca62_c1d6 &+ w11)
        w12 = rotateLeft(w9 ^ w4 ^ w14 ^ w12, 1)
        round(e, &a, b, c, &d, parity(a, b, c) &+ 0xca62_c1d6 &+ w12)
        w13 = rotateLeft(w10 ^ w5 ^ w15 ^ w13, 1)
        round(d, &e, a, b, &c, parity(e, a, b) &+ 0xca62_c1d6 &+ w13)
        w14 = rotateLeft(w11 ^ w6 ^ w0 ^ w14, 1)
        round(c, &d, e, a, &b, parity(d, e, a) &+ 0xca62_c1d6 &+ w14)
        w15 = rotateLeft(w12 ^ w7 ^ w1 ^ w15, 1)
        round(b, &c, d, e, &a, parity(c, d, e) &+ 0xca62_c1d6 &+ w15)

        // §6.1.2 step 4: add the compressed chunk to the chaining value, mod 2^32.
        chaining = (chaining.0 &+ a, chaining.1 &+ b, chaining.2 &+ c, chaining.3 &+ d, chaining.4 &+ e)
        block += 64
    }
    state = chaining
}

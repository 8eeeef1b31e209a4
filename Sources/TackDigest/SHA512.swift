// SHA-512, SHA-384, SHA-512/224 and SHA-512/256 (FIPS 180-4 §6.4 to §6.7):
// the streaming hashers and the portable compression function. There is no
// hardware path: x86-64 SHA512 instructions are too new to matter here.

/// The SHA-512 hash function (FIPS 180-4 §6.4): 128-byte blocks, a
/// 64-byte digest.
public struct SHA512: SHA2HashFunction, BlockHasher {
    /// 64 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 64 }

    /// 128 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 128 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.5: the first 64 bits of the fractional parts of the square roots of the first eight primes).
    static let initialState: SHA512Compression.State = (
        0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
        0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179
    )

    var core: BlockHashCore<SHA512Compression>
}

/// The SHA-384 hash function (FIPS 180-4 §6.5): 128-byte blocks, a
/// 48-byte digest.
///
/// SHA-512 with a different initial value, truncated to six words.
public struct SHA384: SHA2HashFunction, BlockHasher {
    /// 48 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 48 }

    /// 128 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 128 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.4: the first 64 bits of the fractional parts of the square roots of the 9th through 16th primes).
    static let initialState: SHA512Compression.State = (
        0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
        0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4
    )

    var core: BlockHashCore<SHA512Compression>
}

/// The SHA-512/256 hash function (FIPS 180-4 §6.7): 128-byte blocks, a
/// 32-byte digest.
///
/// SHA-512 with a different initial value, truncated to four words; as
/// fast as SHA-512 per byte, which on 64-bit CPUs without SHA instructions
/// beats SHA-256.
public struct SHA512_256: SHA2HashFunction, BlockHasher {
    /// 32 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 32 }

    /// 128 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 128 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.6.2, produced by the SHA-512/t IV generation function of §5.3.6).
    static let initialState: SHA512Compression.State = (
        0x2231_2194_fc2b_f72c, 0x9f55_5fa3_c84c_64c2, 0x2393_b86b_6f53_b151, 0x9638_7719_5940_eabd,
        0x9628_3ee2_a88e_ffe3, 0xbe5e_1e25_5386_3992, 0x2b01_99fc_2c85_b8aa, 0x0eb7_2ddc_81c5_2ca2
    )

    var core: BlockHashCore<SHA512Compression>
}

/// The SHA-512/224 hash function (FIPS 180-4 §6.6): 128-byte blocks, a
/// 28-byte digest.
///
/// SHA-512 with a different initial value, truncated to 224 bits (three and
/// a half words).
public struct SHA512_224: SHA2HashFunction, BlockHasher {
    /// 28 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 28 }

    /// 128 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 128 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.6.1, produced by the SHA-512/t IV generation function of §5.3.6).
    static let initialState: SHA512Compression.State = (
        0x8c3d_37c8_1954_4da2, 0x73e1_9966_89dc_d4d6, 0x1dfa_b7ae_32ff_9c82, 0x679d_d514_582f_9fcf,
        0x0f6d_2b69_7bd4_4da8, 0x77e3_6f73_04c4_8942, 0x3f9d_85a8_6a1d_36c8, 0x1112_e6ad_91d6_92a1
    )

    var core: BlockHashCore<SHA512Compression>
}

/// The SHA-512 compression function (FIPS 180-4 §6.4.2) and its sizes, for
/// ``BlockHashCore``; SHA-384 and SHA-512/t run the same function.
enum SHA512Compression: BlockCompression {
    /// The eight working words H0...H7.
    typealias State = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    typealias Word = UInt64
    /// 128 bytes, inline.
    typealias Block = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )

    static var zeroBlock: Block { (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }
    static var blockByteCount: Int { 128 }
    /// §5.1.2: a 128-bit bit count.
    static var lengthFieldByteCount: Int { 16 }
    /// There is only the portable implementation.
    static var hardwareIsAvailable: Bool { false }

    /// There is only the portable implementation.
    @inline(__always)
    static func compress(
        _ state: inout State, _ blocks: UnsafeRawPointer, _ blockCount: Int, _ implementation: SHA2Implementation
    ) {
        sha512CompressPortable(&state, blocks, blockCount)
    }
}

// MARK: - The portable compression function

/// Rotates right (FIPS 180-4 §3.2, ROTR).
@inline(__always)
private func rotateRight(_ x: UInt64, _ n: UInt64) -> UInt64 {
    // n is a constant in 1...63 at every call site.
    (x &>> n) | (x &<< (64 - n))
}

/// One round of FIPS 180-4 §6.4.2 step 3, with the working variables renamed
/// by the caller instead of moved, and the same rewritings as the SHA-256
/// round: nested rotations for Σ0 and Σ1 (§4.1.3, (4.10) and (4.11)), the
/// short form of Ch, and Maj sharing a ⊕ b with the next round through `bc`.
/// Additions are modulo 2^64 by definition.
@inline(__always)
private func round(
    _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
    _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64,
    _ constantPlusWord: UInt64, _ bc: inout UInt64
) {
    // ROTR¹⁴(ROTR⁴(ROTR²³(e) ⊕ e) ⊕ e) = ROTR¹⁴ ⊕ ROTR¹⁸ ⊕ ROTR⁴¹.
    let sigma1 = rotateRight(rotateRight(rotateRight(e, 23) ^ e, 4) ^ e, 14)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ constantPlusWord &+ choose &+ sigma1
    // ROTR²⁸(ROTR⁶(ROTR⁵(a) ⊕ a) ⊕ a) = ROTR²⁸ ⊕ ROTR³⁴ ⊕ ROTR³⁹.
    let sigma0 = rotateRight(rotateRight(rotateRight(a, 5) ^ a, 6) ^ a, 28)
    let ab = a ^ b
    let majority = b ^ (ab & bc)
    bc = ab
    d = d &+ t1
    h = t1 &+ (sigma0 &+ majority)
}

/// One step of the message schedule (FIPS 180-4 §6.4.2 step 1) over a rolling
/// 16-word window; `w` holds W[t-16] on entry. σ0 = ROTR¹(ROTR⁷(x) ⊕ x) ⊕ SHR⁷
/// and σ1 = ROTR¹⁹(ROTR⁴²(x) ⊕ x) ⊕ SHR⁶ (§4.1.3, (4.12) and (4.13)).
@inline(__always)
private func schedule(_ w: inout UInt64, _ wMinus2: UInt64, _ wMinus7: UInt64, _ wMinus15: UInt64) {
    let s0 = rotateRight(rotateRight(wMinus15, 7) ^ wMinus15, 1) ^ (wMinus15 &>> 7)
    let s1 = rotateRight(rotateRight(wMinus2, 42) ^ wMinus2, 19) ^ (wMinus2 &>> 6)
    w = w &+ s1 &+ wMinus7 &+ s0  // modulo 2^64 by definition
}

/// The SHA-512 compression function in portable Swift, over `blockCount`
/// consecutive 128-byte blocks: 80 unrolled rounds with literal constants
/// (K, §4.2.3) and a 16-word rolling schedule in locals. The caller
/// guarantees `blocks` points to `128 * blockCount` readable bytes.
func sha512CompressPortable(_ state: inout SHA512Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var chaining = state
    var block = blocks
    for _ in 0..<blockCount {
        var (w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15) = bigEndianWords64(block)
        var (a, b, c, d, e, f, g, h) = chaining
        var bc = b ^ c  // Maj's b ^ c for round 0; each round hands on its a ^ b.

        // Rounds 0..<16 use the block's words directly.
        round(a, b, c, &d, e, f, g, &h, 0x428a2f98d728ae22 &+ w0, &bc)
        round(h, a, b, &c, d, e, f, &g, 0x7137449123ef65cd &+ w1, &bc)
        round(g, h, a, &b, c, d, e, &f, 0xb5c0fbcfec4d3b2f &+ w2, &bc)
        round(f, g, h, &a, b, c, d, &e, 0xe9b5dba58189dbbc &+ w3, &bc)
        round(e, f, g, &h, a, b, c, &d, 0x3956c25bf348b538 &+ w4, &bc)
        round(d, e, f, &g, h, a, b, &c, 0x59f111f1b605d019 &+ w5, &bc)
        round(c, d, e, &f, g, h, a, &b, 0x923f82a4af194f9b &+ w6, &bc)
        round(b, c, d, &e, f, g, h, &a, 0xab1c5ed5da6d8118 &+ w7, &bc)
        round(a, b, c, &d, e, f, g, &h, 0xd807aa98a3030242 &+ w8, &bc)
        round(h, a, b, &c, d, e, f, &g, 0x12835b0145706fbe &+ w9, &bc)
        round(g, h, a, &b, c, d, e, &f, 0x243185be4ee4b28c &+ w10, &bc)
        round(f, g, h, &a, b, c, d, &e, 0x550c7dc3d5ffb4e2 &+ w11, &bc)
        round(e, f, g, &h, a, b, c, &d, 0x72be5d74f27b896f &+ w12, &bc)
        round(d, e, f, &g, h, a, b, &c, 0x80deb1fe3b1696b1 &+ w13, &bc)
        round(c, d, e, &f, g, h, a, &b, 0x9bdc06a725c71235 &+ w14, &bc)
        round(b, c, d, &e, f, g, h, &a, 0xc19bf174cf692694 &+ w15, &bc)

        // Rounds 16..<32, each preceded by its schedule word (§6.4.2 step 1).
        schedule(&w0, w14, w9, w1)
        round(a, b, c, &d, e, f, g, &h, 0xe49b69c19ef14ad2 &+ w0, &bc)
        schedule(&w1, w15, w10, w2)
        round(h, a, b, &c, d, e, f, &g, 0xefbe4786384f25e3 &+ w1, &bc)
        schedule(&w2, w0, w11, w3)
        round(g, h, a, &b, c, d, e, &f, 0x0fc19dc68b8cd5b5 &+ w2, &bc)
        schedule(&w3, w1, w12, w4)
        round(f, g, h, &a, b, c, d, &e, 0x240ca1cc77ac9c65 &+ w3, &bc)
        schedule(&w4, w2, w13, w5)
        round(e, f, g, &h, a, b, c, &d, 0x2de92c6f592b0275 &+ w4, &bc)
        schedule(&w5, w3, w14, w6)
        round(d, e, f, &g, h, a, b, &c, 0x4a7484aa6ea6e483 &+ w5, &bc)
        schedule(&w6, w4, w15, w7)
        round(c, d, e, &f, g, h, a, &b, 0x5cb0a9dcbd41fbd4 &+ w6, &bc)
        schedule(&w7, w5, w0, w8)
        round(b, c, d, &e, f, g, h, &a, 0x76f988da831153b5 &+ w7, &bc)
        schedule(&w8, w6, w1, w9)
        round(a, b, c, &d, e, f, g, &h, 0x983e5152ee66dfab &+ w8, &bc)
        schedule(&w9, w7, w2, w10)
        round(h, a, b, &c, d, e, f, &g, 0xa831c66d2db43210 &+ w9, &bc)
        schedule(&w10, w8, w3, w11)
        round(g, h, a, &b, c, d, e, &f, 0xb00327c898fb213f &+ w10, &bc)
        schedule(&w11, w9, w4, w12)
        round(f, g, h, &a, b, c, d, &e, 0xbf597fc7beef0ee4 &+ w11, &bc)
        schedule(&w12, w10, w5, w13)
        round(e, f, g, &h, a, b, c, &d, 0xc6e00bf33da88fc2 &+ w12, &bc)
        schedule(&w13, w11, w6, w14)
        round(d, e, f, &g, h, a, b, &c, 0xd5a79147930aa725 &+ w13, &bc)
        schedule(&w14, w12, w7, w15)
        round(c, d, e, &f, g, h, a, &b, 0x06ca6351e003826f &+ w14, &bc)
        schedule(&w15, w13, w8, w0)
        round(b, c, d, &e, f, g, h, &a, 0x142929670a0e6e70 &+ w15, &bc)

        // Rounds 32..<48, each preceded by its schedule word (§6.4.2 step 1).
        schedule(&w0, w14, w9, w1)
        round(a, b, c, &d, e, f, g, &h, 0x27b70a8546d22ffc &+ w0, &bc)
        schedule(&w1, w15, w10, w2)
        round(h, a, b, &c, d, e, f, &g, 0x2e1b21385c26c926 &+ w1, &bc)
        schedule(&w2, w0, w11, w3)
        round(g, h, a, &b, c, d, e, &f, 0x4d2c6dfc5ac42aed &+ w2, &bc)
        schedule(&w3, w1, w12, w4)
        round(f, g, h, &a, b, c, d, &e, 0x53380d139d95b3df &+ w3, &bc)
        schedule(&w4, w2, w13, w5)
        round(e, f, g, &h, a, b, c, &d, 0x650a73548baf63de &+ w4, &bc)
        schedule(&w5, w3, w14, w6)
        round(d, e, f, &g, h, a, b, &c, 0x766a0abb3c77b2a8 &+ w5, &bc)
        schedule(&w6, w4, w15, w7)
        round(c, d, e, &f, g, h, a, &b, 0x81c2c92e47edaee6 &+ w6, &bc)
        schedule(&w7, w5, w0, w8)
        round(b, c, d, &e, f, g, h, &a, 0x92722c851482353b &+ w7, &bc)
        schedule(&w8, w6, w1, w9)
        round(a, b, c, &d, e, f, g, &h, 0xa2bfe8a14cf10364 &+ w8, &bc)
        schedule(&w9, w7, w2, w10)
        round(h, a, b, &c, d, e, f, &g, 0xa81a664bbc423001 &+ w9, &bc)
        schedule(&w10, w8, w3, w11)
        round(g, h, a, &b, c, d, e, &f, 0xc24b8b70d0f89791 &+ w10, &bc)
        schedule(&w11, w9, w4, w12)
        round(f, g, h, &a, b, c, d, &e, 0xc76c51a30654be30 &+ w11, &bc)
        schedule(&w12, w10, w5, w13)
        round(e, f, g, &h, a, b, c, &d, 0xd192e819d6ef5218 &+ w12, &bc)
        schedule(&w13, w11, w6, w14)
        round(d, e, f, &g, h, a, b, &c, 0xd69906245565a910 &+ w13, &bc)
        schedule(&w14, w12, w7, w15)
        round(c, d, e, &f, g, h, a, &b, 0xf40e35855771202a &+ w14, &bc)
        schedule(&w15, w13, w8, w0)
        round(b, c, d, &e, f, g, h, &a, 0x106aa07032bbd1b8 &+ w15, &bc)

        // Rounds 48..<64, each preceded by its schedule word (§6.4.2 step 1).
        schedule(&w0, w14, w9, w1)
        round(a, b, c, &d, e, f, g, &h, 0x19a4c116b8d2d0c8 &+ w0, &bc)
        schedule(&w1, w15, w10, w2)
        round(h, a, b, &c, d, e, f, &g, 0x1e376c085141ab53 &+ w1, &bc)
        schedule(&w2, w0, w11, w3)
        round(g, h, a, &b, c, d, e, &f, 0x2748774cdf8eeb99 &+ w2, &bc)
        schedule(&w3, w1, w12, w4)
        round(f, g, h, &a, b, c, d, &e, 0x34b0bcb5e19b48a8 &+ w3, &bc)
        schedule(&w4, w2, w13, w5)
        round(e, f, g, &h, a, b, c, &d, 0x391c0cb3c5c95a63 &+ w4, &bc)
        schedule(&w5, w3, w14, w6)
        round(d, e, f, &g, h, a, b, &c, 0x4ed8aa4ae3418acb &+ w5, &bc)
        schedule(&w6, w4, w15, w7)
        round(c, d, e, &f, g, h, a, &b, 0x5b9cca4f7763e373 &+ w6, &bc)
        schedule(&w7, w5, w0, w8)
        round(b, c, d, &e, f, g, h, &a, 0x682e6ff3d6b2b8a3 &+ w7, &bc)
        schedule(&w8, w6, w1, w9)
        round(a, b, c, &d, e, f, g, &h, 0x748f82ee5defb2fc &+ w8, &bc)
        schedule(&w9, w7, w2, w10)
        round(h, a, b, &c, d, e, f, &g, 0x78a5636f43172f60 &+ w9, &bc)
        schedule(&w10, w8, w3, w11)
        round(g, h, a, &b, c, d, e, &f, 0x84c87814a1f0ab72 &+ w10, &bc)
        schedule(&w11, w9, w4, w12)
        round(f, g, h, &a, b, c, d, &e, 0x8cc702081a6439ec &+ w11, &bc)
        schedule(&w12, w10, w5, w13)
        round(e, f, g, &h, a, b, c, &d, 0x90befffa23631e28 &+ w12, &bc)
        schedule(&w13, w11, w6, w14)
        round(d, e, f, &g, h, a, b, &c, 0xa4506cebde82bde9 &+ w13, &bc)
        schedule(&w14, w12, w7, w15)
        round(c, d, e, &f, g, h, a, &b, 0xbef9a3f7b2c67915 &+ w14, &bc)
        schedule(&w15, w13, w8, w0)
        round(b, c, d, &e, f, g, h, &a, 0xc67178f2e372532b &+ w15, &bc)

        // Rounds 64..<80, each preceded by its schedule word (§6.4.2 step 1).
        schedule(&w0, w14, w9, w1)
        round(a, b, c, &d, e, f, g, &h, 0xca273eceea26619c &+ w0, &bc)
        schedule(&w1, w15, w10, w2)
        round(h, a, b, &c, d, e, f, &g, 0xd186b8c721c0c207 &+ w1, &bc)
        schedule(&w2, w0, w11, w3)
        round(g, h, a, &b, c, d, e, &f, 0xeada7dd6cde0eb1e &+ w2, &bc)
        schedule(&w3, w1, w12, w4)
        round(f, g, h, &a, b, c, d, &e, 0xf57d4f7fee6ed178 &+ w3, &bc)
        schedule(&w4, w2, w13, w5)
        round(e, f, g, &h, a, b, c, &d, 0x06f067aa72176fba &+ w4, &bc)
        schedule(&w5, w3, w14, w6)
        round(d, e, f, &g, h, a, b, &c, 0x0a637dc5a2c898a6 &+ w5, &bc)
        schedule(&w6, w4, w15, w7)
        round(c, d, e, &f, g, h, a, &b, 0x113f9804bef90dae &+ w6, &bc)
        schedule(&w7, w5, w0, w8)
        round(b, c, d, &e, f, g, h, &a, 0x1b710b35131c471b &+ w7, &bc)
        schedule(&w8, w6, w1, w9)
        round(a, b, c, &d, e, f, g, &h, 0x28db77f523047d84 &+ w8, &bc)
        schedule(&w9, w7, w2, w10)
        round(h, a, b, &c, d, e, f, &g, 0x32caab7b40c72493 &+ w9, &bc)
        schedule(&w10, w8, w3, w11)
        round(g, h, a, &b, c, d, e, &f, 0x3c9ebe0a15c9bebc &+ w10, &bc)
        schedule(&w11, w9, w4, w12)
        round(f, g, h, &a, b, c, d, &e, 0x431d67c49c100d4c &+ w11, &bc)
        schedule(&w12, w10, w5, w13)
        round(e, f, g, &h, a, b, c, &d, 0x4cc5d4becb3e42b6 &+ w12, &bc)
        schedule(&w13, w11, w6, w14)
        round(d, e, f, &g, h, a, b, &c, 0x597f299cfc657e2a &+ w13, &bc)
        schedule(&w14, w12, w7, w15)
        round(c, d, e, &f, g, h, a, &b, 0x5fcb6fab3ad6faec &+ w14, &bc)
        schedule(&w15, w13, w8, w0)
        round(b, c, d, &e, f, g, h, &a, 0x6c44198c4a475817 &+ w15, &bc)

        // §6.4.2 step 4: add the compressed chunk to the chaining value, mod 2^64.
        chaining = (
            chaining.0 &+ a, chaining.1 &+ b, chaining.2 &+ c, chaining.3 &+ d,
            chaining.4 &+ e, chaining.5 &+ f, chaining.6 &+ g, chaining.7 &+ h
        )
        block += 128
    }
    state = chaining
}

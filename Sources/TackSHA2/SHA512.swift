// SHA-512, SHA-384 and SHA-512/256 (FIPS 180-4 §6.4, §6.5 and §6.7): the
// streaming hashers and the portable compression function. There is no
// hardware path: x86-64 SHA512 instructions are too new to matter here.

/// The SHA-512 hash function (FIPS 180-4 §6.4): 128-byte blocks, a
/// 64-byte digest.
public struct SHA512: SHA2HashFunction {
    /// A SHA-512 digest.
    public typealias Digest = SHA512Digest

    /// 64 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 64 }

    /// 128 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 128 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.5: the first 64 bits of the fractional parts of the square roots of the first eight primes).
    static let initialState: SHA512Core.State = (
        0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
        0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179
    )

    @usableFromInline
    var core: SHA512Core

    /// Creates a hasher in the initial state.
    public init() {
        core = SHA512Core(state: Self.initialState)
    }

    /// Creates a hasher that continues a message of which `byteCount` bytes
    /// were already compressed into `state`. For tests of the length field.
    init(state: SHA512Core.State, byteCount: UInt64) {
        core = SHA512Core(state: state)
        core.messageByteCount = byteCount
    }

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        core.update(bytes)
    }

    /// Returns the SHA-512 digest of every byte absorbed so far, leaving the
    /// hasher unchanged.
    ///
    /// - Returns: The 64-byte digest.
    public func finalize() -> SHA512Digest {
        let state = core.finalState()
        return SHA512Digest { core.writeBigEndian(state, wordCount: 8, to: $0) }
    }
}

/// The SHA-384 hash function (FIPS 180-4 §6.5): 128-byte blocks, a
/// 48-byte digest.
///
/// SHA-512 with a different initial value, truncated to six words.
public struct SHA384: SHA2HashFunction {
    /// A SHA-384 digest.
    public typealias Digest = SHA384Digest

    /// 48 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 48 }

    /// 128 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 128 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.4: the first 64 bits of the fractional parts of the square roots of the 9th through 16th primes).
    static let initialState: SHA512Core.State = (
        0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
        0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4
    )

    @usableFromInline
    var core: SHA512Core

    /// Creates a hasher in the initial state.
    public init() {
        core = SHA512Core(state: Self.initialState)
    }

    /// Creates a hasher that continues a message of which `byteCount` bytes
    /// were already compressed into `state`. For tests of the length field.
    init(state: SHA512Core.State, byteCount: UInt64) {
        core = SHA512Core(state: state)
        core.messageByteCount = byteCount
    }

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        core.update(bytes)
    }

    /// Returns the SHA-384 digest of every byte absorbed so far, leaving the
    /// hasher unchanged.
    ///
    /// - Returns: The 48-byte digest: the first 6 words of the final state.
    public func finalize() -> SHA384Digest {
        let state = core.finalState()
        return SHA384Digest { core.writeBigEndian(state, wordCount: 6, to: $0) }
    }
}

/// The SHA-512/256 hash function (FIPS 180-4 §6.7): 128-byte blocks, a
/// 32-byte digest.
///
/// SHA-512 with a different initial value, truncated to four words; as
/// fast as SHA-512 per byte, which on 64-bit CPUs without SHA instructions
/// beats SHA-256.
public struct SHA512_256: SHA2HashFunction {
    /// A SHA-512/256 digest.
    public typealias Digest = SHA512_256Digest

    /// 32 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 32 }

    /// 128 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 128 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.6.2, produced by the SHA-512/t IV generation function of §5.3.6).
    static let initialState: SHA512Core.State = (
        0x2231_2194_fc2b_f72c, 0x9f55_5fa3_c84c_64c2, 0x2393_b86b_6f53_b151, 0x9638_7719_5940_eabd,
        0x9628_3ee2_a88e_ffe3, 0xbe5e_1e25_5386_3992, 0x2b01_99fc_2c85_b8aa, 0x0eb7_2ddc_81c5_2ca2
    )

    @usableFromInline
    var core: SHA512Core

    /// Creates a hasher in the initial state.
    public init() {
        core = SHA512Core(state: Self.initialState)
    }

    /// Creates a hasher that continues a message of which `byteCount` bytes
    /// were already compressed into `state`. For tests of the length field.
    init(state: SHA512Core.State, byteCount: UInt64) {
        core = SHA512Core(state: state)
        core.messageByteCount = byteCount
    }

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        core.update(bytes)
    }

    /// Returns the SHA-512/256 digest of every byte absorbed so far, leaving the
    /// hasher unchanged.
    ///
    /// - Returns: The 32-byte digest: the first 4 words of the final state.
    public func finalize() -> SHA512_256Digest {
        let state = core.finalState()
        return SHA512_256Digest { core.writeBigEndian(state, wordCount: 4, to: $0) }
    }
}

/// The machinery shared by the SHA-512 family: state, a one-block buffer,
/// the message length and padding.
@usableFromInline
struct SHA512Core: Sendable {
    /// The eight working words H0...H7.
    typealias State = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// 128 bytes of inline storage.
    typealias Block = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )

    /// The chaining value.
    var state: State
    /// Up to 127 bytes of a partial block.
    var buffer: Block = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// How many bytes of `buffer` hold message bytes; always in 0..<128.
    var bufferedByteCount: Int = 0
    /// The message length so far, in bytes, modulo 2^64. (FIPS 180-4 allows
    /// up to 2^128 - 1 bits; 2^64 bytes is beyond any input this code sees.)
    var messageByteCount: UInt64 = 0

    init(state: State) {
        self.state = state
    }

    mutating func update(_ input: UnsafeRawBufferPointer) {
        guard var source = input.baseAddress, input.count > 0 else { return }
        var remaining = input.count
        // The count is kept modulo 2^64 bytes (see `messageByteCount`);
        // wrapping would need 16 EiB of input.
        messageByteCount &+= UInt64(truncatingIfNeeded: remaining)

        if bufferedByteCount > 0 {
            // Top up the partial block first. bufferedByteCount is in 1..<128.
            let take = min(128 - bufferedByteCount, remaining)
            Swift.withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[bufferedByteCount..<(bufferedByteCount + take)])
                    .copyMemory(from: UnsafeRawBufferPointer(start: source, count: take))
            }
            bufferedByteCount += take
            source += take
            remaining -= take
            guard bufferedByteCount == 128 else { return }
            Swift.withUnsafeBytes(of: buffer) { block in
                if let base = block.baseAddress { sha512CompressPortable(&state, base, 1) }
            }
            bufferedByteCount = 0
        }

        // Whole blocks straight from the caller's memory, without copying.
        let blockCount = remaining / 128
        if blockCount > 0 {
            sha512CompressPortable(&state, source, blockCount)
            source += blockCount * 128
            remaining -= blockCount * 128
        }

        // Keep the tail (0..<128 bytes) for later.
        if remaining > 0 {
            Swift.withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[0..<remaining])
                    .copyMemory(from: UnsafeRawBufferPointer(start: source, count: remaining))
            }
            bufferedByteCount = remaining
        }
    }

    /// Pads a copy of the message (FIPS 180-4 §5.1.2: a 1 bit, zeros, and the
    /// 128-bit big-endian bit length), compresses it, and returns the final
    /// state.
    func finalState() -> State {
        var state = self.state
        var block = buffer
        let used = bufferedByteCount
        // The 128-bit bit length: the byte count times 8, split into the bits
        // that shift out of the low word and the low word itself (which
        // wraps by design: the high word carries what it loses).
        let bitLengthHigh = messageByteCount >> 61
        let bitLengthLow = messageByteCount &<< 3
        Swift.withUnsafeMutableBytes(of: &block) { bytes in
            guard let base = bytes.baseAddress else { return }
            bytes[used] = 0x80
            if used >= 112 {
                // No room for the length: finish this block, then a block of
                // zeros and the length.
                for index in (used + 1)..<128 { bytes[index] = 0 }
                sha512CompressPortable(&state, base, 1)
                for index in 0..<112 { bytes[index] = 0 }
            } else {
                for index in (used + 1)..<112 { bytes[index] = 0 }
            }
            bytes.storeBytes(of: bitLengthHigh.bigEndian, toByteOffset: 112, as: UInt64.self)
            bytes.storeBytes(of: bitLengthLow.bigEndian, toByteOffset: 120, as: UInt64.self)
            sha512CompressPortable(&state, base, 1)
        }
        return state
    }

    /// Writes the first `wordCount` words of `state` big-endian (FIPS 180-4
    /// §6.4.2: the digest is H0 ‖ H1 ‖ ...; truncated for §6.5 and §6.7).
    func writeBigEndian(_ state: State, wordCount: Int, to output: UnsafeMutableRawBufferPointer) {
        Swift.withUnsafeBytes(of: state) { words in
            for index in 0..<wordCount {
                let word = words.load(fromByteOffset: index * 8, as: UInt64.self)
                output.storeBytes(of: word.bigEndian, toByteOffset: index * 8, as: UInt64.self)
            }
        }
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
/// by the caller instead of moved (see the SHA-256 version).
@inline(__always)
private func round(
    _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
    _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64,
    _ constantPlusWord: UInt64
) {
    // Σ1, Ch, Σ0 and Maj of §4.1.3; additions modulo 2^64 by definition.
    let sigma1 = rotateRight(e, 14) ^ rotateRight(e, 18) ^ rotateRight(e, 41)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ sigma1 &+ choose &+ constantPlusWord
    let sigma0 = rotateRight(a, 28) ^ rotateRight(a, 34) ^ rotateRight(a, 39)
    let majority = b ^ ((a ^ b) & (b ^ c))
    d = d &+ t1
    h = t1 &+ sigma0 &+ majority
}

/// One step of the message schedule (FIPS 180-4 §6.4.2 step 1) over a rolling
/// 16-word window; `w` holds W[t-16] on entry.
@inline(__always)
private func schedule(_ w: inout UInt64, _ wMinus2: UInt64, _ wMinus7: UInt64, _ wMinus15: UInt64) {
    let s0 = rotateRight(wMinus15, 1) ^ rotateRight(wMinus15, 8) ^ (wMinus15 &>> 7)
    let s1 = rotateRight(wMinus2, 19) ^ rotateRight(wMinus2, 61) ^ (wMinus2 &>> 6)
    w = w &+ s1 &+ wMinus7 &+ s0  // modulo 2^64 by definition
}

/// Reads the big-endian word at `offset`.
@inline(__always)
private func loadBigEndian(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
}

/// The SHA-512 compression function in portable Swift, over `blockCount`
/// consecutive 128-byte blocks: 80 unrolled rounds with literal constants
/// (K, §4.2.3) and a 16-word rolling schedule in locals. The caller
/// guarantees `blocks` points to `128 * blockCount` readable bytes.
func sha512CompressPortable(_ state: inout SHA512Core.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var (h0, h1, h2, h3, h4, h5, h6, h7) = state
    var block = blocks
    for _ in 0..<blockCount {
        var w0 = loadBigEndian(block, 0)
        var w1 = loadBigEndian(block, 8)
        var w2 = loadBigEndian(block, 16)
        var w3 = loadBigEndian(block, 24)
        var w4 = loadBigEndian(block, 32)
        var w5 = loadBigEndian(block, 40)
        var w6 = loadBigEndian(block, 48)
        var w7 = loadBigEndian(block, 56)
        var w8 = loadBigEndian(block, 64)
        var w9 = loadBigEndian(block, 72)
        var w10 = loadBigEndian(block, 80)
        var w11 = loadBigEndian(block, 88)
        var w12 = loadBigEndian(block, 96)
        var w13 = loadBigEndian(block, 104)
        var w14 = loadBigEndian(block, 112)
        var w15 = loadBigEndian(block, 120)
        var a = h0
        var b = h1
        var c = h2
        var d = h3
        var e = h4
        var f = h5
        var g = h6
        var h = h7

        // Rounds 0..<16.
        round(a, b, c, &d, e, f, g, &h, 0x428a_2f98_d728_ae22 &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0x7137_4491_23ef_65cd &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0xb5c0_fbcf_ec4d_3b2f &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0xe9b5_dba5_8189_dbbc &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x3956_c25b_f348_b538 &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x59f1_11f1_b605_d019 &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x923f_82a4_af19_4f9b &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0xab1c_5ed5_da6d_8118 &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0xd807_aa98_a303_0242 &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0x1283_5b01_4570_6fbe &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0x2431_85be_4ee4_b28c &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0x550c_7dc3_d5ff_b4e2 &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0x72be_5d74_f27b_896f &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0x80de_b1fe_3b16_96b1 &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0x9bdc_06a7_25c7_1235 &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0xc19b_f174_cf69_2694 &+ w15)

        // Message schedule for rounds 16..<32 (FIPS 180-4 §6.4.2 step 1), in place over the 16-word window.
        schedule(&w0, w14, w9, w1)
        schedule(&w1, w15, w10, w2)
        schedule(&w2, w0, w11, w3)
        schedule(&w3, w1, w12, w4)
        schedule(&w4, w2, w13, w5)
        schedule(&w5, w3, w14, w6)
        schedule(&w6, w4, w15, w7)
        schedule(&w7, w5, w0, w8)
        schedule(&w8, w6, w1, w9)
        schedule(&w9, w7, w2, w10)
        schedule(&w10, w8, w3, w11)
        schedule(&w11, w9, w4, w12)
        schedule(&w12, w10, w5, w13)
        schedule(&w13, w11, w6, w14)
        schedule(&w14, w12, w7, w15)
        schedule(&w15, w13, w8, w0)

        // Rounds 16..<32.
        round(a, b, c, &d, e, f, g, &h, 0xe49b_69c1_9ef1_4ad2 &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0xefbe_4786_384f_25e3 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0x0fc1_9dc6_8b8c_d5b5 &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0x240c_a1cc_77ac_9c65 &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x2de9_2c6f_592b_0275 &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x4a74_84aa_6ea6_e483 &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x5cb0_a9dc_bd41_fbd4 &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0x76f9_88da_8311_53b5 &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0x983e_5152_ee66_dfab &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0xa831_c66d_2db4_3210 &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0xb003_27c8_98fb_213f &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0xbf59_7fc7_beef_0ee4 &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0xc6e0_0bf3_3da8_8fc2 &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0xd5a7_9147_930a_a725 &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0x06ca_6351_e003_826f &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0x1429_2967_0a0e_6e70 &+ w15)

        // Message schedule for rounds 32..<48 (FIPS 180-4 §6.4.2 step 1), in place over the 16-word window.
        schedule(&w0, w14, w9, w1)
        schedule(&w1, w15, w10, w2)
        schedule(&w2, w0, w11, w3)
        schedule(&w3, w1, w12, w4)
        schedule(&w4, w2, w13, w5)
        schedule(&w5, w3, w14, w6)
        schedule(&w6, w4, w15, w7)
        schedule(&w7, w5, w0, w8)
        schedule(&w8, w6, w1, w9)
        schedule(&w9, w7, w2, w10)
        schedule(&w10, w8, w3, w11)
        schedule(&w11, w9, w4, w12)
        schedule(&w12, w10, w5, w13)
        schedule(&w13, w11, w6, w14)
        schedule(&w14, w12, w7, w15)
        schedule(&w15, w13, w8, w0)

        // Rounds 32..<48.
        round(a, b, c, &d, e, f, g, &h, 0x27b7_0a85_46d2_2ffc &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0x2e1b_2138_5c26_c926 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0x4d2c_6dfc_5ac4_2aed &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0x5338_0d13_9d95_b3df &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x650a_7354_8baf_63de &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x766a_0abb_3c77_b2a8 &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x81c2_c92e_47ed_aee6 &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0x9272_2c85_1482_353b &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0xa2bf_e8a1_4cf1_0364 &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0xa81a_664b_bc42_3001 &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0xc24b_8b70_d0f8_9791 &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0xc76c_51a3_0654_be30 &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0xd192_e819_d6ef_5218 &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0xd699_0624_5565_a910 &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0xf40e_3585_5771_202a &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0x106a_a070_32bb_d1b8 &+ w15)

        // Message schedule for rounds 48..<64 (FIPS 180-4 §6.4.2 step 1), in place over the 16-word window.
        schedule(&w0, w14, w9, w1)
        schedule(&w1, w15, w10, w2)
        schedule(&w2, w0, w11, w3)
        schedule(&w3, w1, w12, w4)
        schedule(&w4, w2, w13, w5)
        schedule(&w5, w3, w14, w6)
        schedule(&w6, w4, w15, w7)
        schedule(&w7, w5, w0, w8)
        schedule(&w8, w6, w1, w9)
        schedule(&w9, w7, w2, w10)
        schedule(&w10, w8, w3, w11)
        schedule(&w11, w9, w4, w12)
        schedule(&w12, w10, w5, w13)
        schedule(&w13, w11, w6, w14)
        schedule(&w14, w12, w7, w15)
        schedule(&w15, w13, w8, w0)

        // Rounds 48..<64.
        round(a, b, c, &d, e, f, g, &h, 0x19a4_c116_b8d2_d0c8 &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0x1e37_6c08_5141_ab53 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0x2748_774c_df8e_eb99 &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0x34b0_bcb5_e19b_48a8 &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x391c_0cb3_c5c9_5a63 &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x4ed8_aa4a_e341_8acb &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x5b9c_ca4f_7763_e373 &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0x682e_6ff3_d6b2_b8a3 &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0x748f_82ee_5def_b2fc &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0x78a5_636f_4317_2f60 &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0x84c8_7814_a1f0_ab72 &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0x8cc7_0208_1a64_39ec &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0x90be_fffa_2363_1e28 &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0xa450_6ceb_de82_bde9 &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0xbef9_a3f7_b2c6_7915 &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0xc671_78f2_e372_532b &+ w15)

        // Message schedule for rounds 64..<80 (FIPS 180-4 §6.4.2 step 1), in place over the 16-word window.
        schedule(&w0, w14, w9, w1)
        schedule(&w1, w15, w10, w2)
        schedule(&w2, w0, w11, w3)
        schedule(&w3, w1, w12, w4)
        schedule(&w4, w2, w13, w5)
        schedule(&w5, w3, w14, w6)
        schedule(&w6, w4, w15, w7)
        schedule(&w7, w5, w0, w8)
        schedule(&w8, w6, w1, w9)
        schedule(&w9, w7, w2, w10)
        schedule(&w10, w8, w3, w11)
        schedule(&w11, w9, w4, w12)
        schedule(&w12, w10, w5, w13)
        schedule(&w13, w11, w6, w14)
        schedule(&w14, w12, w7, w15)
        schedule(&w15, w13, w8, w0)

        // Rounds 64..<80.
        round(a, b, c, &d, e, f, g, &h, 0xca27_3ece_ea26_619c &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0xd186_b8c7_21c0_c207 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0xeada_7dd6_cde0_eb1e &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0xf57d_4f7f_ee6e_d178 &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x06f0_67aa_7217_6fba &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x0a63_7dc5_a2c8_98a6 &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x113f_9804_bef9_0dae &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0x1b71_0b35_131c_471b &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0x28db_77f5_2304_7d84 &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0x32ca_ab7b_40c7_2493 &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0x3c9e_be0a_15c9_bebc &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0x431d_67c4_9c10_0d4c &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0x4cc5_d4be_cb3e_42b6 &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0x597f_299c_fc65_7e2a &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0x5fcb_6fab_3ad6_faec &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0x6c44_198c_4a47_5817 &+ w15)

        // §6.4.2 step 4: add the compressed chunk to the chaining value, mod 2^64.
        h0 &+= a
        h1 &+= b
        h2 &+= c
        h3 &+= d
        h4 &+= e
        h5 &+= f
        h6 &+= g
        h7 &+= h
        block += 128
    }
    state = (h0, h1, h2, h3, h4, h5, h6, h7)
}

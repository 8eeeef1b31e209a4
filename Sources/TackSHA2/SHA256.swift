// SHA-256 and SHA-224 (FIPS 180-4 §6.2 and §6.3): the streaming hashers and
// the portable compression function.

/// The SHA-256 hash function (FIPS 180-4 §6.2): 64-byte blocks, a 32-byte
/// digest.
///
/// ```swift
/// let digest = SHA256.hash(certificateDER)        // one shot
/// var hasher = SHA256()                            // or streaming
/// hasher.update(header)
/// hasher.update(body)
/// let same = hasher.finalize()
/// ```
///
/// On x86-64 CPUs with the SHA extensions the hasher uses them (see
/// ``SHA2Implementation``); elsewhere it runs the portable Swift code. Both
/// give the same digest.
public struct SHA256: SHA2HashFunction {
    /// A SHA-256 digest.
    public typealias Digest = SHA256Digest

    /// 32 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 32 }

    /// 64 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 64 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.3): the first 32 bits of
    /// the fractional parts of the square roots of the first eight primes.
    static let initialState: SHA256Core.State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )

    @usableFromInline
    var core: SHA256Core

    /// Creates a hasher that uses the fastest implementation the CPU supports.
    public init() {
        core = SHA256Core(state: Self.initialState, implementation: .bestAvailable)
    }

    /// Creates a hasher that uses the given implementation.
    ///
    /// - Parameter implementation: The compression function to run. If it is
    ///   not available on this CPU (``SHA2Implementation/isAvailable`` is
    ///   false), the hasher uses ``SHA2Implementation/portable`` instead;
    ///   ``implementation`` tells which one it got.
    public init(implementation: SHA2Implementation) {
        core = SHA256Core(state: Self.initialState, implementation: implementation)
    }

    /// Creates a hasher that continues a message of which `byteCount` bytes
    /// were already compressed into `state`. For tests of the length field.
    init(state: SHA256Core.State, byteCount: UInt64, implementation: SHA2Implementation) {
        core = SHA256Core(state: state, implementation: implementation)
        core.messageByteCount = byteCount
    }

    /// The implementation this hasher runs.
    public var implementation: SHA2Implementation { core.implementation }

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        core.update(bytes)
    }

    /// Returns the SHA-256 digest of every byte absorbed so far, leaving the
    /// hasher unchanged.
    ///
    /// - Returns: The 32-byte digest.
    public func finalize() -> SHA256Digest {
        let state = core.finalState()
        return SHA256Digest { core.writeBigEndian(state, wordCount: 8, to: $0) }
    }
}

/// The SHA-224 hash function (FIPS 180-4 §6.3): SHA-256 with a different
/// initial value and the digest truncated to 28 bytes.
public struct SHA224: SHA2HashFunction {
    /// A SHA-224 digest.
    public typealias Digest = SHA224Digest

    /// 28 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 28 }

    /// 64 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 64 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.2): the second 32 bits of
    /// the fractional parts of the square roots of the 9th through 16th
    /// primes.
    static let initialState: SHA256Core.State = (
        0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939, 0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4
    )

    @usableFromInline
    var core: SHA256Core

    /// Creates a hasher that uses the fastest implementation the CPU supports.
    public init() {
        core = SHA256Core(state: Self.initialState, implementation: .bestAvailable)
    }

    /// Creates a hasher that uses the given implementation.
    ///
    /// - Parameter implementation: The compression function to run; as for
    ///   ``SHA256/init(implementation:)``, an unavailable one falls back to
    ///   ``SHA2Implementation/portable``.
    public init(implementation: SHA2Implementation) {
        core = SHA256Core(state: Self.initialState, implementation: implementation)
    }

    /// The implementation this hasher runs.
    public var implementation: SHA2Implementation { core.implementation }

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        core.update(bytes)
    }

    /// Returns the SHA-224 digest of every byte absorbed so far, leaving the
    /// hasher unchanged.
    ///
    /// - Returns: The 28-byte digest: the first seven words of the final state.
    public func finalize() -> SHA224Digest {
        let state = core.finalState()
        return SHA224Digest { core.writeBigEndian(state, wordCount: 7, to: $0) }
    }
}

/// The machinery shared by SHA-256 and SHA-224: state, a one-block buffer,
/// the message length, padding, and the choice of compression function.
@usableFromInline
struct SHA256Core: Sendable {
    /// The eight working words H0...H7.
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The chaining value.
    var state: State
    /// Up to 63 bytes of a partial block (64 bytes of storage, inline).
    var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// How many bytes of `buffer` hold message bytes; always in 0..<64.
    var bufferedByteCount: Int = 0
    /// The message length so far, in bytes, modulo 2^64.
    var messageByteCount: UInt64 = 0
    /// The compression function in use.
    let implementation: SHA2Implementation

    init(state: State, implementation: SHA2Implementation) {
        self.state = state
        self.implementation = implementation.isAvailable ? implementation : .portable
    }

    /// Compresses `blockCount` consecutive 64-byte blocks into `state`.
    @inline(__always)
    static func compress(
        _ state: inout State, _ blocks: UnsafeRawPointer, _ blockCount: Int, _ implementation: SHA2Implementation
    ) {
        #if TACK_HARDWARE_SHA
            if implementation == .hardware {
                sha256CompressHardware(&state, blocks, blockCount)
                return
            }
        #endif
        sha256CompressPortable(&state, blocks, blockCount)
    }

    mutating func update(_ input: UnsafeRawBufferPointer) {
        guard var source = input.baseAddress, input.count > 0 else { return }
        var remaining = input.count
        // FIPS 180-4 §1 limits SHA-256 messages to less than 2^64 bits; the
        // length is kept modulo 2^64 bytes and the length field (below) takes
        // the low 64 bits of the bit count, so wrapping is the defined result.
        messageByteCount &+= UInt64(truncatingIfNeeded: remaining)

        if bufferedByteCount > 0 {
            // Top up the partial block first. bufferedByteCount is in 1..<64.
            let take = min(64 - bufferedByteCount, remaining)
            Swift.withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[bufferedByteCount..<(bufferedByteCount + take)])
                    .copyMemory(from: UnsafeRawBufferPointer(start: source, count: take))
            }
            bufferedByteCount += take
            source += take
            remaining -= take
            guard bufferedByteCount == 64 else { return }
            let implementation = self.implementation
            Swift.withUnsafeBytes(of: buffer) { block in
                if let base = block.baseAddress { Self.compress(&state, base, 1, implementation) }
            }
            bufferedByteCount = 0
        }

        // Whole blocks straight from the caller's memory, without copying.
        let blockCount = remaining / 64
        if blockCount > 0 {
            Self.compress(&state, source, blockCount, implementation)
            source += blockCount * 64
            remaining -= blockCount * 64
        }

        // Keep the tail (0..<64 bytes) for later.
        if remaining > 0 {
            Swift.withUnsafeMutableBytes(of: &buffer) { block in
                UnsafeMutableRawBufferPointer(rebasing: block[0..<remaining])
                    .copyMemory(from: UnsafeRawBufferPointer(start: source, count: remaining))
            }
            bufferedByteCount = remaining
        }
    }

    /// Pads a copy of the message (FIPS 180-4 §5.1.1: a 1 bit, zeros, and the
    /// 64-bit big-endian bit length), compresses it, and returns the final
    /// state.
    func finalState() -> State {
        var state = self.state
        var block = buffer
        let used = bufferedByteCount
        // The bit length modulo 2^64 (§5.1.1: "ℓ ... expressed using a binary
        // representation" in 64 bits); the shift wraps by definition.
        let bitLength = messageByteCount &<< 3
        let implementation = self.implementation
        Swift.withUnsafeMutableBytes(of: &block) { bytes in
            guard let base = bytes.baseAddress else { return }
            bytes[used] = 0x80
            if used >= 56 {
                // No room for the length: finish this block, then a block of
                // zeros and the length.
                for index in (used + 1)..<64 { bytes[index] = 0 }
                Self.compress(&state, base, 1, implementation)
                for index in 0..<56 { bytes[index] = 0 }
            } else {
                for index in (used + 1)..<56 { bytes[index] = 0 }
            }
            bytes.storeBytes(of: bitLength.bigEndian, toByteOffset: 56, as: UInt64.self)
            Self.compress(&state, base, 1, implementation)
        }
        return state
    }

    /// Writes the first `wordCount` words of `state` big-endian (FIPS 180-4
    /// §6.2.2 and §6.3: the digest is H0 ‖ H1 ‖ ...).
    func writeBigEndian(_ state: State, wordCount: Int, to output: UnsafeMutableRawBufferPointer) {
        Swift.withUnsafeBytes(of: state) { words in
            for index in 0..<wordCount {
                let word = words.load(fromByteOffset: index * 4, as: UInt32.self)
                output.storeBytes(of: word.bigEndian, toByteOffset: index * 4, as: UInt32.self)
            }
        }
    }
}

// MARK: - The portable compression function

/// Rotates right (FIPS 180-4 §3.2, ROTR).
@inline(__always)
private func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 {
    // n is a constant in 1...31 at every call site, so both shifts are in
    // range; the masking shifts just spare the compiler an overshift check.
    (x &>> n) | (x &<< (32 - n))
}

/// One round of FIPS 180-4 §6.2.2 step 3. The caller rotates the names of
/// the eight working variables instead of moving their values: only `d`
/// (which becomes the new `e`) and `h` (the new `a`) are written.
@inline(__always)
private func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
    _ constantPlusWord: UInt32
) {
    // Σ1(e), Ch(e, f, g), Σ0(a), Maj(a, b, c) of §4.1.2. Ch is written as
    // g ^ (e & (f ^ g)) and Maj as b ^ ((a ^ b) & (b ^ c)), equal to the
    // standard forms, one operation shorter, and the latter shares a ^ b with
    // the next round. All additions are modulo 2^32 (§6.2.2): wrapping is the
    // defined arithmetic.
    let sigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ sigma1 &+ choose &+ constantPlusWord
    let sigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
    let majority = b ^ ((a ^ b) & (b ^ c))
    d = d &+ t1
    h = t1 &+ sigma0 &+ majority
}

/// One step of the message schedule (FIPS 180-4 §6.2.2 step 1) over a rolling
/// 16-word window: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], where
/// `w` holds W[t-16] on entry.
@inline(__always)
private func schedule(_ w: inout UInt32, _ wMinus2: UInt32, _ wMinus7: UInt32, _ wMinus15: UInt32) {
    let s0 = rotateRight(wMinus15, 7) ^ rotateRight(wMinus15, 18) ^ (wMinus15 &>> 3)
    let s1 = rotateRight(wMinus2, 17) ^ rotateRight(wMinus2, 19) ^ (wMinus2 &>> 10)
    w = w &+ s1 &+ wMinus7 &+ s0  // modulo 2^32 by definition
}

/// Reads the big-endian word at `offset` (§3.1: words are big-endian).
@inline(__always)
private func loadBigEndian(_ base: UnsafeRawPointer, _ offset: Int) -> UInt32 {
    UInt32(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
}

/// The SHA-256 compression function in portable Swift, over `blockCount`
/// consecutive 64-byte blocks. The 64 rounds are unrolled with literal round
/// constants (K, §4.2.2) and the schedule kept in 16 local words, so the loop
/// body has no memory traffic beyond loading the block, no allocation and no
/// bounds checks. The caller guarantees `blocks` points to
/// `64 * blockCount` readable bytes.
func sha256CompressPortable(_ state: inout SHA256Core.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var (h0, h1, h2, h3, h4, h5, h6, h7) = state
    var block = blocks
    for _ in 0..<blockCount {
        var w0 = loadBigEndian(block, 0)
        var w1 = loadBigEndian(block, 4)
        var w2 = loadBigEndian(block, 8)
        var w3 = loadBigEndian(block, 12)
        var w4 = loadBigEndian(block, 16)
        var w5 = loadBigEndian(block, 20)
        var w6 = loadBigEndian(block, 24)
        var w7 = loadBigEndian(block, 28)
        var w8 = loadBigEndian(block, 32)
        var w9 = loadBigEndian(block, 36)
        var w10 = loadBigEndian(block, 40)
        var w11 = loadBigEndian(block, 44)
        var w12 = loadBigEndian(block, 48)
        var w13 = loadBigEndian(block, 52)
        var w14 = loadBigEndian(block, 56)
        var w15 = loadBigEndian(block, 60)
        var a = h0
        var b = h1
        var c = h2
        var d = h3
        var e = h4
        var f = h5
        var g = h6
        var h = h7

        // Rounds 0..<16.
        round(a, b, c, &d, e, f, g, &h, 0x428a_2f98 &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0x7137_4491 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0xb5c0_fbcf &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0xe9b5_dba5 &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x3956_c25b &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x59f1_11f1 &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x923f_82a4 &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0xab1c_5ed5 &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0xd807_aa98 &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0x1283_5b01 &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0x2431_85be &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0x550c_7dc3 &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0x72be_5d74 &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0x80de_b1fe &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0x9bdc_06a7 &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0xc19b_f174 &+ w15)

        // Message schedule for rounds 16..<32 (FIPS 180-4 §6.2.2 step 1), in place over the 16-word window.
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
        round(a, b, c, &d, e, f, g, &h, 0xe49b_69c1 &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0xefbe_4786 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0x0fc1_9dc6 &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0x240c_a1cc &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x2de9_2c6f &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x4a74_84aa &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x5cb0_a9dc &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0x76f9_88da &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0x983e_5152 &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0xa831_c66d &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0xb003_27c8 &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0xbf59_7fc7 &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0xc6e0_0bf3 &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0xd5a7_9147 &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0x06ca_6351 &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0x1429_2967 &+ w15)

        // Message schedule for rounds 32..<48 (FIPS 180-4 §6.2.2 step 1), in place over the 16-word window.
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
        round(a, b, c, &d, e, f, g, &h, 0x27b7_0a85 &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0x2e1b_2138 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0x4d2c_6dfc &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0x5338_0d13 &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x650a_7354 &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x766a_0abb &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x81c2_c92e &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0x9272_2c85 &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0xa2bf_e8a1 &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0xa81a_664b &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0xc24b_8b70 &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0xc76c_51a3 &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0xd192_e819 &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0xd699_0624 &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0xf40e_3585 &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0x106a_a070 &+ w15)

        // Message schedule for rounds 48..<64 (FIPS 180-4 §6.2.2 step 1), in place over the 16-word window.
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
        round(a, b, c, &d, e, f, g, &h, 0x19a4_c116 &+ w0)
        round(h, a, b, &c, d, e, f, &g, 0x1e37_6c08 &+ w1)
        round(g, h, a, &b, c, d, e, &f, 0x2748_774c &+ w2)
        round(f, g, h, &a, b, c, d, &e, 0x34b0_bcb5 &+ w3)
        round(e, f, g, &h, a, b, c, &d, 0x391c_0cb3 &+ w4)
        round(d, e, f, &g, h, a, b, &c, 0x4ed8_aa4a &+ w5)
        round(c, d, e, &f, g, h, a, &b, 0x5b9c_ca4f &+ w6)
        round(b, c, d, &e, f, g, h, &a, 0x682e_6ff3 &+ w7)
        round(a, b, c, &d, e, f, g, &h, 0x748f_82ee &+ w8)
        round(h, a, b, &c, d, e, f, &g, 0x78a5_636f &+ w9)
        round(g, h, a, &b, c, d, e, &f, 0x84c8_7814 &+ w10)
        round(f, g, h, &a, b, c, d, &e, 0x8cc7_0208 &+ w11)
        round(e, f, g, &h, a, b, c, &d, 0x90be_fffa &+ w12)
        round(d, e, f, &g, h, a, b, &c, 0xa450_6ceb &+ w13)
        round(c, d, e, &f, g, h, a, &b, 0xbef9_a3f7 &+ w14)
        round(b, c, d, &e, f, g, h, &a, 0xc671_78f2 &+ w15)

        // §6.2.2 step 4: add the compressed chunk to the chaining value, mod 2^32.
        h0 &+= a
        h1 &+= b
        h2 &+= c
        h3 &+= d
        h4 &+= e
        h5 &+= f
        h6 &+= g
        h7 &+= h
        block += 64
    }
    state = (h0, h1, h2, h3, h4, h5, h6, h7)
}

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
public struct SHA256: SHA2HashFunction, BlockHasher {
    /// 32 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 32 }

    /// 64 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 64 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.3): the first 32 bits of
    /// the fractional parts of the square roots of the first eight primes.
    static let initialState: SHA256Compression.State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )

    var core: BlockHashCore<SHA256Compression>
}

extension SHA256 {
    /// Creates a hasher that uses the given implementation.
    ///
    /// - Parameter implementation: The compression function to run. If it is
    ///   not available on this CPU (``SHA2Implementation/isAvailable`` is
    ///   false), the hasher uses ``SHA2Implementation/portable`` instead;
    ///   ``implementation`` tells which one it got.
    public init(implementation: SHA2Implementation) {
        self.init(selecting: implementation)
    }

    /// The implementation this hasher runs.
    public var implementation: SHA2Implementation { core.implementation }
}

/// The SHA-224 hash function (FIPS 180-4 §6.3): SHA-256 with a different
/// initial value and the digest truncated to 28 bytes.
public struct SHA224: SHA2HashFunction, BlockHasher {
    /// 28 bytes (FIPS 180-4 §1, Figure 1).
    public static var digestByteCount: Int { 28 }

    /// 64 bytes (FIPS 180-4 §1, Figure 1).
    public static var blockByteCount: Int { 64 }

    /// The initial hash value H(0) (FIPS 180-4 §5.3.2): the second 32 bits of
    /// the fractional parts of the square roots of the 9th through 16th
    /// primes.
    static let initialState: SHA256Compression.State = (
        0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939, 0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4
    )

    var core: BlockHashCore<SHA256Compression>
}

extension SHA224 {
    /// Creates a hasher that uses the given implementation.
    ///
    /// - Parameter implementation: The compression function to run; as for
    ///   ``SHA256/init(implementation:)``, an unavailable one falls back to
    ///   ``SHA2Implementation/portable``.
    public init(implementation: SHA2Implementation) {
        self.init(selecting: implementation)
    }

    /// The implementation this hasher runs.
    public var implementation: SHA2Implementation { core.implementation }
}

/// The SHA-256 compression function (FIPS 180-4 §6.2.2) and its sizes, for
/// ``BlockHashCore``; SHA-224 runs the same function.
enum SHA256Compression: BlockCompression {
    /// The eight working words H0...H7.
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    typealias Word = UInt32
    /// 64 bytes, inline.
    typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    static var zeroBlock: Block { (0, 0, 0, 0, 0, 0, 0, 0) }
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }
    static var hardwareIsAvailable: Bool { hardwareSHA256IsAvailable }

    @inline(__always)
    static func compress(
        _ state: inout State, _ blocks: UnsafeRawPointer, _ blockCount: Int, _ implementation: SHA2Implementation
    ) {
        #if TACK_HARDWARE_SHA && (arch(x86_64) || arch(arm64))
            if implementation == .hardware {
                sha256CompressHardware(&state, blocks, blockCount)
                return
            }
        #endif
        sha256CompressPortable(&state, blocks, blockCount)
    }
}

// MARK: - The portable compression function

/// Rotates right (FIPS 180-4 §3.2, ROTR).
@inline(__always)
func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 {
    // n is a constant in 1...31 at every call site, so both shifts are in
    // range; the masking shifts just spare the compiler an overshift check.
    (x &>> n) | (x &<< (32 - n))
}

/// The round constants K (FIPS 180-4 §4.2.2): the first 32 bits of the
/// fractional parts of the cube roots of the first 64 primes. A flat array of
/// integer literals, which is static data (Embedded Swift included).
private let sha256RoundConstants: [UInt32] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]

/// One round of FIPS 180-4 §6.2.2, preceded for t ≥ 16 by its word of the
/// message schedule (step 1) in the rolling 16-word `window` (`window[t & 15]`
/// holds W[t − 16] until then). The caller rotates the names of the eight
/// working variables instead of moving their values: only `d` (the new `e`)
/// and `h` (the new `a`) are written.
@inline(__always)
private func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
    _ t: Int, _ window: UnsafeMutableBufferPointer<UInt32>
) {
    let slot = t & 15
    if t >= 16 {
        let wMinus15 = window[(t &+ 1) & 15]
        let wMinus2 = window[(t &+ 14) & 15]
        // σ0 and σ1 (§4.1.2, (4.6) and (4.7)).
        let s0 = rotateRight(wMinus15, 7) ^ rotateRight(wMinus15, 18) ^ (wMinus15 &>> 3)
        let s1 = rotateRight(wMinus2, 17) ^ rotateRight(wMinus2, 19) ^ (wMinus2 &>> 10)
        window[slot] = window[slot] &+ s1 &+ window[(t &+ 9) & 15] &+ s0
    }
    // Step 3: Σ1, Ch, Σ0, Maj (§4.1.2, (4.2)-(4.5)).
    let sigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ sigma1 &+ choose &+ sha256RoundConstants[t] &+ window[slot]
    let sigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
    let majority = (a & b) | (c & (a | b))
    d = d &+ t1
    h = t1 &+ (sigma0 &+ majority)
}

/// The SHA-256 compression function in portable Swift, over `blockCount`
/// consecutive 64-byte blocks: on 64-bit targets the 64 rounds written out
/// (`sha256CompressUnrolled`, SHA256Unrolled.swift: faster), on 32-bit ones
/// eight rounds a turn (`sha256CompressEightRounds`: the unrolled rounds were
/// 6.6 KB of the Cortex-M4 pinning image's flash, issue 36). The caller
/// guarantees `blocks` points to `64 * blockCount` readable bytes.
@inline(__always)
func sha256CompressPortable(_ state: inout SHA256Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    #if _pointerBitWidth(_64)
        sha256CompressUnrolled(&state, blocks, blockCount)
    #else
        sha256CompressEightRounds(&state, blocks, blockCount)
    #endif
}

/// SHA-256's compression function (FIPS 180-4 §6.2.2) as a loop of eight rounds
/// at a time (a full turn of the working variables' names), the message schedule
/// kept as a rolling window of 16 words on the stack, each word computed just
/// before its round; no allocation. The caller guarantees `blocks` points to
/// `64 * blockCount` readable bytes.
///
/// The general portable path, and the one 32-bit targets run: about 1.5 KB of
/// Cortex-M4 code against 6.6 KB for the 64 rounds written out (the pinning image
/// 4,738 B smaller, its RSA-2048 verdict +1.4% instructions; one round a turn was
/// 5,816 B smaller but +3.0%). All additions are modulo 2^32 (§6.2.2): wrapping
/// is the defined arithmetic.
func sha256CompressEightRounds(_ state: inout SHA256Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var chaining = state
    var block = blocks
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { window in
        for _ in 0..<blockCount {
            for index in 0..<16 {
                window[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
            }
            var (a, b, c, d, e, f, g, h) = chaining
            var t = 0
            while t < 64 {
                round(a, b, c, &d, e, f, g, &h, t, window)
                round(h, a, b, &c, d, e, f, &g, t &+ 1, window)
                round(g, h, a, &b, c, d, e, &f, t &+ 2, window)
                round(f, g, h, &a, b, c, d, &e, t &+ 3, window)
                round(e, f, g, &h, a, b, c, &d, t &+ 4, window)
                round(d, e, f, &g, h, a, b, &c, t &+ 5, window)
                round(c, d, e, &f, g, h, a, &b, t &+ 6, window)
                round(b, c, d, &e, f, g, h, &a, t &+ 7, window)
                t &+= 8
            }
            // §6.2.2 step 4: add the compressed chunk to the chaining value, mod 2^32.
            chaining = (
                chaining.0 &+ a, chaining.1 &+ b, chaining.2 &+ c, chaining.3 &+ d,
                chaining.4 &+ e, chaining.5 &+ f, chaining.6 &+ g, chaining.7 &+ h
            )
            block += 64
        }
    }
    state = chaining
}

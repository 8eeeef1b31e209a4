// The SHA-256 compression function on the ARMv8 Cryptographic Extension
// (Arm Architecture Reference Manual for A-profile, FEAT_SHA256: SHA256H,
// SHA256H2, SHA256SU0, SHA256SU1), written with the compiler's NEON intrinsics
// module, plus the decision whether it may run.
//
// The code exists only on arm64 and only when TACK_HARDWARE_SHA is defined:
// the intrinsics must be compiled with the `sha2` target feature (or the
// backend stops with "Cannot select intrinsic"), which Package.swift passes on
// arm64 build hosts with the `HardwareSHA` trait, and scripts/embedded-check.sh
// passes (-Xcc -march=armv8-a+sha2) for its aarch64 build. In Embedded Swift
// every module that hashes gets its own copy of this function, so there every
// module of the image needs the feature.
//
// Whether the CPU has the instructions: every Apple arm64 CPU (A7 and later,
// M-series) does, so on Apple platforms the path is always available. Elsewhere
// only the platform can tell (on Linux, getauxval(AT_HWCAP) & HWCAP_SHA2; a
// Raspberry Pi 4's Cortex-A72 lacks them), and the core calls no C library, so it
// cannot ask: the path is available only when the build states that the CPU has
// it (-D TACK_ASSUME_ARMV8_SHA2, for firmware built for one known core). Without
// that, Linux arm64 builds compile the path but run the portable one.

#if TACK_HARDWARE_SHA && arch(arm64)
import _Builtin_intrinsics.arm.neon

#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || TACK_ASSUME_ARMV8_SHA2
/// Every Apple arm64 CPU has FEAT_SHA256, and a TACK_ASSUME_ARMV8_SHA2 build
/// states that its CPU does.
let hardwareSHA256IsAvailable = true
#else
/// The core cannot ask this platform whether the CPU has FEAT_SHA256 (see the
/// top of this file), so it does not use the instructions.
let hardwareSHA256IsAvailable = false
#endif

/// The SHA-256 compression function on the ARMv8 SHA-256 instructions, over
/// `blockCount` consecutive 64-byte blocks; same contract as
/// `sha256CompressPortable`.
///
/// The state lives in two vectors, (A, B, C, D) and (E, F, G, H), lane 0
/// first. Each quad-round adds K[4i..<4i+4] (FIPS 180-4 §4.2.2) to four
/// schedule words, SHA256H advances (A, B, C, D) and SHA256H2 (E, F, G, H) by
/// four rounds (SHA256H2 takes the (A, B, C, D) from before SHA256H), and
/// SHA256SU0/SHA256SU1 compute the next four schedule words (§6.2.2 step 1).
func sha256CompressHardware(_ state: inout SHA256Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var abcd = SIMD4<UInt32>(state.0, state.1, state.2, state.3)
    var efgh = SIMD4<UInt32>(state.4, state.5, state.6, state.7)
    var block = blocks
    for _ in 0..<blockCount {
        let abcdSaved = abcd
        let efghSaved = efgh
        // §3.1: the message words are big-endian; REV32 swaps each word's bytes.
        var w0 = loadBigEndianWords(block + 0)
        var w1 = loadBigEndianWords(block + 16)
        var w2 = loadBigEndianWords(block + 32)
        var w3 = loadBigEndianWords(block + 48)
        for quad in 0..<16 {
            let wk = vaddq_u32(w0, roundConstants[quad])
            // W[4(quad+4) ..< 4(quad+4)+4], needed only for quads 4..<16.
            let next = quad < 12 ? vsha256su1q_u32(vsha256su0q_u32(w0, w1), w2, w3) : w0
            let abcdBefore = abcd
            abcd = vsha256hq_u32(abcd, efgh, wk)
            efgh = vsha256h2q_u32(efgh, abcdBefore, wk)
            (w0, w1, w2, w3) = (w1, w2, w3, next)
        }
        // §6.2.2 step 4, four words per addition (ADD wraps mod 2^32).
        abcd = vaddq_u32(abcd, abcdSaved)
        efgh = vaddq_u32(efgh, efghSaved)
        block += 64
    }
    state = (abcd[0], abcd[1], abcd[2], abcd[3], efgh[0], efgh[1], efgh[2], efgh[3])
}

/// Four big-endian words from 16 unaligned bytes (LD1 then REV32), for the
/// SHA-256 and SHA-1 (SHA1HardwareARM.swift) paths.
@inline(__always)
func loadBigEndianWords(_ address: UnsafeRawPointer) -> SIMD4<UInt32> {
    unsafeBitCast(vrev32q_u8(address.loadUnaligned(as: SIMD16<UInt8>.self)), to: SIMD4<UInt32>.self)
}

/// K (FIPS 180-4 §4.2.2), four constants per quad-round.
private let roundConstants: [SIMD4<UInt32>] = [
    SIMD4(0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5), SIMD4(0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5),
    SIMD4(0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3), SIMD4(0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174),
    SIMD4(0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc), SIMD4(0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da),
    SIMD4(0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7), SIMD4(0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967),
    SIMD4(0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13), SIMD4(0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85),
    SIMD4(0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3), SIMD4(0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070),
    SIMD4(0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5), SIMD4(0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3),
    SIMD4(0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208), SIMD4(0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2),
]

#endif

// The SHA-1 compression function on the ARMv8 Cryptographic Extension (Arm
// Architecture Reference Manual for A-profile, FEAT_SHA1: SHA1C, SHA1P,
// SHA1M, SHA1H, SHA1SU0, SHA1SU1), written with the compiler's NEON
// intrinsics module, plus the decision whether it may run. The same switches
// as SHA256HardwareARM.swift: TACK_HARDWARE_SHA on arm64 (the `sha2` target
// feature covers the SHA-1 instructions too), available on Apple platforms and
// in TACK_ASSUME_ARMV8_SHA2 builds.
//
// There is no x86-64 SHA-1 path. SHA1RNDS4's intrinsic,
// `_mm_sha1rnds4_epu32`, is a C macro (its round-function selector must be an
// immediate), which Swift's Clang importer does not import, and naming the
// LLVM intrinsic directly loses the `immarg` attribute, so instruction
// selection fails. Without a C shim, which the core does not have, x86-64 runs
// the portable SHA-1.

#if TACK_HARDWARE_SHA && arch(arm64)
import _Builtin_intrinsics.arm.neon

/// Whether SHA-1 may run on the ARMv8 instructions: wherever SHA-256 may
/// (FEAT_SHA1 comes with FEAT_SHA256 on every core this targets).
let hardwareSHA1IsAvailable = hardwareSHA256IsAvailable

/// The SHA-1 compression function on the ARMv8 SHA-1 instructions, over
/// `blockCount` consecutive 64-byte blocks; same contract as
/// `sha1CompressPortable`.
///
/// (A, B, C, D) live in one vector and E in a scalar. Each quad-round adds K
/// (FIPS 180-4 §4.2.1) to four schedule words; SHA1C, SHA1P and SHA1M run four
/// rounds with Ch, Parity and Maj (§4.1.1); SHA1H gives ROTL³⁰(A), the E of
/// the quad after; SHA1SU0/SHA1SU1 compute the next four schedule words
/// (§6.1.2 step 1).
func sha1CompressHardware(_ state: inout SHA1Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var abcd = SIMD4<UInt32>(state.0, state.1, state.2, state.3)
    var e = state.4
    var block = blocks
    for _ in 0..<blockCount {
        let abcdSaved = abcd
        let eSaved = e
        // §3.1: the message words are big-endian; REV32 swaps each word's bytes.
        var w0 = loadBigEndianWords(block + 0)
        var w1 = loadBigEndianWords(block + 16)
        var w2 = loadBigEndianWords(block + 32)
        var w3 = loadBigEndianWords(block + 48)
        for quad in 0..<20 {
            let stage = quad / 5
            let wk = vaddq_u32(w0, roundConstants[stage])
            let nextE = vsha1h_u32(abcd[0])
            switch stage {
            case 0: abcd = vsha1cq_u32(abcd, e, wk)
            case 2: abcd = vsha1mq_u32(abcd, e, wk)
            default: abcd = vsha1pq_u32(abcd, e, wk)
            }
            e = nextE
            // W[4(quad+4) ..< 4(quad+4)+4], needed only for quads 4..<20.
            let next = quad < 16 ? vsha1su1q_u32(vsha1su0q_u32(w0, w1, w2), w3) : w0
            (w0, w1, w2, w3) = (w1, w2, w3, next)
        }
        // §6.1.2 step 4 (ADD wraps mod 2^32).
        abcd = vaddq_u32(abcd, abcdSaved)
        e = e &+ eSaved
        block += 64
    }
    state = (abcd[0], abcd[1], abcd[2], abcd[3], e)
}

/// K (FIPS 180-4 §4.2.1) for rounds 0...19, 20...39, 40...59 and 60...79.
private let roundConstants: [SIMD4<UInt32>] = [
    SIMD4(repeating: 0x5a82_7999), SIMD4(repeating: 0x6ed9_eba1),
    SIMD4(repeating: 0x8f1b_bcdc), SIMD4(repeating: 0xca62_c1d6),
]

#else

/// SHA-1 has a hardware path on arm64 only (see the top of this file).
let hardwareSHA1IsAvailable = false

#endif

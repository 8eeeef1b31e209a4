// The SHA-256 compression function on the x86-64 SHA extensions (Intel
// "SHA Extensions" white paper, 2013; instructions SHA256RNDS2, SHA256MSG1 and
// SHA256MSG2), written with the compiler's built-in intrinsics module, plus the
// run-time CPU check that decides whether it may run.
//
// The code exists only on x86-64 and only when the `HardwareSHA` package trait
// is on: the intrinsics must be compiled with the SHA and SSSE3 target
// features, which Package.swift passes to this module (see there). The arm64
// path is SHA256HardwareARM.swift; everywhere else `hardwareSHA256IsAvailable`
// is a constant `false` and only the portable path is compiled.

#if TACK_HARDWARE_SHA && arch(x86_64)
import _Builtin_intrinsics.intel
import _Builtin_intrinsics.intel.cpuid

/// Whether this CPU has the SHA extensions (CPUID.(EAX=7,ECX=0):EBX bit 29)
/// and SSSE3 (CPUID.(EAX=1):ECX bit 9, for PSHUFB), per the Intel SDM Vol. 2A,
/// CPUID. Asked once; the answer is cached for the life of the process.
let hardwareSHA256IsAvailable: Bool = {
    var eax: UInt32 = 0
    var ebx: UInt32 = 0
    var ecx: UInt32 = 0
    var edx: UInt32 = 0
    // __get_cpuid_count checks the maximum supported leaf first and returns 0
    // if the leaf is out of range.
    guard __get_cpuid_count(1, 0, &eax, &ebx, &ecx, &edx) != 0 else { return false }
    let hasSSSE3 = ecx & (1 << 9) != 0
    guard __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0 else { return false }
    let hasSHA = ebx & (1 << 29) != 0
    return hasSSSE3 && hasSHA
}()

/// PALIGNR by 4 bytes: the words (b1, b2, b3, a0), lane 0 first. PALIGNR's
/// intrinsic is a macro Swift cannot import, so this is MOVSS (a0, b1, b2, b3)
/// followed by a one-word rotation with PSHUFB; the backend folds the pair
/// back into a single PALIGNR.
@inline(__always)
private func alignRightOneWord(_ a: __m128i, _ b: __m128i) -> __m128i {
    let merged = _mm_castps_si128(_mm_move_ss(_mm_castsi128_ps(b), _mm_castsi128_ps(a)))
    return _mm_shuffle_epi8(
        merged, __m128i(Int64(bitPattern: 0x0b0a_0908_0706_0504), Int64(bitPattern: 0x0302_0100_0f0e_0d0c)))
}

/// Loads 16 bytes, unaligned (MOVDQU).
@inline(__always)
private func loadWords(_ address: UnsafeRawPointer) -> __m128i {
    address.loadUnaligned(as: __m128i.self)
}

/// Four round constants K[4i..<4i+4] (FIPS 180-4 §4.2.2) as one vector,
/// given as two 64-bit halves, lane 0 in the low bits of `low`.
@inline(__always)
private func roundConstants(_ low: UInt64, _ high: UInt64) -> __m128i {
    __m128i(Int64(bitPattern: low), Int64(bitPattern: high))
}

/// The SHA-256 compression function on the SHA extensions, over `blockCount`
/// consecutive 64-byte blocks; same contract as `sha256CompressPortable`.
///
/// SHA256RNDS2 keeps the eight working variables in two registers as
/// (F, E, B, A) and (H, G, D, C), lane 0 first ("ABEF" and "CDGH" in Intel's
/// naming), does two rounds per instruction with W+K supplied in the low
/// 64 bits of its third operand, and SHA256MSG1/SHA256MSG2 compute the
/// message schedule four words at a time (FIPS 180-4 §6.2.2).
func sha256CompressHardware(_ state: inout SHA256Core.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    // Shuffle mask for PSHUFB that turns each big-endian word little-endian.
    let byteSwap = __m128i(Int64(bitPattern: 0x0405_0607_0001_0203), Int64(bitPattern: 0x0c0d_0e0f_0809_0a0b))
    // _mm_set_epi32 takes the highest lane first.
    var abef = _mm_set_epi32(
        Int32(bitPattern: state.0), Int32(bitPattern: state.1), Int32(bitPattern: state.4), Int32(bitPattern: state.5))
    var cdgh = _mm_set_epi32(
        Int32(bitPattern: state.2), Int32(bitPattern: state.3), Int32(bitPattern: state.6), Int32(bitPattern: state.7))
    var block = blocks
    for _ in 0..<blockCount {
        let abefSaved = abef
        let cdghSaved = cdgh
        var message0: __m128i
        var message1: __m128i
        var message2: __m128i
        var message3: __m128i
        var words: __m128i

        // Rounds 0..<4.
        message0 = _mm_shuffle_epi8(loadWords(block + 0), byteSwap)
        words = _mm_add_epi32(message0, roundConstants(0x71374491_428a2f98, 0xe9b5dba5_b5c0fbcf))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))

        // Rounds 4..<8.
        message1 = _mm_shuffle_epi8(loadWords(block + 16), byteSwap)
        words = _mm_add_epi32(message1, roundConstants(0x59f111f1_3956c25b, 0xab1c5ed5_923f82a4))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message0 = _mm_sha256msg1_epu32(message0, message1)

        // Rounds 8..<12.
        message2 = _mm_shuffle_epi8(loadWords(block + 32), byteSwap)
        words = _mm_add_epi32(message2, roundConstants(0x12835b01_d807aa98, 0x550c7dc3_243185be))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message1 = _mm_sha256msg1_epu32(message1, message2)

        // Rounds 12..<16.
        message3 = _mm_shuffle_epi8(loadWords(block + 48), byteSwap)
        words = _mm_add_epi32(message3, roundConstants(0x80deb1fe_72be5d74, 0xc19bf174_9bdc06a7))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message0 = _mm_sha256msg2_epu32(_mm_add_epi32(message0, alignRightOneWord(message3, message2)), message3)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message2 = _mm_sha256msg1_epu32(message2, message3)

        // Rounds 16..<20.
        words = _mm_add_epi32(message0, roundConstants(0xefbe4786_e49b69c1, 0x240ca1cc_0fc19dc6))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message1 = _mm_sha256msg2_epu32(_mm_add_epi32(message1, alignRightOneWord(message0, message3)), message0)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message3 = _mm_sha256msg1_epu32(message3, message0)

        // Rounds 20..<24.
        words = _mm_add_epi32(message1, roundConstants(0x4a7484aa_2de92c6f, 0x76f988da_5cb0a9dc))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message2 = _mm_sha256msg2_epu32(_mm_add_epi32(message2, alignRightOneWord(message1, message0)), message1)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message0 = _mm_sha256msg1_epu32(message0, message1)

        // Rounds 24..<28.
        words = _mm_add_epi32(message2, roundConstants(0xa831c66d_983e5152, 0xbf597fc7_b00327c8))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message3 = _mm_sha256msg2_epu32(_mm_add_epi32(message3, alignRightOneWord(message2, message1)), message2)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message1 = _mm_sha256msg1_epu32(message1, message2)

        // Rounds 28..<32.
        words = _mm_add_epi32(message3, roundConstants(0xd5a79147_c6e00bf3, 0x14292967_06ca6351))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message0 = _mm_sha256msg2_epu32(_mm_add_epi32(message0, alignRightOneWord(message3, message2)), message3)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message2 = _mm_sha256msg1_epu32(message2, message3)

        // Rounds 32..<36.
        words = _mm_add_epi32(message0, roundConstants(0x2e1b2138_27b70a85, 0x53380d13_4d2c6dfc))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message1 = _mm_sha256msg2_epu32(_mm_add_epi32(message1, alignRightOneWord(message0, message3)), message0)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message3 = _mm_sha256msg1_epu32(message3, message0)

        // Rounds 36..<40.
        words = _mm_add_epi32(message1, roundConstants(0x766a0abb_650a7354, 0x92722c85_81c2c92e))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message2 = _mm_sha256msg2_epu32(_mm_add_epi32(message2, alignRightOneWord(message1, message0)), message1)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message0 = _mm_sha256msg1_epu32(message0, message1)

        // Rounds 40..<44.
        words = _mm_add_epi32(message2, roundConstants(0xa81a664b_a2bfe8a1, 0xc76c51a3_c24b8b70))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message3 = _mm_sha256msg2_epu32(_mm_add_epi32(message3, alignRightOneWord(message2, message1)), message2)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message1 = _mm_sha256msg1_epu32(message1, message2)

        // Rounds 44..<48.
        words = _mm_add_epi32(message3, roundConstants(0xd6990624_d192e819, 0x106aa070_f40e3585))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message0 = _mm_sha256msg2_epu32(_mm_add_epi32(message0, alignRightOneWord(message3, message2)), message3)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message2 = _mm_sha256msg1_epu32(message2, message3)

        // Rounds 48..<52.
        words = _mm_add_epi32(message0, roundConstants(0x1e376c08_19a4c116, 0x34b0bcb5_2748774c))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message1 = _mm_sha256msg2_epu32(_mm_add_epi32(message1, alignRightOneWord(message0, message3)), message0)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        message3 = _mm_sha256msg1_epu32(message3, message0)

        // Rounds 52..<56.
        words = _mm_add_epi32(message1, roundConstants(0x4ed8aa4a_391c0cb3, 0x682e6ff3_5b9cca4f))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message2 = _mm_sha256msg2_epu32(_mm_add_epi32(message2, alignRightOneWord(message1, message0)), message1)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))

        // Rounds 56..<60.
        words = _mm_add_epi32(message2, roundConstants(0x78a5636f_748f82ee, 0x8cc70208_84c87814))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        message3 = _mm_sha256msg2_epu32(_mm_add_epi32(message3, alignRightOneWord(message2, message1)), message2)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))

        // Rounds 60..<64.
        words = _mm_add_epi32(message3, roundConstants(0xa4506ceb_90befffa, 0xc67178f2_bef9a3f7))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))

        // §6.2.2 step 4, four words per addition (PADDD wraps mod 2^32).
        abef = _mm_add_epi32(abef, abefSaved)
        cdgh = _mm_add_epi32(cdgh, cdghSaved)
        block += 64
    }
    // Back from (F, E, B, A) and (H, G, D, C) to A...H.
    let (fe, ba) = (UInt64(bitPattern: abef[0]), UInt64(bitPattern: abef[1]))
    let (hg, dc) = (UInt64(bitPattern: cdgh[0]), UInt64(bitPattern: cdgh[1]))
    state = (
        UInt32(truncatingIfNeeded: ba >> 32), UInt32(truncatingIfNeeded: ba),
        UInt32(truncatingIfNeeded: dc >> 32), UInt32(truncatingIfNeeded: dc),
        UInt32(truncatingIfNeeded: fe >> 32), UInt32(truncatingIfNeeded: fe),
        UInt32(truncatingIfNeeded: hg >> 32), UInt32(truncatingIfNeeded: hg)
    )
}

#elseif !(TACK_HARDWARE_SHA && arch(arm64))

/// The hardware path is not compiled in (neither x86-64 nor arm64, or the
/// `HardwareSHA` package trait is off), so it is never available. The arm64
/// path is in SHA256HardwareARM.swift.
let hardwareSHA256IsAvailable = false

#endif

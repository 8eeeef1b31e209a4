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

/// Round constants K[4g..<4g+4] (FIPS 180-4 §4.2.2) for the round group
/// `g` in 0..<16, as one vector. `g` is a literal at every call site, so the
/// switch folds to the constant.
@inline(__always)
private func roundConstants(group g: Int) -> __m128i {
    switch g {
    case 0: roundConstants(0x71374491_428a2f98, 0xe9b5dba5_b5c0fbcf)
    case 1: roundConstants(0x59f111f1_3956c25b, 0xab1c5ed5_923f82a4)
    case 2: roundConstants(0x12835b01_d807aa98, 0x550c7dc3_243185be)
    case 3: roundConstants(0x80deb1fe_72be5d74, 0xc19bf174_9bdc06a7)
    case 4: roundConstants(0xefbe4786_e49b69c1, 0x240ca1cc_0fc19dc6)
    case 5: roundConstants(0x4a7484aa_2de92c6f, 0x76f988da_5cb0a9dc)
    case 6: roundConstants(0xa831c66d_983e5152, 0xbf597fc7_b00327c8)
    case 7: roundConstants(0xd5a79147_c6e00bf3, 0x14292967_06ca6351)
    case 8: roundConstants(0x2e1b2138_27b70a85, 0x53380d13_4d2c6dfc)
    case 9: roundConstants(0x766a0abb_650a7354, 0x92722c85_81c2c92e)
    case 10: roundConstants(0xa81a664b_a2bfe8a1, 0xc76c51a3_c24b8b70)
    case 11: roundConstants(0xd6990624_d192e819, 0x106aa070_f40e3585)
    case 12: roundConstants(0x1e376c08_19a4c116, 0x34b0bcb5_2748774c)
    case 13: roundConstants(0x4ed8aa4a_391c0cb3, 0x682e6ff3_5b9cca4f)
    case 14: roundConstants(0x78a5636f_748f82ee, 0x8cc70208_84c87814)
    default: roundConstants(0xa4506ceb_90befffa, 0xc67178f2_bef9a3f7)
    }
}

/// One message's SHA-256 computation on the SHA extensions: its chaining
/// value and the four message-schedule registers of the block in progress.
///
/// SHA256RNDS2 keeps the eight working variables in two registers as
/// (F, E, B, A) and (H, G, D, C), lane 0 first ("ABEF" and "CDGH" in Intel's
/// naming), does two rounds per instruction with W+K supplied in the low
/// 64 bits of its third operand, and SHA256MSG1/SHA256MSG2 compute the
/// message schedule four words at a time (FIPS 180-4 §6.2.2).
///
/// A block is `begin`, then `rounds(group:)` for groups 0 to 15 in order
/// (each is four rounds), then `end`. Every method is inlined and called with
/// literal group numbers, so the whole lane lives in XMM registers; running
/// the groups of two lanes alternately lets one message's SHA256RNDS2 issue
/// while the other's is still in flight (the instruction's latency is
/// several cycles, and each round depends on the previous one).
private struct SHA256HardwareLane {
    var abef: __m128i
    var cdgh: __m128i
    var abefSaved: __m128i
    var cdghSaved: __m128i
    var message0: __m128i
    var message1: __m128i
    var message2: __m128i
    var message3: __m128i

    @inline(__always)
    init(_ state: SHA256Compression.State) {
        // _mm_set_epi32 takes the highest lane first.
        abef = _mm_set_epi32(
            Int32(bitPattern: state.0), Int32(bitPattern: state.1), Int32(bitPattern: state.4), Int32(bitPattern: state.5))
        cdgh = _mm_set_epi32(
            Int32(bitPattern: state.2), Int32(bitPattern: state.3), Int32(bitPattern: state.6), Int32(bitPattern: state.7))
        abefSaved = abef
        cdghSaved = cdgh
        message0 = abef
        message1 = abef
        message2 = abef
        message3 = abef
    }

    /// Back from (F, E, B, A) and (H, G, D, C) to A...H.
    @inline(__always)
    var state: SHA256Compression.State {
        let (fe, ba) = (UInt64(bitPattern: abef[0]), UInt64(bitPattern: abef[1]))
        let (hg, dc) = (UInt64(bitPattern: cdgh[0]), UInt64(bitPattern: cdgh[1]))
        return (
            UInt32(truncatingIfNeeded: ba >> 32), UInt32(truncatingIfNeeded: ba),
            UInt32(truncatingIfNeeded: dc >> 32), UInt32(truncatingIfNeeded: dc),
            UInt32(truncatingIfNeeded: fe >> 32), UInt32(truncatingIfNeeded: fe),
            UInt32(truncatingIfNeeded: hg >> 32), UInt32(truncatingIfNeeded: hg)
        )
    }

    /// Starts a 64-byte block: saves the chaining value and loads the
    /// block's 16 words, byte-swapped to little-endian lanes.
    @inline(__always)
    mutating func begin(_ block: UnsafeRawPointer) {
        // Shuffle mask for PSHUFB that turns each big-endian word little-endian.
        let byteSwap = __m128i(Int64(bitPattern: 0x0405_0607_0001_0203), Int64(bitPattern: 0x0c0d_0e0f_0809_0a0b))
        abefSaved = abef
        cdghSaved = cdgh
        message0 = _mm_shuffle_epi8(loadWords(block + 0), byteSwap)
        message1 = _mm_shuffle_epi8(loadWords(block + 16), byteSwap)
        message2 = _mm_shuffle_epi8(loadWords(block + 32), byteSwap)
        message3 = _mm_shuffle_epi8(loadWords(block + 48), byteSwap)
    }

    /// The message register holding W[4i..<4i+4] (mod 16) for index i mod 4.
    @inline(__always)
    private func message(_ index: Int) -> __m128i {
        switch index & 3 {
        case 0: message0
        case 1: message1
        case 2: message2
        default: message3
        }
    }

    @inline(__always)
    private mutating func setMessage(_ index: Int, _ value: __m128i) {
        switch index & 3 {
        case 0: message0 = value
        case 1: message1 = value
        case 2: message2 = value
        default: message3 = value
        }
    }

    /// Rounds 4g..<4g+4 (`g` in 0..<16, a literal at each call site), with
    /// the schedule words for later groups: W[4(g+1)...] completed by
    /// SHA256MSG2 from g = 3 to 14, W[4(g+3)...] started by SHA256MSG1 from
    /// g = 1 to 12 (§6.2.2 step 1).
    @inline(__always)
    mutating func rounds(group g: Int) {
        let words = _mm_add_epi32(message(g), roundConstants(group: g))
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, words)
        if g >= 3 && g <= 14 {
            setMessage(
                g + 1,
                _mm_sha256msg2_epu32(_mm_add_epi32(message(g + 1), alignRightOneWord(message(g), message(g - 1))), message(g)))
        }
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_unpackhi_epi64(words, words))
        if g >= 1 && g <= 12 {
            setMessage(g - 1, _mm_sha256msg1_epu32(message(g - 1), message(g)))
        }
    }

    /// Ends the block: §6.2.2 step 4, four words per addition (PADDD wraps mod 2^32).
    @inline(__always)
    mutating func end() {
        abef = _mm_add_epi32(abef, abefSaved)
        cdgh = _mm_add_epi32(cdgh, cdghSaved)
    }
}

/// The SHA-256 compression function on the SHA extensions, over `blockCount`
/// consecutive 64-byte blocks; same contract as `sha256CompressPortable`.
func sha256CompressHardware(_ state: inout SHA256Compression.State, _ blocks: UnsafeRawPointer, _ blockCount: Int) {
    var lane = SHA256HardwareLane(state)
    var block = blocks
    for _ in 0..<blockCount {
        lane.begin(block)
        lane.rounds(group: 0)
        lane.rounds(group: 1)
        lane.rounds(group: 2)
        lane.rounds(group: 3)
        lane.rounds(group: 4)
        lane.rounds(group: 5)
        lane.rounds(group: 6)
        lane.rounds(group: 7)
        lane.rounds(group: 8)
        lane.rounds(group: 9)
        lane.rounds(group: 10)
        lane.rounds(group: 11)
        lane.rounds(group: 12)
        lane.rounds(group: 13)
        lane.rounds(group: 14)
        lane.rounds(group: 15)
        lane.end()
        block += 64
    }
    state = lane.state
}

/// Two independent compressions on the SHA extensions, their rounds
/// alternating so that the two dependency chains overlap: blocks
/// 0..<blockCount of `first` into `firstState` and of `second` into
/// `secondState`. The same per-lane code as `sha256CompressHardware`, so each
/// lane computes exactly what it would alone.
///
/// Kept out of line with its loop inside: inlined into a larger caller, the
/// 32 group bodies exceeded the inliner's budget and stayed calls with a
/// run-time group number (measured: slower than one message at a time).
@inline(never)
func sha256CompressHardwarePair(
    _ firstState: inout SHA256Compression.State, _ secondState: inout SHA256Compression.State,
    _ first: SHA256PaddedBlocks, _ second: SHA256PaddedBlocks, blockCount: Int
) {
    var a = SHA256HardwareLane(firstState)
    var b = SHA256HardwareLane(secondState)
    for index in 0..<blockCount {
        let blockA = first.block(index)
        let blockB = second.block(index)
        a.begin(blockA)
        b.begin(blockB)
        a.rounds(group: 0)
        b.rounds(group: 0)
        a.rounds(group: 1)
        b.rounds(group: 1)
        a.rounds(group: 2)
        b.rounds(group: 2)
        a.rounds(group: 3)
        b.rounds(group: 3)
        a.rounds(group: 4)
        b.rounds(group: 4)
        a.rounds(group: 5)
        b.rounds(group: 5)
        a.rounds(group: 6)
        b.rounds(group: 6)
        a.rounds(group: 7)
        b.rounds(group: 7)
        a.rounds(group: 8)
        b.rounds(group: 8)
        a.rounds(group: 9)
        b.rounds(group: 9)
        a.rounds(group: 10)
        b.rounds(group: 10)
        a.rounds(group: 11)
        b.rounds(group: 11)
        a.rounds(group: 12)
        b.rounds(group: 12)
        a.rounds(group: 13)
        b.rounds(group: 13)
        a.rounds(group: 14)
        b.rounds(group: 14)
        a.rounds(group: 15)
        b.rounds(group: 15)
        a.end()
        b.end()
    }
    firstState = a.state
    secondState = b.state
}

#elseif !(TACK_HARDWARE_SHA && arch(arm64))

/// The hardware path is not compiled in (neither x86-64 nor arm64, or the
/// `HardwareSHA` package trait is off), so it is never available. The arm64
/// path is in SHA256HardwareARM.swift.
let hardwareSHA256IsAvailable = false

#endif

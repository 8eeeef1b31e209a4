// AES on x86-64 AES-NI (Intel, "Advanced Encryption Standard (AES) New
// Instructions Set", white paper 323641, 2010: AESENC, AESENCLAST, AESDEC,
// AESDECLAST, AESIMC), written with the compiler's intrinsics module, plus the
// run-time CPU check that decides whether it may run.
//
// The code exists only on x86-64 and only when TACK_HARDWARE_AES is defined
// (the `HardwareSHA` package trait, which also governs SHA-256's hardware path):
// the intrinsics must be compiled with the `aes` target feature, which
// Package.swift passes to this module. The arm64 path is AESHardwareARM.swift;
// everywhere else `hardwareAESIsAvailable` is a constant `false`.
//
// The instructions take the 16 state bytes in memory order, as the round keys
// of `aesExpandKey` are laid out, so blocks and keys load without reordering.
// Held to the portable path by the seeded differential test in
// Tests/TackCipherTests/AESTests.swift; measured by tack-bench's
// `aes-256-cbc-decrypt-16k`.

#if TACK_HARDWARE_AES && arch(x86_64)
import _Builtin_intrinsics.intel
import _Builtin_intrinsics.intel.cpuid

/// The feature flags of CPUID.(EAX=1):ECX (Intel SDM Vol. 2A), where AES-NI (bit 25)
/// and PCLMULQDQ (bit 1, GHASHHardware.swift) are announced; 0 when CPUID does not
/// answer. Asked once; the answer is cached for the life of the process.
let cpuidLeaf1ECX: UInt32 = {
    var eax: UInt32 = 0
    var ebx: UInt32 = 0
    var ecx: UInt32 = 0
    var edx: UInt32 = 0
    guard __get_cpuid_count(1, 0, &eax, &ebx, &ecx, &edx) != 0 else { return 0 }
    return ecx
}()

/// Whether this CPU has AES-NI (CPUID.(EAX=1):ECX bit 25).
let hardwareAESIsAvailable: Bool = cpuidLeaf1ECX & (1 << 25) != 0

@inline(__always)
private func load(_ address: UnsafePointer<UInt8>) -> __m128i {
    UnsafeRawPointer(address).loadUnaligned(as: __m128i.self)
}

@inline(__always)
private func store(_ value: __m128i, _ address: UnsafeMutablePointer<UInt8>) {
    UnsafeMutableRawPointer(address).storeBytes(of: value, as: __m128i.self)
}

/// Encrypts one block in place with the expanded key (16 bytes per round key).
func aesEncryptBlockHardware(_ block: UnsafeMutablePointer<UInt8>, roundKeys: UnsafePointer<UInt8>, rounds: Int) {
    var x = _mm_xor_si128(load(block), load(roundKeys))
    for round in 1..<rounds {
        x = _mm_aesenc_si128(x, load(roundKeys + 16 * round))
    }
    x = _mm_aesenclast_si128(x, load(roundKeys + 16 * rounds))
    store(x, block)
}

/// Encrypts `count` blocks in place (no chaining: GCM's counter blocks).
func aesEncryptBlocksHardware(
    _ blocks: UnsafeMutablePointer<UInt8>, count: Int, roundKeys: UnsafePointer<UInt8>, rounds: Int
) {
    runRounds(blocks, count: count, roundKeys: roundKeys, rounds: rounds, round: _mm_aesenc_si128, lastRound: _mm_aesenclast_si128)
}

/// Decrypts `count` blocks in place with the equivalent inverse cipher's round
/// keys (``aesHardwareDecryptionKeys(_:rounds:)``).
func aesDecryptBlocksHardware(
    _ blocks: UnsafeMutablePointer<UInt8>, count: Int, roundKeys: UnsafePointer<UInt8>, rounds: Int
) {
    runRounds(blocks, count: count, roundKeys: roundKeys, rounds: rounds, round: _mm_aesdec_si128, lastRound: _mm_aesdeclast_si128)
}

/// The rounds of AES-NI encryption or decryption over `count` independent
/// blocks in place, eight at a time so that the instructions of independent
/// blocks overlap (AESENC and AESDEC have a latency of 3 to 7 cycles and a
/// throughput of one or two per cycle: four in flight leave the units idle part
/// of the time; on the Ice Lake test machine the counter mode of `aes128gcm-16k`
/// went from about 4,800–5,300 to 5,400–5,500 MB/s with eight, alternating runs
/// on a loaded machine), then the rest (at most seven: a record's tail) one by one.
@inline(__always)
private func runRounds(
    _ blocks: UnsafeMutablePointer<UInt8>, count: Int, roundKeys: UnsafePointer<UInt8>, rounds: Int,
    round: (__m128i, __m128i) -> __m128i, lastRound: (__m128i, __m128i) -> __m128i
) {
    var index = 0
    let first = load(roundKeys)
    let last = load(roundKeys + 16 * rounds)
    while index + 8 <= count {
        let p = blocks + 16 * index
        var a = _mm_xor_si128(load(p), first)
        var b = _mm_xor_si128(load(p + 16), first)
        var c = _mm_xor_si128(load(p + 32), first)
        var d = _mm_xor_si128(load(p + 48), first)
        var e = _mm_xor_si128(load(p + 64), first)
        var f = _mm_xor_si128(load(p + 80), first)
        var g = _mm_xor_si128(load(p + 96), first)
        var h = _mm_xor_si128(load(p + 112), first)
        for r in 1..<rounds {
            let k = load(roundKeys + 16 * r)
            a = round(a, k)
            b = round(b, k)
            c = round(c, k)
            d = round(d, k)
            e = round(e, k)
            f = round(f, k)
            g = round(g, k)
            h = round(h, k)
        }
        store(lastRound(a, last), p)
        store(lastRound(b, last), p + 16)
        store(lastRound(c, last), p + 32)
        store(lastRound(d, last), p + 48)
        store(lastRound(e, last), p + 64)
        store(lastRound(f, last), p + 80)
        store(lastRound(g, last), p + 96)
        store(lastRound(h, last), p + 112)
        index += 8
    }
    while index < count {
        let p = blocks + 16 * index
        var a = _mm_xor_si128(load(p), first)
        for r in 1..<rounds {
            a = round(a, load(roundKeys + 16 * r))
        }
        store(lastRound(a, last), p)
        index += 1
    }
}

/// InvMixColumns (AESIMC) of the 16-byte round key at `key`, in place.
func aesInverseMixColumnsHardware(_ key: UnsafeMutablePointer<UInt8>) {
    store(_mm_aesimc_si128(load(key)), key)
}

#elseif !(TACK_HARDWARE_AES && arch(arm64))

/// The hardware path is not compiled in (neither x86-64 nor arm64, or the
/// `HardwareSHA` package trait is off), so it is never available. The arm64
/// path is in AESHardwareARM.swift.
let hardwareAESIsAvailable = false

// Unreachable: AESKeySchedule uses these only when hardwareAESIsAvailable.
func aesEncryptBlockHardware(_ block: UnsafeMutablePointer<UInt8>, roundKeys: UnsafePointer<UInt8>, rounds: Int) {
    preconditionFailure("no hardware AES in this build")
}

func aesDecryptBlocksHardware(
    _ blocks: UnsafeMutablePointer<UInt8>, count: Int, roundKeys: UnsafePointer<UInt8>, rounds: Int
) {
    preconditionFailure("no hardware AES in this build")
}

func aesEncryptBlocksHardware(
    _ blocks: UnsafeMutablePointer<UInt8>, count: Int, roundKeys: UnsafePointer<UInt8>, rounds: Int
) {
    preconditionFailure("no hardware AES in this build")
}

func aesInverseMixColumnsHardware(_ key: UnsafeMutablePointer<UInt8>) {
    preconditionFailure("no hardware AES in this build")
}

#endif

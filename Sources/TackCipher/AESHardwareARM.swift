// AES on the ARMv8 Cryptographic Extension (Arm Architecture Reference Manual
// for A-profile, FEAT_AES: AESE, AESD, AESMC, AESIMC), written with the
// compiler's NEON intrinsics module, plus the decision whether it may run.
//
// The code exists only on arm64 and only when TACK_HARDWARE_AES is defined; it
// needs the `aes` target feature, which Package.swift passes on arm64 build
// hosts with the `HardwareSHA` trait. As for SHA-256 (SHA256HardwareARM.swift
// in TackDigest), the core cannot ask a Linux kernel whether the CPU has the
// instructions (getauxval is C library), so the path is available on Apple
// platforms (every Apple arm64 CPU has FEAT_AES) and in builds that state it
// with -D TACK_ASSUME_ARMV8_AES; otherwise the portable path runs.
//
// AESE is AddRoundKey, SubBytes and ShiftRows; AESD is AddRoundKey,
// InvShiftRows and InvSubBytes; so the round key comes first in each round and
// the last round key is a plain XOR.

#if TACK_HARDWARE_AES && arch(arm64)
import _Builtin_intrinsics.arm.neon

#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || TACK_ASSUME_ARMV8_AES
/// Every Apple arm64 CPU has FEAT_AES, and a TACK_ASSUME_ARMV8_AES build
/// states that its CPU does.
let hardwareAESIsAvailable = true
#else
/// The core cannot ask this platform whether the CPU has FEAT_AES (see the
/// top of this file), so it does not use the instructions.
let hardwareAESIsAvailable = false
#endif

@inline(__always)
private func load(_ address: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
    UnsafeRawPointer(address).loadUnaligned(as: SIMD16<UInt8>.self)
}

@inline(__always)
private func store(_ value: SIMD16<UInt8>, _ address: UnsafeMutablePointer<UInt8>) {
    UnsafeMutableRawPointer(address).storeBytes(of: value, as: SIMD16<UInt8>.self)
}

/// Encrypts one block in place with the expanded key (16 bytes per round key).
func aesEncryptBlockHardware(_ block: UnsafeMutablePointer<UInt8>, roundKeys: UnsafePointer<UInt8>, rounds: Int) {
    var x = load(block)
    for round in 0..<(rounds - 1) {
        x = vaesmcq_u8(vaeseq_u8(x, load(roundKeys + 16 * round)))
    }
    x = vaeseq_u8(x, load(roundKeys + 16 * (rounds - 1))) ^ load(roundKeys + 16 * rounds)
    store(x, block)
}

/// Encrypts `count` blocks in place (no chaining: GCM's counter blocks), one
/// block at a time.
func aesEncryptBlocksHardware(
    _ blocks: UnsafeMutablePointer<UInt8>, count: Int, roundKeys: UnsafePointer<UInt8>, rounds: Int
) {
    for index in 0..<count { aesEncryptBlockHardware(blocks + 16 * index, roundKeys: roundKeys, rounds: rounds) }
}

/// Decrypts `count` blocks in place with the equivalent inverse cipher's round
/// keys (``aesHardwareDecryptionKeys(_:rounds:)``), one block at a time.
func aesDecryptBlocksHardware(
    _ blocks: UnsafeMutablePointer<UInt8>, count: Int, roundKeys: UnsafePointer<UInt8>, rounds: Int
) {
    let last = load(roundKeys + 16 * rounds)
    for index in 0..<count {
        let p = blocks + 16 * index
        var x = load(p)
        for round in 0..<(rounds - 1) {
            x = vaesimcq_u8(vaesdq_u8(x, load(roundKeys + 16 * round)))
        }
        x = vaesdq_u8(x, load(roundKeys + 16 * (rounds - 1))) ^ last
        store(x, p)
    }
}

/// InvMixColumns (AESIMC) of the 16-byte round key at `key`, in place.
func aesInverseMixColumnsHardware(_ key: UnsafeMutablePointer<UInt8>) {
    store(vaesimcq_u8(load(key)), key)
}

#endif

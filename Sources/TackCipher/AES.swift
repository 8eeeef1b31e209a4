/// AES (FIPS 197) in CBC mode with PKCS #7 padding (NIST SP 800-38A §6.2,
/// RFC 5652 §6.3), with 128-, 192- and 256-bit keys.
///
/// Each call expands the key, runs, and overwrites the expanded key before it
/// returns, so no round key outlives the call. The portable path is bitsliced
/// and constant-time (no table lookup or branch depends on the key or the
/// data); the hardware path (``AESImplementation/hardware``) uses the CPU's AES
/// instructions, which are constant-time too.
///
/// ```swift
/// let plaintext = try AES.decryptCBC(ciphertext, key: key, iv: iv)
/// ```
public enum AES {
    /// Encrypts with AES-CBC and PKCS #7 padding.
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to encrypt (any length, empty included).
    ///   - key: 16, 24 or 32 bytes.
    ///   - iv: 16 bytes.
    ///   - implementation: Which code runs; ``AESImplementation/bestAvailable``
    ///     unless a test or benchmark asks for one. An implementation that is
    ///     not available on this CPU falls back to the portable one.
    /// - Returns: The ciphertext: the plaintext's length rounded up to the next
    ///   multiple of 16 (a whole block of padding when it is already a multiple).
    /// - Throws: ``CipherError/invalidKeyLength(algorithm:byteCount:)`` or
    ///   ``CipherError/invalidIVLength(expected:found:)``.
    public static func encryptCBC(
        _ plaintext: some Collection<UInt8>, key: some Collection<UInt8>, iv: some Collection<UInt8>,
        implementation: AESImplementation = .bestAvailable
    ) throws(CipherError) -> [UInt8] {
        let ivBytes = try checkedIV(iv)
        var schedule = try AESKeySchedule(key: key, implementation: implementation)
        defer { schedule.wipe() }
        return cbcEncrypt(schedule, plaintext: plaintext, iv: ivBytes)
    }

    /// Decrypts AES-CBC and checks and removes PKCS #7 padding.
    ///
    /// The padding is checked strictly (n bytes of value n, 1 ≤ n ≤ 16) without
    /// branching on the decrypted bytes; only the final verdict is a branch.
    ///
    /// - Parameters:
    ///   - ciphertext: A non-zero multiple of 16 bytes.
    ///   - key: 16, 24 or 32 bytes.
    ///   - iv: 16 bytes.
    ///   - implementation: Which code runs (see ``encryptCBC(_:key:iv:implementation:)``).
    /// - Returns: The plaintext without its padding.
    /// - Throws: ``CipherError/invalidKeyLength(algorithm:byteCount:)``,
    ///   ``CipherError/invalidIVLength(expected:found:)``,
    ///   ``CipherError/ciphertextLengthNotBlockMultiple(byteCount:blockByteCount:)``,
    ///   or ``CipherError/badPadding`` (usually a wrong key).
    public static func decryptCBC(
        _ ciphertext: some Collection<UInt8>, key: some Collection<UInt8>, iv: some Collection<UInt8>,
        implementation: AESImplementation = .bestAvailable
    ) throws(CipherError) -> [UInt8] {
        let ivBytes = try checkedIV(iv)
        var schedule = try AESKeySchedule(key: key, implementation: implementation)
        defer { schedule.wipe() }
        return try cbcDecrypt(schedule, ciphertext: ciphertext, iv: ivBytes)
    }

    private static func checkedIV(_ iv: some Collection<UInt8>) throws(CipherError) -> [UInt8] {
        guard iv.count == 16 else { throw .invalidIVLength(expected: 16, found: iv.count) }
        return contiguousBytes(iv)
    }
}

/// Which AES code runs.
///
/// Both compute exactly the same function. ``AES`` picks ``bestAvailable``
/// unless told otherwise; the tests and benchmarks pick each one explicitly.
public enum AESImplementation: Sendable, Hashable {
    /// Bitsliced Swift, constant-time, on every platform.
    case portable
    /// The CPU's AES instructions, only when the module was built with the
    /// hardware path (the `HardwareSHA` package trait, on by default, which
    /// also governs the hardware SHA-256: see Package.swift) and the CPU has them:
    /// - x86-64: AES-NI (`AESENC`, `AESDEC`, `AESIMC`, …), where CPUID reports it
    ///   (leaf 1, ECX bit 25);
    /// - arm64: the ARMv8 Cryptographic Extension (`AESE`, `AESD`, `AESMC`,
    ///   `AESIMC`) on Apple platforms, and in builds that state the CPU has it
    ///   (`-D TACK_ASSUME_ARMV8_AES`); elsewhere the portable path runs.
    case hardware

    /// Whether this implementation can run on the current CPU.
    public var isAvailable: Bool {
        switch self {
        case .portable: true
        case .hardware: hardwareAESIsAvailable
        }
    }

    /// The fastest implementation this CPU supports.
    public static var bestAvailable: AESImplementation {
        hardwareAESIsAvailable ? .hardware : .portable
    }
}

/// An expanded AES key in the form its implementation needs. Never stored: it
/// lives for one call and is wiped with ``wipe()``.
struct AESKeySchedule: CBCBlockCipher {
    /// 10, 12 or 14.
    let rounds: Int
    let usesHardware: Bool
    /// Portable: eight bitsliced words per round key.
    var slices: [UInt64] = []
    /// Hardware: the round keys as bytes (16 per round key), for encryption.
    var encryptionKeys: [UInt8] = []
    /// Hardware: the equivalent inverse cipher's round keys (FIPS 197 §5.3.5),
    /// in decryption order.
    var decryptionKeys: [UInt8] = []

    var blockByteCount: Int { 16 }

    init(key: some Collection<UInt8>, implementation: AESImplementation) throws(CipherError) {
        switch key.count {
        case 16: rounds = 10
        case 24: rounds = 12
        case 32: rounds = 14
        default: throw .invalidKeyLength(algorithm: .aes, byteCount: key.count)
        }
        usesHardware = implementation == .hardware && hardwareAESIsAvailable
        var keyBytes = contiguousBytes(key)
        let rounds = self.rounds
        var expanded = keyBytes.withUnsafeBufferPointer { aesExpandKey($0, rounds: rounds) }
        zeroize(&keyBytes)
        if usesHardware {
            decryptionKeys = aesHardwareDecryptionKeys(expanded, rounds: rounds)
            encryptionKeys = expanded
        } else {
            slices = aesBitslicedRoundKeys(expanded, rounds: rounds)
            zeroize(&expanded)
        }
    }

    /// Overwrites every round key with zeros.
    mutating func wipe() {
        TackCipher.zeroize(&slices)
        TackCipher.zeroize(&encryptionKeys)
        TackCipher.zeroize(&decryptionKeys)
    }

    func encryptBlock(_ block: UnsafeMutablePointer<UInt8>) {
        if usesHardware {
            encryptionKeys.withUnsafeBufferPointer { keys in
                guard let keys = keys.baseAddress else { return }
                aesEncryptBlockHardware(block, roundKeys: keys, rounds: rounds)
            }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
            guard let four = scratch.baseAddress else { return }
            four.initialize(repeating: 0, count: 64)
            four.update(from: block, count: 16)
            slices.withUnsafeBufferPointer { keys in
                guard let keys = keys.baseAddress else { return }
                aesEncryptBitsliced(four, roundKeys: keys, rounds: rounds)
            }
            block.update(from: four, count: 16)
            four.update(repeating: 0, count: 64)
        }
    }

    /// Encrypts `count` consecutive blocks in place (no chaining): GCM's
    /// counter blocks, four at a time on either path.
    func encryptBlocks(_ blocks: UnsafeMutablePointer<UInt8>, count: Int) {
        if usesHardware {
            encryptionKeys.withUnsafeBufferPointer { keys in
                guard let keys = keys.baseAddress else { return }
                aesEncryptBlocksHardware(blocks, count: count, roundKeys: keys, rounds: rounds)
            }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
            guard let four = scratch.baseAddress else { return }
            four.initialize(repeating: 0, count: 64)
            slices.withUnsafeBufferPointer { keys in
                guard let keys = keys.baseAddress else { return }
                var index = 0
                while index < count {
                    let group = min(4, count - index)
                    four.update(from: blocks + 16 * index, count: 16 * group)
                    aesEncryptBitsliced(four, roundKeys: keys, rounds: rounds)
                    (blocks + 16 * index).update(from: four, count: 16 * group)
                    index += group
                }
            }
            four.update(repeating: 0, count: 64)
        }
    }

    func decryptBlocks(_ blocks: UnsafeMutablePointer<UInt8>, count: Int) {
        if usesHardware {
            decryptionKeys.withUnsafeBufferPointer { keys in
                guard let keys = keys.baseAddress else { return }
                aesDecryptBlocksHardware(blocks, count: count, roundKeys: keys, rounds: rounds)
            }
            return
        }
        slices.withUnsafeBufferPointer { keys in
            guard let keys = keys.baseAddress else { return }
            var index = 0
            while index + 4 <= count {
                aesDecryptBitsliced(blocks + 16 * index, roundKeys: keys, rounds: rounds)
                index += 4
            }
            let left = count - index
            guard left > 0 else { return }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
                guard let four = scratch.baseAddress else { return }
                four.initialize(repeating: 0, count: 64)
                four.update(from: blocks + 16 * index, count: 16 * left)
                aesDecryptBitsliced(four, roundKeys: keys, rounds: rounds)
                (blocks + 16 * index).update(from: four, count: 16 * left)
                four.update(repeating: 0, count: 64)
            }
        }
    }
}

/// The equivalent inverse cipher's round keys for the hardware paths (FIPS 197
/// §5.3.5): the encryption round keys in reverse order, InvMixColumns applied
/// to all but the first and last (by AESIMC on x86-64, AESIMC on ARMv8).
func aesHardwareDecryptionKeys(_ encryptionKeys: [UInt8], rounds: Int) -> [UInt8] {
    var keys = [UInt8](repeating: 0, count: encryptionKeys.count)
    for index in 0...rounds {
        let source = 16 * (rounds - index)
        keys.replaceSubrange((16 * index)..<(16 * index + 16), with: encryptionKeys[source..<(source + 16)])
    }
    keys.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        for index in 1..<rounds { aesInverseMixColumnsHardware(base + 16 * index) }
    }
    return keys
}

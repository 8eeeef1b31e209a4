// DES (FIPS 46-3) and Triple DES in the EDE form (NIST SP 800-67 Rev. 2),
// for reading old files only: PKCS #12 files written with
// pbeWithSHAAnd3-KeyTripleDES-CBC (OpenSSL before 3.0, `-legacy`, `-descert`)
// and PBES2 with des-ede3-cbc.
//
// LEGACY, NOT CONSTANT-TIME: the S-boxes are table lookups indexed by key- and
// data-dependent bits, and the bit permutations loop over tables. That is
// acceptable only for decrypting existing files with a key derived from a
// passphrase the user holds; never use it for a key Tack generates or for new
// data. Written for clarity over speed: one bit at a time.

/// Triple DES (DES-EDE3, NIST SP 800-67) in CBC mode with PKCS #7 padding.
///
/// Legacy, not constant-time, for reading old files only (PKCS #12 and PBES2
/// files written with `des-ede3-cbc`): its S-boxes are table lookups indexed by
/// secret bits. Keys are 24 bytes (three-key, K1 ‖ K2 ‖ K3) or 16 bytes
/// (two-key, K3 = K1); the parity bits of each DES key are ignored, as every
/// implementation does. Encryption is E(K3, D(K2, E(K1, x))).
public enum TripleDES {
    /// Encrypts with DES-EDE3-CBC and PKCS #7 padding (for tests and round trips;
    /// legacy, not constant-time).
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to encrypt.
    ///   - key: 24 bytes (three-key) or 16 bytes (two-key).
    ///   - iv: 8 bytes.
    /// - Returns: The ciphertext, a multiple of 8 bytes.
    /// - Throws: ``CipherError/invalidKeyLength(algorithm:byteCount:)`` or
    ///   ``CipherError/invalidIVLength(expected:found:)``.
    public static func encryptCBC(
        _ plaintext: some Collection<UInt8>, key: some Collection<UInt8>, iv: some Collection<UInt8>
    ) throws(CipherError) -> [UInt8] {
        let ivBytes = try checkedIV(iv)
        var schedule = try TripleDESKeySchedule(key: key)
        defer { schedule.wipe() }
        return cbcEncrypt(schedule, plaintext: plaintext, iv: ivBytes)
    }

    /// Decrypts DES-EDE3-CBC and checks and removes PKCS #7 padding (legacy,
    /// not constant-time; the padding check itself does not branch on the data).
    ///
    /// - Parameters:
    ///   - ciphertext: A non-zero multiple of 8 bytes.
    ///   - key: 24 bytes (three-key) or 16 bytes (two-key).
    ///   - iv: 8 bytes.
    /// - Returns: The plaintext without its padding.
    /// - Throws: ``CipherError/invalidKeyLength(algorithm:byteCount:)``,
    ///   ``CipherError/invalidIVLength(expected:found:)``,
    ///   ``CipherError/ciphertextLengthNotBlockMultiple(byteCount:blockByteCount:)``
    ///   or ``CipherError/badPadding``.
    public static func decryptCBC(
        _ ciphertext: some Collection<UInt8>, key: some Collection<UInt8>, iv: some Collection<UInt8>
    ) throws(CipherError) -> [UInt8] {
        let ivBytes = try checkedIV(iv)
        var schedule = try TripleDESKeySchedule(key: key)
        defer { schedule.wipe() }
        return try cbcDecrypt(schedule, ciphertext: ciphertext, iv: ivBytes)
    }

    private static func checkedIV(_ iv: some Collection<UInt8>) throws(CipherError) -> [UInt8] {
        guard iv.count == 8 else { throw .invalidIVLength(expected: 8, found: iv.count) }
        return contiguousBytes(iv)
    }
}

/// Three DES key schedules (16 round keys of 48 bits each).
struct TripleDESKeySchedule: CBCBlockCipher {
    var first: [UInt64]
    var second: [UInt64]
    var third: [UInt64]

    var blockByteCount: Int { 8 }

    init(key: some Collection<UInt8>) throws(CipherError) {
        var bytes = contiguousBytes(key)
        defer { zeroize(&bytes) }
        guard bytes.count == 24 || bytes.count == 16 else {
            throw .invalidKeyLength(algorithm: .tripleDES, byteCount: bytes.count)
        }
        func word(_ offset: Int) -> UInt64 {
            var value: UInt64 = 0
            for i in 0..<8 { value = value << 8 | UInt64(bytes[offset + i]) }
            return value
        }
        first = desRoundKeys(word(0))
        second = desRoundKeys(word(8))
        third = bytes.count == 24 ? desRoundKeys(word(16)) : first
    }

    mutating func wipe() {
        zeroize(&first)
        zeroize(&second)
        zeroize(&third)
    }

    func encryptBlock(_ block: UnsafeMutablePointer<UInt8>) {
        var x = loadBigEndian(block)
        x = desBlock(x, first, decrypt: false)
        x = desBlock(x, second, decrypt: true)
        x = desBlock(x, third, decrypt: false)
        storeBigEndian(x, block)
    }

    func decryptBlocks(_ blocks: UnsafeMutablePointer<UInt8>, count: Int) {
        for index in 0..<count {
            let block = blocks + 8 * index
            var x = loadBigEndian(block)
            x = desBlock(x, third, decrypt: true)
            x = desBlock(x, second, decrypt: false)
            x = desBlock(x, first, decrypt: true)
            storeBigEndian(x, block)
        }
    }
}

@inline(__always)
func loadBigEndian(_ block: UnsafePointer<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    for i in 0..<8 { value = value << 8 | UInt64(block[i]) }
    return value
}

@inline(__always)
func storeBigEndian(_ value: UInt64, _ block: UnsafeMutablePointer<UInt8>) {
    for i in 0..<8 { block[i] = UInt8(truncatingIfNeeded: value >> (56 - 8 * i)) }
}

/// A bit permutation as FIPS 46-3 writes them: output bit k (1 = most
/// significant) is input bit `table[k]` of an `inputBits`-bit value.
private func permute(_ input: UInt64, _ table: [UInt8], inputBits: Int) -> UInt64 {
    var output: UInt64 = 0
    for position in table {
        output = output << 1 | (input >> UInt64(inputBits - Int(position))) & 1
    }
    return output
}

/// The sixteen 48-bit round keys of one DES key (FIPS 46-3, "Key Schedule
/// Calculation": PC-1, left rotations of the two 28-bit halves, PC-2).
private func desRoundKeys(_ key: UInt64) -> [UInt64] {
    let permuted = permute(key, DESTables.pc1, inputBits: 64)
    var c = permuted >> 28
    var d = permuted & 0x0FFF_FFFF
    var keys = [UInt64](repeating: 0, count: 16)
    for round in 0..<16 {
        let shift = UInt64(DESTables.shifts[round])
        c = ((c << shift) | (c >> (28 - shift))) & 0x0FFF_FFFF
        d = ((d << shift) | (d >> (28 - shift))) & 0x0FFF_FFFF
        keys[round] = permute(c << 28 | d, DESTables.pc2, inputBits: 56)
    }
    return keys
}

/// DES on one 64-bit block: IP, sixteen Feistel rounds (round keys in reverse
/// order to decrypt), the halves swapped, IP⁻¹.
private func desBlock(_ block: UInt64, _ keys: [UInt64], decrypt: Bool) -> UInt64 {
    let permuted = permute(block, DESTables.initialPermutation, inputBits: 64)
    var left = permuted >> 32
    var right = permuted & 0xFFFF_FFFF
    for round in 0..<16 {
        let key = keys[decrypt ? 15 - round : round]
        (left, right) = (right, left ^ feistel(right, key))
    }
    return permute(right << 32 | left, DESTables.finalPermutation, inputBits: 64)
}

/// The cipher function f(R, K): expansion E, XOR with the round key, the
/// eight S-boxes (row from the outer bits, column from the inner four), P.
private func feistel(_ right: UInt64, _ key: UInt64) -> UInt64 {
    let mixed = permute(right, DESTables.expansion, inputBits: 32) ^ key
    var substituted: UInt64 = 0
    for box in 0..<8 {
        let six = Int((mixed >> UInt64(42 - 6 * box)) & 0x3F)
        let row = (six >> 4) & 2 | six & 1
        let column = (six >> 1) & 0xF
        substituted = substituted << 4 | UInt64(DESTables.sBoxes[box * 64 + row * 16 + column])
    }
    return permute(substituted, DESTables.permutation, inputBits: 32)
}

/// The tables of FIPS 46-3 (bit positions numbered from 1, most significant first).
private enum DESTables {
    static let initialPermutation: [UInt8] = [
        58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
        62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
        57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
        61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
    ]

    /// IP⁻¹, computed from IP.
    static let finalPermutation: [UInt8] = {
        var inverse = [UInt8](repeating: 0, count: 64)
        for (index, position) in initialPermutation.enumerated() {
            inverse[Int(position) - 1] = UInt8(index + 1)
        }
        return inverse
    }()

    static let expansion: [UInt8] = [
        32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9, 8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17,
        16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25, 24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1,
    ]

    static let permutation: [UInt8] = [
        16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
        2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
    ]

    static let pc1: [UInt8] = [
        57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
        10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
        63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
        14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
    ]

    static let pc2: [UInt8] = [
        14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, 23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
        41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
    ]

    static let shifts: [UInt8] = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1]

    /// S1 to S8, each four rows of sixteen.
    static let sBoxes: [UInt8] = [
        14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
        0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
        4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
        15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13,

        15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
        3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
        0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
        13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9,

        10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
        13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
        13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
        1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12,

        7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
        13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
        10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
        3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14,

        2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
        14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
        4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
        11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3,

        12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
        10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
        9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
        4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13,

        4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
        13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
        1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
        6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12,

        13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
        1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
        7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
        2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11,
    ]
}

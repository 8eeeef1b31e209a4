// RC2 (RFC 2268), for reading old files only: PKCS #12 files written with
// pbeWithSHAAnd40BitRC2-CBC (the certificate bag of OpenSSL before 3.0 and of
// `-legacy`) or pbeWithSHAAnd128BitRC2-CBC.
//
// LEGACY, NOT CONSTANT-TIME: the key expansion indexes PITABLE with key bytes
// and each mashing round indexes the expanded key with data bits. Acceptable
// only for decrypting existing files; never for a key Tack generates.

/// RC2 (RFC 2268) in CBC mode with PKCS #7 padding.
///
/// Legacy, not constant-time, for reading old files only (PKCS #12 files
/// written with 40- or 128-bit RC2): its key expansion and mashing rounds are
/// table lookups indexed by secret bytes. The key is 1 to 128 bytes; the
/// effective key bits (RFC 2268 §2: 40 for `pbeWithSHAAnd40BitRC2-CBC`, 128 for
/// `pbeWithSHAAnd128BitRC2-CBC`) are a separate parameter that shapes the key
/// expansion.
public enum RC2 {
    /// Encrypts with RC2-CBC and PKCS #7 padding (for tests and round trips;
    /// legacy, not constant-time).
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to encrypt.
    ///   - key: 1 to 128 bytes.
    ///   - effectiveKeyBits: 1 to 1024 (RFC 2268 §2's T1).
    ///   - iv: 8 bytes.
    /// - Returns: The ciphertext, a multiple of 8 bytes.
    /// - Throws: ``CipherError/invalidKeyLength(algorithm:byteCount:)``,
    ///   ``CipherError/invalidEffectiveKeyBits(_:)`` or
    ///   ``CipherError/invalidIVLength(expected:found:)``.
    public static func encryptCBC(
        _ plaintext: some Collection<UInt8>, key: some Collection<UInt8>, effectiveKeyBits: Int,
        iv: some Collection<UInt8>
    ) throws(CipherError) -> [UInt8] {
        let ivBytes = try checkedIV(iv)
        var schedule = try RC2KeySchedule(key: key, effectiveKeyBits: effectiveKeyBits)
        defer { schedule.wipe() }
        return cbcEncrypt(schedule, plaintext: plaintext, iv: ivBytes)
    }

    /// Decrypts RC2-CBC and checks and removes PKCS #7 padding (legacy, not
    /// constant-time; the padding check itself does not branch on the data).
    ///
    /// - Parameters:
    ///   - ciphertext: A non-zero multiple of 8 bytes.
    ///   - key: 1 to 128 bytes.
    ///   - effectiveKeyBits: 1 to 1024 (RFC 2268 §2's T1).
    ///   - iv: 8 bytes.
    /// - Returns: The plaintext without its padding.
    /// - Throws: ``CipherError/invalidKeyLength(algorithm:byteCount:)``,
    ///   ``CipherError/invalidEffectiveKeyBits(_:)``,
    ///   ``CipherError/invalidIVLength(expected:found:)``,
    ///   ``CipherError/ciphertextLengthNotBlockMultiple(byteCount:blockByteCount:)``
    ///   or ``CipherError/badPadding``.
    public static func decryptCBC(
        _ ciphertext: some Collection<UInt8>, key: some Collection<UInt8>, effectiveKeyBits: Int,
        iv: some Collection<UInt8>
    ) throws(CipherError) -> [UInt8] {
        let ivBytes = try checkedIV(iv)
        var schedule = try RC2KeySchedule(key: key, effectiveKeyBits: effectiveKeyBits)
        defer { schedule.wipe() }
        return try cbcDecrypt(schedule, ciphertext: ciphertext, iv: ivBytes)
    }

    private static func checkedIV(_ iv: some Collection<UInt8>) throws(CipherError) -> [UInt8] {
        guard iv.count == 8 else { throw .invalidIVLength(expected: 8, found: iv.count) }
        return contiguousBytes(iv)
    }
}

/// RC2's 64 expanded key words K[0...63] (RFC 2268 §2).
struct RC2KeySchedule: CBCBlockCipher {
    var words: [UInt16]

    var blockByteCount: Int { 8 }

    init(key: some Collection<UInt8>, effectiveKeyBits: Int) throws(CipherError) {
        var l = contiguousBytes(key)
        guard (1...128).contains(l.count) else {
            let count = l.count
            zeroize(&l)
            throw .invalidKeyLength(algorithm: .rc2, byteCount: count)
        }
        guard (1...1024).contains(effectiveKeyBits) else {
            zeroize(&l)
            throw .invalidEffectiveKeyBits(effectiveKeyBits)
        }
        let t = l.count
        // T8 = ceil(T1 / 8); TM = 255 mod 2^(8 + T1 − 8·T8).
        let t8 = (effectiveKeyBits + 7) / 8
        let tm = UInt8(0xFF >> (8 * t8 - effectiveKeyBits))
        l += [UInt8](repeating: 0, count: 128 - t)
        for i in t..<128 {
            l[i] = rc2PiTable[Int(l[i - 1] &+ l[i - t])]
        }
        l[128 - t8] = rc2PiTable[Int(l[128 - t8] & tm)]
        var i = 127 - t8
        while i >= 0 {
            l[i] = rc2PiTable[Int(l[i + 1] ^ l[i + t8])]
            i -= 1
        }
        words = (0..<64).map { UInt16(l[2 * $0]) | UInt16(l[2 * $0 + 1]) << 8 }
        zeroize(&l)
    }

    mutating func wipe() {
        zeroize(&words)
    }

    /// RFC 2268 §3: five mixing rounds, a mashing round, six mixing rounds,
    /// a mashing round, five mixing rounds.
    func encryptBlock(_ block: UnsafeMutablePointer<UInt8>) {
        var r = load(block)
        var j = 0
        func mix() {
            r.0 = rotateLeft(r.0 &+ words[j] &+ (r.3 & r.2) &+ (~r.3 & r.1), 1)
            r.1 = rotateLeft(r.1 &+ words[j + 1] &+ (r.0 & r.3) &+ (~r.0 & r.2), 2)
            r.2 = rotateLeft(r.2 &+ words[j + 2] &+ (r.1 & r.0) &+ (~r.1 & r.3), 3)
            r.3 = rotateLeft(r.3 &+ words[j + 3] &+ (r.2 & r.1) &+ (~r.2 & r.0), 5)
            j += 4
        }
        func mash() {
            r.0 = r.0 &+ words[Int(r.3 & 63)]
            r.1 = r.1 &+ words[Int(r.0 & 63)]
            r.2 = r.2 &+ words[Int(r.1 & 63)]
            r.3 = r.3 &+ words[Int(r.2 & 63)]
        }
        for _ in 0..<5 { mix() }
        mash()
        for _ in 0..<6 { mix() }
        mash()
        for _ in 0..<5 { mix() }
        store(r, block)
    }

    /// RFC 2268 §4: the rounds of §3 inverted, in reverse order.
    func decryptBlocks(_ blocks: UnsafeMutablePointer<UInt8>, count: Int) {
        for index in 0..<count {
            let block = blocks + 8 * index
            var r = load(block)
            var j = 63
            func unmix() {
                r.3 = rotateLeft(r.3, 11) &- words[j] &- (r.2 & r.1) &- (~r.2 & r.0)
                r.2 = rotateLeft(r.2, 13) &- words[j - 1] &- (r.1 & r.0) &- (~r.1 & r.3)
                r.1 = rotateLeft(r.1, 14) &- words[j - 2] &- (r.0 & r.3) &- (~r.0 & r.2)
                r.0 = rotateLeft(r.0, 15) &- words[j - 3] &- (r.3 & r.2) &- (~r.3 & r.1)
                j -= 4
            }
            func unmash() {
                r.3 = r.3 &- words[Int(r.2 & 63)]
                r.2 = r.2 &- words[Int(r.1 & 63)]
                r.1 = r.1 &- words[Int(r.0 & 63)]
                r.0 = r.0 &- words[Int(r.3 & 63)]
            }
            for _ in 0..<5 { unmix() }
            unmash()
            for _ in 0..<6 { unmix() }
            unmash()
            for _ in 0..<5 { unmix() }
            store(r, block)
        }
    }

    private func rotateLeft(_ x: UInt16, _ s: UInt16) -> UInt16 { (x << s) | (x >> (16 - s)) }

    /// The block as four little-endian 16-bit words R[0...3].
    private func load(_ block: UnsafePointer<UInt8>) -> (UInt16, UInt16, UInt16, UInt16) {
        func word(_ i: Int) -> UInt16 { UInt16(block[2 * i]) | UInt16(block[2 * i + 1]) << 8 }
        return (word(0), word(1), word(2), word(3))
    }

    private func store(_ r: (UInt16, UInt16, UInt16, UInt16), _ block: UnsafeMutablePointer<UInt8>) {
        for (i, word) in [r.0, r.1, r.2, r.3].enumerated() {
            block[2 * i] = UInt8(truncatingIfNeeded: word)
            block[2 * i + 1] = UInt8(truncatingIfNeeded: word >> 8)
        }
    }
}

/// PITABLE (RFC 2268 §2): a permutation of 0...255 derived from the digits of π.
private let rc2PiTable: [UInt8] = [
    0xd9, 0x78, 0xf9, 0xc4, 0x19, 0xdd, 0xb5, 0xed, 0x28, 0xe9, 0xfd, 0x79, 0x4a, 0xa0, 0xd8, 0x9d,
    0xc6, 0x7e, 0x37, 0x83, 0x2b, 0x76, 0x53, 0x8e, 0x62, 0x4c, 0x64, 0x88, 0x44, 0x8b, 0xfb, 0xa2,
    0x17, 0x9a, 0x59, 0xf5, 0x87, 0xb3, 0x4f, 0x13, 0x61, 0x45, 0x6d, 0x8d, 0x09, 0x81, 0x7d, 0x32,
    0xbd, 0x8f, 0x40, 0xeb, 0x86, 0xb7, 0x7b, 0x0b, 0xf0, 0x95, 0x21, 0x22, 0x5c, 0x6b, 0x4e, 0x82,
    0x54, 0xd6, 0x65, 0x93, 0xce, 0x60, 0xb2, 0x1c, 0x73, 0x56, 0xc0, 0x14, 0xa7, 0x8c, 0xf1, 0xdc,
    0x12, 0x75, 0xca, 0x1f, 0x3b, 0xbe, 0xe4, 0xd1, 0x42, 0x3d, 0xd4, 0x30, 0xa3, 0x3c, 0xb6, 0x26,
    0x6f, 0xbf, 0x0e, 0xda, 0x46, 0x69, 0x07, 0x57, 0x27, 0xf2, 0x1d, 0x9b, 0xbc, 0x94, 0x43, 0x03,
    0xf8, 0x11, 0xc7, 0xf6, 0x90, 0xef, 0x3e, 0xe7, 0x06, 0xc3, 0xd5, 0x2f, 0xc8, 0x66, 0x1e, 0xd7,
    0x08, 0xe8, 0xea, 0xde, 0x80, 0x52, 0xee, 0xf7, 0x84, 0xaa, 0x72, 0xac, 0x35, 0x4d, 0x6a, 0x2a,
    0x96, 0x1a, 0xd2, 0x71, 0x5a, 0x15, 0x49, 0x74, 0x4b, 0x9f, 0xd0, 0x5e, 0x04, 0x18, 0xa4, 0xec,
    0xc2, 0xe0, 0x41, 0x6e, 0x0f, 0x51, 0xcb, 0xcc, 0x24, 0x91, 0xaf, 0x50, 0xa1, 0xf4, 0x70, 0x39,
    0x99, 0x7c, 0x3a, 0x85, 0x23, 0xb8, 0xb4, 0x7a, 0xfc, 0x02, 0x36, 0x5b, 0x25, 0x55, 0x97, 0x31,
    0x2d, 0x5d, 0xfa, 0x98, 0xe3, 0x8a, 0x92, 0xae, 0x05, 0xdf, 0x29, 0x10, 0x67, 0x6c, 0xba, 0xc9,
    0xd3, 0x00, 0xe6, 0xcf, 0xe1, 0x9e, 0xa8, 0x2c, 0x63, 0x16, 0x01, 0x3f, 0x58, 0xe2, 0x89, 0xa9,
    0x0d, 0x38, 0x34, 0x1b, 0xab, 0x33, 0xff, 0xb0, 0xbb, 0x48, 0x0c, 0x5f, 0xb9, 0xb1, 0xcd, 0x2e,
    0xc5, 0xf3, 0xdb, 0x47, 0xe5, 0xa5, 0x9c, 0x77, 0x0a, 0xa6, 0x20, 0x68, 0xfe, 0x7f, 0xc1, 0xad,
]

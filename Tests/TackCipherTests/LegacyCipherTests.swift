import Foundation
import TackTestSupport
import Testing

@testable import TackCipher

/// One block through a key schedule, no chaining.
private func block(_ input: [UInt8], _ cipher: some CBCBlockCipher, decrypt: Bool) -> [UInt8] {
    var output = input
    output.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        if decrypt {
            cipher.decryptBlocks(base, count: buffer.count / cipher.blockByteCount)
        } else {
            for offset in stride(from: 0, to: buffer.count, by: cipher.blockByteCount) {
                cipher.encryptBlock(base + offset)
            }
        }
    }
    return output
}

/// One line of Vectors/legacy-ciphers/vectors.txt.
struct LegacyVector: CustomTestStringConvertible, Sendable {
    let algorithm: String
    let key: [UInt8]
    let effectiveBits: Int
    let iv: [UInt8]
    let plaintext: [UInt8]
    let ciphertext: [UInt8]
    var testDescription: String { "\(algorithm) key \(key.count) bytes, \(plaintext.count)-byte plaintext" }

    static func all() -> [LegacyVector] {
        guard let text = try? String(contentsOf: RepositoryPaths.vectors("legacy-ciphers/vectors.txt"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 6, let bits = Int(fields[2]) else { return nil }
            func hex(_ field: String) -> [UInt8] { field == "-" ? [] : hexBytes(field) }
            return LegacyVector(
                algorithm: fields[0], key: hex(fields[1]), effectiveBits: bits, iv: hex(fields[3]),
                plaintext: hex(fields[4]), ciphertext: hex(fields[5]))
        }
    }
}

@Suite("Legacy ciphers: DES-EDE3 and RC2")
struct LegacyCipherTests {
    @Test("The OpenSSL-made vector file is there and complete")
    func vectorFileIsPresent() {
        let vectors = LegacyVector.all()
        #expect(vectors.count == 26)
        #expect(Set(vectors.map(\.algorithm)) == ["des-ede3-cbc", "des-ede-cbc", "rc2-cbc"])
    }

    @Test("OpenSSL's DES-EDE3-CBC and RC2-CBC encryptions, both directions", arguments: LegacyVector.all())
    func openSSLVectors(_ vector: LegacyVector) throws {
        if vector.algorithm == "rc2-cbc" {
            #expect(try RC2.encryptCBC(vector.plaintext, key: vector.key, effectiveKeyBits: vector.effectiveBits, iv: vector.iv)
                    == vector.ciphertext)
            #expect(try RC2.decryptCBC(vector.ciphertext, key: vector.key, effectiveKeyBits: vector.effectiveBits, iv: vector.iv)
                    == vector.plaintext)
        } else {
            #expect(try TripleDES.encryptCBC(vector.plaintext, key: vector.key, iv: vector.iv) == vector.ciphertext)
            #expect(try TripleDES.decryptCBC(vector.ciphertext, key: vector.key, iv: vector.iv) == vector.plaintext)
        }
    }

    @Test("NIST SP 800-67's Triple DES example and the classic single-DES example (K1 = K2 = K3)")
    func publishedDES() throws {
        let keys = try TripleDESKeySchedule(key: hexBytes("0123456789abcdef23456789abcdef01456789abcdef0123"))
        // The standard's plaintext is "The qufck brown fox jump", spelled so.
        let plaintext = Array("The qufck brown fox jump".utf8)
        let expected = hexBytes("a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900")
        #expect(block(plaintext, keys, decrypt: false) == expected)
        #expect(block(expected, keys, decrypt: true) == plaintext)
        let single = try TripleDESKeySchedule(key: hexBytes("133457799bbcdff1133457799bbcdff1133457799bbcdff1"))
        #expect(block(hexBytes("0123456789abcdef"), single, decrypt: false) == hexBytes("85e813540f0ab405"))
    }

    /// RFC 2268 §5: key, effective key bits, plaintext, ciphertext.
    static let rfc2268: [(key: String, bits: Int, plaintext: String, ciphertext: String)] = [
        ("0000000000000000", 63, "0000000000000000", "ebb773f993278eff"),
        ("ffffffffffffffff", 64, "ffffffffffffffff", "278b27e42e2f0d49"),
        ("3000000000000000", 64, "1000000000000001", "30649edf9be7d2c2"),
        ("88", 64, "0000000000000000", "61a8a244adacccf0"),
        ("88bca90e90875a", 64, "0000000000000000", "6ccf4308974c267f"),
        ("88bca90e90875a7f0f79c384627bafb2", 64, "0000000000000000", "1a807d272bbe5db1"),
        ("88bca90e90875a7f0f79c384627bafb2", 128, "0000000000000000", "2269552ab0f85ca6"),
        ("88bca90e90875a7f0f79c384627bafb216f80a6f85920584c42fceb0be255daf1e", 129, "0000000000000000", "5b78d3a43dfff1f1"),
    ]

    @Test("RFC 2268 §5 RC2 known answers, both directions", arguments: rfc2268)
    func rfc2268KnownAnswers(key: String, bits: Int, plaintext: String, ciphertext: String) throws {
        let schedule = try RC2KeySchedule(key: hexBytes(key), effectiveKeyBits: bits)
        #expect(block(hexBytes(plaintext), schedule, decrypt: false) == hexBytes(ciphertext))
        #expect(block(hexBytes(ciphertext), schedule, decrypt: true) == hexBytes(plaintext))
    }

    @Test("Bad parameters are refused with exact errors")
    func badParameters() {
        let iv = [UInt8](repeating: 0, count: 8)
        #expect(throws: CipherError.invalidKeyLength(algorithm: .tripleDES, byteCount: 8)) {
            try TripleDES.decryptCBC([UInt8](repeating: 0, count: 8), key: [UInt8](repeating: 1, count: 8), iv: iv)
        }
        #expect(throws: CipherError.invalidIVLength(expected: 8, found: 16)) {
            try TripleDES.decryptCBC([UInt8](repeating: 0, count: 8), key: [UInt8](repeating: 1, count: 24),
                                     iv: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: CipherError.ciphertextLengthNotBlockMultiple(byteCount: 12, blockByteCount: 8)) {
            try TripleDES.decryptCBC([UInt8](repeating: 0, count: 12), key: [UInt8](repeating: 1, count: 24), iv: iv)
        }
        #expect(throws: CipherError.invalidKeyLength(algorithm: .rc2, byteCount: 0)) {
            try RC2.decryptCBC([UInt8](repeating: 0, count: 8), key: [], effectiveKeyBits: 40, iv: iv)
        }
        #expect(throws: CipherError.invalidKeyLength(algorithm: .rc2, byteCount: 129)) {
            try RC2.decryptCBC([UInt8](repeating: 0, count: 8), key: [UInt8](repeating: 1, count: 129),
                               effectiveKeyBits: 40, iv: iv)
        }
        #expect(throws: CipherError.invalidEffectiveKeyBits(0)) {
            try RC2.decryptCBC([UInt8](repeating: 0, count: 8), key: [1, 2, 3, 4, 5], effectiveKeyBits: 0, iv: iv)
        }
        #expect(throws: CipherError.invalidEffectiveKeyBits(1025)) {
            try RC2.encryptCBC([], key: [1, 2, 3, 4, 5], effectiveKeyBits: 1025, iv: iv)
        }
    }

    @Test("A wrong key ends in a padding error, not in garbage")
    func wrongKey() throws {
        // 40-bit RC2 as in old PKCS #12 certificate bags: 64 random-looking blocks
        // under the wrong key fail the padding check for the chosen seed.
        var stream = DeterministicStream(state: 0x0DE5_0040)
        let key = stream.bytes(5)
        let iv = stream.bytes(8)
        let ciphertext = try RC2.encryptCBC(stream.bytes(100), key: key, effectiveKeyBits: 40, iv: iv)
        var wrong = key
        wrong[0] ^= 1
        #expect(throws: CipherError.badPadding) {
            try RC2.decryptCBC(ciphertext, key: wrong, effectiveKeyBits: 40, iv: iv)
        }
    }
}

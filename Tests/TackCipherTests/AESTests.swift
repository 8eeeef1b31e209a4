import Foundation
import TackTestSupport
import Testing

@testable import TackCipher

/// The AES S-box computed the slow, obvious way (FIPS 197 §5.1.1: the inverse
/// in GF(2^8), then the affine map), to check the bitsliced circuit against.
private func referenceSBox(_ x: UInt8) -> UInt8 {
    func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var (a, b, product) = (a, b, UInt8(0))
        for _ in 0..<8 {
            if b & 1 != 0 { product ^= a }
            let carry = a & 0x80
            a <<= 1
            if carry != 0 { a ^= 0x1B }
            b >>= 1
        }
        return product
    }
    var inverse: UInt8 = 0
    if x != 0 {
        for candidate in 1...255 where multiply(x, UInt8(candidate)) == 1 { inverse = UInt8(candidate) }
    }
    var result: UInt8 = 0x63
    for i in 0..<8 {
        let bit = (inverse >> i) ^ (inverse >> ((i + 4) % 8)) ^ (inverse >> ((i + 5) % 8))
            ^ (inverse >> ((i + 6) % 8)) ^ (inverse >> ((i + 7) % 8))
        result ^= (bit & 1) << i
    }
    return result
}

/// Encrypts or decrypts whole blocks with no chaining (ECB), through the key
/// schedule of one implementation: the known answers of FIPS 197 are single blocks.
private func blocks(
    _ input: [UInt8], key: [UInt8], implementation: AESImplementation, decrypt: Bool
) throws -> [UInt8] {
    var schedule = try AESKeySchedule(key: key, implementation: implementation)
    defer { schedule.wipe() }
    var output = input
    output.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        if decrypt {
            schedule.decryptBlocks(base, count: buffer.count / 16)
        } else {
            schedule.encryptBlocks(base, count: buffer.count / 16)
        }
    }
    return output
}

/// Every implementation this machine can run.
private let implementations: [AESImplementation] = AESImplementation.hardware.isAvailable ? [.portable, .hardware] : [.portable]

@Suite("AES")
struct AESTests {
    @Test("The bitsliced S-box equals FIPS 197's on all 256 bytes, and the inverse S-box inverts it")
    func sBox() {
        for base in stride(from: 0, to: 256, by: 4) {
            let word = UInt32(base) | UInt32(base + 1) << 8 | UInt32(base + 2) << 16 | UInt32(base + 3) << 24
            let substituted = aesSubWord(word)
            for j in 0..<4 {
                let byte = UInt8(base + j)
                #expect(UInt8(truncatingIfNeeded: substituted >> (8 * j)) == referenceSBox(byte), "S(\(byte))")
            }
        }
        // The inverse, on four blocks that hold every byte value once.
        var bytes = (0..<64).map { UInt8($0) }
        for offset in stride(from: 0, to: 256, by: 64) {
            let input = (0..<64).map { UInt8(offset + $0) }
            bytes = input.map(referenceSBox)
            var q = bytes.withUnsafeBufferPointer { aesPack($0.baseAddress!) }
            aesInverseSubBytes(&q)
            bytes.withUnsafeMutableBufferPointer { aesUnpack(q, into: $0.baseAddress!) }
            #expect(bytes == input)
        }
    }

    @Test("Packing into slices and back is the identity")
    func packRoundTrip() {
        var stream = DeterministicStream(state: 0x5EED_0001)
        let input = stream.bytes(64)
        let q = input.withUnsafeBufferPointer { aesPack($0.baseAddress!) }
        var output = [UInt8](repeating: 0, count: 64)
        output.withUnsafeMutableBufferPointer { aesUnpack(q, into: $0.baseAddress!) }
        #expect(output == input)
    }

    @Test("Bitsliced ShiftRows and MixColumns equal FIPS 197 §5.1.2-5.1.3 on four blocks, and their inverses invert them")
    func roundFunctions() {
        var stream = DeterministicStream(state: 0x5EED_0002)
        let input = stream.bytes(64)
        func through(_ step: (inout AESSlices) -> Void) -> [UInt8] {
            var q = input.withUnsafeBufferPointer { aesPack($0.baseAddress!) }
            step(&q)
            var out = [UInt8](repeating: 0, count: 64)
            out.withUnsafeMutableBufferPointer { aesUnpack(q, into: $0.baseAddress!) }
            return out
        }
        func times2(_ x: UInt8) -> UInt8 { (x << 1) ^ (x & 0x80 != 0 ? 0x1B : 0) }
        var shifted = input
        var mixed = input
        for block in 0..<4 {
            for column in 0..<4 {
                let a = (0..<4).map { input[block * 16 + column * 4 + $0] }
                for row in 0..<4 {
                    shifted[block * 16 + column * 4 + row] = input[block * 16 + ((column + row) % 4) * 4 + row]
                    let next = a[(row + 1) % 4]
                    mixed[block * 16 + column * 4 + row] = times2(a[row]) ^ times2(next) ^ next ^ a[(row + 2) % 4] ^ a[(row + 3) % 4]
                }
            }
        }
        #expect(through(aesShiftRows) == shifted)
        #expect(through(aesMixColumns) == mixed)
        #expect(through { aesShiftRows(&$0); aesInverseShiftRows(&$0) } == input)
        #expect(through { aesMixColumns(&$0); aesInverseMixColumns(&$0) } == input)
    }

    /// FIPS 197 Appendix C: key 00 01 … (16, 24 or 32 bytes), plaintext 00112233…ff.
    static let fips197: [(keyBytes: Int, ciphertext: String)] = [
        (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
        (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
        (32, "8ea2b7ca516745bfeafc49904b496089"),
    ]

    @Test("FIPS 197 Appendix C, both directions, every implementation", arguments: fips197)
    func fips197KnownAnswers(keyBytes: Int, ciphertext: String) throws {
        let key = (0..<keyBytes).map { UInt8($0) }
        let plaintext = hexBytes("00112233445566778899aabbccddeeff")
        for implementation in implementations {
            #expect(try blocks(plaintext, key: key, implementation: implementation, decrypt: false) == hexBytes(ciphertext))
            #expect(try blocks(hexBytes(ciphertext), key: key, implementation: implementation, decrypt: true) == plaintext)
        }
    }

    /// NIST SP 800-38A Appendix F.2.1 to F.2.6: CBC-AES128/192/256, IV 00 01 … 0f.
    static let sp80038a: [(key: String, ciphertext: String)] = [
        ("2b7e151628aed2a6abf7158809cf4f3c",
         "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"),
        ("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
         "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd"),
        ("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
         "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"),
    ]

    @Test("NIST SP 800-38A F.2 CBC known answers (the padded encryption starts with them)", arguments: sp80038a)
    func sp80038aKnownAnswers(key: String, ciphertext: String) throws {
        let plaintext = hexBytes(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let iv = (0..<16).map { UInt8($0) }
        for implementation in implementations {
            let encrypted = try AES.encryptCBC(plaintext, key: hexBytes(key), iv: iv, implementation: implementation)
            #expect(encrypted.count == 80)
            #expect(Array(encrypted.prefix(64)) == hexBytes(ciphertext))
            #expect(try AES.decryptCBC(encrypted, key: hexBytes(key), iv: iv, implementation: implementation) == plaintext)
        }
    }

    @Test("Bad lengths are refused with exact errors")
    func badLengths() {
        let key = [UInt8](repeating: 1, count: 16)
        let iv = [UInt8](repeating: 2, count: 16)
        #expect(throws: CipherError.invalidKeyLength(algorithm: .aes, byteCount: 15)) {
            try AES.decryptCBC([UInt8](repeating: 0, count: 16), key: [UInt8](repeating: 1, count: 15), iv: iv)
        }
        #expect(throws: CipherError.invalidKeyLength(algorithm: .aes, byteCount: 0)) {
            try AES.encryptCBC([], key: [], iv: iv)
        }
        #expect(throws: CipherError.invalidIVLength(expected: 16, found: 8)) {
            try AES.decryptCBC([UInt8](repeating: 0, count: 16), key: key, iv: [UInt8](repeating: 0, count: 8))
        }
        #expect(throws: CipherError.ciphertextLengthNotBlockMultiple(byteCount: 0, blockByteCount: 16)) {
            try AES.decryptCBC([], key: key, iv: iv)
        }
        #expect(throws: CipherError.ciphertextLengthNotBlockMultiple(byteCount: 31, blockByteCount: 16)) {
            try AES.decryptCBC([UInt8](repeating: 0, count: 31), key: key, iv: iv)
        }
        #expect(CipherError.badPadding.code == "cipher.bad_padding")
    }

    @Test("Padding is checked strictly: every last-block pattern of a wrong padding is refused")
    func strictPadding() throws {
        let key = [UInt8](repeating: 7, count: 16)
        let iv = [UInt8](repeating: 9, count: 16)
        // Encrypt chosen last blocks without padding by stripping the padding block
        // of a longer encryption: CBC of (B ‖ padding) starts with CBC of B.
        func encryptRaw(_ block: [UInt8]) throws -> [UInt8] {
            Array(try AES.encryptCBC(block, key: key, iv: iv).prefix(16))
        }
        for n in 1...16 {
            var block = [UInt8](repeating: 0xAA, count: 16 - n) + [UInt8](repeating: UInt8(n), count: n)
            #expect(try AES.decryptCBC(try encryptRaw(block), key: key, iv: iv) == Array(block.prefix(16 - n)))
            if n >= 2 {
                // One byte of the padding run wrong.
                block[16 - n] ^= 0x01
                #expect(throws: CipherError.badPadding) { try AES.decryptCBC(try encryptRaw(block), key: key, iv: iv) }
            }
        }
        for last in [0, 17, 0x80, 0xFF] {
            let block = [UInt8](repeating: UInt8(last), count: 16)
            #expect(throws: CipherError.badPadding) { try AES.decryptCBC(try encryptRaw(block), key: key, iv: iv) }
        }
    }

    @Test("Wycheproof aes_cbc_pkcs5: every vector agrees, every implementation",
          .enabled(if: VectorAvailability.runs(needing: RepositoryPaths.sharedVectors("wycheproof-primitives")),
                   "../shared/vectors/wycheproof-primitives is absent (a failure when CI=true)"))
    func wycheproof() throws {
        let url = RepositoryPaths.sharedVectors("wycheproof-primitives/aes_cbc_pkcs5_test.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let groups = try #require(json["testGroups"] as? [[String: Any]])
        var checked = 0
        for group in groups {
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let id = try #require(test["tcId"] as? Int)
                let key = hexBytes(try #require(test["key"] as? String))
                let iv = hexBytes(try #require(test["iv"] as? String))
                let message = hexBytes(try #require(test["msg"] as? String))
                let ciphertext = hexBytes(try #require(test["ct"] as? String))
                let result = try #require(test["result"] as? String)
                for implementation in implementations {
                    let decrypted = try? AES.decryptCBC(ciphertext, key: key, iv: iv, implementation: implementation)
                    switch result {
                    case "valid":
                        #expect(decrypted == message, "tcId \(id)")
                        #expect(try AES.encryptCBC(message, key: key, iv: iv, implementation: implementation) == ciphertext,
                                "tcId \(id)")
                    case "invalid":
                        #expect(decrypted == nil, "tcId \(id)")
                    default:
                        Issue.record("tcId \(id): unexpected result \(result)")
                    }
                }
                checked += 1
            }
        }
        #expect(checked == json["numberOfTests"] as? Int)
    }

    @Test("The hardware path equals the portable one on seeded random keys, IVs and lengths",
          .enabled(if: AESImplementation.hardware.isAvailable, "no hardware AES on this machine or in this build"))
    func hardwareMatchesPortable() throws {
        var stream = DeterministicStream(state: 0xAE5_C0DE)
        for round in 0..<300 {
            let key = stream.bytes([16, 24, 32][round % 3])
            let iv = stream.bytes(16)
            let plaintext = stream.bytes(Int(stream.next() % 200))
            let portable = try AES.encryptCBC(plaintext, key: key, iv: iv, implementation: .portable)
            let hardware = try AES.encryptCBC(plaintext, key: key, iv: iv, implementation: .hardware)
            #expect(portable == hardware, "round \(round)")
            // Random ciphertexts too, which mostly fail the padding check alike.
            let random = stream.bytes(16 * (1 + Int(stream.next() % 9)))
            let a = Result { () throws(CipherError) in try AES.decryptCBC(random, key: key, iv: iv, implementation: .portable) }
            let b = Result { () throws(CipherError) in try AES.decryptCBC(random, key: key, iv: iv, implementation: .hardware) }
            #expect(a == b, "round \(round)")
            #expect(try AES.decryptCBC(portable, key: key, iv: iv, implementation: .hardware) == plaintext)
            // Raw blocks, four or more at a time and the remainder.
            let raw = stream.bytes(16 * Int(stream.next() % 11))
            #expect(try blocks(raw, key: key, implementation: .portable, decrypt: true)
                    == blocks(raw, key: key, implementation: .hardware, decrypt: true))
        }
    }

    @Test("The hardware path is available exactly where it is compiled in and the CPU has AES-NI")
    func availability() throws {
        #if TACK_HARDWARE_AES && arch(x86_64) && os(Linux)
            let text = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            let flags = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }).map { $0.split(separator: " ") } ?? []
            #expect(AESImplementation.hardware.isAvailable == flags.contains("aes"))
        #elseif !TACK_HARDWARE_AES
            #expect(!AESImplementation.hardware.isAvailable)
        #endif
        #expect(AESImplementation.portable.isAvailable)
    }
}

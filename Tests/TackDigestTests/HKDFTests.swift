import TackTestSupport
import Testing

import TackDigest

@Suite("HKDF (RFC 5869) and the TLS 1.3 key schedule helpers (RFC 8446 §7.1)")
struct HKDFTests {
    /// RFC 5869 appendix A, the SHA-256 cases A.1 to A.3: IKM, salt, info, L, PRK, OKM.
    static let rfc5869: [(ikm: String, salt: String, info: String, length: Int, prk: String, okm: String)] = [
        (String(repeating: "0b", count: 22), "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
         "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
         "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        ((0x00...0x4f).map { hexByte($0) }.joined(), (0x60...0xaf).map { hexByte($0) }.joined(),
         (0xb0...0xff).map { hexByte($0) }.joined(), 82,
         "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
         "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        (String(repeating: "0b", count: 22), "", "", 42,
         "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
         "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    static func hexByte(_ value: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[value >> 4], digits[value & 15]])
    }

    @Test("RFC 5869 appendix A, SHA-256: the PRK and the OKM", arguments: 0..<3)
    func rfc5869Case(_ index: Int) throws {
        let vector = Self.rfc5869[index]
        let prk = try HKDF.extract(salt: hexBytes(vector.salt), inputKeyMaterial: hexBytes(vector.ikm), hash: .sha256)
        #expect(prk == hexBytes(vector.prk))
        let okm = try HKDF.expand(pseudorandomKey: prk, info: hexBytes(vector.info), outputByteCount: vector.length, hash: .sha256)
        #expect(okm == hexBytes(vector.okm))
        let oneCall = try HKDF.deriveKey(
            inputKeyMaterial: hexBytes(vector.ikm), salt: hexBytes(vector.salt), info: hexBytes(vector.info),
            outputByteCount: vector.length, hash: .sha256)
        #expect(oneCall == okm)
    }

    @Test("The output length is capped at 255·HashLen: 8,160 bytes for SHA-256, 16,320 for SHA-512")
    func outputLengthLimit() throws {
        let prk = [UInt8](repeating: 7, count: 32)
        #expect(try HKDF.expand(pseudorandomKey: prk, info: [], outputByteCount: 8160, hash: .sha256).count == 8160)
        #expect(throws: HashError.keyByteCountOutOfRange(count: 8161, limit: 8160)) {
            try HKDF.expand(pseudorandomKey: prk, info: [], outputByteCount: 8161, hash: .sha256)
        }
        #expect(throws: HashError.keyByteCountOutOfRange(count: 16321, limit: 16320)) {
            try HKDF.expand(pseudorandomKey: prk, info: [], outputByteCount: 16321, hash: .sha512)
        }
        #expect(throws: HashError.keyByteCountOutOfRange(count: -1, limit: 8160)) {
            try HKDF.expand(pseudorandomKey: prk, info: [], outputByteCount: -1, hash: .sha256)
        }
        #expect(try HKDF.expand(pseudorandomKey: prk, info: [], outputByteCount: 0, hash: .sha384).isEmpty)
    }

    @Test("A shorter output is a prefix of a longer one")
    func prefixProperty() throws {
        let prk = [UInt8](repeating: 0x5a, count: 48)
        let long = try HKDF.expand(pseudorandomKey: prk, info: [1, 2, 3], outputByteCount: 200, hash: .sha384)
        for length in [1, 47, 48, 49, 96, 97] {
            #expect(try HKDF.expand(pseudorandomKey: prk, info: [1, 2, 3], outputByteCount: length, hash: .sha384)
                == Array(long.prefix(length)))
        }
    }

    @Test("RFC 8448 §3: the key schedule of the simple 1-RTT handshake from its x25519 shared secret")
    func rfc8448KeySchedule() throws {
        let zeros = [UInt8](repeating: 0, count: 32)
        let emptyHash = try DigestAlgorithm.sha256.hash([])
        let shared = hexBytes("8bd4054fb55b9d63fdfbacf9f04b9f0d35e6d63f537563efd46272900f89492d")
        // Transcript-Hash(ClientHello..ServerHello) and (ClientHello..server Finished).
        let helloHash = hexBytes("860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8")
        let serverFinishedHash = hexBytes("9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13")

        let early = try HKDF.extract(salt: [], inputKeyMaterial: zeros, hash: .sha256)
        #expect(early == hexBytes("33ad0a1c607ec03b09e6cd9893680ce210adf300aa1f2660e1b22e10f170f92a"))
        let derivedEarly = try HKDF.deriveSecret(secret: early, label: Array("derived".utf8), transcriptHash: emptyHash, hash: .sha256)
        #expect(derivedEarly == hexBytes("6f2615a108c702c5678f54fc9dbab69716c076189c48250cebeac3576c3611ba"))
        let handshake = try HKDF.extract(salt: derivedEarly, inputKeyMaterial: shared, hash: .sha256)
        #expect(handshake == hexBytes("1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac"))

        let clientHandshake = try HKDF.deriveSecret(
            secret: handshake, label: Array("c hs traffic".utf8), transcriptHash: helloHash, hash: .sha256)
        #expect(clientHandshake == hexBytes("b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21"))
        let serverHandshake = try HKDF.deriveSecret(
            secret: handshake, label: Array("s hs traffic".utf8), transcriptHash: helloHash, hash: .sha256)
        #expect(serverHandshake == hexBytes("b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38"))
        // The server's handshake write key and IV (RFC 8446 §7.3).
        #expect(try HKDF.expandLabel(secret: serverHandshake, label: Array("key".utf8), context: [], outputByteCount: 16, hash: .sha256)
            == hexBytes("3fce516009c21727d0f2e4e86ee403bc"))
        #expect(try HKDF.expandLabel(secret: serverHandshake, label: Array("iv".utf8), context: [], outputByteCount: 12, hash: .sha256)
            == hexBytes("5d313eb2671276ee13000b30"))

        let derivedHandshake = try HKDF.deriveSecret(
            secret: handshake, label: Array("derived".utf8), transcriptHash: emptyHash, hash: .sha256)
        #expect(derivedHandshake == hexBytes("43de77e0c77713859a944db9db2590b53190a65b3ee2e4f12dd7a0bb7ce254b4"))
        let master = try HKDF.extract(salt: derivedHandshake, inputKeyMaterial: zeros, hash: .sha256)
        #expect(master == hexBytes("18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919"))
        #expect(try HKDF.deriveSecret(secret: master, label: Array("c ap traffic".utf8), transcriptHash: serverFinishedHash, hash: .sha256)
            == hexBytes("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5"))
        #expect(try HKDF.deriveSecret(secret: master, label: Array("s ap traffic".utf8), transcriptHash: serverFinishedHash, hash: .sha256)
            == hexBytes("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643"))
    }

    @Test("HKDF-Expand-Label refuses a label or context that does not fit its length byte, and a length above 65,535")
    func expandLabelLimits() throws {
        let secret = [UInt8](repeating: 1, count: 32)
        #expect(try HKDF.expandLabel(secret: secret, label: [UInt8](repeating: 0x61, count: 249), context: [],
                                     outputByteCount: 32, hash: .sha256).count == 32)
        #expect(throws: HashError.labelTooLong(250)) {
            try HKDF.expandLabel(secret: secret, label: [UInt8](repeating: 0x61, count: 250), context: [], outputByteCount: 32, hash: .sha256)
        }
        #expect(throws: HashError.contextTooLong(256)) {
            try HKDF.expandLabel(secret: secret, label: [], context: [UInt8](repeating: 0, count: 256), outputByteCount: 32, hash: .sha256)
        }
        #expect(throws: HashError.keyByteCountOutOfRange(count: 8161, limit: 8160)) {
            try HKDF.expandLabel(secret: secret, label: [], context: [], outputByteCount: 8161, hash: .sha256)
        }
        #expect(HashError.labelTooLong(250).code == "label_too_long")
    }

    @Test("MD5 is refused by name")
    func md5Refused() {
        #expect(throws: HashError.unsupportedDigest(.md5)) {
            try HKDF.extract(salt: [], inputKeyMaterial: [1], hash: .md5)
        }
    }
}

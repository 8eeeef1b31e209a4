import Testing
import TackSignature
import TackTestSupport

@Suite("Ed25519 verification")
struct Ed25519Tests {
    /// RFC 8032 §7.1 TEST 1, 2, 3 and SHA(abc): (public key, message, signature).
    static let rfc8032: [(String, String, String, String)] = [
        (
            "TEST 1", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "TEST 2", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "TEST 3", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
        (
            "TEST SHA(abc)", "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"
        ),
    ]

    @Test("RFC 8032 §7.1 test vectors verify", arguments: rfc8032.map { $0.0 })
    func rfc8032Vector(name: String) throws {
        let vector = try #require(Self.rfc8032.first { $0.0 == name })
        let key = try Ed25519PublicKey(rawRepresentation: hexBytes(vector.1))
        try key.verifySignature(hexBytes(vector.3), for: hexBytes(vector.2))
        // The same signature over a message with one more byte must fail.
        #expect(throws: SignatureError.invalidSignature) {
            try key.verifySignature(hexBytes(vector.3), for: hexBytes(vector.2) + [0])
        }
    }

    @Test("Generated vectors from Python cryptography", arguments: try ecLoadVectors("ed25519.json"))
    func generated(vector: ECVectorCase) {
        let outcome: Result<Void, SignatureError> = Result { () throws(SignatureError) in
            let key = try Ed25519PublicKey(rawRepresentation: hexBytes(vector.key))
            try key.verifySignature(hexBytes(vector.signature), for: hexBytes(vector.message))
        }
        switch (vector.result, outcome) {
        case ("valid", .success):
            break
        case ("invalid", .failure(let error)):
            if let expected = vector.error { #expect(ecErrorName(error) == expected, "\(vector.comment): \(error)") }
        default:
            Issue.record("\(vector.comment): expected \(vector.result), got \(outcome)")
        }
    }

    @Test("Keys and signatures of the wrong length are refused")
    func lengths() throws {
        #expect(throws: SignatureError.malformedPublicKey(.wrongLength(expected: 32, found: 31))) {
            try Ed25519PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 31))
        }
        #expect(throws: SignatureError.malformedPublicKey(.wrongLength(expected: 32, found: 33))) {
            try Ed25519PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 33))
        }
        let key = try Ed25519PublicKey(rawRepresentation: hexBytes(Self.rfc8032[0].1))
        for count in [0, 63, 65] {
            #expect(throws: SignatureError.malformedSignature(.wrongLength(expected: 64, found: count))) {
                try key.verifySignature([UInt8](repeating: 0, count: count), for: [])
            }
        }
    }

    @Test("A public key with x = 0 and the sign bit set does not decode")
    func negativeZero() {
        // y = 1 (the identity) has x = 0; setting bit 255 asks for "−0".
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes[0] = 1
        bytes[31] = 0x80
        #expect(throws: SignatureError.malformedPublicKey(.notAnEd25519Point)) { try Ed25519PublicKey(rawRepresentation: bytes) }
        bytes[31] = 0
        #expect((try? Ed25519PublicKey(rawRepresentation: bytes)) != nil)
    }
}

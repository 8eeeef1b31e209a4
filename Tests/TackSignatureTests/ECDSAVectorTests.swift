import Foundation
import Testing
import TackSignature
import TackX509
import TackTestSupport

/// The committed vectors of Vectors/signatures/ec (made by its generate.py).
@Suite("ECDSA vectors generated with Python cryptography")
struct ECDSAVectorTests {
    static func run(_ vector: ECVectorCase, curve: ECCurve) {
        let digest = hexBytes(vector.digest ?? "")
        let outcome: Result<Void, SignatureError> = Result { () throws(SignatureError) in
            let key = try ECDSAPublicKey(curve: curve, x962Representation: hexBytes(vector.key))
            try key.verifySignature(hexBytes(vector.signature), forDigest: digest)
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

    @Test("P-256 with SHA-256", arguments: try ecLoadVectors("ecdsa_p256_sha256.json"))
    func p256(vector: ECVectorCase) { Self.run(vector, curve: .p256) }

    @Test("P-384 with SHA-384", arguments: try ecLoadVectors("ecdsa_p384_sha384.json"))
    func p384(vector: ECVectorCase) { Self.run(vector, curve: .p384) }

    @Test("P-521 with SHA-512", arguments: try ecLoadVectors("ecdsa_p521_sha512.json"))
    func p521(vector: ECVectorCase) { Self.run(vector, curve: .p521) }

}

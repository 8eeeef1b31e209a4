import Testing
import TackSignature
import TackX509
import TackTestSupport

/// Hostile and corrupted inputs: nothing traps, nothing corrupted verifies.
@Suite("EC hostile inputs")
struct ECHostileInputTests {
    @Test("Random bytes never trap the decoders, and random points are off the curve")
    func randomInputs() {
        var stream = DeterministicStream(state: 0x7ac1)
        var uncompressedAccepted = 0
        for round in 0..<3000 {
            // A third of the inputs are uncompressed points of exactly the right
            // length: random (x, y) lies on a curve with probability about 2⁻²⁵⁶.
            let curve = ECCurve.allCases[round % 3]
            let length = round % 3 == 0 ? 1 + 2 * curve.scalarByteCount : Int(stream.next() % 150)
            var bytes = stream.bytes(length)
            if round % 3 == 0 { bytes[0] = 0x04 }
            if round % 3 == 1, !bytes.isEmpty { bytes[0] = 0x30 }
            for curve in ECCurve.allCases {
                _ = try? ECDSASignature(derEncoded: bytes, curve: curve)
                _ = try? ECDSASignature(rawRepresentation: bytes, curve: curve)
                if (try? ECDSAPublicKey(curve: curve, x962Representation: bytes)) != nil, bytes.first == 0x04 {
                    uncompressedAccepted += 1
                }
            }
            _ = try? Ed25519PublicKey(rawRepresentation: bytes)
        }
        #expect(uncompressedAccepted == 0)
    }

    @Test("No single-byte change of a P-256 signature, key or digest verifies")
    func corruptedECDSA() throws {
        let vector = try #require(try ecLoadVectors("ecdsa_p256_sha256.json").first { $0.comment == "valid signature, message 2" })
        let key = hexBytes(vector.key)
        let signature = hexBytes(vector.signature)
        let digest = hexBytes(try #require(vector.digest))
        try ECDSAPublicKey(curve: .p256, x962Representation: key).verifySignature(signature, forDigest: digest)
        func verifies(_ key: [UInt8], _ signature: [UInt8], _ digest: [UInt8]) -> Bool {
            (try? ECDSAPublicKey(curve: .p256, x962Representation: key).verifySignature(signature, forDigest: digest)) != nil
        }
        for index in signature.indices {
            var corrupted = signature
            corrupted[index] ^= 0x01
            #expect(!verifies(key, corrupted, digest), "signature byte \(index)")
        }
        for index in key.indices {
            var corrupted = key
            corrupted[index] ^= 0x80
            #expect(!verifies(corrupted, signature, digest), "key byte \(index)")
        }
        for index in digest.indices {
            var corrupted = digest
            corrupted[index] ^= 0x01
            #expect(!verifies(key, signature, corrupted), "digest byte \(index)")
        }
    }

    @Test("No single-byte change of an Ed25519 signature or message verifies")
    func corruptedEd25519() throws {
        let vector = try #require(try ecLoadVectors("ed25519.json").first { $0.comment == "valid signature, message 2" })
        let key = try Ed25519PublicKey(rawRepresentation: hexBytes(vector.key))
        let signature = hexBytes(vector.signature)
        let message = hexBytes(vector.message)
        try key.verifySignature(signature, for: message)
        for index in signature.indices {
            var corrupted = signature
            corrupted[index] ^= 0x01
            #expect((try? key.verifySignature(corrupted, for: message)) == nil, "signature byte \(index)")
        }
        for index in message.indices {
            var corrupted = message
            corrupted[index] ^= 0x01
            #expect((try? key.verifySignature(signature, for: corrupted)) == nil, "message byte \(index)")
        }
    }
}

import Foundation
import Testing
import TackSHA2
import TackSignature
import TackX509
import TackTestSupport
import TackVectorSuites

/// Wycheproof (github.com/C2SP/wycheproof) ECDSA and EdDSA verification files,
/// read from `<repo>/../shared/vectors/wycheproof` (never copied here).
///
/// Every vector runs and must agree with its `valid`/`invalid` verdict. Policy
/// for `acceptable` vectors (none in the current files): either outcome is
/// accepted and counted separately. ECDSA signatures are parsed as strict DER;
/// a key that does not decode makes every vector of its group "rejected".
/// When the folder is absent the tests show as skipped locally, and fail when
/// `CI=true` (CI must run them); when a file yields no vector, they fail.
@Suite("Wycheproof ECDSA and Ed25519")
struct ECWycheproofTests {
    struct Tally: CustomStringConvertible {
        var agreed = 0
        var acceptable = 0
        var disagreements: [Int] = []
        var total: Int { agreed + acceptable + disagreements.count }
        var description: String {
            "\(total) vectors: \(agreed) agree, \(acceptable) acceptable, \(disagreements.count) disagree"
        }

        mutating func record(_ vector: WycheproofFile.Vector, accepted: Bool) {
            switch vector.result {
            case "valid" where accepted, "invalid" where !accepted: agreed += 1
            case "acceptable": acceptable += 1
            default: disagreements.append(vector.tcId)
            }
        }
    }

    static func digest(_ message: [UInt8], sha: String) -> [UInt8]? {
        switch sha {
        case "SHA-256": Array(SHA256.hash(message))
        case "SHA-384": Array(SHA384.hash(message))
        case "SHA-512": Array(SHA512.hash(message))
        default: nil
        }
    }

    static func curve(_ name: String) -> ECCurve? {
        switch name {
        case "secp256r1": .p256
        case "secp384r1": .p384
        case "secp521r1": .p521
        default: nil
        }
    }

    @Test(
        "Every ECDSA vector agrees with Wycheproof",
        .enabled(if: WycheproofFile.suitesRun, "the shared Wycheproof folder is absent (set CI=true to make that a failure)"),
        arguments: [
            "ecdsa_secp256r1_sha256_test.json", "ecdsa_secp256r1_sha512_test.json",
            "ecdsa_secp384r1_sha256_test.json", "ecdsa_secp384r1_sha384_test.json",
            "ecdsa_secp521r1_sha512_test.json",
        ])
    func ecdsa(fileName: String) throws {
        let file = try WycheproofFile.load(fileName)
        #expect(file.schema == "ecdsa_verify_schema_v1.json" || file.schema == "ecdsa_verify_schema.json")
        var tally = Tally()
        for group in file.testGroups {
            let curveName = try #require(group.publicKey?.curve)
            let curve = try #require(Self.curve(curveName), "unsupported curve \(curveName)")
            let keyBytes = hexBytes(try #require(group.publicKey?.uncompressed))
            let key = try? ECDSAPublicKey(curve: curve, x962Representation: keyBytes)
            let sha = try #require(group.sha)
            for vector in group.tests {
                let digest = try #require(Self.digest(hexBytes(vector.msg), sha: sha))
                var accepted = false
                if let key {
                    do throws(SignatureError) {
                        try key.verifySignature(hexBytes(vector.sig), forDigest: digest)
                        accepted = true
                    } catch {
                        accepted = false
                    }
                }
                tally.record(vector, accepted: accepted)
            }
        }
        print("Wycheproof \(fileName): \(tally)")
        #expect(tally.total > 0, "no vector ran from \(fileName)")
        #expect(tally.disagreements.isEmpty, "\(fileName) disagrees on tcId \(tally.disagreements)")
    }

    @Test(
        "Every Ed25519 vector agrees with Wycheproof",
        .enabled(if: WycheproofFile.suitesRun, "the shared Wycheproof folder is absent (set CI=true to make that a failure)"))
    func ed25519() throws {
        let fileName = "ed25519_test.json"
        let file = try WycheproofFile.load(fileName)
        #expect(file.schema == "eddsa_verify_schema_v1.json" || file.schema == "eddsa_verify_schema.json")
        var tally = Tally()
        for group in file.testGroups {
            #expect(group.publicKey?.curve == "edwards25519")
            let keyHex = try #require(group.publicKey?.pk)
            let key = try? Ed25519PublicKey(rawRepresentation: hexBytes(keyHex))
            for vector in group.tests {
                var accepted = false
                if let key {
                    do throws(SignatureError) {
                        try key.verifySignature(hexBytes(vector.sig), for: hexBytes(vector.msg))
                        accepted = true
                    } catch {
                        accepted = false
                    }
                }
                tally.record(vector, accepted: accepted)
            }
        }
        print("Wycheproof \(fileName): \(tally)")
        #expect(tally.total > 0, "no vector ran from \(fileName)")
        #expect(tally.disagreements.isEmpty, "\(fileName) disagrees on tcId \(tally.disagreements)")
    }
}

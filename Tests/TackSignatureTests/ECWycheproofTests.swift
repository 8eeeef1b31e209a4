import Foundation
import Testing
import TackTestSupport
import TackVectorSuites

/// Wycheproof (github.com/C2SP/wycheproof) ECDSA and EdDSA verification files,
/// read from `<repo>/../shared/vectors/wycheproof` (never copied here), through
/// the one Wycheproof runner (TackVectorSuites' `WycheproofRunner`, the same
/// code as `tack vectors wycheproof`, with its one reading of `acceptable`).
///
/// Every vector runs and must agree with its `valid`/`invalid` verdict; no group
/// may be skipped. When the folder is absent the tests show as skipped locally,
/// and fail when `CI=true`; when a file yields no vector, they fail.
@Suite("Wycheproof ECDSA and Ed25519")
struct ECWycheproofTests {
    static func check(_ fileName: String, schemas: Set<String>) throws {
        let report = try WycheproofRunner.run(path: WycheproofFile.path(fileName))
        #expect(schemas.contains(report.schema), "\(fileName): schema \(report.schema)")
        let tally = report.tally
        print("Wycheproof \(fileName): \(tally.checked) vectors, \(tally.agreed) agree, \(tally.acceptable.count) acceptable,"
              + " \(tally.disagreements.count) disagree")
        #expect(tally.checked > 0, "no vector ran from \(fileName)")
        #expect(tally.skippedGroups.isEmpty, "\(fileName): skipped \(tally.skippedGroups.map(\.reason))")
        #expect(tally.disagreements.isEmpty, "\(fileName) disagrees on tcId \(tally.disagreements.map(\.tcId))")
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
        try Self.check(fileName, schemas: ["ecdsa_verify_schema_v1", "ecdsa_verify_schema"])
    }

    @Test(
        "Every Ed25519 vector agrees with Wycheproof",
        .enabled(if: WycheproofFile.suitesRun, "the shared Wycheproof folder is absent (set CI=true to make that a failure)"))
    func ed25519() throws {
        try Self.check("ed25519_test.json", schemas: ["eddsa_verify_schema_v1", "eddsa_verify_schema"])
    }
}

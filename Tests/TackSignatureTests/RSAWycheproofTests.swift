import Foundation
import Testing

import TackTestSupport
import TackVectorSuites

/// Runs Wycheproof's RSA PKCS #1 v1.5 and RSASSA-PSS verification files
/// (schemas `rsassa_pkcs1_verify_schema_v1` and `rsassa_pss_verify_schema_v1`)
/// from `<repo>/../shared/vectors/wycheproof/`, never copied into the repo,
/// through the one Wycheproof runner (TackVectorSuites' `WycheproofRunner`, the
/// same code as `tack vectors wycheproof`).
///
/// - `valid` must verify and `invalid` must not: 100% agreement is required.
/// - `acceptable` is read as the runner reads it: the RSA files have one kind,
///   flag `MissingNull`, on which Tack's stated stance is "reject"
///   (`WycheproofRunner.acceptableStances`); a vector breaking the stance is a
///   disagreement.
/// - Groups whose hash or MGF1 hash Tack does not offer (SHA-1, in
///   rsa_pss_misc_test.json) are skipped with that reason.
@Suite("RSA Wycheproof")
struct RSAWycheproofTests {
    static func files() -> [String] {
        WycheproofFile.fileNames {
            ($0.hasPrefix("rsa_signature_") || $0.hasPrefix("rsa_pss_")) && $0.hasSuffix("_test.json")
        }
    }

    @Test("The Wycheproof folder, when present, holds RSA files",
          .enabled(if: VectorAvailability.runs(needing: RepositoryPaths.wycheproof),
                   "Wycheproof is not in ../shared/vectors/wycheproof (a failure when CI=true)"))
    func folderHasFiles() {
        #expect(Self.files().count >= 16)
    }

    @Test("Every vector of the Wycheproof RSA file agrees with its verdict",
          .enabled(if: WycheproofFile.folderPresent, "the shared Wycheproof folder is absent"), arguments: files())
    func file(_ name: String) throws {
        let report = try WycheproofRunner.run(path: WycheproofFile.path(name))
        #expect(report.schema == "rsassa_pss_verify_schema_v1" || report.schema == "rsassa_pkcs1_verify_schema_v1")
        let tally = report.tally
        print("Wycheproof \(name): \(tally.checked) vectors checked, \(tally.acceptable.count) acceptable,"
              + " \(tally.skippedVectors) skipped, \(tally.disagreements.count) disagreements")
        #expect(tally.checked > 0, "no vector of \(name) ran")
        #expect(tally.disagreements.isEmpty, "\(name): disagreeing tcIds \(tally.disagreements.map(\.tcId))")
        for vector in tally.acceptable {
            #expect(vector.flags == ["MissingNull"] && !vector.accepted, "tcId \(vector.tcId): acceptable \(vector.flags)")
        }
        for group in tally.skippedGroups {
            #expect(group.reason.hasPrefix("unsupported hash") || group.reason.hasPrefix("unsupported MGF1 hash"),
                    "group \(group.index): \(group.reason)")
        }
    }
}

import Foundation
import TackTestSupport
import TackVectorSuites
import Testing

/// Wycheproof's X25519 file (`../shared/vectors/wycheproof-tls/x25519_test.json`,
/// read in place) through the one Wycheproof runner, as `tack vectors wycheproof`
/// runs it.
@Suite("Wycheproof X25519 through the runner")
struct X25519WycheproofTests {
    static let folder = RepositoryPaths.sharedVectors("wycheproof-tls")

    @Test("Every valid vector agrees; every acceptable one with ZeroSharedSecret is refused, every other accepted with the file's secret",
          .enabled(if: VectorAvailability.runs(needing: folder), "../shared/vectors/wycheproof-tls is absent (a failure when CI=true)"))
    func x25519File() throws {
        let report = try WycheproofRunner.run(path: Self.folder.appendingPathComponent("x25519_test.json").path)
        let tally = report.tally
        #expect(report.vectorCount == 518)
        #expect(tally.disagreements.isEmpty, "disagreeing tcIds \(tally.disagreements.map(\.tcId))")
        #expect(tally.skippedGroups.isEmpty)
        #expect(tally.agreed + tally.acceptable.count == 518)
        // The acceptable vectors are recorded, not passed: Tack refuses exactly the zero secrets
        // (the runner's stance makes any other verdict on them a disagreement) and accepts the
        // rest with the right secret (a wrong one would be a wrongOutput disagreement).
        let zero = tally.acceptable.filter { $0.flags.contains("ZeroSharedSecret") }
        #expect(zero.count == 31)
        #expect(zero.allSatisfy { !$0.accepted })
        let others = tally.acceptable.filter { !$0.flags.contains("ZeroSharedSecret") }
        #expect(others.count == 254 - 31)
        #expect(others.allSatisfy { $0.accepted })
    }

    @Test("X448 groups are skipped with their reason and never passed")
    func x448Skipped() throws {
        let json = #"{"algorithm": "XDH", "schema": "xdh_comp_schema_v1.json", "testGroups": [{"curve": "curve448", "tests": ["#
            + #"{"tcId": 1, "public": "00", "private": "00", "shared": "00", "result": "valid", "flags": []}]}]}"#
        let report = try WycheproofRunner.run(data: Data(json.utf8), path: "x448.json")
        #expect(report.tally.skippedGroups.map(\.reason) == ["curve curve448 not supported"])
        #expect(report.tally.agreed == 0)
    }
}

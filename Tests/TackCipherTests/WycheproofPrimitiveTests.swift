import Foundation
import Testing
import TackDigest
import TackTestSupport
import TackVectorSuites

/// The Wycheproof primitive files (`../shared/vectors/wycheproof-primitives`:
/// AES-CBC, HMAC, PBKDF2, PBES2; read there, never copied) through the one
/// Wycheproof runner, as `tack vectors wycheproof` runs them.
@Suite("Wycheproof primitives through the runner")
struct WycheproofPrimitiveTests {
    static let folder = RepositoryPaths.sharedVectors("wycheproof-primitives")

    static func files() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix("_test.json") }.sorted()
    }

    @Test("The folder holds the twelve files its README lists",
          .enabled(if: VectorAvailability.runs(needing: folder),
                   "../shared/vectors/wycheproof-primitives is absent (a failure when CI=true)"))
    func folderIsComplete() {
        #expect(Self.files().count == 12)
    }

    @Test("Every vector agrees, and no group is skipped: Tack has every hash and key size these files use",
          arguments: files())
    func file(_ name: String) throws {
        let report = try WycheproofRunner.run(path: Self.folder.appendingPathComponent(name).path)
        let tally = report.tally
        #expect(tally.disagreements.isEmpty, "\(name): disagreeing tcIds \(tally.disagreements.map(\.tcId))")
        #expect(tally.acceptable.isEmpty)
        #expect(tally.skippedGroups.isEmpty, "\(name): skipped \(tally.skippedGroups.map(\.reason))")
        #expect(tally.agreed == report.vectorCount)
        #expect(tally.agreed > 0)
    }

    /// A one-group file of `schema` and `algorithm` with one vector.
    static func oneVectorFile(schema: String, algorithm: String, group: String, vector: String) -> Data {
        Data("""
            {"algorithm": "\(algorithm)", "schema": "\(schema)", "numberOfTests": 1,
             "testGroups": [{\(group) "tests": [\(vector)]}]}
            """.utf8)
    }

    @Test("A hash TackDigest lacks skips its group with the reason; its vectors are counted, never passed",
          arguments: [
            ("mac_test_schema_v1.json", "HMACSHA3-256", "HMAC hash SHA3-256 not in TackDigest"),
            ("mac_test_schema_v1.json", "HMACMD5", "HMAC hash MD5 recognised but not computed by TackDigest"),
            ("pbkdf_test_schema.json", "PBKDF2-HMACSHA3-512", "PBKDF2 hash SHA3-512 not in TackDigest"),
            ("pbe_test_schema.json", "PbeWithHmacSha3-256AndAes_128", "PBKDF2 hash SHA3-256 not in TackDigest"),
          ])
    func missingHashIsSkipped(schema: String, algorithm: String, reason: String) throws {
        let vector = #"{"tcId": 1, "comment": "", "flags": [], "key": "00", "msg": "", "tag": "00", "password": "00","#
            + #" "salt": "00", "iterationCount": 1, "dkLen": 1, "dk": "00", "iv": "00", "ct": "00", "result": "valid"}"#
        let data = Self.oneVectorFile(schema: schema, algorithm: algorithm, group: #""keySize": 256, "tagSize": 256,"#, vector: vector)
        let report = try WycheproofRunner.run(data: data, path: "missing-hash.json")
        #expect(report.tally.checked == 0)
        #expect(report.tally.agreed == 0)
        #expect(report.tally.skippedGroups.map(\.reason) == [reason])
        #expect(report.tally.skippedVectors == 1)
    }

    @Test("HMAC-SHA-1 runs through the runner: a right tag agrees, a wrong one disagrees")
    func everyHMACHashRuns() throws {
        // RFC 2202 §3 case 2 (HMAC-SHA-1, key "Jefe"), rated valid, then with its last byte changed.
        let key = "4a656665"
        let message = "7768617420646f2079612077616e7420666f72206e6f7468696e673f"
        let tag = "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
        let wrongTag = "effcdf6ae5eb2fa2d27416d5f184df9c259a7c78"
        let vectors = #"{"tcId": 1, "key": "\#(key)", "msg": "\#(message)", "tag": "\#(tag)", "result": "valid"}, "#
            + #"{"tcId": 2, "key": "\#(key)", "msg": "\#(message)", "tag": "\#(wrongTag)", "result": "valid"}"#
        let data = Self.oneVectorFile(
            schema: "mac_test_schema_v1.json", algorithm: "HMACSHA1", group: #""keySize": 32, "tagSize": 160,"#, vector: vectors)
        let report = try WycheproofRunner.run(data: data, path: "hmac-sha1.json")
        #expect(report.tally.agreed == 1)
        #expect(report.tally.disagreements.map(\.tcId) == [2])
        #expect(report.tally.disagreements.first?.outcome == .rejected("tag mismatch"))
        #expect(report.tally.skippedGroups.isEmpty)
    }

    @Test("A PBKDF2 vector above the runner's iteration cap is refused by TackDigest: a disagreement, not a pass")
    func iterationCapDisagrees() throws {
        let count = WycheproofRunner.maximumIterationCount + 1
        let vector = #"{"tcId": 7, "password": "70", "salt": "73", "iterationCount": \#(count), "dkLen": 20,"#
            + #" "dk": "0000000000000000000000000000000000000000", "result": "valid"}"#
        let data = Self.oneVectorFile(schema: "pbkdf_test_schema.json", algorithm: "PBKDF2-HMACSHA1", group: "", vector: vector)
        let report = try WycheproofRunner.run(data: data, path: "bomb.json")
        #expect(report.tally.agreed == 0)
        #expect(report.tally.disagreements.map(\.tcId) == [7])
        let expected = HashError.iterationCountAboveLimit(count: count, limit: WycheproofRunner.maximumIterationCount)
        #expect(report.tally.disagreements.first?.outcome == .rejected(expected.description))
    }

    @Test("A flipped AES-CBC verdict is a disagreement, not a pass")
    func flippedVerdict() throws {
        // tcId 1 of aes_cbc_pkcs5_test.json (an empty message), rated invalid here.
        let json = """
            {"algorithm": "AES-CBC-PKCS5", "schema": "ind_cpa_test_schema_v1.json", "numberOfTests": 1,
             "testGroups": [{"type": "IndCpaTest", "keySize": 128, "ivSize": 128, "tests": [
               {"tcId": 1, "comment": "empty message", "flags": [], "key": "e34f15c7bd819930fe9d66e0c166e61c",
                "iv": "da9520f7d3520277035173299388bee2", "msg": "", "ct": "b10ab60153276941361000414aed0a9d",
                "result": "invalid"}]}]}
            """
        let report = try WycheproofRunner.run(data: Data(json.utf8), path: "flipped.json")
        #expect(report.tally.agreed == 0)
        #expect(report.tally.disagreements.map(\.tcId) == [1])
        #expect(report.tally.disagreements.first?.outcome == .accepted)
    }

    @Test("An unknown schema is a file error")
    func unknownSchema() {
        let json = #"{"algorithm": "X", "schema": "keywrap_test_schema.json", "testGroups": []}"#
        #expect(throws: WycheproofFileError.self) { try WycheproofRunner.run(data: Data(json.utf8), path: "x.json") }
    }
}

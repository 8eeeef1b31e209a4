import Foundation
import TackVectorSuites
import Testing

/// The suite documents are read through TackFormats' JSONReader (JSONFields), and a
/// malformed one is refused with the member that is missing or of the wrong type.
@Suite("Wycheproof and limbo documents: read without a Foundation coder")
struct WycheproofReadingTests {
    static func failure(_ text: String) -> String? {
        do {
            _ = try WycheproofRunner.run(data: Data(text.utf8), path: "t.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A missing or mistyped member is named by its path; a document that is not JSON says so")
    func malformedDocuments() {
        let mac = #"{"schema": "mac_test_schema_v1.json", "algorithm": "HMACSHA256", "testGroups": "#
        #expect(Self.failure(mac + #"[{"keySize": 256, "tagSize": 256, "tests": [{"tcId": "1"}]}]}"#)
            == "t.json: malformed mac_test_schema_v1.json file (wrong type at .testGroups[0].tests[0].tcId)")
        #expect(Self.failure(mac + #"[{"tests": [{"tcId": 1, "key": "", "msg": "", "tag": ""}]}]}"#)
            == "t.json: malformed mac_test_schema_v1.json file (missing result at .testGroups[0].tests[0])")
        #expect(Self.failure(#"{"algorithm": "HMACSHA256"}"#) == "t.json: not a Wycheproof test file (missing schema at top level)")
        #expect(Self.failure(#"{"schema": "#)?.hasPrefix("t.json: not a Wycheproof test file (not valid JSON") == true)
    }

    @Test("A limbo case reads every field the harness uses; null reads as absent")
    func limboCase() throws {
        let document = #"""
            {"version": 1, "testcases": [{"id": "a::b", "features": null, "validation_kind": "SERVER",
              "trusted_certs": ["R"], "untrusted_intermediates": [], "peer_certificate": "P",
              "expected_result": "SUCCESS", "expected_peer_name": {"kind": "DNS", "value": "example.com"},
              "max_chain_depth": 3}]}
            """#
        let suite = try LimboSuite(jsonBytes: Array(document.utf8))
        let testCase = try #require(suite.testcases.first)
        #expect(suite.version == 1 && suite.testcases.count == 1)
        #expect(testCase.id == "a::b" && testCase.features == nil && testCase.trusted_certs == ["R"])
        #expect(testCase.expected_peer_name?.value == "example.com" && testCase.max_chain_depth == 3)
        #expect(throws: JSONShapeError.self) { try LimboSuite(jsonBytes: Array(#"{"version": 1, "testcases": [{}]}"#.utf8)) }
    }
}

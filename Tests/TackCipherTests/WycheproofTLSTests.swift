import Foundation
import TackDigest
import TackTestSupport
import TackVectorSuites
import TackCipher
import Testing

/// The Wycheproof files of the TLS primitives (`../shared/vectors/wycheproof-tls`;
/// read there, never copied) through the one Wycheproof runner, as `tack vectors
/// wycheproof` runs them: ChaCha20-Poly1305 and HKDF-SHA-256 here, X25519 in
/// TackSignatureTests (X25519WycheproofTests).
@Suite("Wycheproof TLS primitives through the runner: ChaCha20-Poly1305, HKDF")
struct WycheproofTLSTests {
    static let folder = RepositoryPaths.sharedVectors("wycheproof-tls")
    static let runs = VectorAvailability.runs(needing: folder)

    @Test("Every vector agrees and none is skipped",
          .enabled(if: runs, "../shared/vectors/wycheproof-tls is absent (a failure when CI=true)"),
          arguments: [("chacha20_poly1305_test.json", 325), ("hkdf_sha256_test.json", 86)])
    func file(_ name: String, vectorCount: Int) throws {
        let report = try WycheproofRunner.run(path: Self.folder.appendingPathComponent(name).path)
        let tally = report.tally
        #expect(tally.disagreements.isEmpty, "\(name): disagreeing tcIds \(tally.disagreements.map(\.tcId))")
        #expect(tally.acceptable.isEmpty)
        #expect(tally.skippedGroups.isEmpty, "\(name): skipped \(tally.skippedGroups.map(\.reason))")
        #expect(report.vectorCount == vectorCount)
        #expect(tally.agreed == vectorCount)
        #expect(tally.invalidRejected > 0)
    }

    /// A one-group file of `schema` and `algorithm` with the given vectors.
    static func file(schema: String, algorithm: String, group: String, vectors: String) -> Data {
        Data("""
            {"algorithm": "\(algorithm)", "schema": "\(schema)", "numberOfTests": 1,
             "testGroups": [{\(group) "tests": [\(vectors)]}]}
            """.utf8)
    }

    @Test("HKDF over another hash runs unchanged: RFC 5869 A.1's inputs under HKDF-SHA-512 agree with TackDigest")
    func otherHKDFHash() throws {
        let ikm = String(repeating: "0b", count: 22)
        let okm = try HKDF.deriveKey(
            inputKeyMaterial: hexBytes(ikm), salt: hexBytes("000102030405060708090a0b0c"), info: hexBytes("f0f1f2f3f4f5f6f7f8f9"),
            outputByteCount: 42, hash: .sha512)
        let okmHex = okm.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        let vectors = #"{"tcId": 1, "ikm": "\#(ikm)", "salt": "000102030405060708090a0b0c", "info": "f0f1f2f3f4f5f6f7f8f9","#
            + #" "size": 42, "okm": "\#(okmHex)", "result": "valid", "flags": []},"#
            + #"{"tcId": 2, "ikm": "00", "salt": "", "info": "", "size": 16321, "okm": "", "result": "invalid", "flags": ["SizeTooLarge"]}"#
        let data = Self.file(schema: "hkdf_test_schema_v1.json", algorithm: "HKDF-SHA-512", group: #""keySize": 176,"#, vectors: vectors)
        let report = try WycheproofRunner.run(data: data, path: "hkdf_sha512.json")
        #expect(report.tally.agreed == 2)
        #expect(report.tally.disagreements.isEmpty)
        #expect(report.tally.skippedGroups.isEmpty)
    }

    @Test("An AEAD Tack lacks skips its group with the reason; a wrong verdict is a disagreement")
    func aeadSkipsAndDisagreements() throws {
        let skipped = Self.file(
            schema: "aead_test_schema_v1.json", algorithm: "XCHACHA20-POLY1305", group: #""tagSize": 128,"#,
            vectors: #"{"tcId": 1, "key": "00", "iv": "00", "aad": "", "msg": "", "ct": "", "tag": "00", "result": "valid"}"#)
        let skipReport = try WycheproofRunner.run(data: skipped, path: "xchacha.json")
        #expect(skipReport.tally.skippedGroups.map(\.reason) == ["algorithm XCHACHA20-POLY1305 not run"])
        #expect(skipReport.tally.agreed == 0)

        // RFC 8439 §2.8.2 with an empty message would need its own tag; instead tcId 1 of the
        // file with the tag's last byte changed, rated valid: Tack must refuse it, a disagreement.
        let key = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
        let flipped = Self.file(
            schema: "aead_test_schema_v1.json", algorithm: "CHACHA20-POLY1305", group: #""tagSize": 128,"#,
            vectors: #"{"tcId": 9, "key": "\#(key)", "iv": "070000004041424344454647", "aad": "", "msg": "","#
                + #" "ct": "", "tag": "00000000000000000000000000000000", "result": "valid"}"#)
        let report = try WycheproofRunner.run(data: flipped, path: "flipped.json")
        #expect(report.tally.disagreements.map(\.tcId) == [9])
        #expect(report.tally.disagreements.first?.outcome == .rejected(AEADError.authenticationFailed.description))
    }
}

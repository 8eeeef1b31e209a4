import Foundation
import TackDER
import TackTestSupport
import TackTrust
import TackX509
import Testing

private func pem(_ testCase: String, _ name: String) throws -> String {
    PEM.encode(label: "CERTIFICATE", bytes: try RepositoryPaths.vectorBytes("trust-unit/\(testCase)/\(name).der"))
}

@Suite("Anchor store")
struct AnchorStoreTests {
    @Test("Anchors are found by subject name (RFC 5280 §7.1 match) and by subject key identifier; duplicates dropped")
    func lookups() throws {
        let root = try Certificate(derEncoded: RepositoryPaths.vectorBytes("trust-unit/valid/root.der"))
        let ica = try Certificate(derEncoded: RepositoryPaths.vectorBytes("trust-unit/valid/ica.der"))
        var store = AnchorStore([root, ica, root])
        #expect(store.count == 2)
        store.add(ica)
        #expect(store.count == 2)
        #expect(store.anchors(subjectMatching: try ica.issuer) == [0])
        #expect(store.anchors(subjectMatching: try ica.subject) == [1])
        let identifier = try #require(try root.subjectKeyIdentifier).keyIdentifier
        #expect(store.anchors(keyIdentifier: identifier) == [0])
        #expect(store.index(of: ica) == 1)
        #expect(store.contains(root))
        let merged = AnchorStore([ica]).merging(store)
        #expect(merged.certificates == [ica, root])
    }

    @Test("A PEM bundle loads strictly; a block that is not a certificate fails with its offset or is skipped")
    func pemBundle() throws {
        let good = try pem("valid", "root") + "some text\n" + pem("valid", "ica")
        let store = try AnchorStore(pemBundle: Array(good.utf8))
        #expect(store.count == 2)

        let key = PEM.encode(label: "PUBLIC KEY", bytes: [0x30, 0x00])
        let mixed = try pem("valid", "root") + key
        let keyOffset = try pem("valid", "root").utf8.count
        #expect(throws: AnchorStoreError.notACertificate(offset: keyOffset)) {
            try AnchorStore(pemBundle: Array(mixed.utf8))
        }
        let junk = PEM.encode(label: "CERTIFICATE", bytes: [0x30, 0x00])
        var skipped: [AnchorStoreError] = []
        let lenient = try AnchorStore(pemBundle: Array((mixed + junk).utf8), skipped: &skipped)
        #expect(lenient.count == 1)
        #expect(skipped.count == 2)
        #expect(skipped.first == .notACertificate(offset: keyOffset))
        guard case .malformedCertificate(let offset, _)? = skipped.last else {
            Issue.record("expected a malformed certificate, got \(skipped)")
            return
        }
        #expect(offset == keyOffset + key.utf8.count)

        // A BEGIN line without its END: the PEM itself is damaged, at the BEGIN line.
        #expect(throws: AnchorStoreError.pem(.missingEndLine(offset: 0))) {
            try AnchorStore(pemBundle: Array("-----BEGIN CERTIFICATE-----\nAAAA\n".utf8))
        }
    }

    @Test("The system CA bundle loads with every root indexed by name",
          .enabled(if: VectorAvailability.runs(needing: URL(fileURLWithPath: SystemCABundle.path)),
                   "no system CA bundle at /etc/ssl/certs/ca-certificates.crt (a failure when CI=true)"))
    func systemBundle() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SystemCABundle.path)))
        var skipped: [AnchorStoreError] = []
        let store = try AnchorStore(pemBundle: bytes, skipped: &skipped)
        #expect(store.count > 100)
        for (index, certificate) in store.certificates.enumerated() {
            #expect(store.anchors(subjectMatching: try certificate.subject).contains(index))
        }
    }
}

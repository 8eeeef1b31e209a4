import Foundation
import Testing
import TackDER
import TackTestSupport
import TackX509

@Suite("Certificate: system CA bundle")
struct CertificateBundleTests {
    @Test("Every certificate of the system CA bundle parses, with v3, a known key and no trailing bytes")
    func bundleParses() throws {
        let bundle = SystemCABundle.certificates
        try #require(!bundle.isEmpty, "no \(SystemCABundle.path) on this machine")
        var maximumExtensions = 0
        for (index, der) in bundle.enumerated() {
            do {
                let certificate = try Certificate(derEncoded: der)
                maximumExtensions = max(maximumExtensions, certificate.extensions.count)
                #expect(certificate.tbsRange.lowerBound > 0)
                #expect(certificate.spkiBytes.first == 0x30)
                #expect(certificate.issuerBytes.first == 0x30 && certificate.subjectBytes.first == 0x30)
                #expect(certificate.publicKeyInfo.keySizeInBits != nil, "certificate \(index): unknown key")
                #expect(!certificate.signatureBytes.isEmpty)
                if case .unknown(let oid) = certificate.signatureAlgorithm {
                    Issue.record("certificate \(index): unknown signature algorithm \(oid)")
                }
            } catch {
                Issue.record("certificate \(index): \(error)")
            }
        }
        #expect(maximumExtensions <= Certificate.maximumExtensionCount)
        print("system CA bundle: \(bundle.count) certificates, at most \(maximumExtensions) extensions")
    }
}

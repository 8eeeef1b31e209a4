import Foundation
import Testing
import TackDER

@Suite("System CA bundle")
struct CABundleTests {
    @Test("Every certificate of the system CA bundle parses as strict DER and re-encodes byte for byte")
    func bundleRoundTrips() throws {
        try #require(!systemBundleCertificates.isEmpty, "no /etc/ssl/certs/ca-certificates.crt on this machine")
        var nodes = 0
        for (index, certificate) in systemBundleCertificates.enumerated() {
            do {
                let tree = try DERTree.parse(certificate)
                nodes += tree.nodes.count
                #expect(tree.encoded() == certificate, "certificate \(index) does not re-encode")
            } catch {
                Issue.record("certificate \(index): \(error)")
            }
        }
        #expect(nodes > systemBundleCertificates.count * 20)
    }
}

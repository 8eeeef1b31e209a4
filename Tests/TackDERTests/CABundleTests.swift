import Foundation
import Testing
import TackDER
import TackTestSupport

@Suite("System CA bundle")
struct CABundleTests {
    @Test("Every certificate of the system CA bundle parses as strict DER and re-encodes byte for byte")
    func bundleRoundTrips() throws {
        try #require(!SystemCABundle.certificates.isEmpty, "no \(SystemCABundle.path) on this machine")
        var nodes = 0
        for (index, certificate) in SystemCABundle.certificates.enumerated() {
            do {
                let tree = try DERTree.parse(certificate)
                nodes += tree.nodes.count
                #expect(tree.encoded() == certificate, "certificate \(index) does not re-encode")
            } catch {
                Issue.record("certificate \(index): \(error)")
            }
        }
        #expect(nodes > SystemCABundle.certificates.count * 20)
    }
}

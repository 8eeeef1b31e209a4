import Testing

import TackTestSupport
@testable import TackTrust
import TackX509

/// A served certificate whose DER is an anchor's (a chain sent with its root) is taken
/// as the anchor's certificate, not parsed again (issue 35): the served list, the verdict
/// and the pins are what parsing the bytes gives.
@Suite("A served copy of an anchor is the anchor's certificate", .enabled(if: PolicyVectors.available, "Vectors/policies/certs is missing"))
struct ServedAnchorCopyTests {
    @Test("Leaf, intermediate and root served in fresh arrays: the root is the anchor's value, the rest parsed, the verdict trusted")
    func anchorCopy() throws {
        let vectors = try PolicyVectors()
        let evaluator = TrustEvaluator(anchors: AnchorStore([vectors.root]))
        // Fresh arrays, so that sharing storage can only come from the anchor store.
        let chain = [vectors.leaf, vectors.intermediate, vectors.root].map { $0.derEncoded.map { $0 } }
        var direct = DirectSignatureChecks()
        let (served, trust) = evaluator.evaluateParsing(
            chain, host: try PeerHost("api.example.com"), time: time2026, preferring: { _ in true }, signatureChecks: &direct)
        #expect(trust.verdict.isPathValid && trust.path?.certificates.count == 3)
        #expect(served.count == 3)
        #expect(served == [vectors.leaf, vectors.intermediate, vectors.root])
        #expect(PathPins.spkiPins(of: served) == [vectors.leaf.spkiPin, vectors.intermediate.spkiPin, vectors.root.spkiPin])
        func storage(_ certificate: Certificate) -> UnsafeRawPointer? {
            certificate.derEncoded.withUnsafeBytes { $0.baseAddress }
        }
        #expect(storage(served[2]) == storage(evaluator.anchors.certificates[0]), "the root was parsed again")
        #expect(storage(served[1]) != storage(vectors.intermediate), "the intermediate is not an anchor")
    }
}

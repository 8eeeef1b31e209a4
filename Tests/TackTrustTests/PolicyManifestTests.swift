import Foundation
import Testing
import TackDER
import TackTestSupport
import TackTrust

/// Every case of `Vectors/policies/manifest.json` (made by its generate.py), run in
/// process through the library: the policy loads or not, the decision's code, the pin
/// outcome's code, the diagnostic or policy-warning code the case names, and the exit
/// status `tack verify` maps the decision to.
@Suite("Policy manifest")
struct PolicyManifestTests {
    typealias Case = PolicyVectorCase

    static func cases() -> [Case] { (try? Case.all()) ?? [] }

    static func bytes(_ file: String) throws -> [UInt8] {
        try RepositoryPaths.vectorBytes("policies/" + file)
    }

    @Test("The manifest holds the generated cases")
    func manifestPresent() throws {
        // Vectors/policies is part of the repository: an unreadable file, a malformed
        // entry or a short list is a failure.
        #expect(try Case.all().count >= 46)
    }

    @Test("Each policy case gets the manifest's decision, pin outcome and diagnostic codes", arguments: cases())
    func policyCase(_ testCase: Case) throws {
        let time = try #require(RFC3339.parse(testCase.at))
        var anchors = AnchorStore()
        for root in testCase.roots { anchors = anchors.merging(try AnchorStore(pemBundle: try Self.bytes(root))) }
        let text = String(decoding: try Self.bytes(testCase.chain), as: UTF8.self)
        let chain = try PEM.parse(text).filter { $0.label == "CERTIFICATE" }.map(\.bytes)
        var policy = PinPolicy(rules: [])
        var warnings: [PinPolicyIssue] = []
        if let file = testCase.policy {
            let document = try Self.bytes(file)
            do throws(PinPolicyLoadError) {
                let loaded = file.hasSuffix(".json")
                    ? try PinPolicy.load(json: document, at: time)
                    : try PinPolicy.load(infoPlist: document, at: time)
                policy = loaded.policy
                warnings = loaded.warnings
            } catch {
                // A policy that does not load is tack verify's status 1.
                #expect(testCase.exit == 1 && testCase.decision == nil, "\(error)")
                return
            }
        }
        #expect(testCase.exit != 1, "the policy loaded")
        let decision = TrustEvaluator(anchors: anchors).evaluate(servedChain: chain, host: try PeerHost(testCase.host), at: time, pinning: policy)
        #expect(decision.code == testCase.decision)
        let status = switch decision { case .trusted: 0; case .untrusted: 3; case .pinMismatch: 4 }
        #expect(status == testCase.exit)
        if let pins = testCase.pins { #expect(decision.details.pins.outcome.code == pins) }
        if let diagnostic = testCase.diagnostic {
            let codes = decision.details.pins.diagnostics.map(\.code) + warnings.map(\.code)
            #expect(codes.contains(diagnostic), "\(codes)")
        }
    }
}

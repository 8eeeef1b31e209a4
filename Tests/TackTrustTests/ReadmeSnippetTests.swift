import Foundation
import Testing
import TackDER
import TackSignature
import TackTestSupport
import TackTrust
import TackX509

/// The README's Swift examples compile and run: each block is copied, line for line,
/// between `README:` markers in a function below, so the test target compiles it; the
/// tests run the functions on real vectors, and check that README.md still shows
/// exactly those lines (its `import` lines aside).
@Suite("README Swift examples")
struct ReadmeSnippetTests {
    // README: pinned decision
    static func pinnedDecision(policyBytes: [UInt8], now: Int64, anchors: AnchorStore, served: [[UInt8]]) throws {
        let loaded = try PinPolicy.load(json: policyBytes, at: now)   // or load(infoPlist:at:)
        for warning in loaded.warnings { print(warning.code, warning) } // "7:9: warning: example.com: ..."
        let host = try PeerHost("api.example.com")                    // a DNS name or an IP address
        let decision = TrustEvaluator(anchors: anchors)
            .evaluate(servedChain: served, host: host, at: now, pinning: loaded.policy)
        switch decision {
        case .trusted: break                                           // the only success: pins hold or not pinned
        case .untrusted(let failure, _): print(failure.code, failure)  // no valid path
        case .pinMismatch(_, let details): print(details.pins.diagnostics.map(\.code))
        }
        // README: end
    }

    // README: using the library
    static func usingTheLibrary(der: [UInt8], issuer: Certificate, secKeyBytes: [UInt8]) throws {
        let certificate = try Certificate(derEncoded: der)           // strict RFC 5280 parse, zero-copy
        let pin = SPKIPin(certificate)                               // pin.base64, pin.sha256Base64, pin.hex
        let subject = try certificate.subject.rfc4514String          // "CN=www.example.com,O=…"
        let names = try certificate.subjectAlternativeNames          // typed extensions, decoded lazily
        let key = try SignatureVerificationKey(issuer.publicKeyInfo) // prepare once, verify many
        try certificate.verifySignature(with: key, policy: .webPKI)  // throws SignatureError with a reason
        let rebuilt = try SubjectPublicKeyInfo.encode(rawKey: secKeyBytes, type: .p256)
        // README: end
        _ = names
        #expect(!pin.base64.isEmpty && subject.contains("CN=www.example.com"))
        #expect(rebuilt == (try RepositoryPaths.vectorBytes("certs/chain-leaf.spki.der")))
    }

    /// The lines between `// README: NAME` and `// README: end` in this file.
    static func marked(_ name: String) throws -> [String] {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        var lines: [String] = []
        var inside = false
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// README: \(name)" { inside = true; continue }
            if inside && trimmed == "// README: end" { return lines }
            if inside && !trimmed.hasPrefix("static func") { lines.append(String(line.dropFirst(8))) }
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    /// The README's ```swift blocks, without `import` lines and blank lines.
    static func readmeBlocks() throws -> [[String]] {
        let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```swift" { current = []; continue }
            if current != nil, line == "```" { blocks.append(current ?? []); current = nil; continue }
            if current != nil, !line.hasPrefix("import "), !line.isEmpty { current?.append(line) }
        }
        return blocks
    }

    @Test("the README's pinned-decision example is this file's, and runs on the example chain and policy")
    func pinnedDecisionExample() throws {
        let marked = try Self.marked("pinned decision")
        #expect(try Self.readmeBlocks().contains(marked), "README.md's pinned-decision block differs from the compiled one")
        let served = derCertificates(inPEM: try String(contentsOf: RepositoryPaths.vectors("certs/chain-example.pem"), encoding: .utf8))
        let anchors = try AnchorStore(pemBundle: try RepositoryPaths.vectorBytes("certs/chain-root.pem"))
        try Self.pinnedDecision(
            policyBytes: try RepositoryPaths.vectorBytes("policies/example.json"), now: 1_796_126_400, anchors: anchors,
            served: served)
    }

    @Test("the README's library example is this file's, and runs on the example leaf and its issuer")
    func usingTheLibraryExample() throws {
        let marked = try Self.marked("using the library")
        #expect(try Self.readmeBlocks().contains(marked), "README.md's library block differs from the compiled one")
        let chain = derCertificates(inPEM: try String(contentsOf: RepositoryPaths.vectors("certs/chain-example.pem"), encoding: .utf8))
        let raw = hexBytes(try String(contentsOf: RepositoryPaths.vectors("certs/chain-leaf.rawkey.hex"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        try Self.usingTheLibrary(der: chain[0], issuer: try Certificate(derEncoded: chain[1]), secKeyBytes: raw)
    }
}

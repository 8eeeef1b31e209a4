import Foundation
import Testing
import TackDER
import TackFormats
import TackTestSupport
@testable import TackTrust
import TackX509

/// The certificates of Vectors/policies/certs (see its README).
struct PolicyVectors {
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate
    let otherRoot: Certificate
    let otherIntermediate: Certificate
    let otherLeaf: Certificate

    static let directory = RepositoryPaths.vectors("policies/certs")
    /// Whether the tests that read these run: always under CI=true (a missing file then fails).
    static var available: Bool { VectorAvailability.runs(needing: directory.appendingPathComponent("chain.pem")) }

    static func certificates(_ file: String) throws -> [Certificate] {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        return try derCertificates(inPEM: text).map { try Certificate(derEncoded: $0) }
    }

    init() throws {
        let chain = try PolicyVectors.certificates("chain.pem")
        let appended = try PolicyVectors.certificates("appended-ca-chain.pem")
        root = try PolicyVectors.certificates("root.pem")[0]
        leaf = chain[0]
        intermediate = chain[1]
        otherRoot = try PolicyVectors.certificates("other-root.pem")[0]
        otherLeaf = appended[0]
        otherIntermediate = appended[1]
    }

    var path: VerifiedPath {
        VerifiedPath(certificates: [leaf, intermediate, root], references: [.served(index: 0), .served(index: 1), .anchor(index: 0)])
    }

    func trusted(_ path: VerifiedPath) -> TrustResult {
        TrustResult(verdict: .trusted, path: path, failures: [], signatureChecks: 2, buildSteps: 2)
    }
}

@Suite("Pin evaluation against the verified path", .enabled(if: PolicyVectors.available, "Vectors/policies/certs is missing"))
struct PinEvaluationTests {
    let vectors: PolicyVectors
    let backup = testPin(1)
    let backup2 = testPin(2)

    init() throws {
        vectors = try PolicyVectors()
    }

    func evaluate(_ rule: PinRule, host: String = "api.example.com", path: VerifiedPath? = nil, served: [Certificate]? = nil) -> PinEvaluation {
        let path = path ?? vectors.path
        let policy = PinPolicy(rules: [rule])
        return policy.evaluate(host: host, trust: vectors.trusted(path), servedChain: served ?? [vectors.leaf, vectors.intermediate], at: time2026)
    }

    @Test("A CA pin matches the intermediate or the anchor, never the leaf")
    func caPins() {
        let onIntermediate = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.intermediate.spkiPin, backup]))
        #expect(onIntermediate.outcome == .satisfied)
        #expect(onIntermediate.matches == [PinMatch(list: .caIdentities, entry: 0, pathIndex: 1, certificate: .served(index: 1))] as [PinMatch])
        let onAnchor = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [backup, vectors.root.spkiPin]))
        #expect(onAnchor.outcome == .satisfied)
        #expect(onAnchor.matches.map(\.pathIndex) == [2])
        let onLeaf = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.leaf.spkiPin, backup]))
        #expect(onLeaf.outcome == .failed)
        #expect(onLeaf.diagnostics.contains(.caPinMatchesLeaf(list: .caIdentities, entry: 0)))
    }

    @Test("A leaf pin matches only the leaf; both lists need a match each (AND)")
    func leafAndBoth() {
        #expect(evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, leafIdentities: [vectors.leaf.spkiPin, backup])).outcome == .satisfied)
        let leafPinOnCA = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, leafIdentities: [vectors.intermediate.spkiPin, backup]))
        #expect(leafPinOnCA.outcome == .failed)
        #expect(leafPinOnCA.diagnostics.contains(.leafPinMatchesCA(list: .leafIdentities, entry: 0, pathIndex: 1)))
        #expect(leafPinOnCA.diagnostics.contains(.onlyLeafPins))
        let both = PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.intermediate.spkiPin, backup], leafIdentities: [vectors.leaf.spkiPin, backup2])
        #expect(evaluate(both).outcome == .satisfied)
        #expect(evaluate(both).matches.count == 2)
        var leafMiss = both
        leafMiss.leafIdentities = [backup, backup2]
        #expect(evaluate(leafMiss).outcome == .failed)
        var caMiss = both
        caMiss.caIdentities = [backup, backup2]
        #expect(evaluate(caMiss).outcome == .failed)
    }

    @Test("Report-only reports and keeps trust; an expired rule is not enforced; no rule, not pinned")
    func modes() {
        let miss = PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [backup, backup2], enforcement: .reportOnly)
        let reportOnly = evaluate(miss)
        #expect(reportOnly.outcome == .failedReportOnly)
        #expect(!reportOnly.outcome.isFailure && reportOnly.outcome.needsReport)
        var expired = miss
        expired.enforcement = .enforce
        expired.expiration = time2026
        #expect(evaluate(expired).outcome == .ruleExpired(wouldSatisfy: false))
        expired.expiration = time2026 + 1
        #expect(evaluate(expired).outcome == .failed)
        let unpinned = evaluate(miss, host: "unpinned.example.org")
        #expect(unpinned.outcome == .notPinned && unpinned.rule == nil)
        #expect(unpinned.verifiedPins == [vectors.leaf.spkiPin, vectors.intermediate.spkiPin, vectors.root.spkiPin])
    }

    @Test("Untrusted chains are not pin-checked")
    func untrusted() {
        let policy = PinPolicy(rules: [PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.intermediate.spkiPin, backup])])
        let failure = TrustFailure(TrustFailure.unknownIssuer(of: vectors.leaf), certificate: .served(index: 0))
        let result = TrustResult(verdict: .recoverableFailure(failure), path: nil, failures: [failure], signatureChecks: 0, buildSteps: 1)
        let evaluation = policy.evaluate(host: "api.example.com", trust: result, servedChain: [vectors.leaf, vectors.intermediate], at: time2026)
        #expect(evaluation.outcome == .notEvaluated)
        #expect(evaluation.matches.isEmpty)
    }

    @Test("Appending the pinned CA to a forged chain gains nothing, and the cause is named")
    func appendedCA() {
        let forged = VerifiedPath(
            certificates: [vectors.otherLeaf, vectors.otherIntermediate, vectors.otherRoot],
            references: [.served(index: 0), .served(index: 1), .anchor(index: 1)]
        )
        let evaluation = evaluate(
            PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.intermediate.spkiPin, backup]),
            path: forged, served: [vectors.otherLeaf, vectors.otherIntermediate, vectors.intermediate]
        )
        #expect(evaluation.outcome == .failed)
        #expect(evaluation.matches.isEmpty)
        #expect(evaluation.diagnostics.contains(.pinnedCertificateNotOnPath(list: .caIdentities, entry: 0, served: 2)))
        #expect(evaluation.servedPins[2] == vectors.intermediate.spkiPin)
    }

    @Test("A pin over the raw key (no SPKI header) is named, with the right pin")
    func rawKeyHash() {
        let rawPin = SPKIPin(spkiDER: vectors.intermediate.publicKeyInfo.rawKey)
        let evaluation = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [rawPin, backup]))
        #expect(evaluation.outcome == .failed)
        #expect(evaluation.diagnostics.contains(.rawKeyHash(list: .caIdentities, entry: 0, certificate: .served(index: 1), correctPin: vectors.intermediate.spkiPin)))
    }

    @Test("A raw-key pin beside a pin that matches is still named; a rule whose pins all match hashes no raw keys")
    func rawKeyHashBesideMatch() {
        // The raw-key check runs only when some SPKI entry matched nothing: here entry 1.
        let rawPin = SPKIPin(spkiDER: vectors.intermediate.publicKeyInfo.rawKey)
        let mixed = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.intermediate.spkiPin, rawPin]))
        #expect(mixed.outcome == .satisfied)
        #expect(mixed.diagnostics.contains(.rawKeyHash(list: .caIdentities, entry: 1, certificate: .served(index: 1), correctPin: vectors.intermediate.spkiPin)))
        let matched = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.intermediate.spkiPin, vectors.intermediate.spkiPin]))
        #expect(matched.outcome == .satisfied)
        #expect(!matched.diagnostics.contains { if case .rawKeyHash = $0 { return true } else { return false } })
    }

    @Test("Whole-certificate pins match, with the renewal warning")
    func wholeCertificate() {
        let evaluation = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caCertificates: [vectors.intermediate.fingerprint, CertificateFingerprint(digest: backup.digest)]))
        #expect(evaluation.outcome == .satisfied)
        #expect(evaluation.matches == [PinMatch(list: .caCertificates, entry: 0, pathIndex: 1, certificate: .served(index: 1))] as [PinMatch])
        #expect(evaluation.diagnostics.contains(.wholeCertificatePins(list: .caCertificates)))
        let leaf = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [backup, backup2], leafCertificates: [vectors.leaf.fingerprint, CertificateFingerprint(digest: backup.digest)]))
        #expect(leaf.outcome == .failed)  // the CA side misses: AND
        #expect(leaf.matches == [PinMatch(list: .leafCertificates, entry: 0, pathIndex: 0, certificate: .served(index: 0))] as [PinMatch])
    }

    @Test("The path preference accepts only paths that satisfy the rule")
    func preference() throws {
        let policy = PinPolicy(rules: [PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [vectors.root.spkiPin, backup], expiration: time2026 + 1)])
        let prefer = try #require(policy.pathPreference(host: "api.example.com", at: time2026))
        #expect(prefer(vectors.path))
        let other = VerifiedPath(certificates: [vectors.otherLeaf, vectors.otherIntermediate, vectors.otherRoot], references: [.served(index: 0), .served(index: 1), .anchor(index: 1)])
        #expect(!prefer(other))
        #expect(policy.pathPreference(host: "unpinned.example.org", at: time2026) == nil)
        #expect(policy.pathPreference(host: "api.example.com", at: time2026 + 1) == nil)  // expired rules do not steer
    }

    @Test("The failure report carries host, chains, known pins and the result")
    func report() throws {
        let evaluation = evaluate(PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [backup, backup2], reportURIs: ["https://example.com/r"]))
        let trust = TrustResult(verdict: .trusted, path: vectors.path, failures: [], signatureChecks: 2, buildSteps: 2)
        let decision = TrustDecision(trust: trust, pins: evaluation, host: try PeerHost("api.example.com"), time: time2026, served: [vectors.leaf, vectors.intermediate])
        #expect(decision.code == "pin_mismatch" && !decision.isTrusted)
        let report = PinFailureReport(decision: decision, port: 443)
        // Written and read back: what a report endpoint receives.
        let document = try JSONReader.parse(report.json.serialized())
        guard case .object(let members) = document else { Issue.record("report is not an object"); return }
        let fields = Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) })
        #expect(fields["hostname"] == .string("api.example.com"))
        #expect(fields["date-time"] == .string("2026-12-01T12:00:00Z"))
        #expect(fields["noted-hostname"] == .string("example.com"))
        #expect(fields["include-subdomains"] == .bool(true))
        #expect(fields["validation-result"] == .string("pin-validation-failed"))
        #expect(fields["diagnostic-codes"] == .array(evaluation.diagnostics.map { .string($0.code) }))
        #expect(fields["known-pins"] == .array([.string("pin-sha256=\"\(backup.base64)\""), .string("pin-sha256=\"\(backup2.base64)\"")]))
        guard case .array(let served) = fields["served-certificate-chain"], case .array(let verified) = fields["validated-certificate-chain"] else {
            Issue.record("chains missing"); return
        }
        #expect(served.count == 2 && verified.count == 3)
        if case .string(let pem) = verified.last {
            #expect(try PEM.parse(pem).first?.bytes == vectors.root.derEncoded)
        }
    }
}

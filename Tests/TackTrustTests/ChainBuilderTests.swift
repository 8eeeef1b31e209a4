import TackDER
import TackSignature
import TackTestSupport
@testable import TackTrust
import TackX509
import Testing

/// The chains of Vectors/trust-unit (generate.py), validated at this time.
private let validationTime: Int64 = 1_750_000_000

/// A certificate of Vectors/trust-unit/<case>/<name>.der.
private func load(_ testCase: String, _ name: String) throws -> Certificate {
    try Certificate(derEncoded: RepositoryPaths.vectorBytes("trust-unit/\(testCase)/\(name).der"))
}

private func evaluate(
    _ testCase: String, leaf: String = "leaf", intermediates: [String], anchors: [String] = ["root"],
    time: Int64 = validationTime, host: PeerHost? = nil, purpose: KeyPurpose = .serverAuthentication,
    maximumDepth: Int? = nil, budget: Budget = .default, policy: SignaturePolicy = .webPKI,
    revocationLists: [String] = [], preferring: ((VerifiedPath) -> Bool)? = nil
) throws -> TrustResult {
    let store = AnchorStore(try anchors.map { try load(testCase, $0) })
    let lists = try revocationLists.map {
        try CertificateRevocationList(derEncoded: RepositoryPaths.vectorBytes("trust-unit/\(testCase)/\($0).der"))
    }
    let options = TrustOptions(
        purpose: purpose, maximumDepth: maximumDepth, signaturePolicy: policy, budget: budget, revocationLists: lists)
    let evaluator = TrustEvaluator(anchors: store, options: options)
    // Path validation alone (internal): the decision's input, with every field to check.
    var direct = DirectSignatureChecks()
    return evaluator.validate(
        [try load(testCase, leaf)] + (try intermediates.map { try load(testCase, $0) }), positions: nil,
        host: host, time: time, preferring: preferring ?? { _ in true }, signatureChecks: &direct)
}

/// The unknown-issuer reason of a certificate of Vectors/trust-unit: its issuer name and
/// authority key identifier.
private func unknownIssuer(_ testCase: String, _ name: String) throws -> TrustFailure.Reason {
    TrustFailure.unknownIssuer(of: try load(testCase, name))
}

private func reason(_ result: TrustResult) -> TrustFailure.Reason? {
    switch result.verdict {
    case .trusted: return nil
    case .recoverableFailure(let failure), .fatalFailure(let failure): return failure.reason
    }
}

private func failure(_ result: TrustResult) -> TrustFailure? {
    switch result.verdict {
    case .trusted: return nil
    case .recoverableFailure(let failure), .fatalFailure(let failure): return failure
    }
}

@Suite("Chain building and path validation")
struct ChainBuilderTests {
    @Test("A valid three-certificate chain is trusted, and the path runs leaf to anchor")
    func validChain() throws {
        let result = try evaluate("valid", intermediates: ["ica"])
        #expect(result.verdict == .trusted)
        let path = try #require(result.path)
        #expect(path.references == [.served(index: 0), .served(index: 1), .anchor(index: 0)])
        #expect(path.certificates == [try load("valid", "leaf"), try load("valid", "ica"), try load("valid", "root")])
        #expect(result.signatureChecks == 2)
        #expect(result.failures.isEmpty)
    }

    @Test("Served order, duplicates and a served copy of the root do not matter")
    func servedOrderAndDuplicates() throws {
        let result = try evaluate("valid", intermediates: ["root", "ica", "ica", "leaf"])
        #expect(result.verdict == .trusted)
        #expect(result.path?.references == [.served(index: 0), .served(index: 2), .anchor(index: 0)])
        #expect(result.signatureChecks == 2)
    }

    @Test("A missing intermediate is an unknown issuer, recoverable, naming the leaf")
    func missingIntermediate() throws {
        let result = try evaluate("valid", intermediates: [])
        let keyIdentifier: [UInt8] = [0xDE, 0xBB, 0x98, 0xE6, 0x40, 0x94, 0x88, 0x51, 0xA7, 0x7C, 0x06, 0xB3, 0x54, 0x2B, 0x3E, 0x48, 0x2B, 0x75, 0xD8, 0xD9]
        guard case .recoverableFailure(let failure) = result.verdict,
              case .unknownIssuer(let issuer, let lookedFor) = failure.reason else {
            Issue.record("expected an unknown issuer, got \(result.verdict)")
            return
        }
        #expect(issuer?.rfc4514String == "CN=Tack ICA")
        #expect(lookedFor == keyIdentifier)
        #expect(failure.certificate == .served(index: 0))
        #expect(result.path == nil)
        // The message names the issuer and the key identifier that were looked for.
        #expect(failure.description == "no trusted issuer found (served certificate #1): no anchor or served certificate is \"CN=Tack ICA\", key identifier DE:BB:98:E6:40:94:88:51:A7:7C:06:B3:54:2B:3E:48:2B:75:D8:D9")
    }

    @Test("An intermediate of another name is no candidate: unknown issuer")
    func wrongIssuer() throws {
        let result = try evaluate("wrong-issuer", intermediates: ["other"])
        #expect(result.verdict == .recoverableFailure(TrustFailure(try unknownIssuer("wrong-issuer", "leaf"), certificate: .served(index: 0))))
        #expect(result.signatureChecks == 0)
    }

    @Test("A flipped signature bit is a fatal bad signature on the leaf")
    func badSignature() throws {
        let result = try evaluate("bad-signature", intermediates: ["ica"])
        guard case .fatalFailure(let failure) = result.verdict, case .badSignature(let error) = failure.reason else {
            Issue.record("expected a fatal bad signature, got \(result.verdict)")
            return
        }
        #expect(failure.certificate == .served(index: 0))
        #expect(error == .invalidSignature)
    }

    @Test("Validity bounds are inclusive, one second either side fails", arguments: [-1, 0, 1] as [Int64])
    func validityBounds(delta: Int64) throws {
        let leaf = try load("valid", "leaf")
        let notBefore = leaf.validity.notBefore.secondsSince1970
        let notAfter = leaf.validity.notAfter.secondsSince1970
        let early = try evaluate("valid", intermediates: ["ica"], time: notBefore + delta)
        let late = try evaluate("valid", intermediates: ["ica"], time: notAfter + delta)
        if delta < 0 {
            #expect(early.verdict == .recoverableFailure(TrustFailure(.notYetValid(notBefore: notBefore, checkTime: notBefore + delta), certificate: .served(index: 0))))
            #expect(late.verdict == .trusted)
        } else if delta == 0 {
            #expect(early.verdict == .trusted)
            #expect(late.verdict == .trusted)
        } else {
            #expect(early.verdict == .trusted)
            #expect(late.verdict == .recoverableFailure(TrustFailure(.expired(notAfter: notAfter, checkTime: notAfter + delta), certificate: .served(index: 0))))
        }
    }

    @Test("Cross-signed roots: the expired branch is tried first, then the search backtracks to the valid one")
    func crossSignedBacktracks() throws {
        let result = try evaluate(
            "cross-signed", intermediates: ["ica-by-old", "ica-by-new"], anchors: ["old-root", "new-root"])
        #expect(result.verdict == .trusted)
        #expect(result.path?.references == [.served(index: 0), .served(index: 2), .anchor(index: 1)])
        // The expired branch was walked to its anchor (so its signatures were checked) and recorded.
        #expect(result.signatureChecks == 4)
        let expired = try load("cross-signed", "ica-by-old").validity.notAfter.secondsSince1970
        #expect(result.failures == [TrustFailure(.expired(notAfter: expired, checkTime: validationTime), certificate: .served(index: 1))])
    }

    @Test("Only the expired cross-sign: a recoverable expiry of that intermediate, not an unknown issuer")
    func crossSignedOnlyExpired() throws {
        let result = try evaluate("cross-signed", intermediates: ["ica-by-old"], anchors: ["old-root", "new-root"])
        let expired = try load("cross-signed", "ica-by-old").validity.notAfter.secondsSince1970
        #expect(result.verdict == .recoverableFailure(TrustFailure(.expired(notAfter: expired, checkTime: validationTime), certificate: .served(index: 1))))
    }

    @Test("An expired intermediate that reaches no anchor is reported as that intermediate's unknown issuer")
    func expiredWithoutAnchor() throws {
        // Without the old root, the expired intermediate leads nowhere: the path is
        // not "valid but expired", so the expiry is not the answer.
        let result = try evaluate("cross-signed", intermediates: ["ica-by-old"], anchors: ["new-root"])
        #expect(result.verdict == .recoverableFailure(TrustFailure(try unknownIssuer("cross-signed", "ica-by-old"), certificate: .served(index: 1))))
    }

    @Test("The preferring predicate picks a later valid path, and the first valid path is the fallback")
    func preferring() throws {
        let args = (intermediates: ["ica-by-old", "ica-by-new"], anchors: ["old-root", "new-root"])
        let first = try evaluate("cross-signed-both-valid", intermediates: args.intermediates, anchors: args.anchors)
        #expect(first.path?.references.last == .anchor(index: 0))

        let newRoot = try load("cross-signed-both-valid", "new-root")
        let preferred = try evaluate(
            "cross-signed-both-valid", intermediates: args.intermediates, anchors: args.anchors,
            preferring: { $0.anchor == newRoot })
        #expect(preferred.verdict == .trusted)
        #expect(preferred.path?.references.last == .anchor(index: 1))

        let never = try evaluate(
            "cross-signed-both-valid", intermediates: args.intermediates, anchors: args.anchors, preferring: { _ in false })
        #expect(never.verdict == .trusted)
        #expect(never.path == first.path)
        #expect(never.signatureChecks == 4)
    }

    @Test("Two CAs certifying each other end in an unknown issuer, each link checked once")
    func loop() throws {
        let result = try evaluate("loop", intermediates: ["a", "b"])
        #expect(result.verdict == .recoverableFailure(TrustFailure(try unknownIssuer("loop", "b"), certificate: .served(index: 2))))
        // leaf <- A, A <- B, B <- A is a loop (A already on the path).
        #expect(result.signatureChecks == 2)
        #expect(result.buildSteps == 3)
    }

    @Test("A pathLenConstraint of 0 refuses a second intermediate below it, fatally")
    func pathLength() throws {
        let result = try evaluate("path-length", intermediates: ["ica1", "ica2"])
        #expect(result.verdict == .fatalFailure(TrustFailure(.pathLengthExceeded(limit: 0), certificate: .served(index: 1))))
    }

    @Test("The maximum depth counts every certificate of the path")
    func maximumDepth() throws {
        #expect(try evaluate("valid", intermediates: ["ica"], maximumDepth: 3).verdict == .trusted)
        let short = try evaluate("valid", intermediates: ["ica"], maximumDepth: 2)
        #expect(short.verdict == .fatalFailure(TrustFailure(.maximumDepthExceeded(limit: 2), certificate: .anchor(index: 0))))
    }

    @Test("The budget's intermediate limit ends a path that is too long")
    func maxIntermediates() throws {
        let budget = Budget(signatureChecks: 100, buildSteps: 1000, maxIntermediates: 0)
        let result = try evaluate("valid", intermediates: ["ica"], budget: budget)
        guard case .fatalFailure(let failure) = result.verdict, case .maximumDepthExceeded = failure.reason else {
            Issue.record("expected a depth failure, got \(result.verdict)")
            return
        }
    }

    @Test("Extended key usage: a client-only leaf fails server auth, passes client auth")
    func leafEKU() throws {
        let server = try evaluate("eku", leaf: "client-leaf", intermediates: ["ica"])
        #expect(server.verdict == .fatalFailure(TrustFailure(.extendedKeyUsageMismatch, certificate: .served(index: 0))))
        let client = try evaluate("eku", leaf: "client-leaf", intermediates: ["ica"], purpose: .clientAuthentication)
        #expect(client.verdict == .trusted)
        let any = try evaluate("eku", leaf: "client-leaf", intermediates: ["ica"], purpose: .any)
        #expect(any.verdict == .trusted)
    }

    @Test("Nested EKU: an intermediate limited to client auth cannot issue a server leaf; anyExtendedKeyUsage can")
    func nestedEKU() throws {
        let limited = try evaluate("eku", leaf: "leaf-under-client-ica", intermediates: ["client-ica"])
        #expect(limited.verdict == .fatalFailure(TrustFailure(.extendedKeyUsageMismatch, certificate: .served(index: 1))))
        let any = try evaluate("eku", leaf: "leaf-under-client-ica", intermediates: ["any-ica"])
        #expect(any.verdict == .trusted)
    }

    @Test("Key usage: an EC leaf for key transport only cannot authenticate; keyCertSign needs cA; an issuer needs keyCertSign")
    func keyUsage() throws {
        let leaf = try evaluate("key-usage", leaf: "encipher-leaf", intermediates: ["ica"])
        #expect(leaf.verdict == .fatalFailure(TrustFailure(.keyUsageMismatch, certificate: .served(index: 0))))
        let certSign = try evaluate("key-usage", intermediates: ["ica"])
        #expect(certSign.verdict == .fatalFailure(
            TrustFailure(.profileViolation(.keyCertSignWithoutCA), certificate: .served(index: 0))))
        let issuer = try evaluate("key-usage", leaf: "leaf-under-ku-ica", intermediates: ["ku-ica"])
        #expect(issuer.verdict == .fatalFailure(TrustFailure(.missingKeyCertSign, certificate: .served(index: 1))))
    }

    @Test("An unknown critical extension fails naming its OID; a non-critical one is ignored")
    func unknownCriticalExtension() throws {
        let oid = try OID(dotted: "1.3.6.1.4.1.55555.1")
        let leaf = try evaluate("critical", intermediates: ["ica"])
        #expect(leaf.verdict == .fatalFailure(TrustFailure(.unknownCriticalExtension(oid), certificate: .served(index: 0))))
        let issuer = try evaluate("critical", leaf: "leaf-under-crit-ica", intermediates: ["crit-ica"])
        #expect(issuer.verdict == .fatalFailure(TrustFailure(.unknownCriticalExtension(oid), certificate: .served(index: 1))))
        #expect(try evaluate("critical", leaf: "noncritical-leaf", intermediates: ["ica"]).verdict == .trusted)
    }

    @Test("An intermediate that is not a CA (cA FALSE, or no basic constraints) cannot issue")
    func notCA() throws {
        let notCA = try evaluate("not-ca", leaf: "leaf-under-notca", intermediates: ["notca-ica"])
        #expect(notCA.verdict == .fatalFailure(TrustFailure(.issuerNotCA, certificate: .served(index: 1))))
        let noBC = try evaluate("not-ca", leaf: "leaf-under-nobc", intermediates: ["nobc-ica"])
        #expect(noBC.verdict == .fatalFailure(TrustFailure(.issuerNotCA, certificate: .served(index: 1))))
    }

    @Test("Failure ranking: an expired intermediate that reaches an anchor beats a same-named non-CA and junk")
    func ranking() throws {
        let result = try evaluate("ranking", intermediates: ["junk", "decoy-not-ca", "ica-expired"])
        let expired = try load("ranking", "ica-expired").validity.notAfter.secondsSince1970
        #expect(result.verdict == .recoverableFailure(TrustFailure(.expired(notAfter: expired, checkTime: validationTime), certificate: .served(index: 3))))
        #expect(result.failures.first == TrustFailure(.expired(notAfter: expired, checkTime: validationTime), certificate: .served(index: 3)))
        #expect(result.failures.contains(TrustFailure(.issuerNotCA, certificate: .served(index: 2))))
        // Without the expired one, the non-CA decoy is the most specific failure.
        let decoyOnly = try evaluate("ranking", intermediates: ["junk", "decoy-not-ca"])
        #expect(decoyOnly.verdict == .fatalFailure(TrustFailure(.issuerNotCA, certificate: .served(index: 2))))
    }

    @Test("Same-named decoys: honest SKIs let the AKI pick the real issuer first; forged SKIs exhaust the signature budget")
    func decoys() throws {
        let honest = (0..<100).map { "honest-" + String(1000 + $0).dropFirst() }
        let forged = (0..<300).map { "forged-" + String(1000 + $0).dropFirst() }
        let preferred = try evaluate("decoys", intermediates: honest + ["ica"])
        #expect(preferred.verdict == .trusted)
        #expect(preferred.signatureChecks == 2)
        #expect(preferred.path?.references == [.served(index: 0), .served(index: 101), .anchor(index: 0)])

        let exhausted = try evaluate("decoys", intermediates: forged + ["ica"])
        #expect(exhausted.verdict == .fatalFailure(TrustFailure(.signatureBudgetExhausted, certificate: nil)))
        #expect(exhausted.path == nil)
        #expect(exhausted.signatureChecks == Budget.default.signatureChecks)
        #expect(exhausted.buildSteps == Budget.default.signatureChecks + 1)
        #expect(exhausted.failures.count <= 64)
        #expect(exhausted.failures.allSatisfy { if case .badSignature = $0.reason { true } else { false } })

        let budget = Budget(signatureChecks: 1000, buildSteps: 50, maxIntermediates: 6)
        let steps = try evaluate("decoys", intermediates: forged + ["ica"], budget: budget)
        #expect(steps.verdict == .fatalFailure(TrustFailure(.buildStepBudgetExhausted, certificate: nil)))
        #expect(steps.buildSteps == 51)
        #expect(steps.signatureChecks == 50)
    }

    @Test("A budget one signature short never yields a path whose last signature went unchecked")
    func signatureBudgetEdge() throws {
        let short = Budget(signatureChecks: 1, buildSteps: 100, maxIntermediates: 6)
        let result = try evaluate("valid", intermediates: ["ica"], budget: short)
        #expect(result.verdict == .fatalFailure(TrustFailure(.signatureBudgetExhausted, certificate: nil)))
        #expect(result.path == nil)
        #expect(result.signatureChecks == 1)
        let enough = Budget(signatureChecks: 2, buildSteps: 2, maxIntermediates: 6)
        #expect(try evaluate("valid", intermediates: ["ica"], budget: enough).verdict == .trusted)
    }

    @Test("The web PKI policy refuses a 1024-bit RSA issuer as a weak key, naming the issuer; a 2048-bit RSA chain is trusted")
    func rsaPolicy() throws {
        #expect(try evaluate("rsa", intermediates: []).verdict == .trusted)
        let small = try evaluate("rsa", leaf: "leaf-under-small-root", intermediates: [], anchors: ["small-root"])
        guard case .fatalFailure(let failure) = small.verdict, case .weakKey(let bits, let minimum) = failure.reason else {
            Issue.record("expected a weak key, got \(small.verdict)")
            return
        }
        #expect(bits == 1024 && minimum == 2048)
        #expect(failure.code == "weak_key")
        #expect(failure.certificate == .anchor(index: 0))
        let permissive = try evaluate(
            "rsa", leaf: "leaf-under-small-root", intermediates: [], anchors: ["small-root"], policy: .permissive)
        #expect(permissive.verdict == .trusted)
    }

    @Test("A self-signed leaf that is itself an anchor is trusted directly")
    func leafIsAnchor() throws {
        let result = try evaluate("self-signed", intermediates: [], anchors: ["leaf"])
        #expect(result.verdict == .trusted)
        #expect(result.path?.references == [.anchor(index: 0)])
        let untrusted = try evaluate("self-signed", intermediates: [], anchors: [])
        #expect(untrusted.verdict == .recoverableFailure(TrustFailure(try unknownIssuer("self-signed", "leaf"), certificate: .served(index: 0))))
    }

    @Test("A served chain as DER: an intermediate that does not parse is skipped, references keep served positions")
    func servedChainPositions() throws {
        let der = { (name: String) throws -> [UInt8] in try RepositoryPaths.vectorBytes("trust-unit/valid/\(name).der") }
        let store = AnchorStore([try load("valid", "root")])
        let evaluator = TrustEvaluator(anchors: store)
        let result = evaluator.evaluate(servedChain: [try der("leaf"), [0x30, 0x03, 0x02, 0x01, 0x00], try der("ica")], host: nil, at: validationTime)
        guard case .trusted(let path, let details) = result else {
            Issue.record("expected trusted, got \(result)")
            return
        }
        #expect(path.references == [.served(index: 0), .served(index: 2), .anchor(index: 0)])
        #expect(details.servedCertificates.count == 2)
    }

    @Test("A served chain whose leaf does not parse is a fatal malformed failure")
    func malformedServedLeaf() throws {
        let evaluator = TrustEvaluator(anchors: AnchorStore())
        let result = evaluator.evaluate(servedChain: [[0x30, 0x00]], host: nil, at: validationTime)
        guard case .untrusted(let failure, _) = result, case .malformed = failure.reason else {
            Issue.record("expected malformed, got \(result)")
            return
        }
        #expect(failure.isFatal && result.code == "malformed" && !result.isTrusted)
    }

    @Test("The peer name is checked once a path is found: a mismatch is recoverable")
    func peerName() throws {
        #expect(try evaluate("valid", intermediates: ["ica"], host: PeerHost("example.com")).verdict == .trusted)
        let host = try PeerHost("example.org")
        let other = try evaluate("valid", intermediates: ["ica"], host: host)
        let mismatch = TrustFailure(.peerNameMismatch(host: host, leafNames: [.dnsName("example.com")]), certificate: .served(index: 0))
        #expect(other.verdict == .recoverableFailure(mismatch))
        #expect(other.path == nil)
        #expect(other.failures == [mismatch])
        // The message names the host and every DNS/IP name of the leaf.
        #expect(mismatch.description == "served certificate #1 is not for example.org: its names are example.com")
        // A fatal path failure is never masked by a recoverable name mismatch.
        let forged = try evaluate("bad-signature", intermediates: ["ica"], host: PeerHost("example.org"))
        guard case .fatalFailure(let failure) = forged.verdict, case .badSignature = failure.reason else {
            Issue.record("expected a fatal bad signature, got \(forged.verdict)")
            return
        }
    }

    @Test("A CRL of the issuer listing the leaf revokes it; a stale CRL is invalid; another serial is fine")
    func revocation() throws {
        let revoked = try evaluate("revoked", intermediates: ["ica"], revocationLists: ["crl-revoking-leaf"])
        #expect(revoked.verdict == .recoverableFailure(
            TrustFailure(.revoked(revocationTime: validationTime - 2 * 86_400, reason: nil), certificate: .served(index: 0))))
        // One signature check for the leaf, one for the CRL, one for the ICA.
        #expect(revoked.signatureChecks == 3)
        let stale = try evaluate("revoked", intermediates: ["ica"], revocationLists: ["crl-stale"])
        #expect(stale.verdict == .fatalFailure(TrustFailure(.invalidRevocationList, certificate: .served(index: 1))))
        let other = try evaluate("revoked", intermediates: ["ica"], revocationLists: ["crl-other-serial"])
        #expect(other.verdict == .trusted)
        // The CRL is the ICA's: it does not apply to the ICA itself (issued by the root).
        #expect(try evaluate("valid", intermediates: ["ica"], revocationLists: []).verdict == .trusted)
    }

    @Test("Validity failures print RFC 3339 times and the distance to the check time")
    func validityMessages() {
        let expired = TrustFailure(.expired(notAfter: 1_777_278_997, checkTime: 1_777_278_997 + 219 * 86_400 + 5), certificate: .served(index: 1))
        #expect(expired.description == "certificate expired at 2026-04-27T08:36:37Z, 219 days before the check time (served certificate #2)")
        let early = TrustFailure(.notYetValid(notBefore: 1_777_278_997, checkTime: 1_777_278_997 - 7_200), certificate: .served(index: 0))
        #expect(early.description == "certificate not valid before 2026-04-27T08:36:37Z, 2 hours after the check time (served certificate #1)")
        let revoked = TrustFailure(.revoked(revocationTime: 1_777_278_997, reason: nil), certificate: .served(index: 0))
        #expect(revoked.description == "certificate revoked at 2026-04-27T08:36:37Z (served certificate #1)")
    }

    @Test("A chain served intermediate first is named as served in the wrong order")
    func wrongOrder() throws {
        let der = { (name: String) throws -> [UInt8] in try RepositoryPaths.vectorBytes("trust-unit/valid/\(name).der") }
        let evaluator = TrustEvaluator(anchors: AnchorStore([try load("valid", "root")]))
        let decision = evaluator.evaluate(servedChain: [try der("ica"), try der("leaf")], host: try PeerHost("example.com"), at: validationTime)
        guard case .untrusted(let failure, let details) = decision else {
            Issue.record("expected a refusal, got \(decision)")
            return
        }
        #expect(failure == TrustFailure(.servedOutOfOrder(leafAt: 1), certificate: .served(index: 0)))
        #expect(failure.isFatal && decision.code == "served_out_of_order")
        #expect(details.failures.count > 1)  // the search's own findings follow
        // In the right order, the same certificates are trusted.
        #expect(evaluator.evaluate(servedChain: [try der("leaf"), try der("ica")], host: try PeerHost("example.com"), at: validationTime).isTrusted)
    }
}

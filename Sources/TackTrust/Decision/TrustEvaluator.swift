internal import TackDER
public import TackX509

/// Decides whether a served chain may be trusted for a host at a time, pins included:
/// the `SecTrustEvaluateWithError` plus `NSPinnedDomains` of Tack, in pure Swift.
///
/// ```swift
/// let evaluator = TrustEvaluator(anchors: anchors)
/// let decision = evaluator.evaluate(
///     servedChain: chainDER, host: try PeerHost("api.example.com"), at: now, pinning: policy)
/// guard decision.isTrusted else { /* refuse; decision.description says why */ }
/// ```
///
/// Every entry point runs the same flow once: look up the host's pin rule; parse the
/// chain (or take it parsed, or take it from a ``VerificationCache``); search
/// depth-first over every candidate issuer (RFC 4158), charged to the ``Budget``,
/// validating each candidate path (RFC 5280 §6) and preferring a path that satisfies
/// the host's pins; check the pins against the verified path; and return one
/// ``TrustDecision``.
public struct TrustEvaluator: Sendable {
    /// The trust anchors.
    public var anchors: AnchorStore
    /// Purpose, limits, signature policy, revocation data (CRLs, stapled OCSP responses)
    /// and the revocation policy.
    public var options: TrustOptions

    /// Creates an evaluator.
    ///
    /// - Parameters:
    ///   - anchors: The trust anchors.
    ///   - options: Purpose, limits, signature policy and revocation data and policy (Web PKI
    ///     defaults when omitted).
    public init(anchors: AnchorStore, options: TrustOptions = TrustOptions()) {
        self.anchors = anchors
        self.options = options
    }

    /// Decides on a chain as the peer sent it, DER, leaf first.
    ///
    /// A leaf that does not parse is a fatal ``TrustFailure/Reason/malformed(_:)``
    /// failure; an intermediate that does not parse is left out of the search and of
    /// the pin diagnostics (``TrustDetails/servedCertificates`` holds those that
    /// parsed; ``CertificateReference/served(index:)`` still counts positions in
    /// `servedChain`).
    ///
    /// - Parameters:
    ///   - servedChain: The certificates as the peer sent them, DER, leaf first; any
    ///     order, duplicates and unrelated certificates after the leaf.
    ///   - host: The host connected to, the name check's reference identity and the pin
    ///     rule's lookup key; `nil` skips the name check (a client certificate), and
    ///     then no pin rule applies.
    ///   - time: The validation time, in seconds since 1970 (validity bounds inclusive,
    ///     RFC 5280 §4.1.2.5; pin-rule expiration).
    ///   - policy: The pins; the default, an empty policy, pins nothing.
    /// - Returns: The decision; only ``TrustDecision/trusted(path:details:)`` is success.
    public func evaluate(servedChain: [[UInt8]], host: PeerHost?, at time: Int64, pinning policy: PinPolicy = PinPolicy(rules: [])) -> TrustDecision {
        var direct = DirectSignatureChecks()
        return decide(.der(servedChain), host: host, time: time, policy: policy, signatureChecks: &direct)
    }

    /// Decides on certificates already parsed, leaf first, as
    /// ``evaluate(servedChain:host:at:pinning:)-([[UInt8]],_,_,_)`` does for DER.
    ///
    /// - Parameters:
    ///   - servedChain: The certificates as the peer sent them, leaf first.
    ///   - host: The host connected to; `nil` skips the name check and the pins.
    ///   - time: The validation time, in seconds since 1970.
    ///   - policy: The pins; the default, an empty policy, pins nothing.
    /// - Returns: The decision; only ``TrustDecision/trusted(path:details:)`` is success.
    public func evaluate(servedChain: [Certificate], host: PeerHost?, at time: Int64, pinning policy: PinPolicy = PinPolicy(rules: [])) -> TrustDecision {
        var direct = DirectSignatureChecks()
        return decide(.parsed(servedChain), host: host, time: time, policy: policy, signatureChecks: &direct)
    }

    /// Decides on a DER chain through a ``VerificationCache``: a chain trusted before,
    /// byte for byte, with the same anchors, host, pin rule and options, is not parsed,
    /// built or verified again while `time` lies within its path's validity; its pins
    /// are checked again on every hit. Otherwise as
    /// ``evaluate(servedChain:host:at:pinning:)-([[UInt8]],_,_,_)``.
    ///
    /// - Parameters:
    ///   - servedChain: The certificates as the peer sent them, DER, leaf first.
    ///   - host: The host connected to; `nil` skips the name check and the pins.
    ///   - time: The validation time, in seconds since 1970.
    ///   - policy: The pins.
    ///   - cache: The cache to consult, and to store a trusted path in.
    /// - Returns: The decision; the counters of a hit are those of the evaluation that
    ///   filled the cache.
    public func evaluate(
        servedChain: [[UInt8]], host: PeerHost?, at time: Int64, pinning policy: PinPolicy, cache: inout VerificationCache
    ) -> TrustDecision {
        decide(servedChain, host: host, time: time, policy: policy, cache: &cache)
    }

    /// ``evaluate(servedChain:host:at:pinning:)-([[UInt8]],_,_,_)`` with a
    /// ``SignatureCache``: each certificate signature already verified under the same
    /// issuer key (and signature policy) is not verified again; each one that verifies
    /// is stored.
    ///
    /// The decision, its path, failures and counters are those of the same call without
    /// the cache: a hit still counts as a signature check.
    ///
    /// - Parameters:
    ///   - servedChain: The certificates as the peer sent them, DER, leaf first.
    ///   - host: The host connected to; `nil` skips the name check and the pins.
    ///   - time: The validation time, in seconds since 1970.
    ///   - policy: The pins; the default, an empty policy, pins nothing.
    ///   - signatureCache: The cache to consult and to store passed checks in.
    /// - Returns: The decision; only ``TrustDecision/trusted(path:details:)`` is success.
    public func evaluate(
        servedChain: [[UInt8]], host: PeerHost?, at time: Int64, pinning policy: PinPolicy = PinPolicy(rules: []),
        signatureCache: inout SignatureCache
    ) -> TrustDecision {
        decide(.der(servedChain), host: host, time: time, policy: policy, signatureChecks: &signatureCache)
    }

    /// What the caller handed over.
    enum ServedInput {
        case der([[UInt8]])
        case parsed([Certificate])
    }

    /// The one flow of every entry point: the host's pin rule, the path search (which
    /// checks certificate signatures through `signatureChecks`: a ``SignatureCache``,
    /// or ``DirectSignatureChecks``, which links no cache), then the pins.
    func decide<Checks: CertificateSignatureChecks>(
        _ input: ServedInput, host: PeerHost?, time: Int64, policy: PinPolicy, signatureChecks: inout Checks
    ) -> TrustDecision {
        let (ruleIndex, preferredIndex) = Self.ruleIndices(policy, host: host, time: time)
        let (served, checked) = search(
            input, host: host, time: time, rules: policy.rules, preferredIndex: preferredIndex, signatureChecks: &signatureChecks)
        let pins = policy.evaluate(host: host, ruleIndex: ruleIndex, trust: checked, servedChain: served, at: time)
        return TrustDecision(trust: checked, pins: pins, host: host, time: time, served: served)
    }

    /// The same flow through a ``VerificationCache`` of whole trusted verdicts, consulted
    /// first (a chain with revocation data or a CT requirement in `options` is never
    /// cached). Apart from ``decide(_:host:time:policy:signatureChecks:)``, so that an
    /// image that never caches does not link the cache (issue 36: about 9 KB of a
    /// Cortex-M4 image).
    func decide(_ chain: [[UInt8]], host: PeerHost?, time: Int64, policy: PinPolicy, cache: inout VerificationCache) -> TrustDecision {
        let (ruleIndex, preferredIndex) = Self.ruleIndices(policy, host: host, time: time)
        let rules = policy.rules
        var key: VerificationCache.Key? = nil
        if cache.capacity > 0, options.revocationLists.isEmpty, options.stapledResponses.isEmpty,
           options.certificateTransparency == nil {
            let newKey = VerificationCache.Key(servedChain: chain, anchors: anchors, host: host, preferredRule: preferredIndex.map { rules[$0] }, options: options)
            if let hit = cache.lookup(newKey, at: time) {
                let pins = policy.evaluate(host: host, ruleIndex: ruleIndex, trust: hit.trust, servedChain: hit.served, at: time)
                return TrustDecision(trust: hit.trust, pins: pins, host: host, time: time, served: hit.served)
            }
            key = newKey
        }
        var direct = DirectSignatureChecks()
        let (served, checked) = search(.der(chain), host: host, time: time, rules: rules, preferredIndex: preferredIndex, signatureChecks: &direct)
        if let key { cache.insert(key, trust: checked, served: served) }
        let pins = policy.evaluate(host: host, ruleIndex: ruleIndex, trust: checked, servedChain: served, at: time)
        return TrustDecision(trust: checked, pins: pins, host: host, time: time, served: served)
    }

    /// The host's rule in `policy` (for the pin check), and the rule that steers the
    /// search towards a pinned path: the host's, unless expired.
    private static func ruleIndices(_ policy: PinPolicy, host: PeerHost?, time: Int64) -> (rule: Int?, preferred: Int?) {
        let ruleIndex = host?.dnsName.flatMap { policy.ruleIndex(forNormalized: $0) }
        // Held as an index into `rules` (one array), not as a copy of the rule: the
        // preference below is specialized into the search, and a captured `PinRule` was
        // copied (a retain per field) at each level of it (issue 35: +47 retains on `e2e-*`).
        return (ruleIndex, ruleIndex.flatMap { policy.rules[$0].isExpired(at: time) ? nil : $0 })
    }

    /// Parsing (for DER), path search and validation preferring a path that satisfies
    /// `rules[preferredIndex]`, the served-order check and CT: the served certificates
    /// that parsed and the result before the pins.
    private func search<Checks: CertificateSignatureChecks>(
        _ input: ServedInput, host: PeerHost?, time: Int64, rules: [PinRule], preferredIndex: Int?,
        signatureChecks: inout Checks
    ) -> (served: [Certificate], checked: TrustResult) {
        // The preference is a non-escaping closure (its context, the rules and an index, on
        // the stack: no allocation per verdict), the same rule as `PinPolicy.pathPreference`.
        func preference(_ path: VerifiedPath) -> Bool {
            guard let preferredIndex else { return true }
            return PathPins.isSatisfied(by: rules[preferredIndex], on: path)
        }
        let (served, trust): ([Certificate], TrustResult)
        switch input {
        case .der(let chain):
            (served, trust) = evaluateParsing(chain, host: host, time: time, preferring: preference, signatureChecks: &signatureChecks)
        case .parsed(let chain):
            (served, trust) = (chain, validate(chain, positions: nil, host: host, time: time, preferring: preference, signatureChecks: &signatureChecks))
        }
        return (served, checkingTransparency(Self.namingMisorder(trust, served: served), time: time))
    }

    /// A failed result whose served chain starts with a CA while an end-entity
    /// certificate issued by a served CA comes later: the chain was served in the wrong
    /// order, which is what the failure then says (the search's own failures follow).
    static func namingMisorder(_ trust: TrustResult, served: [Certificate]) -> TrustResult {
        guard !trust.verdict.isPathValid, served.count > 1, isCA(served[0]) else { return trust }
        let caSubjects = served.filter(isCA).map { $0.subjectBytes }
        guard let leafAt = served.indices.dropFirst().first(where: { index in
            !isCA(served[index]) && caSubjects.contains { $0.elementsEqual(served[index].issuerBytes) }
        }) else { return trust }
        let failure = TrustFailure(.servedOutOfOrder(leafAt: leafAt), certificate: .served(index: 0))
        return TrustResult(
            verdict: .fatalFailure(failure), path: nil, failures: [failure] + trust.failures,
            signatureChecks: trust.signatureChecks, buildSteps: trust.buildSteps)
    }

    /// CT, the third leg beside the path and revocation: with a requirement, the
    /// verified path's leaf is checked (its issuer on the path gives the
    /// precertificate's issuer key hash), and a leaf that does not meet the policy
    /// makes the result a recoverable ``TrustFailure/Reason/certificateTransparency(_:)``
    /// failure, unless the log list is stale and not enforced then.
    /// In a build without the `CT` trait, a requirement fails a verified path with
    /// ``TrustFailure/Reason/notBuilt(_:)`` (fatal: the check could not run).
    func checkingTransparency(_ trust: TrustResult, time: Int64) -> TrustResult {
        guard let requirement = options.certificateTransparency, trust.verdict.isPathValid,
              let path = trust.path, let leaf = path.leaf else { return trust }
        #if !TACK_CT
        _ = (requirement, leaf)
        let unavailable = TrustFailure(.notBuilt(.certificateTransparency), certificate: path.entries.first?.reference)
        return TrustResult(
            verdict: .fatalFailure(unavailable), path: nil, failures: [unavailable] + trust.failures,
            signatureChecks: trust.signatureChecks, buildSteps: trust.buildSteps)
        #else
        let issuer = path.entries.count > 1 ? path.entries[1].certificate : leaf
        let evaluation = CTEvaluation(
            leaf: leaf, issuer: issuer, stapledResponses: options.stapledResponses, requirement: requirement, at: time)
        guard let failure = evaluation.failure, !evaluation.isStale || requirement.enforcesStaleList else {
            return TrustResult(
                verdict: trust.verdict, path: path, failures: trust.failures, signatureChecks: trust.signatureChecks,
                buildSteps: trust.buildSteps, certificateTransparency: evaluation)
        }
        let refusal = TrustFailure(.certificateTransparency(failure), certificate: path.entries.first?.reference)
        return TrustResult(
            verdict: .recoverableFailure(refusal), path: nil, failures: [refusal] + trust.failures,
            signatureChecks: trust.signatureChecks, buildSteps: trust.buildSteps, certificateTransparency: evaluation)
        #endif
    }

    private static func isCA(_ certificate: Certificate) -> Bool {
        ((try? certificate.basicConstraints) ?? nil)?.isCertificateAuthority ?? false
    }

    /// Path building and validation of parsed certificates (leaf first), without pins,
    /// each certificate signature checked through `signatureChecks`.
    ///
    /// - Parameter positions: The position of each certificate in what the peer sent,
    ///   when some did not parse; `nil` for `0..<served.count`.
    func validate<Checks: CertificateSignatureChecks>(
        _ served: [Certificate], positions: [Int]?, host: PeerHost?, time: Int64, preferring: (VerifiedPath) -> Bool,
        signatureChecks: inout Checks
    ) -> TrustResult {
        var builder = ChainBuilder<Checks>(anchors: anchors, options: options, time: time, host: host, served: served, positions: positions)
        return builder.evaluate(preferring: preferring, signatureChecks: &signatureChecks)
    }

    /// Parses a DER chain and validates it, returning the certificates that parsed
    /// (leaf first; empty when the leaf does not parse).
    func evaluateParsing<Checks: CertificateSignatureChecks>(
        _ servedChain: [[UInt8]], host: PeerHost?, time: Int64, preferring: (VerifiedPath) -> Bool,
        signatureChecks: inout Checks
    ) -> (served: [Certificate], trust: TrustResult) {
        guard let first = servedChain.first else {
            let failure = TrustFailure(TrustFailure.unknownIssuer(of: nil), certificate: nil)
            return ([], TrustResult(verdict: .recoverableFailure(failure), path: nil, failures: [failure], signatureChecks: 0, buildSteps: 0))
        }
        let leaf: Certificate
        do {
            leaf = try Certificate(derEncoded: first)
        } catch {
            let failure = TrustFailure(.malformed(error), certificate: .served(index: 0))
            return ([], TrustResult(verdict: .fatalFailure(failure), path: nil, failures: [failure], signatureChecks: 0, buildSteps: 0))
        }
        var served: [Certificate] = []
        served.reserveCapacity(servedChain.count)
        served.append(leaf)
        // Positions are listed only once a certificate is left out (else they are the indices).
        var positions: [Int]? = nil
        for (position, der) in servedChain.enumerated().dropFirst() {
            // A served copy of an anchor (a chain sent with its root) is the anchor's
            // certificate, parsed when it joined the store: the same bytes, not parsed
            // again (issue 35: a third of the parsing of a verdict of leaf, intermediate
            // and root; webpki never parses a served root). Only bytes the default limits
            // admit: an anchor the caller parsed under looser ones stays refused when
            // served, as before (no element of a certificate is longer than the whole, and
            // its depth is bounded by its schema, below 12: `Certificate.defaultLimits`).
            if der.count <= Certificate.defaultLimits.maximumElementLength, let index = anchors.index(ofEncoding: der) {
                served.append(anchors.certificates[index])
                positions?.append(position)
                continue
            }
            guard let certificate = try? Certificate(derEncoded: der) else {
                if positions == nil { positions = Array(0..<position) }
                continue
            }
            served.append(certificate)
            positions?.append(position)
        }
        return (served, validate(served, positions: positions, host: host, time: time, preferring: preferring, signatureChecks: &signatureChecks))
    }
}

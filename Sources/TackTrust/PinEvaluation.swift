public import TackX509
internal import TackSHA2
internal import TackDER

/// One pin of the rule that matched one certificate of the verified path.
public struct PinMatch: Sendable, Hashable, CustomStringConvertible {
    /// The rule's list the pin belongs to.
    public let list: PinList
    /// The 0-based index of the pin in that list.
    public let entry: Int
    /// The 0-based position of the certificate in the verified path (0 is the leaf).
    public let pathIndex: Int
    /// Where that certificate came from (served or anchor).
    public let certificate: CertificateReference

    /// Creates a match.
    public init(list: PinList, entry: Int, pathIndex: Int, certificate: CertificateReference) {
        self.list = list
        self.entry = entry
        self.pathIndex = pathIndex
        self.certificate = certificate
    }

    /// `caIdentities[0] matched path certificate #2 (served certificate #2)`.
    public var description: String { "\(list)[\(entry)] matched path certificate #\(pathIndex + 1) (\(certificate))" }
}

/// A classic cause of a pin failure (or of a dead pin), named so that it is fixed in
/// one look.
public enum PinDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The pin matches a certificate the server sent that is not on the verified path
    /// (`served` is its 0-based index in what was sent): a stray or appended
    /// certificate, or a cross-signed CA the path does not go through.
    case pinnedCertificateNotOnPath(list: PinList, entry: Int, served: Int)
    /// The pin matches a certificate the server sent that had expired at the check
    /// time (`notAfter`, seconds since 1970): the pinned certificate was replaced.
    case pinMatchesExpiredCertificate(list: PinList, entry: Int, served: Int, notAfter: Int64)
    /// The pin equals the SHA-256 of the raw key bytes of a path certificate without
    /// their SubjectPublicKeyInfo header: the app hashed the output of
    /// `SecKeyCopyExternalRepresentation`. The right pin is that certificate's SPKI pin.
    case rawKeyHash(list: PinList, entry: Int, certificate: CertificateReference, correctPin: SPKIPin)
    /// A CA pin equals the leaf's key. CA identities never match the leaf; move the
    /// pin to the leaf identities or pin the issuing CA.
    case caPinMatchesLeaf(list: PinList, entry: Int)
    /// A leaf pin matches a certificate above the leaf (`pathIndex`). Leaf identities
    /// match only the leaf; move it to the CA identities.
    case leafPinMatchesCA(list: PinList, entry: Int, pathIndex: Int)
    /// The rule pins only the leaf: every leaf key rotation needs an app update first.
    case onlyLeafPins
    /// The rule pins whole certificates: it breaks at every renewal of that certificate.
    case wholeCertificatePins(list: PinList)

    /// One line naming the cause and the fix.
    public var description: String {
        switch self {
        case .pinnedCertificateNotOnPath(let list, let entry, let served):
            return "\(list)[\(entry)] matches served certificate #\(served + 1), which is not on the verified path: sending a pinned certificate proves nothing; the path must go through it"
        case .pinMatchesExpiredCertificate(let list, let entry, let served, let notAfter):
            return "\(list)[\(entry)] matches served certificate #\(served + 1), which expired at \(RFC3339.format(notAfter)): the pinned certificate has been replaced; pin its successor's key"
        case .rawKeyHash(let list, let entry, let certificate, let correctPin):
            return "\(list)[\(entry)] is the SHA-256 of the raw key of \(certificate) without its SubjectPublicKeyInfo header (SecKeyCopyExternalRepresentation output hashed as is); that key's SPKI pin is \(correctPin.base64)"
        case .caPinMatchesLeaf(let list, let entry):
            return "\(list)[\(entry)] is the leaf's key, but CA identities never match the leaf; pin the issuing CA or move it to the leaf identities"
        case .leafPinMatchesCA(let list, let entry, let pathIndex):
            return "\(list)[\(entry)] matches path certificate #\(pathIndex + 1), a CA, but leaf identities match only the leaf; move it to the CA identities"
        case .onlyLeafPins:
            return "only leaf pins: every leaf key rotation breaks them until the app is updated; add a CA identity"
        case .wholeCertificatePins(let list):
            return "\(list) pins whole certificates, which break at every renewal even when the key stays; prefer SPKI pins"
        }
    }
}

/// What the pin check concluded.
public enum PinOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The chain is not trusted, so pins were not checked (trust comes first).
    case notEvaluated
    /// No rule covers the host: it is not pinned.
    case notPinned
    /// The rule's pins hold on the verified path.
    case satisfied
    /// An enforced rule's pins do not hold: the connection must be refused.
    case failed
    /// A report-only rule's pins do not hold: report, and keep the trust verdict.
    case failedReportOnly
    /// The rule has expired and is not enforced; `wouldSatisfy` says whether its pins
    /// would have held.
    case ruleExpired(wouldSatisfy: Bool)

    /// Whether the pin check refuses the connection (only an enforced, unexpired rule can).
    public var isFailure: Bool { self == .failed }

    /// Whether a failure report should be produced.
    public var needsReport: Bool {
        switch self {
        case .failed, .failedReportOnly, .ruleExpired(wouldSatisfy: false): return true
        default: return false
        }
    }

    /// A short phrase.
    public var description: String {
        switch self {
        case .notEvaluated: return "not checked (the chain is not trusted)"
        case .notPinned: return "host not pinned (no rule applies)"
        case .satisfied: return "pins hold"
        case .failed: return "pin check failed (enforced)"
        case .failedReportOnly: return "pin check failed (report-only: reported, not enforced)"
        case .ruleExpired(let would): return "rule expired, not enforced (the pins would " + (would ? "hold)" : "fail)")
        }
    }
}

/// Everything the pin check found, so a mismatch is debugged in one look: the rule,
/// the matches, the expected pins (``rule``), the pins of the verified path and of
/// what was served, and the classic causes that apply.
public struct PinEvaluation: Sendable {
    /// The host the check was for, normalised.
    public let host: String
    /// The conclusion.
    public let outcome: PinOutcome
    /// The index of the rule that applied, in ``PinPolicy/rules``.
    public let ruleIndex: Int?
    /// The rule that applied: its lists are the expected pins.
    public let rule: PinRule?
    /// The pins that matched, and which certificate each matched.
    public let matches: [PinMatch]
    /// The SPKI pin of each verified-path certificate, leaf first (empty when untrusted).
    public let verifiedPins: [SPKIPin]
    /// The SPKI pin of each certificate served, in the order sent.
    public let servedPins: [SPKIPin]
    /// The classic causes that apply.
    public let diagnostics: [PinDiagnostic]
}

/// The trust verdict and the pin check together.
public struct PinnedTrustResult: Sendable {
    /// Path building and validation.
    public let trust: TrustResult
    /// The pin check (``PinOutcome/notEvaluated`` when the chain is not trusted).
    public let pins: PinEvaluation

    /// Success: a trusted chain whose pin check does not refuse it.
    public var isTrusted: Bool { trust.verdict.isTrusted && !pins.outcome.isFailure }
}

extension PinPolicy {
    /// The pin-aware path preference for `host`, to pass as `preferring:` to
    /// ``TrustEvaluator``: the path satisfies the rule that applies; `nil` when no
    /// unexpired rule applies (any valid path will do).
    public func pathPreference(host: String, at time: Int64) -> ((VerifiedPath) -> Bool)? {
        pathPreference(ruleIndex: ruleIndex(for: host), at: time)
    }

    /// ``pathPreference(host:at:)`` for a rule already looked up.
    func pathPreference(ruleIndex index: Int?, at time: Int64) -> ((VerifiedPath) -> Bool)? {
        guard let index, !rules[index].isExpired(at: time) else { return nil }
        let rule = rules[index]
        return { path in PathPins(path, rule: rule).matches(rule).isSatisfied }
    }

    /// Checks `host`'s rule against the verified path of `trust`; never against what
    /// was merely served.
    ///
    /// - Parameters:
    ///   - host: The host name connected to.
    ///   - trust: Path validation's result; pins are checked only when it is trusted.
    ///   - servedChain: The certificates as the peer sent them, leaf first (for the
    ///     diagnostics and the report; they never satisfy a pin).
    ///   - time: The check time, in seconds since 1970 (for rule expiration).
    /// - Returns: The evaluation.
    public func evaluate(host: String, trust: TrustResult, servedChain: [Certificate], at time: Int64) -> PinEvaluation {
        let name = HostName.normalized(host)
        return evaluate(normalizedHost: name, ruleIndex: ruleIndex(forNormalized: name), trust: trust, servedChain: servedChain, at: time)
    }

    /// ``evaluate(host:trust:servedChain:at:)`` with the host normalised and its rule
    /// already looked up (`ruleIndex(forNormalized: name)`), as the cache has done.
    func evaluate(normalizedHost name: String, ruleIndex index: Int?, trust: TrustResult, servedChain: [Certificate], at time: Int64) -> PinEvaluation {
        let servedPins = SHA256.hashes(of: servedChain.map { $0.spkiBytes }).map(SPKIPin.init(digest:))  // interleaved SHA-256
        let rule = index.map { rules[$0] }
        guard trust.verdict.isTrusted, let path = trust.path else {
            return PinEvaluation(host: name, outcome: .notEvaluated, ruleIndex: index, rule: rule, matches: [], verifiedPins: [], servedPins: servedPins, diagnostics: [])
        }
        let pathPins = PathPins(path, rule: rule, served: servedChain, servedPins: servedPins)
        guard let rule else {
            return PinEvaluation(host: name, outcome: .notPinned, ruleIndex: nil, rule: nil, matches: [], verifiedPins: pathPins.spki, servedPins: servedPins, diagnostics: [])
        }
        let result = pathPins.matches(rule)
        let outcome: PinOutcome
        if rule.isExpired(at: time) {
            outcome = .ruleExpired(wouldSatisfy: result.isSatisfied)
        } else if result.isSatisfied {
            outcome = .satisfied
        } else {
            outcome = rule.enforcement == .enforce ? .failed : .failedReportOnly
        }
        let diagnostics = diagnose(rule: rule, path: path, pathPins: pathPins, served: servedChain, servedPins: servedPins, at: time)
        return PinEvaluation(
            host: name, outcome: outcome, ruleIndex: index, rule: rule, matches: result.matches,
            verifiedPins: pathPins.spki, servedPins: servedPins, diagnostics: diagnostics
        )
    }

    private func diagnose(rule: PinRule, path: VerifiedPath, pathPins: PathPins, served: [Certificate], servedPins: [SPKIPin], at time: Int64) -> [PinDiagnostic] {
        var diagnostics: [PinDiagnostic] = []
        let spkiLists: [(PinList, [SPKIPin])] = [(.caIdentities, rule.caIdentities), (.leafIdentities, rule.leafIdentities)]
        // Pins on the wrong side of the leaf/CA divide.
        for (entry, pin) in rule.caIdentities.enumerated() where pathPins.spki.first == pin {
            diagnostics.append(.caPinMatchesLeaf(list: .caIdentities, entry: entry))
        }
        for (entry, fingerprint) in rule.caCertificates.enumerated() where pathPins.fingerprints.first == fingerprint {
            diagnostics.append(.caPinMatchesLeaf(list: .caCertificates, entry: entry))
        }
        for (entry, pin) in rule.leafIdentities.enumerated() {
            if let position = pathPins.spki.dropFirst().firstIndex(of: pin) {
                diagnostics.append(.leafPinMatchesCA(list: .leafIdentities, entry: entry, pathIndex: position))
            }
        }
        // The header trap: SHA-256 of the raw key bytes (the BIT STRING contents of the
        // SPKI, which is what SecKeyCopyExternalRepresentation returns for RSA and EC),
        // for the path's certificates and those served off the path.
        // A path has a handful of certificates (Budget.maxIntermediates + 2 at most), so a
        // linear search with DER equality (a length check, then memcmp) is cheaper than a
        // Set, which would hash every byte of every certificate (e2e-*-cached).
        let onPath = path.certificates
        var keyed: [(Certificate, CertificateReference, SPKIPin)] = []
        for (position, certificate) in path.certificates.enumerated() {
            keyed.append((certificate, path.references[position], pathPins.spki[position]))
        }
        for (servedIndex, certificate) in served.enumerated() where !onPath.contains(certificate) {
            keyed.append((certificate, .served(index: servedIndex), servedPins[servedIndex]))
        }
        // Only an SPKI pin entry that matched no certificate's SPKI, on the path or
        // served, can be a raw-key hash (else SHA-256 would have a collision): with none,
        // the certificates' keys are not hashed again (e2e-*, where every pin matches).
        let verifiedOrServed = pathPins.spki + servedPins
        let unmatched = spkiLists.contains { _, pins in pins.contains { !verifiedOrServed.contains($0) } }
        for (certificate, reference, correctPin) in keyed where unmatched {
            let rawKeyPin = SPKIPin(digest: SHA256.hash(certificate.publicKeyInfo.rawKey))
            for (list, pins) in spkiLists {
                for (entry, pin) in pins.enumerated() where pin == rawKeyPin {
                    diagnostics.append(.rawKeyHash(list: list, entry: entry, certificate: reference, correctPin: correctPin))
                }
            }
        }
        // Pinned certificates that were sent but are not on the verified path.
        for (servedIndex, certificate) in served.enumerated() where !onPath.contains(certificate) {
            let fingerprint = rule.caCertificates.isEmpty && rule.leafCertificates.isEmpty ? nil : certificate.fingerprint
            var hits: [(PinList, Int)] = []
            for (list, pins) in spkiLists {
                for (entry, pin) in pins.enumerated() where pin == servedPins[servedIndex] { hits.append((list, entry)) }
            }
            for (list, fingerprints) in [(PinList.caCertificates, rule.caCertificates), (.leafCertificates, rule.leafCertificates)] {
                for (entry, pinned) in fingerprints.enumerated() where pinned == fingerprint { hits.append((list, entry)) }
            }
            let notAfter = certificate.validity.notAfter.secondsSince1970
            for (list, entry) in hits {
                if notAfter < time {
                    diagnostics.append(.pinMatchesExpiredCertificate(list: list, entry: entry, served: servedIndex, notAfter: notAfter))
                } else {
                    diagnostics.append(.pinnedCertificateNotOnPath(list: list, entry: entry, served: servedIndex))
                }
            }
        }
        if !rule.hasCAPins && rule.hasLeafPins { diagnostics.append(.onlyLeafPins) }
        if !rule.caCertificates.isEmpty { diagnostics.append(.wholeCertificatePins(list: .caCertificates)) }
        if !rule.leafCertificates.isEmpty { diagnostics.append(.wholeCertificatePins(list: .leafCertificates)) }
        return diagnostics
    }
}

extension TrustEvaluator {
    /// Validates the chain, preferring a path that satisfies `host`'s pins, then checks
    /// the pins against the verified path: trust first, pins second.
    ///
    /// - Parameters:
    ///   - servedChain: The certificates as the peer sent them, leaf first.
    ///   - policy: The pin policy.
    ///   - host: The host connected to (the rule lookup key; the peer-name check is
    ///     ``TrustOptions/peerName``).
    /// - Returns: Both results; ``PinnedTrustResult/isTrusted`` is the success test.
    public func evaluate(servedChain: [Certificate], pinning policy: PinPolicy, host: String) -> PinnedTrustResult {
        let time = options.validationTime
        // The host normalised and its rule found once, for the path preference and the
        // pin check both.
        let name = HostName.normalized(host)
        let index = policy.ruleIndex(forNormalized: name)
        let trust: TrustResult
        if let leaf = servedChain.first {
            let preference = policy.pathPreference(ruleIndex: index, at: time)
            trust = evaluate(leaf: leaf, intermediates: Array(servedChain.dropFirst()), preferring: preference)
        } else {
            trust = evaluate(servedChain: [])
        }
        let pins = policy.evaluate(normalizedHost: name, ruleIndex: index, trust: trust, servedChain: servedChain, at: time)
        return PinnedTrustResult(trust: trust, pins: pins)
    }

    /// Parses the chain as the peer sent it (DER, leaf first), validates it preferring
    /// a path that satisfies `host`'s pins, then checks the pins against the verified
    /// path, as ``evaluate(servedChain:pinning:host:)-([Certificate],_,_)`` does. An
    /// intermediate that does not parse is left out of the search and of the pin
    /// diagnostics, whose served indexes then count the certificates that parsed.
    ///
    /// - Parameters:
    ///   - servedChain: The certificates as the peer sent them, DER, leaf first.
    ///   - policy: The pin policy.
    ///   - host: The host connected to (the rule lookup key; the peer-name check is
    ///     ``TrustOptions/peerName``).
    /// - Returns: Both results; ``PinnedTrustResult/isTrusted`` is the success test.
    public func evaluate(servedChain: [[UInt8]], pinning policy: PinPolicy, host: String) -> PinnedTrustResult {
        let time = options.validationTime
        let name = HostName.normalized(host)
        let index = policy.ruleIndex(forNormalized: name)
        let (served, trust) = evaluateParsing(servedChain, preferring: policy.pathPreference(ruleIndex: index, at: time))
        let pins = policy.evaluate(normalizedHost: name, ruleIndex: index, trust: trust, servedChain: served, at: time)
        return PinnedTrustResult(trust: trust, pins: pins)
    }
}

/// The pins of a path's certificates, each computed once: SPKI pins always,
/// whole-certificate fingerprints only when the rule has such pins.
struct PathPins {
    let spki: [SPKIPin]
    let fingerprints: [CertificateFingerprint]
    let references: [CertificateReference]

    /// - Parameters:
    ///   - served, servedPins: Certificates whose SPKI pins are already known (what the
    ///     peer sent, and their pins): a path certificate among them (the same DER) is
    ///     not hashed again (e2e-*).
    init(_ path: VerifiedPath, rule: PinRule?, served: [Certificate] = [], servedPins: [SPKIPin] = []) {
        let certificates = path.certificates
        references = path.references
        var known: [SPKIPin?] = certificates.map { certificate in
            served.firstIndex(of: certificate).flatMap { $0 < servedPins.count ? servedPins[$0] : nil }
        }
        // The other SPKIs (and the certificates) hashed together: SHA256.hashes(of:)
        // interleaves two messages at a time on SHA-NI (sha256-hw-x4-294).
        let missing = known.indices.filter { known[$0] == nil }
        if !missing.isEmpty {
            let digests = SHA256.hashes(of: missing.map { certificates[$0].spkiBytes })
            for (position, digest) in zip(missing, digests) { known[position] = SPKIPin(digest: digest) }
        }
        spki = known.compactMap { $0 }
        let needsFingerprints = rule.map { !$0.caCertificates.isEmpty || !$0.leafCertificates.isEmpty } ?? false
        fingerprints = needsFingerprints ? SHA256.hashes(of: certificates.map { $0.derEncoded[...] }).map(CertificateFingerprint.init(digest:)) : []
    }

    struct Result {
        var matches: [PinMatch]
        var isSatisfied: Bool
    }

    /// ATS semantics: CA lists match positions 1..., leaf lists position 0; one
    /// side's entries OR; both sides given, each needs a match (AND).
    func matches(_ rule: PinRule) -> Result {
        var matches: [PinMatch] = []
        for (entry, pin) in rule.caIdentities.enumerated() {
            for position in spki.indices.dropFirst() where spki[position] == pin {
                matches.append(PinMatch(list: .caIdentities, entry: entry, pathIndex: position, certificate: references[position]))
            }
        }
        for (entry, fingerprint) in rule.caCertificates.enumerated() {
            for position in fingerprints.indices.dropFirst() where fingerprints[position] == fingerprint {
                matches.append(PinMatch(list: .caCertificates, entry: entry, pathIndex: position, certificate: references[position]))
            }
        }
        for (entry, pin) in rule.leafIdentities.enumerated() where spki.first == pin {
            matches.append(PinMatch(list: .leafIdentities, entry: entry, pathIndex: 0, certificate: references[0]))
        }
        for (entry, fingerprint) in rule.leafCertificates.enumerated() where fingerprints.first == fingerprint {
            matches.append(PinMatch(list: .leafCertificates, entry: entry, pathIndex: 0, certificate: references[0]))
        }
        let caHolds = !rule.hasCAPins || matches.contains { !$0.list.isLeafList }
        let leafHolds = !rule.hasLeafPins || matches.contains { $0.list.isLeafList }
        // A rule without pins (refused by validation) holds nothing.
        let isSatisfied = (rule.hasCAPins || rule.hasLeafPins) && caHolds && leafHolds
        return Result(matches: matches, isSatisfied: isSatisfied)
    }
}

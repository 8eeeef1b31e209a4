public import TackX509
internal import TackDigest
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
    ///
    /// - Parameters:
    ///   - list: The rule's list.
    ///   - entry: The pin's index in that list.
    ///   - pathIndex: The certificate's position in the verified path.
    ///   - certificate: Where that certificate came from.
    public init(list: PinList, entry: Int, pathIndex: Int, certificate: CertificateReference) {
        self.list = list
        self.entry = entry
        self.pathIndex = pathIndex
        self.certificate = certificate
    }

    /// `caIdentities[0] matched path certificate #2 (served certificate #2)`.
    public var description: String { "\(list)[\(entry)] matched path certificate #\(pathIndex + 1) (\(certificate))" }
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

    /// A stable identifier of the outcome (the case's name in snake_case; `rule_expired` whatever
    /// `wouldSatisfy` says), for tools, logs and test manifests.
    public var code: String {
        switch self {
        case .notEvaluated: "not_evaluated"
        case .notPinned: "not_pinned"
        case .satisfied: "satisfied"
        case .failed: "failed"
        case .failedReportOnly: "failed_report_only"
        case .ruleExpired: "rule_expired"
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
        // Whole literals, no `String` appends (whose generic index code a firmware image would link).
        case .ruleExpired(wouldSatisfy: true): return "rule expired, not enforced (the pins would hold)"
        case .ruleExpired(wouldSatisfy: false): return "rule expired, not enforced (the pins would fail)"
        }
    }
}

/// Everything the pin check found, so a mismatch is debugged in one look: the rule,
/// the matches, the expected pins (``rule``), the pins of the verified path and of
/// what was served, and the classic causes that apply.
///
/// The verdict (``outcome``, ``matches``) is computed with the decision, hashing only
/// what the host's rule reads. The rest is for people and reports, and is computed
/// from the served certificates and the verified path each time it is read:
/// ``verifiedPins``, ``servedPins`` and ``diagnostics`` (issue 35: a verdict with no
/// rule hashes nothing, and code that never reads them, such as firmware, does not
/// link the diagnostics). Read each once and keep the value when it is needed twice.
public struct PinEvaluation: Sendable {
    /// The host the check was for (`nil` when none was given: nothing is pinned).
    public let host: PeerHost?
    /// The conclusion.
    public let outcome: PinOutcome
    /// The index of the rule that applied, in ``PinPolicy/rules``.
    public let ruleIndex: Int?
    /// The rule that applied: its lists are the expected pins.
    public let rule: PinRule?
    /// The pins that matched, and which certificate each matched.
    public let matches: [PinMatch]
    /// The certificates as served (those that parsed), leaf first.
    private let served: [Certificate]
    /// The verified path, when pins were evaluated against one (`nil` for
    /// ``PinOutcome/notEvaluated``).
    private let path: VerifiedPath?
    /// The check time, in seconds since 1970 (the diagnostics' expiry checks).
    private let time: Int64

    /// The SPKI pin of each verified-path certificate, leaf first (empty when untrusted);
    /// computed on each read.
    public var verifiedPins: [SPKIPin] {
        guard let path else { return [] }
        return PathPins.spkiPins(of: path.entries)
    }

    /// The SPKI pin of each certificate served, in the order sent; computed on each read.
    public var servedPins: [SPKIPin] { PathPins.spkiPins(of: served) }

    /// The classic causes that apply (none when no rule applied or the chain was not
    /// trusted); computed on each read.
    public var diagnostics: [PinDiagnostic] {
        guard let rule, let path else { return [] }
        let servedPins = servedPins
        let pathPins = PathPins(path, rule: rule, served: served, servedPins: servedPins)
        return PinPolicy.diagnose(rule: rule, path: path, pathPins: pathPins, served: served, servedPins: servedPins, at: time)
    }

    init(
        host: PeerHost?, outcome: PinOutcome, ruleIndex: Int?, rule: PinRule?, matches: [PinMatch],
        served: [Certificate], path: VerifiedPath?, time: Int64
    ) {
        self.host = host
        self.outcome = outcome
        self.ruleIndex = ruleIndex
        self.rule = rule
        self.matches = matches
        self.served = served
        self.path = path
        self.time = time
    }
}

extension PinPolicy {
    /// The pin-aware path preference for the rule at `index` (the host's), passed as
    /// `preferring:` to the chain builder: the path satisfies the rule; `nil` when no
    /// unexpired rule applies (any valid path will do).
    func pathPreference(ruleIndex index: Int?, at time: Int64) -> ((VerifiedPath) -> Bool)? {
        guard let index, !rules[index].isExpired(at: time) else { return nil }
        let rule = rules[index]
        return { path in PathPins.isSatisfied(by: rule, on: path) }
    }

    /// Checks the rule at `index` (the host's) against the verified path of `trust`;
    /// never against what was merely served. Hashes only what the rule reads
    /// (``PathPins/matches(_:on:)``): nothing when no rule applies or no path validated.
    ///
    /// - Parameters:
    ///   - host: The host connected to.
    ///   - index: The host's rule (``ruleIndex(forNormalized:)``), or `nil`.
    ///   - trust: Path validation's result; pins are checked only when a path was found.
    ///   - servedChain: The certificates as the peer sent them, leaf first (kept for the
    ///     diagnostics and the report's pins, computed when read; they never satisfy a pin).
    ///   - time: The check time, in seconds since 1970 (for rule expiration).
    func evaluate(host name: PeerHost?, ruleIndex index: Int?, trust: TrustResult, servedChain: [Certificate], at time: Int64) -> PinEvaluation {
        let rule = index.map { rules[$0] }
        guard trust.verdict.isPathValid, let path = trust.path else {
            return PinEvaluation(
                host: name, outcome: .notEvaluated, ruleIndex: index, rule: rule, matches: [], served: servedChain, path: nil, time: time)
        }
        guard let rule else {
            return PinEvaluation(
                host: name, outcome: .notPinned, ruleIndex: nil, rule: nil, matches: [], served: servedChain, path: path, time: time)
        }
        let result = PathPins.matches(rule, on: path)
        let outcome: PinOutcome
        if rule.isExpired(at: time) {
            outcome = .ruleExpired(wouldSatisfy: result.isSatisfied)
        } else if result.isSatisfied {
            outcome = .satisfied
        } else {
            outcome = rule.enforcement == .enforce ? .failed : .failedReportOnly
        }
        return PinEvaluation(
            host: name, outcome: outcome, ruleIndex: index, rule: rule, matches: result.matches, served: servedChain, path: path,
            time: time)
    }

    /// The classic causes that apply, in a fixed order (``PinEvaluation/diagnostics``);
    /// nothing is allocated unless one applies.
    static func diagnose(rule: PinRule, path: VerifiedPath, pathPins: PathPins, served: [Certificate], servedPins: [SPKIPin], at time: Int64) -> [PinDiagnostic] {
        var diagnostics: [PinDiagnostic] = []
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
        let onPath = path.entries
        // Only an SPKI pin entry that matched no certificate's SPKI, on the path or
        // served, can be a raw-key hash (else SHA-256 would have a collision): with none,
        // the certificates' keys are not hashed again (e2e-*, where every pin matches).
        func isUnmatched(_ pin: SPKIPin) -> Bool { !pathPins.spki.contains(pin) && !servedPins.contains(pin) }
        if rule.caIdentities.contains(where: isUnmatched) || rule.leafIdentities.contains(where: isUnmatched) {
            func checkRawKey(of certificate: Certificate, _ reference: CertificateReference, correctPin: SPKIPin) {
                let rawKeyPin = SPKIPin(digest: SHA256.hash(certificate.publicKeyInfo.rawKey))
                for (entry, pin) in rule.caIdentities.enumerated() where pin == rawKeyPin {
                    diagnostics.append(.rawKeyHash(list: .caIdentities, entry: entry, certificate: reference, correctPin: correctPin))
                }
                for (entry, pin) in rule.leafIdentities.enumerated() where pin == rawKeyPin {
                    diagnostics.append(.rawKeyHash(list: .leafIdentities, entry: entry, certificate: reference, correctPin: correctPin))
                }
            }
            for (position, entry) in onPath.enumerated() {
                checkRawKey(of: entry.certificate, entry.reference, correctPin: pathPins.spki[position])
            }
            for (servedIndex, certificate) in served.enumerated() where !onPath.contains(where: { $0.certificate == certificate }) {
                checkRawKey(of: certificate, .served(index: servedIndex), correctPin: servedPins[servedIndex])
            }
        }
        // Pinned certificates that were sent but are not on the verified path.
        for (servedIndex, certificate) in served.enumerated() where !onPath.contains(where: { $0.certificate == certificate }) {
            let fingerprint = rule.caCertificates.isEmpty && rule.leafCertificates.isEmpty ? nil : certificate.fingerprint
            let notAfter = certificate.validity.notAfter.secondsSince1970
            func hit(_ list: PinList, _ entry: Int) {
                if notAfter < time {
                    diagnostics.append(.pinMatchesExpiredCertificate(list: list, entry: entry, served: servedIndex, notAfter: notAfter))
                } else {
                    diagnostics.append(.pinnedCertificateNotOnPath(list: list, entry: entry, served: servedIndex))
                }
            }
            for (entry, pin) in rule.caIdentities.enumerated() where pin == servedPins[servedIndex] { hit(.caIdentities, entry) }
            for (entry, pin) in rule.leafIdentities.enumerated() where pin == servedPins[servedIndex] { hit(.leafIdentities, entry) }
            for (entry, pinned) in rule.caCertificates.enumerated() where pinned == fingerprint { hit(.caCertificates, entry) }
            for (entry, pinned) in rule.leafCertificates.enumerated() where pinned == fingerprint { hit(.leafCertificates, entry) }
        }
        if !rule.hasCAPins && rule.hasLeafPins { diagnostics.append(.onlyLeafPins) }
        if !rule.caCertificates.isEmpty { diagnostics.append(.wholeCertificatePins(list: .caCertificates)) }
        if !rule.leafCertificates.isEmpty { diagnostics.append(.wholeCertificatePins(list: .leafCertificates)) }
        return diagnostics
    }
}

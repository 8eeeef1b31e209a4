public import TackX509

/// The answer to "may I talk to this host over this chain?": one value, whose only
/// success case is ``trusted(path:details:)``, as TrustKit's single decision is.
///
/// ``trusted(path:details:)`` means that a path from the served leaf to an anchor
/// passed every check (signatures, validity at the time given, name constraints,
/// usages, the host) and that no enforced pin rule refuses it: the host's pins hold on
/// that path, or the host is not pinned (no rule covers it, its rule has expired, or
/// its rule is report-only; ``TrustDetails/pins`` then says whether a report is due).
/// Every other case is a refusal; nothing in a refusal reads as success.
public enum TrustDecision: Sendable, CustomStringConvertible {
    /// The chain is trusted and the host's pins hold (or the host is not pinned).
    case trusted(path: VerifiedPath, details: TrustDetails)
    /// No path could be validated; the pins were not checked. The failure is the most
    /// specific one found (``TrustDetails/failures`` lists them all).
    case untrusted(TrustFailure, details: TrustDetails)
    /// A path validated, but the host's enforced, unexpired pin rule does not hold on
    /// it (nor on any other valid path the search found within its budget): refuse the
    /// connection. ``TrustDetails/pins`` names the rule, the pins found and the causes.
    case pinMismatch(path: VerifiedPath, details: TrustDetails)

    /// Whether the connection may proceed: true only for ``trusted(path:details:)``.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    /// What every case carries: the pin check, the certificates served, the failures
    /// met and the work spent.
    public var details: TrustDetails {
        switch self {
        case .trusted(_, let details), .untrusted(_, let details), .pinMismatch(_, let details): return details
        }
    }

    /// A stable identifier of the decision, for tools, logs and test manifests:
    /// `trusted`, `pin_mismatch`, or the failure's ``TrustFailure/code``.
    public var code: String {
        switch self {
        case .trusted: return "trusted"
        case .untrusted(let failure, _): return failure.code
        case .pinMismatch: return "pin_mismatch"
        }
    }

    /// One line: the decision and its cause.
    public var description: String {
        switch self {
        case .trusted(_, let details): return "trusted; " + details.pins.outcome.description
        case .untrusted(let failure, _): return "not trusted: \(failure)"
        case .pinMismatch(_, let details):
            let rule = details.pins.rule.map { " (rule for \($0.domain))" } ?? ""
            return "refused: the chain is valid but the pins do not hold" + rule
        }
    }

    /// Builds the decision from path validation and the pin check.
    init(trust: TrustResult, pins: PinEvaluation, host: PeerHost?, time: Int64, served: [Certificate]) {
        let details = TrustDetails(
            host: host, time: time, pins: pins, servedCertificates: served, failures: trust.failures,
            signatureChecks: trust.signatureChecks, buildSteps: trust.buildSteps,
            certificateTransparency: trust.certificateTransparency)
        switch trust.verdict {
        case .recoverableFailure(let failure), .fatalFailure(let failure):
            self = .untrusted(failure, details: details)
        case .trusted:
            // A trusted verdict always has a path (ChainBuilder.result); an empty one
            // stands in for the impossible case rather than a trap.
            let path = trust.path ?? VerifiedPath(certificates: [], references: [])
            self = pins.outcome.isFailure ? .pinMismatch(path: path, details: details) : .trusted(path: path, details: details)
        }
    }
}

/// What every ``TrustDecision`` carries besides its verdict.
public struct TrustDetails: Sendable {
    /// The host the chain was checked for, or `nil` when the name check was skipped.
    public let host: PeerHost?
    /// The check time, in seconds since 1970.
    public let time: Int64
    /// The pin check (``PinOutcome/notEvaluated`` when no path validated).
    public let pins: PinEvaluation
    /// The served certificates that parsed, in the order sent (empty when the leaf
    /// does not parse); pin diagnostics number them.
    public let servedCertificates: [Certificate]
    /// Every failure met while searching (one per rejected path or candidate), most
    /// specific first; a trusted decision may list paths it rejected on the way.
    public let failures: [TrustFailure]
    /// Signature verifications spent (those of the evaluation that filled the cache,
    /// for a cache hit).
    public let signatureChecks: Int
    /// Path-building steps spent (likewise).
    public let buildSteps: Int
    /// The Certificate Transparency check of the verified path's leaf: every SCT with
    /// its log and status, and the policy's verdict; `nil` when no CT requirement was
    /// given (``TrustOptions/certificateTransparency``) or no path validated.
    public let certificateTransparency: CTEvaluation?
}

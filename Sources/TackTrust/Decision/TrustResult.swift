public import TackX509

/// A path from the leaf to an anchor whose every check passed.
public struct VerifiedPath: Sendable, Hashable {
    /// The certificates, leaf first, anchor last.
    public let certificates: [Certificate]
    /// Where each certificate came from, parallel to ``certificates``.
    public let references: [CertificateReference]
    /// Each certificate's revocation status and where it came from, parallel to
    /// ``certificates`` (empty for a path made without one).
    public let revocation: [RevocationStatus]
    /// Revocation data that a soft-fail policy ignored on this path (an unusable or
    /// stale OCSP response, an unknown status): said out loud rather than dropped.
    public let revocationNotes: [TrustFailure]

    /// Creates a path (used by the chain builder and by tests).
    ///
    /// - Parameters:
    ///   - certificates: The certificates, leaf first.
    ///   - references: Where each came from (as many as `certificates`).
    ///   - revocation: Each certificate's revocation status (as many as
    ///     `certificates`, or none).
    ///   - revocationNotes: What a soft-fail policy ignored.
    public init(
        certificates: [Certificate], references: [CertificateReference],
        revocation: [RevocationStatus] = [], revocationNotes: [TrustFailure] = []
    ) {
        precondition(certificates.count == references.count, "one reference per certificate")
        precondition(revocation.isEmpty || revocation.count == certificates.count, "one status per certificate")
        self.certificates = certificates
        self.references = references
        self.revocation = revocation
        self.revocationNotes = revocationNotes
    }

    /// The leaf.
    public var leaf: Certificate? { certificates.first }
    /// The anchor the path ends in.
    public var anchor: Certificate? { certificates.last }
}

/// Path validation's verdict in the platform's vocabulary (`SecTrustResultType`),
/// internal: callers see a ``TrustDecision``, which weighs the pins too.
enum TrustVerdict: Sendable, Hashable {
    /// A valid path to an anchor exists.
    case trusted
    /// Not trusted, for a reason a user may override (expired, host mismatch,
    /// unknown issuer, revoked).
    case recoverableFailure(TrustFailure)
    /// Not trusted, for a reason nobody should override (malformed, bad signature,
    /// constraint violation, exhausted budget).
    case fatalFailure(TrustFailure)

    /// Whether a valid path was found (before any pin check).
    var isPathValid: Bool { self == .trusted }
}

/// What path building and validation found, before the pin check: internal, the
/// input of a ``TrustDecision``.
struct TrustResult: Sendable {
    /// The verdict.
    let verdict: TrustVerdict
    /// The verified path when ``verdict`` is ``TrustVerdict/trusted``; pins are
    /// matched against this path, never against what the peer sent.
    let path: VerifiedPath?
    /// Every failure met while searching (one per rejected path or candidate),
    /// most specific first; empty when trusted on the first path.
    let failures: [TrustFailure]
    /// Signature verifications spent.
    let signatureChecks: Int
    /// Path-building steps spent.
    let buildSteps: Int
    /// The Certificate Transparency check of the path's leaf, when one was asked for
    /// and a path validated.
    let certificateTransparency: CTEvaluation?

    /// Creates a result (used by the chain builder and by tests).
    init(
        verdict: TrustVerdict, path: VerifiedPath?, failures: [TrustFailure], signatureChecks: Int, buildSteps: Int,
        certificateTransparency: CTEvaluation? = nil
    ) {
        self.verdict = verdict
        self.path = path
        self.failures = failures
        self.signatureChecks = signatureChecks
        self.buildSteps = buildSteps
        self.certificateTransparency = certificateTransparency
    }
}

/// A certificate's revocation status on a verified path, and where it came from.
public enum RevocationStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not revoked, according to the OCSP response at `response` of
    /// ``TrustOptions/stapledResponses``.
    case goodByResponse(response: Int)
    /// Not revoked, according to the current CRL at `list` of
    /// ``TrustOptions/revocationLists``.
    case goodByRevocationList(list: Int)
    /// Not checked: no usable status data (soft-fail), or the policy is
    /// ``RevocationPolicy/none``.
    case notChecked
    /// A trust anchor: trusted directly, never checked.
    case anchor

    /// A stable identifier: `ocsp`, `crl`, `none` or `anchor`, the source of the status.
    public var source: String {
        switch self {
        case .goodByResponse: "ocsp"
        case .goodByRevocationList: "crl"
        case .notChecked: "none"
        case .anchor: "anchor"
        }
    }

    /// `good (OCSP response #N)`, `good (CRL #N)`, `not checked` or `anchor` (1-based).
    public var description: String {
        switch self {
        case .goodByResponse(let index): "good (OCSP response #\(index + 1))"
        case .goodByRevocationList(let index): "good (CRL #\(index + 1))"
        case .notChecked: "not checked"
        case .anchor: "anchor"
        }
    }
}

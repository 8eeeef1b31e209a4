public import TackX509

/// A path from the leaf to an anchor whose every check passed.
public struct VerifiedPath: Sendable, Hashable {
    /// The certificates, leaf first, anchor last.
    public let certificates: [Certificate]
    /// Where each certificate came from, parallel to ``certificates``.
    public let references: [CertificateReference]

    /// Creates a path (used by the chain builder and by tests).
    public init(certificates: [Certificate], references: [CertificateReference]) {
        precondition(certificates.count == references.count, "one reference per certificate")
        self.certificates = certificates
        self.references = references
    }

    /// The leaf.
    public var leaf: Certificate? { certificates.first }
    /// The anchor the path ends in.
    public var anchor: Certificate? { certificates.last }
}

/// The verdict in the platform's vocabulary (`SecTrustResultType`).
public enum TrustVerdict: Sendable, Hashable {
    /// A valid path to an anchor exists.
    case trusted
    /// Not trusted, for a reason a user may override (expired, host mismatch,
    /// unknown issuer, revoked).
    case recoverableFailure(TrustFailure)
    /// Not trusted, for a reason nobody should override (malformed, bad signature,
    /// constraint violation, exhausted budget).
    case fatalFailure(TrustFailure)

    /// Whether this is ``trusted``; only a trusted verdict is success.
    public var isTrusted: Bool { self == .trusted }
}

/// What path building and validation found.
public struct TrustResult: Sendable {
    /// The verdict.
    public let verdict: TrustVerdict
    /// The verified path when ``verdict`` is ``TrustVerdict/trusted``; pins are
    /// matched against this path, never against what the peer sent.
    public let path: VerifiedPath?
    /// Every failure met while searching (one per rejected path or candidate),
    /// most specific first; empty when trusted on the first path.
    public let failures: [TrustFailure]
    /// Signature verifications spent.
    public let signatureChecks: Int
    /// Path-building steps spent.
    public let buildSteps: Int

    /// Creates a result (used by the chain builder and by tests).
    public init(verdict: TrustVerdict, path: VerifiedPath?, failures: [TrustFailure], signatureChecks: Int, buildSteps: Int) {
        self.verdict = verdict
        self.path = path
        self.failures = failures
        self.signatureChecks = signatureChecks
        self.buildSteps = buildSteps
    }
}

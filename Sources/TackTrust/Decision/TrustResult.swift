public import TackX509

/// A path from the leaf to an anchor whose every check passed.
///
/// One array of ``Entry`` values, a certificate with where it came from and its
/// revocation status, built once when the search finds the path (issue 35: three
/// parallel arrays were three allocations per verdict). ``certificates``,
/// ``references`` and ``revocation`` are views of it made on each access; code that
/// reads a path more than once iterates ``entries``.
public struct VerifiedPath: Sendable, Hashable {
    /// One certificate of a verified path.
    public struct Entry: Sendable, Hashable {
        /// The certificate.
        public let certificate: Certificate
        /// Where it came from.
        public let reference: CertificateReference
        /// Its revocation status and where it came from (``RevocationStatus/notChecked``
        /// on a path made without statuses: see ``VerifiedPath/hasRevocation``).
        public let revocation: RevocationStatus

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - certificate: The certificate.
        ///   - reference: Where it came from.
        ///   - revocation: Its revocation status.
        public init(certificate: Certificate, reference: CertificateReference, revocation: RevocationStatus = .notChecked) {
            self.certificate = certificate
            self.reference = reference
            self.revocation = revocation
        }
    }

    /// The certificates with their origins and statuses, leaf first, anchor last.
    public let entries: [Entry]
    /// Whether the path was made with a revocation status per certificate (every path
    /// the chain builder makes is); ``revocation`` is empty when not.
    public let hasRevocation: Bool
    /// Revocation data that a soft-fail policy ignored on this path (an unusable or
    /// stale OCSP response, an unknown status): said out loud rather than dropped.
    public let revocationNotes: [TrustFailure]

    /// Creates a path from its entries (the chain builder's way: one array).
    ///
    /// - Parameters:
    ///   - entries: The certificates, leaf first, each with its origin and status.
    ///   - revocationNotes: What a soft-fail policy ignored.
    public init(entries: [Entry], revocationNotes: [TrustFailure] = []) {
        self.entries = entries
        hasRevocation = true
        self.revocationNotes = revocationNotes
    }

    /// Creates a path from parallel arrays (used by tests).
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
        var entries: [Entry] = []
        entries.reserveCapacity(certificates.count)
        for (position, certificate) in certificates.enumerated() {
            entries.append(Entry(
                certificate: certificate, reference: references[position],
                revocation: revocation.isEmpty ? .notChecked : revocation[position]))
        }
        self.entries = entries
        hasRevocation = !revocation.isEmpty
        self.revocationNotes = revocationNotes
    }

    /// The certificates, leaf first, anchor last (an array made on each access).
    public var certificates: [Certificate] { entries.map { $0.certificate } }
    /// Where each certificate came from, parallel to ``certificates`` (made on each access).
    public var references: [CertificateReference] { entries.map { $0.reference } }
    /// Each certificate's revocation status and where it came from, parallel to
    /// ``certificates`` (empty for a path made without one; made on each access).
    public var revocation: [RevocationStatus] { hasRevocation ? entries.map { $0.revocation } : [] }

    /// The leaf.
    public var leaf: Certificate? { entries.first?.certificate }
    /// The anchor the path ends in.
    public var anchor: Certificate? { entries.last?.certificate }
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

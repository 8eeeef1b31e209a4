public import TackDER
public import TackSignature
public import TackX509

/// What the caller will use the leaf's key for, checked against the extended
/// key usage of the leaf and of every intermediate that carries one.
public enum KeyPurpose: Sendable, Hashable {
    /// TLS server authentication (id-kp-serverAuth), the default.
    case serverAuthentication
    /// TLS client authentication (id-kp-clientAuth), for mTLS.
    case clientAuthentication
    /// Any other purpose, by its OID.
    case other(OID)
    /// No extended key usage check.
    case any

    /// The purpose's OID, or `nil` for ``any``.
    public var oid: OID? {
        switch self {
        case .serverAuthentication: return ExtendedKeyUsage.serverAuth
        case .clientAuthentication: return ExtendedKeyUsage.clientAuth
        case .other(let oid): return oid
        case .any: return nil
        }
    }
}

/// What an evaluator holds for every evaluation besides its anchors: the wanted
/// usage, limits, the signature policy and revocation lists.
///
/// The host and the time belong to one evaluation and are given to
/// ``TrustEvaluator/evaluate(servedChain:host:at:pinning:)-([[UInt8]],_,_,_)``; the
/// core has no clock.
public struct TrustOptions: Sendable {
    /// The wanted extended key usage (server authentication by default).
    public var purpose: KeyPurpose
    /// Maximum number of certificates in a path, leaf and anchor included, not
    /// counting self-issued intermediates (a CA's rekeying, as pathLenConstraint
    /// does not count them, RFC 5280 §4.2.1.9); `nil` for the budget's limit only
    /// (``Budget/maxIntermediates`` counts every intermediate).
    public var maximumDepth: Int?
    /// Which signature algorithms and key sizes are acceptable.
    public var signaturePolicy: SignaturePolicy
    /// The work the search may spend before it fails with a fatal budget verdict.
    public var budget: Budget
    /// Certificate revocation lists supplied by the caller (the core never fetches).
    public var revocationLists: [CertificateRevocationList]

    /// Creates options with Web PKI defaults.
    ///
    /// - Parameters:
    ///   - purpose: The wanted extended key usage.
    ///   - maximumDepth: The most certificates in a path (see ``maximumDepth``).
    ///   - signaturePolicy: The acceptable signature algorithms and key sizes.
    ///   - budget: The work the search may spend.
    ///   - revocationLists: CRLs supplied by the caller.
    public init(
        purpose: KeyPurpose = .serverAuthentication,
        maximumDepth: Int? = nil,
        signaturePolicy: SignaturePolicy = .webPKI,
        budget: Budget = .default,
        revocationLists: [CertificateRevocationList] = []
    ) {
        self.purpose = purpose
        self.maximumDepth = maximumDepth
        self.signaturePolicy = signaturePolicy
        self.budget = budget
        self.revocationLists = revocationLists
    }
}

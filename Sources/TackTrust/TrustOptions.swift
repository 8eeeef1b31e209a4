public import TackDER
public import TackSignature
public import TackX509

/// The identity the peer is expected to have (RFC 6125 / RFC 9525 reference identifier).
public enum PeerName: Sendable, Hashable, CustomStringConvertible {
    /// A DNS host name, in A-label (ASCII) form; compared case-insensitively.
    case dns(String)
    /// An IPv4 (4 octets) or IPv6 (16 octets) address, compared as bytes with
    /// `iPAddress` subject alternative names only.
    case ipAddress([UInt8])
    /// An RFC 822 mailbox (client certificates, S/MIME), compared with `rfc822Name` SANs.
    case email(String)

    /// The name as a person writes it.
    public var description: String {
        switch self {
        case .dns(let name): return name
        case .email(let address): return address
        case .ipAddress(let bytes): return IPAddressName(bytes: bytes[...]).description
        }
    }
}

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

/// Everything path validation needs besides the certificates: the time, the
/// expected peer name, the wanted usage, limits and the signature policy.
///
/// The core has no clock: ``validationTime`` is always given by the caller.
public struct TrustOptions: Sendable {
    /// The validation time, in seconds since 1970-01-01T00:00:00Z. Validity
    /// bounds are inclusive (RFC 5280 §4.1.2.5).
    public var validationTime: Int64
    /// The expected peer name, or `nil` to skip the server identity check.
    public var peerName: PeerName?
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

    /// Creates options; everything but the time has a Web PKI default.
    public init(
        validationTime: Int64,
        peerName: PeerName? = nil,
        purpose: KeyPurpose = .serverAuthentication,
        maximumDepth: Int? = nil,
        signaturePolicy: SignaturePolicy = .webPKI,
        budget: Budget = .default,
        revocationLists: [CertificateRevocationList] = []
    ) {
        self.validationTime = validationTime
        self.peerName = peerName
        self.purpose = purpose
        self.maximumDepth = maximumDepth
        self.signaturePolicy = signaturePolicy
        self.budget = budget
        self.revocationLists = revocationLists
    }
}

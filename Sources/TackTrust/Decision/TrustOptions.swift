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

/// How revocation is checked (RFC 5280 §6.3 CRLs and RFC 6960 OCSP responses, both
/// supplied by the caller: the core never fetches).
///
/// In every policy but ``none``, a certificate whose TLS Feature extension asks for
/// `status_request` (RFC 7633, "Must-Staple") fails without a valid OCSP response for
/// it, and a CRL or response that validly says "revoked" fails the path.
public enum RevocationPolicy: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No revocation checking: CRLs, responses and Must-Staple are ignored.
    case none
    /// The platform's default for TLS: a valid "revoked" fails; missing or unusable
    /// status data does not, and is reported in ``VerifiedPath/revocationNotes``.
    case softFail
    /// Every certificate of the path but the anchor needs fresh status (a good OCSP
    /// response, or a current CRL of its issuer that does not list it); unusable
    /// status data fails the path.
    case hardFail

    /// `none`, `soft` or `hard`, as the CLI spells them.
    public var description: String {
        switch self {
        case .none: "none"
        case .softFail: "soft"
        case .hardFail: "hard"
        }
    }
}

/// What an evaluator holds for every evaluation besides its anchors: the wanted
/// usage, the platform profile, limits, the signature policy and revocation data.
///
/// The host and the time belong to one evaluation and are given to
/// ``TrustEvaluator/evaluate(servedChain:host:at:pinning:)-([[UInt8]],_,_,_)``; the
/// core has no clock.
public struct TrustOptions: Sendable {
    /// The wanted extended key usage (server authentication by default).
    public var purpose: KeyPurpose
    /// Whose rules apply beyond RFC 5280 and the Web PKI profile:
    /// ``TrustProfile/rfc5280`` (nothing more) by default, or ``TrustProfile/apple``.
    public var profile: TrustProfile
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
    /// OCSP responses supplied by the caller: what the server stapled (RFC 6066 §8, and
    /// RFC 6961 for intermediates) or what the caller fetched. Each is matched to the
    /// certificates of a path by its CertIDs.
    public var stapledResponses: [OCSPResponse]
    /// How revocation is checked; ``RevocationPolicy/softFail`` by default.
    public var revocationPolicy: RevocationPolicy
    /// The allowance, in seconds, for the clocks of OCSP responder and client when
    /// checking `thisUpdate <= time <= nextUpdate`: 5 minutes by default.
    public var responseClockSkew: Int64
    /// How long after its `thisUpdate` a response without `nextUpdate` is used, in
    /// seconds: 10 days by default, the longest validity the CA/Browser Forum Baseline
    /// Requirements §4.9.10 allow an OCSP response.
    public var responseMaximumAge: Int64
    /// Certificate Transparency: the log list, policy and TLS-delivered SCTs to check
    /// the leaf against; `nil` (the default) checks no CT. With a requirement, a
    /// trusted path whose leaf does not meet the policy becomes a
    /// ``TrustFailure/Reason/certificateTransparency(_:)`` failure (unless the list is
    /// stale and ``CTRequirement/enforcesStaleList`` is false), and
    /// ``TrustDetails/certificateTransparency`` reports every SCT.
    public var certificateTransparency: CTRequirement?

    /// Creates options with Web PKI defaults.
    ///
    /// - Parameters:
    ///   - purpose: The wanted extended key usage.
    ///   - profile: Whose rules apply beyond RFC 5280 (``TrustProfile/rfc5280``: none).
    ///   - maximumDepth: The most certificates in a path (see ``maximumDepth``).
    ///   - signaturePolicy: The acceptable signature algorithms and key sizes.
    ///   - budget: The work the search may spend.
    ///   - revocationLists: CRLs supplied by the caller.
    ///   - stapledResponses: OCSP responses supplied by the caller.
    ///   - revocationPolicy: How revocation is checked.
    ///   - responseClockSkew: The clock allowance for OCSP responses, in seconds.
    ///   - responseMaximumAge: The age limit of responses without `nextUpdate`, in seconds.
    ///   - certificateTransparency: The CT requirement, or `nil` for no CT check.
    public init(
        purpose: KeyPurpose = .serverAuthentication,
        profile: TrustProfile = .rfc5280,
        maximumDepth: Int? = nil,
        signaturePolicy: SignaturePolicy = .webPKI,
        budget: Budget = .default,
        revocationLists: [CertificateRevocationList] = [],
        stapledResponses: [OCSPResponse] = [],
        revocationPolicy: RevocationPolicy = .softFail,
        responseClockSkew: Int64 = 300,
        responseMaximumAge: Int64 = 10 * 86_400,
        certificateTransparency: CTRequirement? = nil
    ) {
        self.purpose = purpose
        self.profile = profile
        self.maximumDepth = maximumDepth
        self.signaturePolicy = signaturePolicy
        self.budget = budget
        self.revocationLists = revocationLists
        self.stapledResponses = stapledResponses
        self.revocationPolicy = revocationPolicy
        self.responseClockSkew = responseClockSkew
        self.responseMaximumAge = responseMaximumAge
        self.certificateTransparency = certificateTransparency
    }
}

extension TrustOptions {
    /// The policy the certificates' signatures are checked under: ``signaturePolicy``
    /// with its RSA minimum raised to the profile's
    /// (``TrustProfile/minimumRSAModulusBitCount``) when that is higher, so that every
    /// issuing CA's key meets the profile.
    var certificateSignaturePolicy: SignaturePolicy {
        var policy = signaturePolicy
        if let minimum = profile.minimumRSAModulusBitCount, minimum > policy.minimumRSAModulusBitCount {
            policy.minimumRSAModulusBitCount = minimum
        }
        return policy
    }
}

import TackDER
public import TackX509

/// A set of trust anchors, indexed by subject name and subject key identifier so
/// that finding the issuer candidates of a certificate never scans the store.
///
/// Every certificate added is an anchor, self-signed or not (its name and key are
/// what is trusted; RFC 5280 §6.1.1 (d)). The two anchor modes of Apple's
/// platform map to building a store from your certificates only
/// (`SecTrustSetAnchorCertificates`) or ``merging(_:)`` it with the system's
/// (`SecTrustSetAnchorCertificatesOnly(false)`).
public struct AnchorStore: Sendable {
    /// The anchors, in insertion order; ``CertificateReference/anchor(index:)`` indexes this.
    public private(set) var certificates: [Certificate] = []

    /// Creates an empty store.
    public init() {}

    /// Creates a store holding `certificates`.
    public init(_ certificates: [Certificate]) {
        for certificate in certificates { add(certificate) }
    }

    /// Adds an anchor (a certificate already present is not added twice).
    public mutating func add(_ certificate: Certificate) {
        certificates.append(certificate)
    }

    /// The number of anchors.
    public var count: Int { certificates.count }

    /// This store's anchors followed by `other`'s (duplicates dropped).
    public func merging(_ other: AnchorStore) -> AnchorStore {
        var merged = self
        for certificate in other.certificates { merged.add(certificate) }
        return merged
    }
}

import TackDER

/// A certificate revocation list (RFC 5280 §5), parsed strictly.
///
/// Skeleton: the strict parser arrives with the chain-builder work.
public struct CertificateRevocationList: Sendable, Hashable {
    /// The CRL's DER encoding.
    public let derEncoded: [UInt8]

    /// Parses a DER CertificateList.
    public init(derEncoded bytes: [UInt8]) throws(X509Error) {
        derEncoded = bytes
    }
}

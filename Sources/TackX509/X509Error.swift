public import TackDER

/// An error found while decoding a certificate or one of its parts.
///
/// Like ``TackDER/DERError`` it carries the absolute byte offset (in the
/// certificate's DER) of the element at fault, so tools can say where a
/// certificate is broken.
public struct X509Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: Reason
    /// The absolute offset of the offending element in the certificate's DER.
    public var offset: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - offset: The absolute offset of the offending element.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// Wraps a DER-level error, keeping its offset.
    ///
    /// - Parameter error: The DER error.
    public init(_ error: DERError) {
        self.reason = .der(error.reason)
        self.offset = error.offset
    }

    /// What made a certificate, or a part of one, unacceptable.
    public enum Reason: Sendable, Hashable {
        /// The DER itself breaks a rule (see ``TackDER/DERError/Reason``).
        case der(DERError.Reason)
        /// The version is not v1, v2 or v3, or a v3 feature appears in an older version
        /// (extensions need v3, unique identifiers v2 or v3; RFC 5280 §4.1.2.1).
        case invalidVersion
        /// The `signature` field of the TBS differs from the outer
        /// `signatureAlgorithm` (RFC 5280 §4.1.1.2).
        case signatureAlgorithmMismatch
        /// The same extension appears twice (RFC 5280 §4.2).
        case duplicateExtension(OID)
        /// More extensions than Tack accepts (see `Certificate.maximumExtensionCount`).
        case tooManyExtensions
        /// The `extensions` field is present but empty (RFC 5280: SIZE (1..MAX)).
        case emptyExtensions
        /// An extension's value is malformed; `detail` says how.
        case invalidExtension(OID, detail: String)
        /// A name (issuer, subject, directory name) is malformed; `detail` says how.
        case invalidName(detail: String)
        /// An algorithm identifier's parameters break the rules of its algorithm
        /// (for example RSA without NULL, RFC 3279 §2.3.1); `detail` says how.
        case invalidAlgorithmParameters(detail: String)
        /// An EC key uses explicit curve parameters instead of a named curve, which
        /// RFC 5480 §2.1.1 forbids for certificates.
        case explicitCurveParameters
        /// The certificate's `signatureValue` BIT STRING has unused bits; every
        /// signature algorithm produces whole octets (RFC 5280 §4.1.1.3).
        case invalidSignatureValue
        /// A public key is malformed for its algorithm; `detail` says how.
        case invalidPublicKey(detail: String)
        /// A value is outside what Tack supports; `detail` says what.
        case unsupported(detail: String)
        /// A certificate revocation list breaks the RFC 5280 §5 profile or uses a
        /// feature Tack refuses.
        case invalidRevocationList(RevocationListProblem)
    }

    /// A one-line description: the reason and the offset.
    public var description: String {
        let text: String
        switch reason {
        case .der(let reason): text = reason.description
        case .invalidVersion: text = "invalid version"
        case .signatureAlgorithmMismatch: text = "inner and outer signature algorithms differ"
        case .duplicateExtension(let oid): text = "duplicate extension \(oid)"
        case .tooManyExtensions: text = "too many extensions"
        case .emptyExtensions: text = "empty extensions field"
        case .invalidExtension(let oid, let detail): text = "invalid extension \(oid): \(detail)"
        case .invalidName(let detail): text = "invalid name: \(detail)"
        case .invalidAlgorithmParameters(let detail): text = "invalid algorithm parameters: \(detail)"
        case .explicitCurveParameters: text = "explicit EC curve parameters are not allowed"
        case .invalidSignatureValue: text = "signature value has unused bits"
        case .invalidPublicKey(let detail): text = "invalid public key: \(detail)"
        case .unsupported(let detail): text = "unsupported: \(detail)"
        case .invalidRevocationList(let problem): text = "invalid CRL: \(problem)"
        }
        return "X.509 error at byte \(offset): \(text)"
    }
}

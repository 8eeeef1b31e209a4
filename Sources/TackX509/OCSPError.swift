public import TackDER

/// Why an OCSP response (RFC 6960) breaks the rules Tack holds it to, beyond DER.
///
/// Carried by ``X509Error/Reason/invalidOCSPResponse(_:)`` with the offset of the
/// element at fault, as ``RevocationListProblem`` is for CRLs.
public enum OCSPResponseProblem: Sendable, Hashable, CustomStringConvertible {
    /// `responseStatus` is not one of the values RFC 6960 §4.2.1 defines (4 is unused).
    case unknownResponseStatus(Int)
    /// A successful response without `responseBytes` (§4.2.1).
    case missingResponseBytes
    /// An unsuccessful response with `responseBytes` (§2.3: "no response body").
    case unexpectedResponseBytes
    /// A `responseType` other than `id-pkix-ocsp-basic` (§4.2.1: the one type a
    /// client must support).
    case unsupportedResponseType(OID)
    /// A `byKey` responder ID that is not a SHA-1 hash (20 octets, §4.2.1).
    case invalidResponderKeyHash
    /// A CertID whose issuer name or key hash is not as long as its hash
    /// algorithm's output (§4.1.1).
    case certIDHashLength
    /// A revocation reason that RFC 5280 §5.3.1 does not define (7, or above 10).
    case invalidRevocationReason(Int)
    /// `nextUpdate` earlier than `thisUpdate` (§4.2.2.1).
    case nextUpdateBeforeThisUpdate
    /// A nonce extension that is not an OCTET STRING of 1 to 32 octets (RFC 8954 §2.1).
    case invalidNonce
    /// A critical extension Tack does not process (§4.4: "unless they have the
    /// critical flag set and are not understood").
    case unsupportedCriticalExtension(OID)
    /// More single responses than ``BasicOCSPResponse/maximumSingleResponseCount``.
    case tooManySingleResponses
    /// More certificates than ``BasicOCSPResponse/maximumCertificateCount``.
    case tooManyCertificates
    /// A certificate of the `certs` field does not parse; the offset is the
    /// certificate's, the wrapped code says why.
    case invalidCertificate(code: String)

    /// A stable identifier (the case's name in snake_case), for tools and test manifests.
    public var code: String {
        switch self {
        case .unknownResponseStatus: "unknown_response_status"
        case .missingResponseBytes: "missing_response_bytes"
        case .unexpectedResponseBytes: "unexpected_response_bytes"
        case .unsupportedResponseType: "unsupported_response_type"
        case .invalidResponderKeyHash: "invalid_responder_key_hash"
        case .certIDHashLength: "cert_id_hash_length"
        case .invalidRevocationReason: "invalid_revocation_reason"
        case .nextUpdateBeforeThisUpdate: "next_update_before_this_update"
        case .invalidNonce: "invalid_nonce"
        case .unsupportedCriticalExtension: "unsupported_critical_extension"
        case .tooManySingleResponses: "too_many_single_responses"
        case .tooManyCertificates: "too_many_certificates"
        case .invalidCertificate: "invalid_certificate"
        }
    }

    /// A short phrase.
    public var description: String {
        switch self {
        case .unknownResponseStatus(let value): return "unknown responseStatus \(value)"
        case .missingResponseBytes: return "successful response without responseBytes"
        case .unexpectedResponseBytes: return "unsuccessful response with responseBytes"
        case .unsupportedResponseType(let oid): return "unsupported responseType \(oid)"
        case .invalidResponderKeyHash: return "byKey responder ID is not a 20-octet SHA-1 hash"
        case .certIDHashLength: return "CertID hash length does not match its algorithm"
        case .invalidRevocationReason(let value): return "undefined revocation reason \(value)"
        case .nextUpdateBeforeThisUpdate: return "nextUpdate is before thisUpdate"
        case .invalidNonce: return "nonce is not an OCTET STRING of 1 to 32 octets"
        case .unsupportedCriticalExtension(let oid): return "unsupported critical extension \(oid)"
        case .tooManySingleResponses: return "more than \(BasicOCSPResponse.maximumSingleResponseCount) single responses"
        case .tooManyCertificates: return "more than \(BasicOCSPResponse.maximumCertificateCount) certificates"
        case .invalidCertificate(let code): return "certificate does not parse (\(code))"
        }
    }
}

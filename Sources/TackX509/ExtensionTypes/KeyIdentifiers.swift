public import TackDER

/// The authority key identifier extension (RFC 5280 §4.2.1.1): identifies the key
/// that signed the certificate, to help find the issuer during chain building.
///
/// ```
/// AuthorityKeyIdentifier ::= SEQUENCE {
///     keyIdentifier             [0] KeyIdentifier           OPTIONAL,
///     authorityCertIssuer       [1] GeneralNames            OPTIONAL,
///     authorityCertSerialNumber [2] CertificateSerialNumber OPTIONAL }
/// KeyIdentifier ::= OCTET STRING
/// ```
///
/// All three fields are IMPLICITly tagged. `authorityCertIssuer` and
/// `authorityCertSerialNumber` must be both present or both absent (X.509
/// §9.2.2.1); a value with only one of them is rejected.
public struct AuthorityKeyIdentifier: Sendable, Hashable {
    /// `id-ce-authorityKeyIdentifier`, 2.5.29.35.
    public static let oid = OID(2, 5, 29, 35)

    /// The `keyIdentifier` octets, if present: usually the SHA-1 of the issuer's
    /// public key (RFC 5280 §4.2.1.2), to compare with its
    /// ``SubjectKeyIdentifier``.
    public let keyIdentifier: ArraySlice<UInt8>?
    /// The `authorityCertIssuer` names, if present.
    public let authorityCertIssuer: GeneralNames?
    /// The contents octets of `authorityCertSerialNumber` (a two's complement
    /// INTEGER, as in the certificate's serialNumber), if present.
    public let authorityCertSerialNumber: ArraySlice<UInt8>?

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors, or
    ///   ``X509Error/Reason/invalidExtension(_:detail:)`` when only one of issuer
    ///   and serial number is present, or for a bad GeneralName.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = AuthorityKeyIdentifier.oid
        let fields = try readX509(derEncoded, range: valueRange) {
            (reader, failure) throws(DERError) -> (Range<Int>?, GeneralNames?, Range<Int>?) in
            let offset = reader.offset
            let fields = try reader.readSequence { (sequence) throws(DERError) -> (Range<Int>?, GeneralNames?, Range<Int>?) in
                let keyID = try sequence.readOptionalElement(.contextSpecific(0, isConstructed: false))?.contentRange
                var issuer: GeneralNames? = nil
                let issuerTag = DERTag.contextSpecific(1, isConstructed: true)
                if try sequence.peekTag() == issuerTag {
                    issuer = try GeneralNames.read(&sequence, failure: &failure, oid: oid, tag: issuerTag, context: .name,
                                                   storage: derEncoded)
                }
                var serial: Range<Int>? = nil
                let serialTag = DERTag.contextSpecific(2, isConstructed: false)
                if try sequence.peekTag() == serialTag {
                    serial = try sequence.readIntegerElement(tag: serialTag).contentRange
                }
                return (keyID, issuer, serial)
            }
            // Checked after the structure, so that DER errors are reported first.
            guard (fields.1 == nil) == (fields.2 == nil) else {
                throw failure.raise(
                    .invalidExtension(oid, detail: "authorityCertIssuer and authorityCertSerialNumber must be both present or both absent"),
                    at: offset)
            }
            return fields
        }
        keyIdentifier = fields.0.map { derEncoded[$0] }
        authorityCertIssuer = fields.1
        authorityCertSerialNumber = fields.2.map { derEncoded[$0] }
    }
}

/// The subject key identifier extension (RFC 5280 §4.2.1.2): an identifier of
/// the certified public key, usually the SHA-1 of its BIT STRING.
///
/// ```
/// SubjectKeyIdentifier ::= KeyIdentifier
/// KeyIdentifier ::= OCTET STRING
/// ```
public struct SubjectKeyIdentifier: Sendable, Hashable {
    /// `id-ce-subjectKeyIdentifier`, 2.5.29.14.
    public static let oid = OID(2, 5, 29, 14)

    /// The identifier octets, a slice of the certificate's bytes.
    public let keyIdentifier: ArraySlice<UInt8>

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` if the value is not
    ///   exactly one OCTET STRING.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        // Fast path: an OCTET STRING with a short-form length filling the value
        // (every real identifier); anything else goes through the full reader.
        let lower = valueRange.lowerBound, upper = valueRange.upperBound
        if lower >= 0, upper <= derEncoded.count, upper - lower >= 2, derEncoded[lower] == 0x04,
           derEncoded[lower + 1] < 0x80, Int(derEncoded[lower + 1]) == upper - lower - 2 {
            keyIdentifier = derEncoded[(lower + 2)..<upper]
            return
        }
        let range = try readX509(derEncoded, range: valueRange) { (reader, _) throws(DERError) -> Range<Int> in
            try reader.readOctetString()
        }
        keyIdentifier = derEncoded[range]
    }
}

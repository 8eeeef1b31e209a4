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
    public var keyIdentifier: ArraySlice<UInt8>? { parts.keyIdentifierRange.map { storage[$0] } }
    /// The `authorityCertIssuer` names, if present.
    public var authorityCertIssuer: GeneralNames? {
        parts.issuerElement.map { GeneralNames(checked: storage, element: $0, count: parts.issuerCount) }
    }
    /// The contents octets of `authorityCertSerialNumber` (a two's complement
    /// INTEGER, as in the certificate's serialNumber), if present.
    public var authorityCertSerialNumber: ArraySlice<UInt8>? { parts.serialNumberRange.map { storage[$0] } }

    /// The checked fields as absolute ranges: one buffer reference and plain
    /// ranges rather than three references, so that the value is cheap to copy and
    /// destroy.
    internal struct Parts: Sendable {
        var keyIdentifierRange: Range<Int>?
        var issuerElement: DERElement?
        var issuerCount: Int
        var serialNumberRange: Range<Int>?
    }

    internal let storage: [UInt8]
    internal let parts: Parts

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors, or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` when only one of issuer
    ///   and serial number is present, or for a bad GeneralName.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        self.init(storage: derEncoded, parts: try AuthorityKeyIdentifier.check(derEncoded, valueRange: valueRange))
    }

    /// A value over checked parts of `storage`.
    internal init(storage: [UInt8], parts: Parts) {
        self.storage = storage
        self.parts = parts
    }

    /// Checks the extension value in `valueRange` of `derEncoded` and returns its parts.
    internal static func check(_ derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) -> Parts {
        // TackDER's general reader. A hand-coded match of the keyIdentifier-only
        // shape here and in SubjectKeyIdentifier saved 178 instructions per
        // certificate of 12,813 (1.4%, Benchmarks/count-instructions.sh
        // x509-parse), under the 2% that would justify a second reader (issue 13).
        let oid = AuthorityKeyIdentifier.oid
        return try readX509(derEncoded, range: valueRange) { (reader) throws(X509Error) -> Parts in
            let offset = reader.offset
            var sequence = try der(reader.enter(.sequence))
            let keyID = try der(sequence.readOptionalElement(.contextSpecific(0, isConstructed: false)))?.contentRange
            var issuer: DERElement? = nil
            var issuerCount = 0
            let issuerTag = DERTag.contextSpecific(1, isConstructed: true)
            if try der(sequence.peekTag()) == issuerTag {
                (issuer, issuerCount) = try GeneralNames.check(&sequence, oid: oid, tag: issuerTag, context: .name)
            }
            var serial: Range<Int>? = nil
            let serialTag = DERTag.contextSpecific(2, isConstructed: false)
            if try der(sequence.peekTag()) == serialTag {
                serial = try der(sequence.readIntegerElement(tag: serialTag)).contentRange
            }
            try der(sequence.expectEnd())
            // Checked after the structure, so that DER errors are reported first.
            guard (issuer == nil) == (serial == nil) else {
                throw X509Error(
                    .invalidExtension(oid, .incompleteAuthorityCertIssuer),
                    at: offset)
            }
            return Parts(keyIdentifierRange: keyID, issuerElement: issuer, issuerCount: issuerCount, serialNumberRange: serial)
        }
    }

    /// Equal when the three fields are equal (their octets and encodings, not
    /// the buffers they lie in).
    public static func == (lhs: AuthorityKeyIdentifier, rhs: AuthorityKeyIdentifier) -> Bool {
        lhs.keyIdentifier == rhs.keyIdentifier && lhs.authorityCertIssuer == rhs.authorityCertIssuer
            && lhs.authorityCertSerialNumber == rhs.authorityCertSerialNumber
    }

    /// Hashes the three fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyIdentifier)
        hasher.combine(authorityCertIssuer)
        hasher.combine(authorityCertSerialNumber)
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
        keyIdentifier = derEncoded[try SubjectKeyIdentifier.check(derEncoded, valueRange: valueRange)]
    }

    /// Checks the extension value in `valueRange` of `bytes` and returns the
    /// absolute range of the identifier octets.
    internal static func check(_ bytes: [UInt8], valueRange: Range<Int>) throws(X509Error) -> Range<Int> {
        // TackDER's general reader (see AuthorityKeyIdentifier.check).
        try readX509(bytes, range: valueRange) { (reader) throws(DERError) -> Range<Int> in
            try reader.readOctetString()
        }
    }
}

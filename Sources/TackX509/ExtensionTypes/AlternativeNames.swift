public import TackDER

/// The subject alternative name extension (RFC 5280 §4.2.1.6): the identities
/// bound to the subject's key, such as DNS names and IP addresses.
///
/// ```
/// SubjectAltName ::= GeneralNames
/// GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName
/// ```
///
/// Iterating yields each ``GeneralName``; ``names`` offers the helpers of
/// ``GeneralNames`` (``GeneralNames/dnsNames``, ``GeneralNames/ipAddresses``, ...).
public struct SubjectAlternativeNames: Sendable, Hashable, Sequence {
    /// `id-ce-subjectAltName`, 2.5.29.17.
    public static let oid = OID(2, 5, 29, 17)

    /// The names.
    public let names: GeneralNames

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors
    ///   (including a non-IA5 character in a dNSName, rfc822Name or URI), or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty sequence, an
    ///   unknown GeneralName tag or an iPAddress that is not 4 or 16 octets.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        names = try decodeGeneralNamesExtension(derEncoded, valueRange: valueRange, oid: SubjectAlternativeNames.oid)
    }

    /// The names in encoding order.
    public func makeIterator() -> GeneralNames.Iterator { names.makeIterator() }

    /// The number of names.
    public var underestimatedCount: Int { names.count }
}

/// The issuer alternative name extension (RFC 5280 §4.2.1.7): identities of the
/// issuer, with the same syntax as ``SubjectAlternativeNames``.
public struct IssuerAlternativeNames: Sendable, Hashable, Sequence {
    /// `id-ce-issuerAltName`, 2.5.29.18.
    public static let oid = OID(2, 5, 29, 18)

    /// The names.
    public let names: GeneralNames

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: As ``SubjectAlternativeNames/init(derEncoded:valueRange:)``.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        names = try decodeGeneralNamesExtension(derEncoded, valueRange: valueRange, oid: IssuerAlternativeNames.oid)
    }

    /// The names in encoding order.
    public func makeIterator() -> GeneralNames.Iterator { names.makeIterator() }

    /// The number of names.
    public var underestimatedCount: Int { names.count }
}

private func decodeGeneralNamesExtension(_ bytes: [UInt8], valueRange: Range<Int>, oid: OID) throws(X509Error) -> GeneralNames {
    try readX509(bytes, range: valueRange) { (reader) throws(X509Error) -> GeneralNames in
        try GeneralNames.read(&reader, oid: oid, tag: .sequence, context: .name, storage: bytes)
    }
}

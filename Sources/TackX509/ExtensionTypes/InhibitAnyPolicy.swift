public import TackDER

/// The inhibit anyPolicy extension (RFC 5280 §4.2.1.14): the number of further
/// certificates in the path after which `anyPolicy` no longer matches.
///
/// ```
/// InhibitAnyPolicy ::= SkipCerts
/// SkipCerts ::= INTEGER (0..MAX)
/// ```
public struct InhibitAnyPolicy: Sendable, Hashable {
    /// `id-ce-inhibitAnyPolicy`, 2.5.29.54.
    public static let oid = OID(2, 5, 29, 54)

    /// The SkipCerts value.
    public let skipCerts: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` if the value is not
    ///   one non-negative INTEGER that fits `Int`.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        skipCerts = try readX509(derEncoded, range: valueRange) { (reader) throws(DERError) -> Int in
            try reader.readNonNegativeInt()
        }
    }
}

public import TackDER

/// The TLS Feature extension (RFC 7633): TLS extensions the certificate's holder
/// promises to use. With `status_request` (5) in it, the certificate is
/// "Must-Staple": a client must see a stapled OCSP response for it (§4.2.2).
///
/// ```
/// id-pe-tlsfeature OBJECT IDENTIFIER ::= { id-pe 24 }
/// Features ::= SEQUENCE OF INTEGER
/// ```
///
/// Each INTEGER is a TLS `ExtensionType` (RFC 8446 §4.2: `uint16`); a value outside
/// 0...65535 is refused as ``X509Error/Reason/der(_:)`` with `integer_overflow` or
/// `negative_integer`.
public struct TLSFeature: Sendable, Hashable {
    /// `id-pe-tlsfeature`, 1.3.6.1.5.5.7.1.24.
    public static let oid = OID(1, 3, 6, 1, 5, 5, 7, 1, 24)
    /// The TLS `status_request` extension type (RFC 6066 §8).
    public static let statusRequest: UInt16 = 5
    /// The TLS `status_request_v2` extension type (RFC 6961 §2.2).
    public static let statusRequestV2: UInt16 = 17

    /// The feature values, in encoding order.
    public let features: [UInt16]

    /// Whether the certificate requires a stapled OCSP response (RFC 7633 §4.2.2:
    /// `status_request` is present).
    public var requiresStapledResponse: Bool { features.contains(TLSFeature.statusRequest) }

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` if the value is not a
    ///   SEQUENCE OF INTEGER in 0...65535.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        features = try readX509(derEncoded, range: valueRange) { (reader) throws(DERError) -> [UInt16] in
            var values: [UInt16] = []
            try reader.readCollection(.sequence) { (list) throws(DERError) in
                // At most one value per octet pair of the extension: bounded by its length.
                values.append(try list.readInteger(UInt16.self))
            }
            return values
        }
    }
}

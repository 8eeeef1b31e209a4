public import TackDER

/// The authority information access extension (RFC 5280 §4.2.2.1): where to find
/// the issuer's certificate (`caIssuers`) and its OCSP responder (`ocsp`).
///
/// ```
/// AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription
/// AccessDescription ::= SEQUENCE {
///         accessMethod          OBJECT IDENTIFIER,
///         accessLocation        GeneralName  }
/// ```
public struct AuthorityInformationAccess: Sendable, Hashable, Sequence {
    /// `id-pe-authorityInfoAccess`, 1.3.6.1.5.5.7.1.1.
    public static let oid = OID(1, 3, 6, 1, 5, 5, 7, 1, 1)
    /// `id-ad-ocsp`, 1.3.6.1.5.5.7.48.1: an OCSP responder.
    public static let ocsp = OID(1, 3, 6, 1, 5, 5, 7, 48, 1)
    /// `id-ad-caIssuers`, 1.3.6.1.5.5.7.48.2: certificates of the issuer.
    public static let caIssuers = OID(1, 3, 6, 1, 5, 5, 7, 48, 2)

    /// One `AccessDescription`: a method and a location.
    public struct AccessDescription: Sendable, Hashable {
        /// The access method, such as ``AuthorityInformationAccess/ocsp``.
        public let method: OID
        /// The location, usually a `uniformResourceIdentifier`.
        public let location: GeneralName

        /// Creates an access description.
        ///
        /// - Parameters:
        ///   - method: The access method.
        ///   - location: The location.
        public init(method: OID, location: GeneralName) {
            self.method = method
            self.location = location
        }
    }

    internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of access descriptions (at least 1).
    public let count: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors, or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty sequence or
    ///   a bad GeneralName.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = AuthorityInformationAccess.oid
        (contentRange, count) = try readNonEmptySequence(derEncoded, valueRange: valueRange, of: oid) {
            (inner) throws(X509Error) in
            try inner.readSequence { (description) throws(X509Error) in
                try der(description.checkObjectIdentifier())
                _ = try GeneralName.read(&description, oid: oid, context: .name, storage: nil)
            }
        }
        storage = derEncoded
    }

    /// The locations whose method is `method`, for example the OCSP URIs.
    ///
    /// - Parameter method: An access method such as ``ocsp`` or ``caIssuers``.
    /// - Returns: The locations, in encoding order.
    public func locations(for method: OID) -> [GeneralName] {
        compactMap { $0.method == method ? $0.location : nil }
    }

    /// The number of access descriptions.
    public var underestimatedCount: Int { count }

    /// The access descriptions in encoding order.
    public func makeIterator() -> CheckedDERIterator<AccessDescription> {
        CheckedDERIterator(storage, contentRange) { AccessDescription.decodeChecked($0, element: $1) }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: AuthorityInformationAccess, rhs: AuthorityInformationAccess) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

extension AuthorityInformationAccess.AccessDescription {
    /// The access description in a checked element, for the iterator.
    internal static func decodeChecked(_ storage: [UInt8], element: DERElement) -> Self? {
        var children = CheckedElements(bytes: storage, range: element.contentRange)
        guard let methodElement = children.next(), let locationElement = children.next(),
              let method = decodeCheckedOID(storage, element: methodElement),
              let location = GeneralName.decodeChecked(storage, element: locationElement)
        else { return nil }
        return Self(method: method, location: location)
    }
}

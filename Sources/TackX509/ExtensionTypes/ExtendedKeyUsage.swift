public import TackDER

/// The extended key usage extension (RFC 5280 §4.2.1.12): the purposes for which
/// the certified key may be used, beyond ``KeyUsage``.
///
/// ```
/// ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId
/// KeyPurposeId ::= OBJECT IDENTIFIER
/// ```
///
/// A sequence of purpose OIDs, checked when created and decoded when iterated.
public struct ExtendedKeyUsage: Sendable, Hashable, Sequence {
    /// `id-ce-extKeyUsage`, 2.5.29.37.
    public static let oid = OID(2, 5, 29, 37)

    /// `anyExtendedKeyUsage`, 2.5.29.37.0.
    public static let anyExtendedKeyUsage = OID(2, 5, 29, 37, 0)
    /// `id-kp-serverAuth`, 1.3.6.1.5.5.7.3.1: TLS server authentication.
    public static let serverAuth = OID(1, 3, 6, 1, 5, 5, 7, 3, 1)
    /// `id-kp-clientAuth`, 1.3.6.1.5.5.7.3.2: TLS client authentication.
    public static let clientAuth = OID(1, 3, 6, 1, 5, 5, 7, 3, 2)
    /// `id-kp-codeSigning`, 1.3.6.1.5.5.7.3.3.
    public static let codeSigning = OID(1, 3, 6, 1, 5, 5, 7, 3, 3)
    /// `id-kp-emailProtection`, 1.3.6.1.5.5.7.3.4.
    public static let emailProtection = OID(1, 3, 6, 1, 5, 5, 7, 3, 4)
    /// `id-kp-timeStamping`, 1.3.6.1.5.5.7.3.8.
    public static let timeStamping = OID(1, 3, 6, 1, 5, 5, 7, 3, 8)
    /// `id-kp-OCSPSigning`, 1.3.6.1.5.5.7.3.9.
    public static let ocspSigning = OID(1, 3, 6, 1, 5, 5, 7, 3, 9)

    internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of purposes (at least 1).
    public let count: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors, or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty sequence.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = ExtendedKeyUsage.oid
        (contentRange, count) = try readNonEmptySequence(derEncoded, valueRange: valueRange, of: oid) {
            (inner) throws(X509Error) in
            try der(inner.checkObjectIdentifier())
        }
        storage = derEncoded
    }

    /// Whether `purpose` is listed.
    ///
    /// This is a plain membership test: whether ``anyExtendedKeyUsage`` also
    /// grants `purpose` is a policy decision left to the verifier.
    ///
    /// - Parameter purpose: A purpose OID such as ``serverAuth``.
    /// - Returns: `true` if the extension lists it.
    public func contains(_ purpose: OID) -> Bool {
        for listed in self where listed == purpose { return true }
        return false
    }

    /// The number of purposes.
    public var underestimatedCount: Int { count }

    /// The purposes in encoding order.
    public func makeIterator() -> CheckedDERIterator<OID> {
        CheckedDERIterator(storage, contentRange) { decodeCheckedOID($0, element: $1) }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: ExtendedKeyUsage, rhs: ExtendedKeyUsage) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

/// The OBJECT IDENTIFIER in a checked element (an extended key usage's purpose).
internal func decodeCheckedOID(_ storage: [UInt8], element: DERElement) -> OID? {
    rereadChecked(storage, element: element) { (reader) throws(DERError) -> OID in
        try reader.readObjectIdentifier()
    }
}

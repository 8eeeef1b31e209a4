public import TackDER

/// The policy mappings extension (RFC 5280 §4.2.1.5): equivalences between the
/// issuer's policies and the subject's.
///
/// ```
/// PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE {
///      issuerDomainPolicy      CertPolicyId,
///      subjectDomainPolicy     CertPolicyId }
/// ```
///
/// Mappings to or from `anyPolicy` are decoded as they are; rejecting them is
/// path validation's job (RFC 5280 §6.1.4 (a)).
public struct PolicyMappings: Sendable, Hashable, Sequence {
    /// `id-ce-policyMappings`, 2.5.29.33.
    public static let oid = OID(2, 5, 29, 33)

    /// One mapping.
    public struct Mapping: Sendable, Hashable {
        /// The issuer's policy.
        public let issuerDomainPolicy: OID
        /// The subject's equivalent policy.
        public let subjectDomainPolicy: OID

        /// Creates a mapping.
        ///
        /// - Parameters:
        ///   - issuerDomainPolicy: The issuer's policy.
        ///   - subjectDomainPolicy: The subject's equivalent policy.
        public init(issuerDomainPolicy: OID, subjectDomainPolicy: OID) {
            self.issuerDomainPolicy = issuerDomainPolicy
            self.subjectDomainPolicy = subjectDomainPolicy
        }
    }

    internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of mappings (at least 1).
    public let count: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors, or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty sequence.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = PolicyMappings.oid
        (contentRange, count) = try readNonEmptySequence(derEncoded, valueRange: valueRange, of: oid) {
            (inner) throws(X509Error) in
            try der(inner.readSequence { (pair) throws(DERError) in
                try pair.checkObjectIdentifier()
                try pair.checkObjectIdentifier()
            })
        }
        storage = derEncoded
    }

    /// The number of mappings.
    public var underestimatedCount: Int { count }

    /// The mappings in encoding order.
    public func makeIterator() -> CheckedDERIterator<Mapping> {
        CheckedDERIterator(storage, contentRange) { Mapping.decodeChecked($0, element: $1) }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: PolicyMappings, rhs: PolicyMappings) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

extension PolicyMappings.Mapping {
    /// The mapping in a checked element, for ``PolicyMappings``' iterator.
    internal static func decodeChecked(_ storage: [UInt8], element: DERElement) -> PolicyMappings.Mapping? {
        rereadChecked(storage, element: element) { (reader) throws(DERError) -> PolicyMappings.Mapping in
            try reader.readSequence { (pair) throws(DERError) -> PolicyMappings.Mapping in
                PolicyMappings.Mapping(
                    issuerDomainPolicy: try pair.readObjectIdentifier(), subjectDomainPolicy: try pair.readObjectIdentifier())
            }
        }
    }
}

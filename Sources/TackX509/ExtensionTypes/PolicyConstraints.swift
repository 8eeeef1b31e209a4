public import TackDER

/// The policy constraints extension (RFC 5280 §4.2.1.11).
///
/// ```
/// PolicyConstraints ::= SEQUENCE {
///      requireExplicitPolicy   [0] SkipCerts OPTIONAL,
///      inhibitPolicyMapping    [1] SkipCerts OPTIONAL }
/// SkipCerts ::= INTEGER (0..MAX)
/// ```
///
/// An empty sequence is rejected ("Conforming CAs MUST NOT issue certificates
/// where policy constraints is an empty sequence").
public struct PolicyConstraints: Sendable, Hashable {
    /// `id-ce-policyConstraints`, 2.5.29.36.
    public static let oid = OID(2, 5, 29, 36)

    /// `requireExplicitPolicy`: certificates after which an acceptable policy is
    /// required, if present.
    public let requireExplicitPolicy: Int?
    /// `inhibitPolicyMapping`: certificates after which mapping is not allowed, if
    /// present.
    public let inhibitPolicyMapping: Int?

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors
    ///   (negative or oversized counts), or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty sequence.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = PolicyConstraints.oid
        (requireExplicitPolicy, inhibitPolicyMapping) = try readX509(derEncoded, range: valueRange) {
            (reader) throws(X509Error) -> (Int?, Int?) in
            let offset = reader.offset
            let fields = try der(reader.readSequence { (sequence) throws(DERError) -> (Int?, Int?) in
                let requireTag = DERTag.contextSpecific(0, isConstructed: false)
                let inhibitTag = DERTag.contextSpecific(1, isConstructed: false)
                let require: Int? = try sequence.peekTag() == requireTag ? sequence.readNonNegativeInt(tag: requireTag) : nil
                let inhibit: Int? = try sequence.peekTag() == inhibitTag ? sequence.readNonNegativeInt(tag: inhibitTag) : nil
                return (require, inhibit)
            })
            guard fields.0 != nil || fields.1 != nil else {
                throw X509Error(.invalidExtension(oid, .emptyPolicyConstraints), at: offset)
            }
            return fields
        }
    }
}

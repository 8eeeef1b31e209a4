public import TackDER

/// The name constraints extension (RFC 5280 §4.2.1.10): the name spaces in which
/// all subject names below a CA must (permitted) or must not (excluded) lie.
///
/// ```
/// NameConstraints ::= SEQUENCE {
///      permittedSubtrees       [0]     GeneralSubtrees OPTIONAL,
///      excludedSubtrees        [1]     GeneralSubtrees OPTIONAL }
/// GeneralSubtrees ::= SEQUENCE SIZE (1..MAX) OF GeneralSubtree
/// GeneralSubtree ::= SEQUENCE {
///      base                    GeneralName,
///      minimum         [0]     BaseDistance DEFAULT 0,
///      maximum         [1]     BaseDistance OPTIONAL }
/// ```
///
/// RFC 5280 profiles `minimum` to 0 and `maximum` to absent for every name form,
/// so a subtree is just its base; a non-zero `minimum` or a `maximum` is rejected.
/// An iPAddress base is an address followed by a mask: 8 octets for IPv4 and 32
/// for IPv6. An extension with neither field is rejected ("Conforming CAs MUST
/// NOT issue certificates where name constraints is an empty sequence").
public struct NameConstraints: Sendable, Hashable {
    /// `id-ce-nameConstraints`, 2.5.29.30.
    public static let oid = OID(2, 5, 29, 30)

    /// The permitted subtrees, if present.
    public let permittedSubtrees: GeneralSubtrees?
    /// The excluded subtrees, if present.
    public let excludedSubtrees: GeneralSubtrees?

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors
    ///   (an encoded `minimum` of 0 is ``TackDER/DERError/Reason/defaultValueEncoded``),
    ///   or ``X509Error/Reason/invalidExtension(_:detail:)`` for an empty extension
    ///   or subtree list, a non-zero minimum, a maximum, or a bad GeneralName.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = NameConstraints.oid
        (permittedSubtrees, excludedSubtrees) = try readX509(derEncoded, range: valueRange) {
            (reader, failure) throws(DERError) -> (GeneralSubtrees?, GeneralSubtrees?) in
            let offset = reader.offset
            let fields = try reader.readSequence { (sequence) throws(DERError) -> (GeneralSubtrees?, GeneralSubtrees?) in
                var permitted: GeneralSubtrees? = nil
                var excluded: GeneralSubtrees? = nil
                if try sequence.peekTag() == .contextSpecific(0, isConstructed: true) {
                    permitted = try GeneralSubtrees.read(&sequence, failure: &failure, tag: .contextSpecific(0, isConstructed: true),
                                                         storage: derEncoded)
                }
                if try sequence.peekTag() == .contextSpecific(1, isConstructed: true) {
                    excluded = try GeneralSubtrees.read(&sequence, failure: &failure, tag: .contextSpecific(1, isConstructed: true),
                                                        storage: derEncoded)
                }
                return (permitted, excluded)
            }
            guard fields.0 != nil || fields.1 != nil else {
                throw failure.raise(.invalidExtension(oid, detail: "neither permittedSubtrees nor excludedSubtrees"), at: offset)
            }
            return fields
        }
    }
}

/// A `GeneralSubtrees` list of name constraints: the base names of its subtrees
/// (the only part RFC 5280 allows to vary), decoded when iterated.
public struct GeneralSubtrees: Sendable, Hashable, Sequence {
    @usableFromInline internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of subtrees (at least 1).
    public let count: Int

    /// Reads and checks a GeneralSubtrees with the IMPLICIT `tag`.
    internal static func read(
        _ reader: inout DERReader, failure: inout SemanticFailure, tag: DERTag, storage: [UInt8]
    ) throws(DERError) -> GeneralSubtrees {
        let oid = NameConstraints.oid
        let element = try reader.readElement(tag)
        var inner = try reader.contentsReader(of: element)
        var count = 0
        while !inner.isAtEnd {
            try inner.readSequence { (subtree) throws(DERError) in
                _ = try GeneralName.read(&subtree, failure: &failure, oid: oid, context: .constraint, storage: nil)
                let minimumTag = DERTag.contextSpecific(0, isConstructed: false)
                if try subtree.peekTag() == minimumTag {
                    let minimum = try subtree.readIntegerElement(tag: minimumTag)
                    let isZero = subtree.withBytes(in: minimum.contentRange) { $0.count == 1 && $0[0] == 0 }
                    guard !isZero else { throw DERError(.defaultValueEncoded, at: minimum.offset) }
                    throw failure.raise(.invalidExtension(oid, detail: "GeneralSubtree minimum must be 0 (RFC 5280 §4.2.1.10)"),
                                        at: minimum.offset)
                }
                let maximumTag = DERTag.contextSpecific(1, isConstructed: false)
                if try subtree.peekTag() == maximumTag {
                    let maximum = try subtree.readIntegerElement(tag: maximumTag)
                    throw failure.raise(.invalidExtension(oid, detail: "GeneralSubtree maximum must be absent (RFC 5280 §4.2.1.10)"),
                                        at: maximum.offset)
                }
            }
            count += 1
        }
        guard count > 0 else {
            throw failure.raise(.invalidExtension(oid, detail: "empty GeneralSubtrees (SIZE (1..MAX))"), at: element.offset)
        }
        return GeneralSubtrees(storage: storage, contentRange: element.contentRange, count: count)
    }

    private init(storage: [UInt8], contentRange: Range<Int>, count: Int) {
        self.storage = storage
        self.contentRange = contentRange
        self.count = count
    }

    /// The number of subtrees.
    public var underestimatedCount: Int { count }

    /// The subtrees' base names in encoding order.
    public func makeIterator() -> Iterator {
        Iterator(elements: CheckedElements(bytes: storage, range: contentRange))
    }

    /// Iterates the base names.
    public struct Iterator: IteratorProtocol {
        internal var elements: CheckedElements

        /// The next base name, or `nil` at the end.
        public mutating func next() -> GeneralName? {
            guard let subtree = elements.next() else { return nil }
            var children = CheckedElements(bytes: elements.bytes, range: subtree.contentRange)
            guard let base = children.next() else { return nil }
            return GeneralName.decodeChecked(elements.bytes, element: base)
        }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: GeneralSubtrees, rhs: GeneralSubtrees) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

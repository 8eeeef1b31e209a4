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
    ///   (an encoded `minimum` of 0 is `DERError.Reason.defaultValueEncoded`),
    ///   or ``X509Error/Reason/invalidExtension(_:_:)`` for an empty extension
    ///   or subtree list, a non-zero minimum, a maximum, or a bad GeneralName.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = NameConstraints.oid
        (permittedSubtrees, excludedSubtrees) = try readX509(derEncoded, range: valueRange) {
            (reader) throws(X509Error) -> (GeneralSubtrees?, GeneralSubtrees?) in
            let offset = reader.offset
            let fields = try reader.readSequence { (sequence) throws(X509Error) -> (GeneralSubtrees?, GeneralSubtrees?) in
                var permitted: GeneralSubtrees? = nil
                var excluded: GeneralSubtrees? = nil
                if try der(sequence.peekTag()) == .contextSpecific(0, isConstructed: true) {
                    permitted = try GeneralSubtrees.read(&sequence, tag: .contextSpecific(0, isConstructed: true),
                                                         storage: derEncoded)
                }
                if try der(sequence.peekTag()) == .contextSpecific(1, isConstructed: true) {
                    excluded = try GeneralSubtrees.read(&sequence, tag: .contextSpecific(1, isConstructed: true),
                                                        storage: derEncoded)
                }
                return (permitted, excluded)
            }
            guard fields.0 != nil || fields.1 != nil else {
                throw X509Error(.invalidExtension(oid, .emptyNameConstraints), at: offset)
            }
            return fields
        }
    }
}

/// A `GeneralSubtrees` list of name constraints: the base names of its subtrees
/// (the only part RFC 5280 allows to vary), decoded when iterated.
public struct GeneralSubtrees: Sendable, Hashable, Sequence {
    internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of subtrees (at least 1).
    public let count: Int

    /// Reads and checks a GeneralSubtrees with the IMPLICIT `tag`.
    internal static func read(
        _ reader: inout DERReader, tag: DERTag, storage: [UInt8]
    ) throws(X509Error) -> GeneralSubtrees {
        let oid = NameConstraints.oid
        let element = try der(reader.readElement(tag))
        var inner = try der(reader.contentsReader(of: element))
        var count = 0
        while !inner.isAtEnd {
            try inner.readSequence { (subtree) throws(X509Error) in
                _ = try GeneralName.read(&subtree, oid: oid, context: .constraint, storage: nil)
                let minimumTag = DERTag.contextSpecific(0, isConstructed: false)
                if try der(subtree.peekTag()) == minimumTag {
                    let minimum = try der(subtree.readIntegerElement(tag: minimumTag))
                    let isZero = subtree.withBytes(in: minimum.contentRange) { $0.count == 1 && $0[0] == 0 }
                    guard !isZero else { throw X509Error(DERError(.defaultValueEncoded, at: minimum.offset)) }
                    throw X509Error(.invalidExtension(oid, .subtreeMinimumNotZero),
                                        at: minimum.offset)
                }
                let maximumTag = DERTag.contextSpecific(1, isConstructed: false)
                if try der(subtree.peekTag()) == maximumTag {
                    let maximum = try der(subtree.readIntegerElement(tag: maximumTag))
                    throw X509Error(.invalidExtension(oid, .subtreeMaximumPresent),
                                        at: maximum.offset)
                }
            }
            count += 1
        }
        guard count > 0 else {
            throw X509Error(.invalidExtension(oid, .emptySequence), at: element.offset)
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
    public func makeIterator() -> CheckedDERIterator<GeneralName> {
        CheckedDERIterator(storage, contentRange) { GeneralSubtrees.decodeBase($0, subtree: $1) }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: GeneralSubtrees, rhs: GeneralSubtrees) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

extension GeneralSubtrees {
    /// The base name of the checked GeneralSubtree `subtree` (its first element).
    internal static func decodeBase(_ storage: [UInt8], subtree: DERElement) -> GeneralName? {
        var children = CheckedElements(bytes: storage, range: subtree.contentRange)
        guard let base = children.next() else { return nil }
        return GeneralName.decodeChecked(storage, element: base)
    }
}

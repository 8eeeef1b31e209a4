public import TackDER

/// An X.501 distinguished name: the `issuer` and `subject` of a certificate and the
/// `directoryName` form of ``GeneralName`` (RFC 5280 §4.1.2.4).
///
/// ```
/// Name ::= CHOICE { rdnSequence RDNSequence }
/// RDNSequence ::= SEQUENCE OF RelativeDistinguishedName
/// RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
/// AttributeTypeAndValue ::= SEQUENCE { type AttributeType, value AttributeValue }
/// ```
///
/// Creating a name checks its whole encoding once, without allocating: every
/// RDN is non-empty, every attribute type is a valid OBJECT IDENTIFIER, and every
/// value that is one of the directory string types (`DERStringKind`) has
/// a valid alphabet. Values of other types (an INTEGER, a SEQUENCE) are kept raw.
/// The name then holds only a reference to the buffer and ranges into it; iterating
/// it yields ``RelativeDistinguishedName`` values decoded on demand, and attribute
/// strings are decoded only when asked for.
///
/// An empty name (an empty RDNSequence) is accepted: RFC 5280 §4.1.2.6 allows an
/// empty subject when the subjectAltName extension is critical.
///
/// Leniencies, each because deployed certificates need it:
/// - The members of a multi-valued RDN need not be in the DER SET OF order
///   (X.690 §11.6); comparison treats them as a set anyway.
/// - Any attribute may carry any string type (RFC 5280 profiles `countryName` as a
///   two-letter PrintableString, but that is not enforced here), and empty strings
///   are accepted although `DirectoryString` is SIZE (1..MAX).
///
/// Equality (`==`) and hashing compare the encodings byte for byte. For the
/// RFC 5280 §7.1 comparison that chain building needs, use ``matches(_:)``.
public struct DistinguishedName: Sendable, Hashable, Sequence, CustomStringConvertible {
    /// The RDNSequence in its buffer (equality and hashing are its encoding's).
    internal let sequence: CheckedSequence
    /// The buffer that holds the encoding.
    internal var storage: [UInt8] { sequence.storage }
    /// The absolute range of the whole Name (the RDNSequence TLV) in the buffer.
    public var encodedRange: Range<Int> { sequence.encodedRange }
    /// The absolute range of the RDNSequence's contents.
    internal var contentRange: Range<Int> { sequence.contentRange }
    /// The number of relative distinguished names.
    public var count: Int { sequence.count }

    /// The most attributes Tack accepts in one RDN. Multi-valued RDNs in practice
    /// have two or three members; the cap bounds the quadratic set comparison of
    /// ``matches(_:)`` (a Tack limit, not an RFC one).
    public static let maximumAttributesPerRDN = 32

    /// Decodes and checks the Name whose complete encoding (tag, length and
    /// contents of the RDNSequence) occupies `range` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The buffer, typically a whole certificate. It is kept, not copied.
    ///   - range: The absolute range of the Name's TLV.
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors (a bad
    ///   string alphabet, a truncated element, trailing bytes) or
    ///   ``X509Error/Reason/invalidName(_:)`` for an empty RDN or one with more
    ///   than ``maximumAttributesPerRDN`` attributes; the offset is that of the
    ///   element at fault.
    public init(derEncoded: [UInt8], range: Range<Int>) throws(X509Error) {
        let content: Range<Int>
        let count: Int
        if let quick = DistinguishedName.quickCheck(derEncoded, range: range) {
            (content, count) = quick
        } else {
            (content, count) = try readX509(derEncoded, range: range) {
                (reader) throws(X509Error) -> (Range<Int>, Int) in
                try DistinguishedName.check(&reader, tag: .sequence)
            }
        }
        sequence = CheckedSequence(storage: derEncoded, encodedRange: range, contentRange: content, count: count)
    }

    /// Decodes and checks a Name that is the whole of `derEncoded`.
    ///
    /// - Parameter derEncoded: The DER encoding of a Name.
    /// - Throws: As ``init(derEncoded:range:)``.
    public init(derEncoded: [UInt8]) throws(X509Error) {
        try self.init(derEncoded: derEncoded, range: 0..<derEncoded.count)
    }

    /// The fast path of ``init(derEncoded:range:)``: one tight pass over the bytes
    /// for the common shape of names (attribute types that are short identifiers,
    /// string values), with TackDER's header parser
    /// (`DERElement.parseHeader(in:at:end:maximumLength:)`).
    ///
    /// It returns the contents range and RDN count only when the name is valid by
    /// every rule of ``check(_:tag:)``; for anything else (an error, a non-string
    /// value, an identifier with a long arc, an empty RDN) it returns `nil` and the
    /// full reader decides and reports the exact error. It never accepts what the
    /// full reader rejects: `NameFastPathTests.agreesWithFullReader` holds the two
    /// to each other on seeded mutations of real names. It saves 364 instructions
    /// per certificate of 12,813 (2.8%, Benchmarks/count-instructions.sh x509-parse).
    internal static func quickCheck(_ bytes: [UInt8], range: Range<Int>) -> (Range<Int>, Int)? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> (Range<Int>, Int)? in
            // Every element parsed below lies within `range`, a subrange of the
            // buffer (checked above), so the pointer reads are in bounds.
            guard let base = buffer.baseAddress else { return nil }
            let end = range.upperBound
            guard let (name, afterName) = try? DERElement.parseHeader(in: buffer, at: range.lowerBound, end: end),
                  name.tag == .sequence, afterName == end
            else { return nil }
            var rdnCount = 0
            var position = name.contentRange.lowerBound
            while position < end {
                guard let (set, afterSet) = try? DERElement.parseHeader(in: buffer, at: position, end: end),
                      set.tag == .set, set.contentLength > 0
                else { return nil }
                position = afterSet
                var attributes = 0
                var inSet = set.contentRange.lowerBound
                while inSet < afterSet {
                    guard let (pair, afterPair) = try? DERElement.parseHeader(in: buffer, at: inSet, end: afterSet),
                          pair.tag == .sequence,
                          let (oid, afterOID) = try? DERElement.parseHeader(in: buffer, at: pair.contentRange.lowerBound, end: afterPair),
                          oid.tag == .objectIdentifier,
                          let (value, afterValue) = try? DERElement.parseHeader(in: buffer, at: afterOID, end: afterPair),
                          afterValue == afterPair,
                          isSimpleIdentifier(UnsafeBufferPointer(start: base + oid.contentRange.lowerBound, count: oid.contentLength)),
                          let kind = DERStringKind(tag: value.tag)
                    else { return nil }
                    // A string value of a directory string type, checked against its
                    // alphabet; any other value takes the full path.
                    do throws(DERError) {
                        try kind.validate(UnsafeBufferPointer(start: base + value.contentRange.lowerBound, count: value.contentLength),
                                          offset: value.contentRange.lowerBound)
                    } catch {
                        return nil
                    }
                    inSet = afterPair
                    attributes &+= 1
                    guard attributes <= maximumAttributesPerRDN else { return nil }
                }
                rdnCount &+= 1
            }
            return (name.contentRange, rdnCount)
        }
    }

    /// Whether OBJECT IDENTIFIER contents are valid by a conservative subset of
    /// TackDER's rules: not empty, no arc starting with a 0x80 octet, arcs of at
    /// most 4 octets (far below OID.maximumArcOctets), a complete last arc. Other
    /// identifiers take the full reader.
    private static func isSimpleIdentifier(_ contents: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let last = contents.last, last & 0x80 == 0 else { return false }
        // The X.520 attribute types (2.5.4.n, encoded 55 04 n with n < 0x80) are
        // valid as they stand.
        if contents.count == 3 && contents[0] == 0x55 && contents[1] == 0x04 { return true }
        var arcOctets = 0
        for byte in contents {
            if arcOctets == 0 && byte == 0x80 { return false }
            arcOctets = byte & 0x80 == 0 ? 0 : arcOctets &+ 1
            if arcOctets >= 4 { return false }
        }
        return true
    }

    /// A name already checked by ``check(_:tag:)`` (used by ``GeneralName``).
    internal init(checked storage: [UInt8], element: DERElement, count: Int) {
        sequence = CheckedSequence(checked: storage, element: element, count: count)
    }

    /// Reads and checks an RDNSequence with `tag` (`DERTag.sequence`, or
    /// `[4]` constructed for a directoryName); returns its element and RDN count.
    internal static func check(
        _ reader: inout DERReader, tag: DERTag
    ) throws(X509Error) -> (Range<Int>, Int) {
        let element = try der(reader.readElement(tag))
        let count = try checkContents(of: element, reader: reader)
        return (element.contentRange, count)
    }

    /// Checks the contents of an RDNSequence element read by `reader`.
    internal static func checkContents(
        of element: DERElement, reader: DERReader
    ) throws(X509Error) -> Int {
        var inner = try der(reader.contentsReader(of: element))
        var count = 0
        while !inner.isAtEnd {
            _ = try RelativeDistinguishedName.check(&inner, tag: .set)
            count += 1
        }
        return count
    }

    /// The encoding of the whole Name, as a slice of the original buffer.
    public var derEncoded: ArraySlice<UInt8> { storage[encodedRange] }

    /// Whether the name has no RDNs.
    public var isEmpty: Bool { count == 0 }

    /// The RDNs in encoding order (most significant, usually the country, first).
    public func makeIterator() -> CheckedDERIterator<RelativeDistinguishedName> {
        CheckedDERIterator(storage, contentRange) { RelativeDistinguishedName(checked: $0, element: $1) }
    }

    /// The number of RDNs (the name's ``count``).
    public var underestimatedCount: Int { count }

    /// The values of every attribute of type `type`, in encoding order, decoded as
    /// text; values that are not strings are skipped.
    ///
    /// - Parameter type: An attribute type such as ``AttributeType/commonName``.
    /// - Returns: The decoded values.
    public func values(of type: OID) -> [String] {
        var result: [String] = []
        for rdn in self {
            for attribute in rdn where attribute.type == type {
                if let value = attribute.stringValue { result.append(value) }
            }
        }
        return result
    }

    /// The most specific (last) common name, if any: what tools show as "the" name.
    public var commonName: String? { values(of: AttributeType.commonName).last }

    /// The name in the string form of RFC 4514; see ``rfc4514String``.
    public var description: String { rfc4514String }

    /// Byte-for-byte equality of the two encodings.
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
        lhs.sequence == rhs.sequence
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) {
        sequence.hash(into: &hasher)
    }
}

/// One RDN: a non-empty set of attribute type-and-value pairs (usually exactly one).
///
/// Equality and hashing compare encodings byte for byte; RFC 5280 §7.1 matching
/// (set equality with string folding) is ``matches(_:)``.
public struct RelativeDistinguishedName: Sendable, Hashable, Sequence {
    internal let storage: [UInt8]
    /// The absolute range of the RDN's SET (or IMPLICIT `[1]`) TLV.
    public let encodedRange: Range<Int>
    internal let contentRange: Range<Int>

    internal init(checked storage: [UInt8], element: DERElement) {
        self.storage = storage
        self.encodedRange = element.encodedRange
        self.contentRange = element.contentRange
    }

    /// Reads and checks one RDN with `tag`; returns the number of attributes.
    internal static func check(
        _ reader: inout DERReader, tag: DERTag
    ) throws(X509Error) -> Int {
        let element = try der(reader.readElement(tag))
        var inner = try der(reader.contentsReader(of: element))
        var count = 0
        while !inner.isAtEnd {
            try der(inner.readSequence { (pair) throws(DERError) in
                try pair.checkObjectIdentifier()
                let value = try pair.readElement()
                if value.tag.tagClass == .universal {
                    let plain = DERTag(.universal, isConstructed: false, number: value.tag.number)
                    if let kind = DERStringKind(tag: plain) {
                        // DER forbids the constructed form of strings (X.690 §10.2).
                        guard !value.tag.isConstructed else { throw DERError(.wrongConstructedBit, at: value.offset) }
                        try pair.checkString(value, kind: kind)
                    }
                }
            })
            count += 1
            guard count <= DistinguishedName.maximumAttributesPerRDN else {
                throw X509Error(.invalidName(.tooManyAttributes), at: element.offset)
            }
        }
        guard count > 0 else {
            throw X509Error(.invalidName(.emptyRelativeDistinguishedName), at: element.offset)
        }
        return count
    }

    /// The encoding of the RDN, as a slice of the original buffer.
    public var derEncoded: ArraySlice<UInt8> { storage[encodedRange] }

    /// The number of attributes (at least 1).
    public var count: Int {
        var elements = CheckedElements(bytes: storage, range: contentRange)
        var count = 0
        while elements.next() != nil { count += 1 }
        return count
    }

    /// The attributes in encoding order.
    public func makeIterator() -> CheckedDERIterator<Attribute> {
        CheckedDERIterator(storage, contentRange) { Attribute(checked: $0, element: $1) }
    }

    /// Byte-for-byte equality of the two encodings.
    public static func == (lhs: RelativeDistinguishedName, rhs: RelativeDistinguishedName) -> Bool {
        encodingsEqual(lhs.storage, lhs.encodedRange, rhs.storage, rhs.encodedRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(encodedRange.count)
        for byte in storage[encodedRange] { hasher.combine(byte) }
    }

    /// One `AttributeTypeAndValue`: an attribute type and its value.
    ///
    /// The value is kept as its encoding; ``stringValue`` decodes it when it is one of
    /// the directory string types.
    public struct Attribute: Sendable, Hashable {
        internal let storage: [UInt8]
        /// The attribute type, for example ``DistinguishedName/AttributeType/commonName``.
        public let type: OID
        /// The value's element (tag and absolute ranges).
        public let valueElement: DERElement

        /// Decodes a checked AttributeTypeAndValue; `nil` cannot happen for
        /// elements that ``RelativeDistinguishedName/check(_:tag:)`` accepted.
        internal init?(checked storage: [UInt8], element: DERElement) {
            let decoded = rereadChecked(storage, element: element) { (reader) throws(DERError) -> (OID, DERElement) in
                try reader.readSequence { (pair) throws(DERError) -> (OID, DERElement) in
                    (try pair.readObjectIdentifier(), try pair.readElement())
                }
            }
            guard let decoded else { return nil }
            self.storage = storage
            self.type = decoded.0
            self.valueElement = decoded.1
        }

        /// The value's string type, or `nil` if the value is not a directory string
        /// (it is then rendered as `#hex`, RFC 4514 §2.4).
        public var stringKind: DERStringKind? { DERStringKind(tag: valueElement.tag) }

        /// The value decoded as text, or `nil` if it is not a string type.
        ///
        /// TeletexString is read as ISO 8859-1 (see `DERStringKind.teletex`).
        public var stringValue: String? {
            guard let kind = stringKind else { return nil }
            return decodeCheckedString(storage, range: valueElement.contentRange, kind: kind)
        }

        /// The complete encoding (tag, length, contents) of the value.
        public var encodedValue: ArraySlice<UInt8> { storage[valueElement.encodedRange] }

        /// The contents octets of the value.
        public var valueBytes: ArraySlice<UInt8> { storage[valueElement.contentRange] }

        /// Equal when the types are equal and the values' encodings are identical.
        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs.type == rhs.type
                && encodingsEqual(lhs.storage, lhs.valueElement.encodedRange, rhs.storage, rhs.valueElement.encodedRange)
        }

        /// Hashes the type and the value's encoding.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            for byte in storage[valueElement.encodedRange] { hasher.combine(byte) }
        }
    }
}

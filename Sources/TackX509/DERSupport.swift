import TackDER

// Internal machinery shared by the name and extension decoders.
//
// Tack decodes names and extensions in two steps. Creating a value (for example a
// `DistinguishedName` or a `SubjectAlternativeNames`) walks its whole encoding once
// and checks every rule, without allocating: no strings, no arrays. The value then
// keeps only the buffer reference and absolute ranges, and its collections decode
// their elements again, lazily, when they are iterated. Because the encoding was
// checked, that second walk cannot fail; the iterators still never trap and simply
// stop if the impossible happened.
//
// Decoders throw ``X509Error`` themselves: a semantic rule (an empty SEQUENCE
// SIZE (1..MAX), an iPAddress of 5 octets) is thrown directly, and each DER read
// goes through `der(_:)`, which wraps a ``DERError`` with its reason and offset.
// TackDER's `read…` methods that take a closure are generic over the closure's
// error type (``DERErrorWrapping``), so a closure may throw ``X509Error`` too.

/// Runs one DER read inside an X.509 decoder, wrapping its ``DERError`` in an
/// ``X509Error`` (reason and offset kept): `let element = try der(reader.readElement())`.
@inline(__always)
func der<T>(_ read: @autoclosure () throws(DERError) -> T) throws(X509Error) -> T {
    do {
        return try read()
    } catch {
        throw X509Error(error)
    }
}

/// Reads `range` of `bytes` with `body`, which must consume it entirely and
/// throws ``X509Error`` itself (DER errors, in and around it, arrive wrapped).
@inline(__always)
func readX509<T>(
    _ bytes: [UInt8],
    range: Range<Int>,
    _ body: (inout DERReader) throws(X509Error) -> T
) throws(X509Error) -> T {
    try DER.read(bytes, range: range, throwing: X509Error.self, body)
}

/// Reads `range` of `bytes` with `body`, a pure DER reader that must consume it
/// entirely, and wraps its errors in ``X509Error``.
@inline(__always)
func readX509<T>(
    _ bytes: [UInt8],
    range: Range<Int>,
    _ body: (inout DERReader) throws(DERError) -> T
) throws(X509Error) -> T {
    do {
        return try DER.read(bytes, range: range, body)
    } catch {
        throw X509Error(error)
    }
}

/// Reads the extension value in `valueRange` of `bytes`, of the form
/// `SEQUENCE SIZE (1..MAX) OF Member`, checking each member with `member`; an
/// empty SEQUENCE is `.invalidExtension(oid, .emptySequence)`. The one reader of
/// such lists (ExtendedKeyUsage, CertificatePolicies, PolicyMappings,
/// CRLDistributionPoints, AuthorityInformationAccess).
///
/// - Returns: The absolute range of the SEQUENCE's contents and the member count.
@inline(__always)
func readNonEmptySequence(
    _ bytes: [UInt8],
    valueRange: Range<Int>,
    of oid: OID,
    _ member: (inout DERReader) throws(X509Error) -> Void
) throws(X509Error) -> (Range<Int>, Int) {
    try readX509(bytes, range: valueRange) { (reader) throws(X509Error) -> (Range<Int>, Int) in
        let element = try der(reader.readElement(.sequence))
        var inner = try der(reader.contentsReader(of: element))
        var count = 0
        while !inner.isAtEnd {
            try member(&inner)
            count += 1
        }
        guard count > 0 else {
            throw X509Error(.invalidExtension(oid, .emptySequence), at: element.offset)
        }
        return (element.contentRange, count)
    }
}

/// Re-reads one element that was checked when its container was created; `nil`
/// only if the element is not what the container's check accepted (which cannot
/// happen for values built by this module).
@inline(__always)
func rereadChecked<T, Failure: DERErrorWrapping>(
    _ bytes: [UInt8],
    element: DERElement,
    _ body: (inout DERReader) throws(Failure) -> T
) -> T? {
    do {
        return try DER.read(bytes, range: element.encodedRange, throwing: Failure.self, body)
    } catch {
        return nil
    }
}

/// Iterates the elements of a range whose DER was checked earlier.
///
/// This parses only identifier and length octets. Every access is bounds-checked
/// against `end`; a header that does not parse ends the iteration.
struct CheckedElements: IteratorProtocol, Sendable {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = min(range.upperBound, bytes.count)
    }

    mutating func next() -> DERElement? {
        guard let element = CheckedElements.element(in: bytes, at: position, end: end) else {
            position = end
            return nil
        }
        position = element.encodedRange.upperBound
        return element
    }

    /// The element whose identifier octet is at `start`, or `nil` if there is none
    /// before `end` or its header does not parse.
    static func element(in bytes: [UInt8], at start: Int, end: Int) -> DERElement? {
        DERElement(headerIn: bytes, at: start, end: end)
    }
}

/// A checked SEQUENCE kept in place in the buffer it was read from, with the
/// number of its members: what ``DistinguishedName`` (an RDNSequence) and
/// ``GeneralNames`` each hold, with their own member type and iterator.
/// Equality and hashing are the encoding's, byte for byte.
struct CheckedSequence: Sendable, Hashable {
    /// The buffer that holds the encoding (kept, not copied).
    let storage: [UInt8]
    /// The absolute range of the whole TLV in `storage`.
    let encodedRange: Range<Int>
    /// The absolute range of its contents.
    let contentRange: Range<Int>
    /// The number of members.
    let count: Int

    init(storage: [UInt8], encodedRange: Range<Int>, contentRange: Range<Int>, count: Int) {
        self.storage = storage
        self.encodedRange = encodedRange
        self.contentRange = contentRange
        self.count = count
    }

    /// A sequence that `element` of `storage` encodes, already checked.
    init(checked storage: [UInt8], element: DERElement, count: Int) {
        self.init(storage: storage, encodedRange: element.encodedRange, contentRange: element.contentRange, count: count)
    }

    static func == (lhs: CheckedSequence, rhs: CheckedSequence) -> Bool {
        encodingsEqual(lhs.storage, lhs.encodedRange, rhs.storage, rhs.encodedRange)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(encodedRange.count)
        for byte in storage[encodedRange] { hasher.combine(byte) }
    }
}

/// Equality and hashing of encodings inside possibly different buffers.
@inline(__always)
func encodingsEqual(_ lhs: [UInt8], _ lhsRange: Range<Int>, _ rhs: [UInt8], _ rhsRange: Range<Int>) -> Bool {
    guard lhsRange.count == rhsRange.count else { return false }
    return lhs[lhsRange].elementsEqual(rhs[rhsRange])
}

extension DERReader {
    /// Checks the contents of a string element of type `kind` without allocating.
    ///
    /// - Throws: The alphabet error of `kind` at the element's offset.
    @inline(__always)
    func checkString(_ element: DERElement, kind: DERStringKind) throws(DERError) {
        // TackDER's checks skip ASCII eight octets at a time (URIs and notices run
        // to 100 octets and more).
        try withBytes(in: element.contentRange) { (contents) throws(DERError) in
            try kind.validate(contents, offset: element.offset)
        }
    }

    /// Reads an OBJECT IDENTIFIER and checks it, for fields that are checked now
    /// and decoded later. This is ``readObjectIdentifier(tag:)`` itself, so that
    /// the check and the later decoding apply exactly the same rules (an inline
    /// OID costs no allocation).
    ///
    /// - Throws: The errors of ``readObjectIdentifier(tag:)``.
    @inline(__always)
    mutating func checkObjectIdentifier() throws(DERError) {
        _ = try readObjectIdentifier()
    }
}

/// Decodes checked string contents; the empty string if they are invalid (cannot
/// happen for ranges checked by ``DERReader/checkString(_:kind:)``).
func decodeCheckedString(_ bytes: [UInt8], range: Range<Int>, kind: DERStringKind) -> String {
    guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return "" }
    return bytes.withUnsafeBufferPointer { buffer -> String in
        let contents = UnsafeBufferPointer(rebasing: buffer[range])
        return (try? kind.decode(contents, offset: range.lowerBound)) ?? ""
    }
}

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

/// A semantic error raised inside a DER-reading closure, whose error type is fixed
/// to `DERError`.
///
/// `DER.read`'s closure can only throw ``DERError``. A decoder that finds a semantic
/// problem (an empty SEQUENCE SIZE (1..MAX), an IP address of 5 octets) records the
/// ``X509Error`` here and throws the returned marker to unwind; ``readX509(_:range:_:)``
/// then throws the recorded error instead of the marker.
struct SemanticFailure {
    /// The recorded error, if any.
    var error: X509Error? = nil

    /// Records `reason` at `offset` and returns a marker error to throw.
    mutating func raise(_ reason: X509Error.Reason, at offset: Int) -> DERError {
        error = X509Error(reason, at: offset)
        // The marker's reason is never seen: readX509 replaces it with `error`.
        return DERError(.trailingData, at: offset)
    }
}

/// Reads `range` of `bytes` with `body`, which must consume it entirely, and maps
/// errors to ``X509Error`` (a recorded semantic failure wins over the DER marker).
@inline(__always)
func readX509<T>(
    _ bytes: [UInt8],
    range: Range<Int>,
    _ body: (inout DERReader, inout SemanticFailure) throws(DERError) -> T
) throws(X509Error) -> T {
    var failure = SemanticFailure()
    do {
        return try DER.read(bytes, range: range) { (reader) throws(DERError) -> T in
            try body(&reader, &failure)
        }
    } catch {
        throw failure.error ?? X509Error(error)
    }
}

extension DERReader {
    /// Reads an extension value of the form `SEQUENCE SIZE (1..MAX) OF Member`,
    /// checking each member with `member`, and records
    /// `.invalidExtension(oid, "empty NAME (SIZE (1..MAX))")` when it has none.
    ///
    /// - Returns: The absolute range of the SEQUENCE's contents and the member count.
    @inline(__always)
    mutating func readNonEmptySequence(
        named name: String,
        of oid: OID,
        failure: inout SemanticFailure,
        _ member: (inout DERReader, inout SemanticFailure) throws(DERError) -> Void
    ) throws(DERError) -> (Range<Int>, Int) {
        let element = try readElement(.sequence)
        var inner = try contentsReader(of: element)
        var count = 0
        while !inner.isAtEnd {
            try member(&inner, &failure)
            count += 1
        }
        guard count > 0 else {
            throw failure.raise(.invalidExtension(oid, detail: "empty \(name) (SIZE (1..MAX))"), at: element.offset)
        }
        return (element.contentRange, count)
    }
}

/// Re-reads one element that was checked when its container was created; `nil`
/// only if the element is not what the container's check accepted (which cannot
/// happen for values built by this module).
@inline(__always)
func rereadChecked<T>(
    _ bytes: [UInt8],
    element: DERElement,
    _ body: (inout DERReader) throws(DERError) -> T
) -> T? {
    do {
        return try DER.read(bytes, range: element.encodedRange) { (reader) throws(DERError) -> T in
            try body(&reader)
        }
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

/// The parts of a checked `SEQUENCE OF` extension value other than the buffer:
/// the absolute range of the SEQUENCE's contents and its member count. Trivially
/// copyable, so that ``DecodedExtensions`` can keep one buffer reference for all
/// its extensions.
struct CheckedList: Sendable {
    /// The absolute range of the SEQUENCE's contents.
    var contentRange: Range<Int>
    /// The number of members (at least 1).
    var count: Int
}

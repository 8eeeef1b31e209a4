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
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        var index = start
        let first = bytes[index]
        index += 1
        let tagClass = DERTag.TagClass(rawValue: first >> 6) ?? .universal
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            number = 0
            var octets = 0
            while true {
                guard index < end, octets < 4 else { return nil }
                let byte = bytes[index]
                index += 1
                octets += 1
                // At most 4 septets: fits 28 bits.
                number = (number << 7) | UInt32(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
        }
        guard index < end else { return nil }
        let lengthByte = bytes[index]
        index += 1
        var length = 0
        if lengthByte < 0x80 {
            length = Int(lengthByte)
        } else {
            let count = Int(lengthByte & 0x7F)
            guard count >= 1, count <= 4, end - index >= count else { return nil }
            for _ in 0..<count {
                // At most 4 octets: below 2^32, no overflow in a 64-bit Int.
                length = (length << 8) | Int(bytes[index])
                index += 1
            }
        }
        guard length <= end - index else { return nil }
        let tag = DERTag(tagClass, isConstructed: first & 0x20 != 0, number: number)
        return DERElement(tag: tag, offset: start, contentRange: index..<(index + length))
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

/// Uppercase hexadecimal digits of `bytes`, optionally separated.
func uppercaseHex(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
    let digits: StaticString = "0123456789ABCDEF"
    var text = ""
    var first = true
    digits.withUTF8Buffer { table in
        for byte in bytes {
            if !first { text += separator }
            first = false
            text.unicodeScalars.append(Unicode.Scalar(table[Int(byte >> 4)]))
            text.unicodeScalars.append(Unicode.Scalar(table[Int(byte & 0x0F)]))
        }
    }
    return text
}

/// Entry points for reading DER.
///
/// ```swift
/// let serialRange = try DER.read(certificateBytes) { reader throws(DERError) in
///     try reader.readSequence { certificate throws(DERError) in
///         let serial = try certificate.readSequence { tbs throws(DERError) in
///             _ = try tbs.readOptionalExplicit(0) { v throws(DERError) in try v.readInteger(Int.self) }
///             let serial = try tbs.readIntegerElement().contentRange
///             while !tbs.isAtEnd { _ = try tbs.readElement() }
///             return serial
///         }
///         _ = try certificate.readElement(.sequence)   // signatureAlgorithm
///         _ = try certificate.readBitString()          // signatureValue
///         return serial
///     }
/// }
/// ```
///
/// Swift 6 does not infer typed throws for closures, so each closure spells
/// `throws(DERError)`; the `enter…` methods of ``DERReader`` avoid closures entirely.
public enum DER {
    /// Reads `bytes` with a ``DERReader`` and requires that `body` consume all of them.
    ///
    /// The reader is valid only inside `body`: it views the caller's bytes without
    /// copying them and must not escape. Offsets in errors and element ranges index
    /// `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The DER input.
    ///   - limits: Depth and size limits.
    ///   - body: Reads the structure from the reader.
    /// - Returns: What `body` returns.
    /// - Throws: ``DERError`` from `body`, or ``DERError/Reason/trailingData`` if
    ///   `body` leaves bytes unread.
    @inlinable
    public static func read<T>(
        _ bytes: [UInt8],
        limits: DERLimits = .default,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        try read(bytes, range: 0..<bytes.count, limits: limits, body)
    }

    /// Reads the subrange `range` of `bytes`; offsets stay absolute (they index `bytes`).
    ///
    /// This is how a model that keeps the whole input decodes one part of it later,
    /// for example an extension's value.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: The part of `bytes` to read. Must lie within `bytes`.
    ///   - limits: Depth and size limits.
    ///   - body: Reads the structure from the reader.
    /// - Returns: What `body` returns.
    /// - Throws: ``DERError`` from `body`, ``DERError/Reason/trailingData`` if bytes
    ///   remain, or ``DERError/Reason/lengthExceedsInput`` if `range` is outside `bytes`.
    @inlinable
    public static func read<T>(
        _ bytes: [UInt8],
        range: Range<Int>,
        limits: DERLimits = .default,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw DERError(.lengthExceedsInput, at: range.lowerBound)
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(DERError) -> T in
            var reader = DERReader(buffer: buffer, origin: 0, range: range, depth: 0, limits: limits)
            let result = try body(&reader)
            try reader.expectEnd()
            return result
        }
    }

    /// Reads the subrange `range` of `bytes` with a `body` that throws a
    /// higher layer's error, which wraps this reader's ``DERError``s.
    ///
    /// A decoder of X.509 or another format uses it to raise its own semantic
    /// errors from inside `body`, directly and typed, while DER-level errors (a
    /// range outside `bytes`, trailing bytes) arrive wrapped in `Failure`.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: The part of `bytes` to read. Must lie within `bytes`.
    ///   - limits: Depth and size limits.
    ///   - failure: The error type `body` throws.
    ///   - body: Reads the structure from the reader.
    /// - Returns: What `body` returns.
    /// - Throws: `Failure` from `body`, or a wrapped ``DERError`` as
    ///   ``read(_:range:limits:_:)`` throws it.
    @inlinable
    public static func read<T, Failure: DERErrorWrapping>(
        _ bytes: [UInt8],
        range: Range<Int>,
        limits: DERLimits = .default,
        throwing failure: Failure.Type,
        _ body: (inout DERReader) throws(Failure) -> T
    ) throws(Failure) -> T {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
            throw Failure(DERError(.lengthExceedsInput, at: range.lowerBound))
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> T in
            var reader = DERReader(buffer: buffer, origin: 0, range: range, depth: 0, limits: limits)
            let result = try body(&reader)
            guard reader.isAtEnd else { throw Failure(DERError(.trailingData, at: reader.offset)) }
            return result
        }
    }

    /// Reads an `ArraySlice`; offsets are the slice's own indices.
    ///
    /// - Parameters:
    ///   - bytes: The DER input.
    ///   - limits: Depth and size limits.
    ///   - body: Reads the structure from the reader.
    /// - Returns: What `body` returns.
    /// - Throws: ``DERError`` from `body`, or ``DERError/Reason/trailingData``.
    @inlinable
    public static func read<T>(
        _ bytes: ArraySlice<UInt8>,
        limits: DERLimits = .default,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        let origin = bytes.startIndex
        return try bytes.withUnsafeBufferPointer { (buffer) throws(DERError) -> T in
            var reader = DERReader(buffer: buffer, origin: origin, range: origin..<(origin + buffer.count), depth: 0, limits: limits)
            let result = try body(&reader)
            try reader.expectEnd()
            return result
        }
    }

    /// Reads raw memory; offsets start at `origin`.
    ///
    /// - Parameters:
    ///   - bytes: The DER input. Must stay valid for the duration of the call.
    ///   - origin: The absolute offset of `bytes[0]`, used in errors and ranges.
    ///   - limits: Depth and size limits.
    ///   - body: Reads the structure from the reader.
    /// - Returns: What `body` returns.
    /// - Throws: ``DERError`` from `body`, or ``DERError/Reason/trailingData``.
    @inlinable
    public static func read<T>(
        _ bytes: UnsafeRawBufferPointer,
        origin: Int = 0,
        limits: DERLimits = .default,
        _ body: (inout DERReader) throws(DERError) -> T
    ) throws(DERError) -> T {
        let buffer = bytes.assumingMemoryBound(to: UInt8.self)
        var reader = DERReader(buffer: buffer, origin: origin, range: origin..<(origin + buffer.count), depth: 0, limits: limits)
        let result = try body(&reader)
        try reader.expectEnd()
        return result
    }
}

/// A forward-only cursor over DER bytes that reads one element at a time.
///
/// The reader is a small value holding a pointer into the caller's buffer, an
/// absolute position and an end. It never copies, allocates or reference-counts;
/// reading an element costs a few comparisons. It exists only inside the closure of
/// ``DER/read(_:limits:_:)`` (or one of its siblings): do not store it or let it escape.
///
/// Every read checks the bytes that remain before touching them, and every length is
/// checked against the enclosing element, so no input can make it read out of bounds
/// or overflow. The rules it enforces are the cases of ``DERError/Reason``.
///
/// Closures passed to the reader must spell their thrown type, because Swift 6 does
/// not infer typed throws for closures: `reader.readSequence { seq throws(DERError) in … }`.
/// The `enter…` methods return nested readers instead, for code that prefers no closures.
///
/// Reading a structure follows its definition, in order:
/// - ``readSequence(_:)``, ``readSet(_:)``, ``readExplicit(_:_:)`` enter a
///   constructed element, run a closure on its contents and require that the closure
///   read all of them;
/// - the `readOptional…` forms return `nil` when the next element has another tag or
///   the contents are exhausted, so OPTIONAL fields read naturally;
/// - typed reads (``readInteger(_:tag:)``, ``readObjectIdentifier(tag:)``,
///   ``readBitString(tag:)``, ``readTime()``, ``readString()``, ...) take an optional
///   `tag` for IMPLICIT tagging.
public struct DERReader {
    @usableFromInline internal let buffer: UnsafeBufferPointer<UInt8>
    /// Absolute offset of `buffer[0]`.
    @usableFromInline internal let origin: Int
    /// Relative index of the next unread byte.
    @usableFromInline internal var cursor: Int
    /// Relative index one past the last byte this reader may read.
    @usableFromInline internal let end: Int
    /// The nesting depth of the contents this reader walks (0 for the top level).
    public let depth: Int
    /// The limits this reader enforces.
    public let limits: DERLimits

    @usableFromInline
    internal init(buffer: UnsafeBufferPointer<UInt8>, origin: Int, range: Range<Int>, depth: Int, limits: DERLimits) {
        self.buffer = buffer
        self.origin = origin
        self.cursor = range.lowerBound - origin
        self.end = range.upperBound - origin
        self.depth = depth
        self.limits = limits
    }

    /// The absolute offset of the next unread byte.
    @inlinable
    public var offset: Int { origin + cursor }

    /// The absolute offset one past the last byte this reader may read.
    @inlinable
    public var endOffset: Int { origin + end }

    /// Whether every byte of this reader has been read.
    @inlinable
    public var isAtEnd: Bool { cursor >= end }

    /// The number of bytes left to read.
    @inlinable
    public var remainingCount: Int { end - cursor }

    /// Throws ``DERError/Reason/trailingData`` unless every byte has been read.
    ///
    /// - Throws: ``DERError/Reason/trailingData`` at the first unread byte.
    @inlinable
    public func expectEnd() throws(DERError) {
        guard cursor >= end else { throw DERError(.trailingData, at: origin + cursor) }
    }

    // MARK: - Elements

    /// Parses the identifier and length at relative index `start` and returns the
    /// element and the relative index just past it, without moving the cursor.
    @inlinable
    @inline(__always)
    internal func parseElement(at start: Int) throws(DERError) -> (element: DERElement, next: Int) {
        try DERReader.parseElement(in: buffer, at: start, end: end, origin: origin,
                                   maximumLength: limits.maximumElementLength)
    }

    /// Parses one element header in `buffer[start..<end]`: the core of every read.
    ///
    /// The common case (a low tag number and a short-form length, two octets of
    /// header) is inlined into callers; everything else goes to
    /// ``parseElementSlowly(in:at:end:origin:maximumLength:)``.
    ///
    /// - Returns: The element (absolute offsets: relative + `origin`) and the
    ///   relative index just past it.
    @inlinable
    @inline(__always)
    internal static func parseElement(
        in buffer: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, origin: Int, maximumLength: Int
    ) throws(DERError) -> (element: DERElement, next: Int) {
        if end &- start >= 2, let base = buffer.baseAddress {
            // start >= 0 and start + 1 < end <= buffer.count: both reads are in bounds.
            let first = base[start]
            let lengthByte = base[start &+ 1]
            if first & 0x1F != 0x1F && lengthByte < 0x80 {
                let length = Int(lengthByte)
                let contentStart = start &+ 2
                if length <= end &- contentStart && length <= maximumLength {
                    let tag = DERTag(leadingBits: first, number: UInt32(first & 0x1F))
                    let absolute = origin + contentStart
                    return (DERElement(tag: tag, offset: origin + start, contentRange: absolute..<(absolute + length)),
                            contentStart &+ length)
                }
            }
        }
        return try parseElementSlowly(in: buffer, at: start, end: end, origin: origin, maximumLength: maximumLength)
    }

    /// The general header parse: high tag numbers, long-form lengths and every error.
    @usableFromInline
    @inline(never)
    internal static func parseElementSlowly(
        in buffer: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, origin: Int, maximumLength: Int
    ) throws(DERError) -> (element: DERElement, next: Int) {
        // The next most common header: a low tag number and a minimal one- or two-octet
        // long-form length (0x81 nn with nn >= 0x80, 0x82 nnnn with a nonzero first
        // octet): certificates, names, keys and extension lists.
        if end &- start >= 4, start >= 0, end <= buffer.count, let base = buffer.baseAddress {
            let first = base[start]
            let lengthByte = base[start &+ 1]
            if first & 0x1F != 0x1F {
                var length = -1
                var contentStart = start
                if lengthByte == 0x81, base[start &+ 2] >= 0x80 {
                    length = Int(base[start &+ 2])
                    contentStart = start &+ 3
                } else if lengthByte == 0x82, base[start &+ 2] != 0 {
                    length = Int(base[start &+ 2]) << 8 | Int(base[start &+ 3])
                    contentStart = start &+ 4
                }
                // length < 2^16 and contentStart <= end: no overflow below.
                if length >= 0 && length <= end &- contentStart && length <= maximumLength {
                    let tag = DERTag(leadingBits: first, number: UInt32(first & 0x1F))
                    let absolute = origin + contentStart
                    return (DERElement(tag: tag, offset: origin + start, contentRange: absolute..<(absolute + length)),
                            contentStart &+ length)
                }
            }
        }
        let elementOffset = origin + start
        var index = start
        guard index < end else { throw DERError(.truncated, at: elementOffset) }
        let first = buffer[index]
        index += 1

        // Identifier octets (X.690 §8.1.2).
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            // High-tag-number form (§8.1.2.4): base-128, first octet not 0x80, value >= 31.
            number = 0
            var octets = 0
            while true {
                guard index < end else { throw DERError(.truncated, at: elementOffset) }
                let byte = buffer[index]
                index += 1
                if octets == 0 && byte == 0x80 { throw DERError(.nonMinimalTagNumber, at: elementOffset) }
                octets += 1
                guard octets <= 4 else { throw DERError(.tagNumberTooLarge, at: elementOffset) }
                // At most 4 octets of 7 bits: fits in 28 bits, no overflow.
                number = (number << 7) | UInt32(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            guard number >= 31 else { throw DERError(.nonMinimalTagNumber, at: elementOffset) }
        }
        let tag = DERTag(leadingBits: first, number: number)

        // Length octets (X.690 §8.1.3, §10.1).
        guard index < end else { throw DERError(.truncated, at: elementOffset) }
        let lengthByte = buffer[index]
        index += 1
        var length: Int
        if lengthByte < 0x80 {
            length = Int(lengthByte)
        } else if lengthByte == 0x80 {
            throw DERError(.indefiniteLength, at: elementOffset)
        } else {
            let count = Int(lengthByte & 0x7F)
            // 0xFF is reserved (§8.1.3.5 c); more than 4 octets is beyond Tack's cap.
            guard count <= 4 else { throw DERError(.unsupportedLength, at: elementOffset) }
            guard end - index >= count else { throw DERError(.truncated, at: elementOffset) }
            guard buffer[index] != 0 else { throw DERError(.nonMinimalLength, at: elementOffset) }
            // At most 4 octets: the value is below 2^32, which fits UInt32 on every
            // platform but not a 32-bit Int (where 2^31 and above would wrap
            // negative and be misreported as non-minimal).
            var value: UInt32 = 0
            for _ in 0..<count {
                value = (value << 8) | UInt32(buffer[index])
                index += 1
            }
            guard value >= 0x80 else { throw DERError(.nonMinimalLength, at: elementOffset) }
            // Compared as unsigned (UInt holds any UInt32 and end - index >= 0),
            // so the conversion to Int below cannot trap.
            guard UInt(value) <= UInt(end - index) else { throw DERError(.lengthExceedsInput, at: elementOffset) }
            length = Int(value)
        }
        guard length <= end - index else { throw DERError(.lengthExceedsInput, at: elementOffset) }
        guard length <= maximumLength else { throw DERError(.elementTooLarge, at: elementOffset) }
        let contentStart = origin + index
        return (DERElement(tag: tag, offset: elementOffset, contentRange: contentStart..<(contentStart + length)), index + length)
    }

    /// The tag of the next element, or `nil` at the end, without consuming anything.
    ///
    /// - Returns: The next tag, or `nil` when no bytes remain.
    /// - Throws: ``DERError`` if the next identifier or length octets are malformed.
    @inlinable
    public func peekTag() throws(DERError) -> DERTag? {
        guard cursor < end else { return nil }
        return try parseElement(at: cursor).element.tag
    }

    /// Reads the next element, whatever its tag.
    ///
    /// - Returns: The element (tag and absolute ranges).
    /// - Throws: ``DERError`` if no element remains or its header is malformed.
    @inlinable
    @inline(__always)
    public mutating func readElement() throws(DERError) -> DERElement {
        let (element, next) = try parseElement(at: cursor)
        cursor = next
        return element
    }

    /// Reads the next element and requires it to have `tag`.
    ///
    /// - Parameter tag: The required tag.
    /// - Returns: The element.
    /// - Throws: ``DERError/Reason/missingElement(expected:)`` at the end,
    ///   ``DERError/Reason/unexpectedTag(expected:found:)`` for another tag.
    @inlinable
    @inline(__always)
    public mutating func readElement(_ tag: DERTag) throws(DERError) -> DERElement {
        guard cursor < end else { throw DERReader.missingElementError(tag, at: origin + cursor) }
        let (element, next) = try parseElement(at: cursor)
        guard element.tag == tag else { throw DERReader.tagMismatchError(expected: tag, found: element) }
        cursor = next
        return element
    }

    /// The error for a required element missing at `offset` (out of line: cold path).
    @usableFromInline
    @inline(never)
    internal static func missingElementError(_ tag: DERTag, at offset: Int) -> DERError {
        DERError(.missingElement(expected: tag), at: offset)
    }

    /// The error for an element whose tag is not the one required (out of line: cold path).
    @usableFromInline
    @inline(never)
    internal static func tagMismatchError(expected tag: DERTag, found element: DERElement) -> DERError {
        if element.tag.tagClass == tag.tagClass && element.tag.number == tag.number {
            // Same type, other form: DER forbids constructed strings (X.690 §10.2).
            return DERError(.wrongConstructedBit, at: element.offset)
        }
        return DERError(.unexpectedTag(expected: tag, found: element.tag), at: element.offset)
    }

    /// Reads the next element if it has `tag` (an OPTIONAL field); otherwise reads nothing.
    ///
    /// - Parameter tag: The tag of the optional field.
    /// - Returns: The element, or `nil` if the contents are exhausted or the next tag differs.
    /// - Throws: ``DERError`` if the next element's header is malformed.
    @inlinable
    public mutating func readOptionalElement(_ tag: DERTag) throws(DERError) -> DERElement? {
        guard cursor < end else { return nil }
        let (element, next) = try parseElement(at: cursor)
        guard element.tag == tag else { return nil }
        cursor = next
        return element
    }

    /// A reader over the contents of `element`, one level deeper.
    ///
    /// - Parameter element: An element read by this reader (or one nested in it).
    /// - Returns: A reader whose range is the element's contents.
    /// - Throws: ``DERError/Reason/nestingTooDeep`` past ``DERLimits/maximumDepth``.
    @inlinable
    public func contentsReader(of element: DERElement) throws(DERError) -> DERReader {
        guard depth < limits.maximumDepth else { throw DERError(.nestingTooDeep, at: element.offset) }
        precondition(element.contentRange.lowerBound >= origin && element.contentRange.upperBound <= origin + buffer.count,
                     "element does not belong to this reader's buffer")
        return DERReader(buffer: buffer, origin: origin, range: element.contentRange, depth: depth + 1, limits: limits)
    }

    /// Reads a constructed element with `tag` and returns a reader over its contents,
    /// one level deeper: the closure-free form of ``readConstructed(_:_:)``.
    ///
    /// Call ``expectEnd()`` on the returned reader after reading its fields, so that
    /// unread trailing contents are refused.
    ///
    /// ```swift
    /// var tbs = try certificate.enter(.sequence)
    /// let version = try tbs.readOptionalExplicit(0) { r throws(DERError) in try r.readInteger(Int.self) }
    /// ...
    /// try tbs.expectEnd()
    /// ```
    ///
    /// - Parameter tag: The required tag (its constructed bit must be set).
    /// - Returns: A reader over the contents.
    /// - Throws: As ``readElement(_:)``, or ``DERError/Reason/nestingTooDeep``.
    @inlinable
    @inline(__always)
    public mutating func enter(_ tag: DERTag) throws(DERError) -> DERReader {
        let element = try readElement(tag)
        return try contentsReader(of: element)
    }

    /// Reads a constructed element with `tag` if it comes next and returns a reader
    /// over its contents (an OPTIONAL field); call ``expectEnd()`` on it when done.
    ///
    /// - Parameter tag: The tag of the optional field.
    /// - Returns: A reader over the contents, or `nil` if the field is absent.
    /// - Throws: As ``readOptionalElement(_:)``, or ``DERError/Reason/nestingTooDeep``.
    @inlinable
    @inline(__always)
    public mutating func enterOptional(_ tag: DERTag) throws(DERError) -> DERReader? {
        guard let element = try readOptionalElement(tag) else { return nil }
        return try contentsReader(of: element)
    }

    /// Reads a SEQUENCE and returns a reader over its contents; see ``enter(_:)``.
    ///
    /// - Returns: A reader over the contents.
    /// - Throws: As ``enter(_:)``.
    @inlinable
    public mutating func enterSequence() throws(DERError) -> DERReader {
        try enter(.sequence)
    }

    /// Reads an EXPLICIT `[number]` and returns a reader over the tagged value; see ``enter(_:)``.
    ///
    /// - Parameter number: The context-specific tag number.
    /// - Returns: A reader over the tagged value.
    /// - Throws: As ``enter(_:)``.
    @inlinable
    public mutating func enterExplicit(_ number: UInt32) throws(DERError) -> DERReader {
        try enter(.contextSpecific(number, isConstructed: true))
    }

    /// Reads an EXPLICIT `[number]` if it comes next; see ``enterOptional(_:)``.
    ///
    /// - Parameter number: The context-specific tag number.
    /// - Returns: A reader over the tagged value, or `nil` if absent.
    /// - Throws: As ``enterOptional(_:)``.
    @inlinable
    public mutating func enterOptionalExplicit(_ number: UInt32) throws(DERError) -> DERReader? {
        try enterOptional(.contextSpecific(number, isConstructed: true))
    }

    /// Reads a constructed element with `tag`, hands its contents to `body`, and
    /// requires that `body` read all of them.
    ///
    /// `body` throws ``DERError`` or a higher layer's error that wraps it
    /// (``DERErrorWrapping``); errors of the header and of unread contents are
    /// then thrown wrapped in that type.
    ///
    /// - Parameters:
    ///   - tag: The required tag (its constructed bit must be set).
    ///   - body: Reads the contents.
    /// - Returns: What `body` returns.
    /// - Throws: ``DERError`` from the header, from `body`, or
    ///   ``DERError/Reason/trailingData`` if `body` leaves contents unread.
    @inlinable
    public mutating func readConstructed<T, Failure: DERErrorWrapping>(
        _ tag: DERTag,
        _ body: (inout DERReader) throws(Failure) -> T
    ) throws(Failure) -> T {
        var inner: DERReader
        do { inner = try enter(tag) } catch { throw Failure(error) }
        let result = try body(&inner)
        guard inner.isAtEnd else { throw Failure(DERError(.trailingData, at: inner.offset)) }
        return result
    }

    /// Reads a constructed element with `tag` if it comes next (an OPTIONAL field).
    ///
    /// - Parameters:
    ///   - tag: The tag of the optional field.
    ///   - body: Reads the contents.
    /// - Returns: What `body` returns, or `nil` if the field is absent.
    /// - Throws: As ``readConstructed(_:_:)``.
    @inlinable
    public mutating func readOptionalConstructed<T, Failure: DERErrorWrapping>(
        _ tag: DERTag,
        _ body: (inout DERReader) throws(Failure) -> T
    ) throws(Failure) -> T? {
        let optional: DERReader?
        do { optional = try enterOptional(tag) } catch { throw Failure(error) }
        guard var inner = optional else { return nil }
        let result = try body(&inner)
        guard inner.isAtEnd else { throw Failure(DERError(.trailingData, at: inner.offset)) }
        return result
    }

    /// Reads a SEQUENCE and its contents with `body`.
    ///
    /// - Parameter body: Reads the contents; must read all of them.
    /// - Returns: What `body` returns.
    /// - Throws: As ``readConstructed(_:_:)``.
    @inlinable
    public mutating func readSequence<T, Failure: DERErrorWrapping>(_ body: (inout DERReader) throws(Failure) -> T) throws(Failure) -> T {
        try readConstructed(.sequence, body)
    }

    /// Reads a SEQUENCE if one comes next (an OPTIONAL field).
    ///
    /// - Parameter body: Reads the contents; must read all of them.
    /// - Returns: What `body` returns, or `nil`.
    /// - Throws: As ``readConstructed(_:_:)``.
    @inlinable
    public mutating func readOptionalSequence<T, Failure: DERErrorWrapping>(_ body: (inout DERReader) throws(Failure) -> T) throws(Failure) -> T? {
        try readOptionalConstructed(.sequence, body)
    }

    /// Reads a SET (or SET OF) and its contents with `body`.
    ///
    /// DER's ordering rule for SET OF (X.690 §11.6) is not checked here; see
    /// ``readSetOf(_:)``.
    ///
    /// - Parameter body: Reads the contents; must read all of them.
    /// - Returns: What `body` returns.
    /// - Throws: As ``readConstructed(_:_:)``.
    @inlinable
    public mutating func readSet<T, Failure: DERErrorWrapping>(_ body: (inout DERReader) throws(Failure) -> T) throws(Failure) -> T {
        try readConstructed(.set, body)
    }

    /// Reads a SEQUENCE OF or SET OF with `tag`, calling `body` once per element.
    ///
    /// - Parameters:
    ///   - tag: The tag of the collection (``DERTag/sequence`` or ``DERTag/set``).
    ///   - body: Reads one element; called until the contents are exhausted.
    /// - Returns: The number of elements read.
    /// - Throws: As ``readConstructed(_:_:)``.
    @inlinable
    @discardableResult
    public mutating func readCollection(
        _ tag: DERTag,
        _ body: (inout DERReader) throws(DERError) -> Void
    ) throws(DERError) -> Int {
        try readConstructed(tag) { (inner) throws(DERError) -> Int in
            var count = 0
            while !inner.isAtEnd {
                let before = inner.cursor
                try body(&inner)
                // A body that reads nothing (an OPTIONAL read that did not match)
                // would loop forever: the element it skipped is not in the structure.
                guard inner.cursor > before else { throw DERError(.trailingData, at: inner.origin + before) }
                count += 1
            }
            return count
        }
    }

    /// Reads an EXPLICIT context-specific tag `[number]` and its contents with `body`.
    ///
    /// - Parameters:
    ///   - number: The context-specific tag number.
    ///   - body: Reads the tagged value; must read all of it.
    /// - Returns: What `body` returns.
    /// - Throws: As ``readConstructed(_:_:)``.
    @inlinable
    public mutating func readExplicit<T, Failure: DERErrorWrapping>(
        _ number: UInt32,
        _ body: (inout DERReader) throws(Failure) -> T
    ) throws(Failure) -> T {
        try readConstructed(.contextSpecific(number, isConstructed: true), body)
    }

    /// Reads an EXPLICIT `[number]` if it comes next (an OPTIONAL or DEFAULT field).
    ///
    /// - Parameters:
    ///   - number: The context-specific tag number.
    ///   - body: Reads the tagged value; must read all of it.
    /// - Returns: What `body` returns, or `nil` if the field is absent.
    /// - Throws: As ``readConstructed(_:_:)``.
    @inlinable
    public mutating func readOptionalExplicit<T, Failure: DERErrorWrapping>(
        _ number: UInt32,
        _ body: (inout DERReader) throws(Failure) -> T
    ) throws(Failure) -> T? {
        try readOptionalConstructed(.contextSpecific(number, isConstructed: true), body)
    }

    // MARK: - Bytes

    /// Calls `body` with the bytes in `range` (absolute offsets within this reader's buffer).
    ///
    /// - Parameters:
    ///   - range: An absolute range, typically an element's `contentRange`.
    ///   - body: Receives the bytes; the buffer must not escape.
    /// - Returns: What `body` returns.
    @inlinable
    public func withBytes<R, E: Error>(
        in range: Range<Int>,
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        precondition(range.lowerBound >= origin && range.upperBound <= origin + buffer.count,
                     "range does not belong to this reader's buffer")
        let slice = UnsafeBufferPointer(rebasing: buffer[(range.lowerBound - origin)..<(range.upperBound - origin)])
        return try body(slice)
    }

    /// A copy of the bytes in `range` (absolute offsets within this reader's buffer).
    ///
    /// - Parameter range: An absolute range, typically an element's `contentRange`.
    /// - Returns: The bytes.
    @inlinable
    public func bytes(in range: Range<Int>) -> [UInt8] {
        withBytes(in: range) { Array($0) }
    }

    /// Whether the bytes in `range` equal `other`, without copying.
    ///
    /// - Parameters:
    ///   - range: An absolute range within this reader's buffer.
    ///   - other: The bytes to compare with.
    /// - Returns: `true` if the lengths and bytes are equal.
    @inlinable
    public func bytes(in range: Range<Int>, equal other: some Collection<UInt8>) -> Bool {
        withBytes(in: range) { $0.elementsEqual(other) }
    }
}

extension DERElement {
    /// Parses the header of the element whose identifier octet is at `start`, with
    /// the reader's rules, for code that walks bytes it has already checked.
    ///
    /// - Parameters:
    ///   - bytes: The buffer; offsets in the result index it.
    ///   - start: The offset of the identifier octet.
    ///   - end: The offset the element must end by (at most `bytes.count`).
    /// - Returns: The element, or `nil` if `start..<end` is not a valid range of
    ///   `bytes` or the header there is malformed or runs past `end`.
    public init?(headerIn bytes: [UInt8], at start: Int, end: Int) {
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            try? DERReader.parseElement(in: buffer, at: start, end: end, origin: 0, maximumLength: .max)
        }
        guard let parsed else { return nil }
        self = parsed.element
    }
}

/// A forward-only cursor over DER bytes that reads one element at a time.
///
/// The reader is a small value holding a pointer into the caller's buffer, an
/// absolute position and an end. It never copies, allocates or reference-counts;
/// reading an element costs a few comparisons. It exists only inside the closure of
/// ``DER/read(_:limits:_:)-([UInt8],_,_)`` (or one of its siblings): do not store it or let it escape.
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
///
/// The reader's `@inlinable` API (here, in DERReaderClosures.swift, DER.swift,
/// DERHeader.swift, DERElement.swift, Strings.swift, OID.swift and
/// Primitives.swift) is measured, not assumed: without any of it, x509-parse
/// (Benchmarks/count-instructions.sh) costs 17,549 instructions per certificate
/// instead of 12,691; without only DERElement's and DERStringKind's, 12,821
/// instead of 12,694. DERTag's were dropped: they made no difference.
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

    // MARK: - Bytes

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

/// The location of one DER element (one TLV) inside the buffer it was read from.
///
/// An element is only offsets: it owns no bytes and costs no reference counting.
/// All offsets are absolute, in the indices of the caller's buffer, so that a model
/// can keep one reference to the bytes and slice them with these ranges later.
public struct DERElement: Sendable, Hashable {
    /// The element's tag.
    public var tag: DERTag
    /// The absolute offset of the element's first (identifier) octet.
    public var offset: Int
    /// The absolute range of the contents octets.
    public var contentRange: Range<Int>

    /// Creates an element description.
    ///
    /// - Parameters:
    ///   - tag: The element's tag.
    ///   - offset: The absolute offset of the identifier octet.
    ///   - contentRange: The absolute range of the contents octets.
    @inlinable
    public init(tag: DERTag, offset: Int, contentRange: Range<Int>) {
        self.tag = tag
        self.offset = offset
        self.contentRange = contentRange
    }

    /// The absolute range of the whole encoding: identifier, length and contents.
    @inlinable
    public var encodedRange: Range<Int> { offset..<contentRange.upperBound }

    /// The number of identifier and length octets.
    @inlinable
    public var headerLength: Int { contentRange.lowerBound - offset }

    /// The number of contents octets.
    @inlinable
    public var contentLength: Int { contentRange.count }
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
    ///
    /// `bytes` is borrowed: an initializer takes its arguments owned by default, so every
    /// call retained and released the caller's buffer (34 pairs a verdict, issue 35).
    public init?(headerIn bytes: borrowing [UInt8], at start: Int, end: Int) {
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            try? DERReader.parseElement(in: buffer, at: start, end: end, origin: 0, maximumLength: .max)
        }
        guard let parsed else { return nil }
        self = parsed.element
    }
}

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

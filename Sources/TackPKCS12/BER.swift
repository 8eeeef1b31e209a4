import TackDER

/// Limits for reading the BER of the PKCS #12 and CMS layers.
///
/// PKCS #12 is specified in BER (RFC 7292 §4), and real tools write its outer
/// layers with indefinite lengths and constructed OCTET STRINGs (Windows, Java,
/// NSS). The reader accepts those forms, bounded by these limits, so that no file
/// makes it do unbounded work.
public struct BERLimits: Sendable, Hashable {
    /// The deepest nesting of constructed elements in one document (the top-level
    /// element has depth 1). The default, 32, is far above the 8 levels of a PFX's
    /// deepest path (PFX, ContentInfo, [0], SafeContents, SafeBag, [0], bag value)
    /// and the same as TackDER's.
    public var maximumDepth: Int
    /// The most elements in one document. The default, 200,000, admits a file of
    /// thousands of bags; a hostile file of tiny elements stops here.
    public var maximumElementCount: Int
    /// The most primitive segments of one constructed OCTET STRING (X.690 §8.7.3).
    /// The default, 65,536, admits the 1,000-byte segments that CER and Java write
    /// for 64 MiB of content.
    public var maximumSegmentCount: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumDepth: The deepest nesting accepted.
    ///   - maximumElementCount: The most elements in a document.
    ///   - maximumSegmentCount: The most segments of a constructed string.
    public init(maximumDepth: Int = 32, maximumElementCount: Int = 200_000, maximumSegmentCount: Int = 65_536) {
        self.maximumDepth = maximumDepth
        self.maximumElementCount = maximumElementCount
        self.maximumSegmentCount = maximumSegmentCount
    }
}

/// One element of a ``BERDocument``.
struct BERNode: Sendable {
    /// The identifier.
    var tag: DERTag
    /// The absolute offset of the identifier octet.
    var offset: Int
    /// The absolute range of the contents (without the end-of-contents octets of
    /// an indefinite length).
    var contentRange: Range<Int>
    /// The absolute offset one past the element (after its end-of-contents octets).
    var end: Int
    /// Whether the length was indefinite.
    var isIndefinite: Bool
    /// The index one past the node's last descendant.
    var subtreeEnd: Int
}

/// A BER document read in one pass into a flat, pre-order array of elements.
///
/// Accepted beyond DER: indefinite lengths on constructed elements (X.690
/// §8.1.3.6), constructed strings (§8.7.3, read through ``octets(_:)``), and
/// long-form lengths that are not minimal (§8.1.3.5 allows them in BER).
/// Refused: indefinite lengths on primitive elements, lengths of more than four
/// octets, end-of-contents octets where no indefinite length is open, and
/// anything past the limits. ``isBER`` says whether any BER-only form was seen.
struct BERDocument: Sendable {
    /// The bytes (the whole buffer; nodes index it).
    let bytes: [UInt8]
    /// The elements, in pre-order.
    let nodes: [BERNode]
    /// Whether any form that DER forbids was seen.
    let isBER: Bool
    /// The limits the document was read with.
    let limits: BERLimits

    /// Reads exactly one element spanning `bytes`.
    init(_ bytes: [UInt8], limits: BERLimits) throws(BERError) {
        self.bytes = bytes
        self.limits = limits
        var nodes: [BERNode] = []
        var isBER = false
        // Open constructed elements: node index, definite end (nil: indefinite),
        // and the bound of their contents (an indefinite element's is its
        // nearest definite ancestor's end, or the input's).
        var stack: [(index: Int, end: Int?, bound: Int)] = []
        var position = 0
        let total = bytes.count
        while true {
            // Close the definite elements that end here.
            while let top = stack.last, let end = top.end, position == end {
                nodes[top.index].end = position
                nodes[top.index].subtreeEnd = nodes.count
                stack.removeLast()
            }
            if stack.isEmpty && !nodes.isEmpty { break }
            let bound = stack.last?.bound ?? total
            guard position < bound else {
                throw BERError(stack.last.map { $0.end == nil } == true ? .missingEndOfContents : .truncated, at: position)
            }
            // End-of-contents: 00 00 (X.690 §8.1.5), only inside an indefinite length.
            if bytes[position] == 0 {
                guard let top = stack.last, top.end == nil else { throw BERError(.unexpectedEndOfContents, at: position) }
                guard position + 1 < bound, bytes[position + 1] == 0 else {
                    throw BERError(position + 1 < bound ? .invalidEndOfContents : .truncated, at: position)
                }
                nodes[top.index].contentRange = nodes[top.index].contentRange.lowerBound..<position
                nodes[top.index].end = position + 2
                nodes[top.index].subtreeEnd = nodes.count
                stack.removeLast()
                position += 2
                continue
            }
            let header = try BERDocument.header(bytes, at: position, bound: bound)
            if header.isNonMinimal { isBER = true }
            guard stack.count < limits.maximumDepth else { throw BERError(.nestingTooDeep, at: position) }
            guard nodes.count < limits.maximumElementCount else { throw BERError(.tooManyElements, at: position) }
            let index = nodes.count
            if let length = header.length {
                let contentEnd = header.contentStart + length
                nodes.append(BERNode(tag: header.tag, offset: position, contentRange: header.contentStart..<contentEnd,
                                     end: contentEnd, isIndefinite: false, subtreeEnd: index + 1))
                if header.tag.isConstructed {
                    if BERDocument.isStringType(header.tag) { isBER = true }
                    stack.append((index, contentEnd, contentEnd))
                    position = header.contentStart
                } else {
                    position = contentEnd
                }
            } else {
                guard header.tag.isConstructed else { throw BERError(.indefinitePrimitive, at: position) }
                isBER = true
                nodes.append(BERNode(tag: header.tag, offset: position, contentRange: header.contentStart..<header.contentStart,
                                     end: header.contentStart, isIndefinite: true, subtreeEnd: index + 1))
                stack.append((index, nil, bound))
                position = header.contentStart
            }
        }
        guard position == total else { throw BERError(.trailingData, at: position) }
        self.nodes = nodes
        self.isBER = isBER
    }

    /// An identifier and length (X.690 §8.1.2, §8.1.3).
    private static func header(
        _ bytes: [UInt8], at start: Int, bound: Int
    ) throws(BERError) -> (tag: DERTag, contentStart: Int, length: Int?, isNonMinimal: Bool) {
        var position = start
        guard position < bound else { throw BERError(.truncated, at: start) }
        let first = bytes[position]
        position += 1
        let tagClass = DERTag.TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            number = 0
            var octets = 0
            while true {
                guard position < bound else { throw BERError(.truncated, at: start) }
                let byte = bytes[position]
                position += 1
                octets += 1
                if octets == 1 && byte == 0x80 { throw BERError(.invalidTag, at: start) }
                guard octets <= 4 else { throw BERError(.invalidTag, at: start) }
                number = (number << 7) | UInt32(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            if number < 31 { throw BERError(.invalidTag, at: start) }
        }
        let tag = DERTag(tagClass, isConstructed: constructed, number: number)
        guard position < bound else { throw BERError(.truncated, at: start) }
        let lengthOctet = bytes[position]
        position += 1
        if lengthOctet < 0x80 {
            let end = position + Int(lengthOctet)
            guard end <= bound else { throw BERError(.lengthExceedsInput, at: start) }
            return (tag, position, Int(lengthOctet), false)
        }
        if lengthOctet == 0x80 { return (tag, position, nil, false) }
        let count = Int(lengthOctet & 0x7F)
        guard count <= 4 else { throw BERError(.unsupportedLength, at: start) }
        guard position + count <= bound else { throw BERError(.truncated, at: start) }
        var length = 0
        for _ in 0..<count {
            length = (length << 8) | Int(bytes[position])
            position += 1
        }
        // At most 4 octets: below 2³², no overflow on 64-bit Int; on 32-bit
        // targets the comparison below keeps the addition in range.
        guard length >= 0, length <= bound - position else { throw BERError(.lengthExceedsInput, at: start) }
        let minimalCount = length < 0x80 ? 0 : (Int.bitWidth - length.leadingZeroBitCount + 7) / 8
        return (tag, position, length, count != minimalCount)
    }

    /// Whether `tag` is a universal string type that BER may encode constructed.
    static func isStringType(_ tag: DERTag) -> Bool {
        guard tag.tagClass == .universal else { return false }
        switch tag.number {
        case 3, 4, 12, 18, 19, 20, 22, 26, 28, 30: return true
        default: return false
        }
    }

    // MARK: Walking

    /// The root node's index.
    var root: Int { 0 }

    /// The indices of `index`'s children.
    func children(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = index + 1
        let end = nodes[index].subtreeEnd
        while child < end {
            result.append(child)
            child = nodes[child].subtreeEnd
        }
        return result
    }

    /// The element's whole encoding (for a definite-length element, its exact bytes).
    func encoded(_ index: Int) -> ArraySlice<UInt8> {
        bytes[nodes[index].offset..<nodes[index].end]
    }

    /// The contents of a string element, primitive or constructed: a constructed
    /// string's primitive segments (of the same type, X.690 §8.7.3.2) concatenated.
    ///
    /// - Throws: ``BERError/Reason/invalidSegment`` for a segment of another type,
    ///   ``BERError/Reason/tooManySegments`` past the limit.
    func octets(_ index: Int) throws(BERError) -> [UInt8] {
        let node = nodes[index]
        guard node.tag.isConstructed else { return Array(bytes[node.contentRange]) }
        var result: [UInt8] = []
        var segments = 0
        var child = index + 1
        while child < node.subtreeEnd {
            let segment = nodes[child]
            // An IMPLICIT [n] OCTET STRING's segments are OCTET STRINGs.
            let expected: UInt32 = node.tag.tagClass == .universal ? node.tag.number : 4
            guard segment.tag.tagClass == .universal, segment.tag.number == expected else {
                throw BERError(.invalidSegment, at: segment.offset)
            }
            if !segment.tag.isConstructed {
                segments += 1
                guard segments <= limits.maximumSegmentCount else { throw BERError(.tooManySegments, at: segment.offset) }
                result.append(contentsOf: bytes[segment.contentRange])
            }
            child += 1
        }
        return result
    }
}

/// Why the BER of a PKCS #12 or CMS layer could not be read.
public struct BERError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule the input broke.
    public var reason: Reason
    /// The absolute offset, in the layer's bytes, of the element that broke it.
    public var offset: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: The rule.
    ///   - offset: The offset.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The rules of the bounded BER reader.
    ///
    /// Each raw value is the reason's stable snake_case code.
    public enum Reason: String, Sendable, Hashable, CustomStringConvertible {
        /// The input ends inside an element.
        case truncated
        /// A definite length runs past the enclosing element or the input.
        case lengthExceedsInput = "length_exceeds_input"
        /// A length of more than four octets, or the reserved 0xFF (X.690 §8.1.3.5).
        case unsupportedLength = "unsupported_length"
        /// A high tag number with a leading 0x80 octet, below 31, or above 28 bits.
        case invalidTag = "invalid_tag"
        /// An indefinite length on a primitive element (X.690 §8.1.3.2).
        case indefinitePrimitive = "indefinite_primitive"
        /// An indefinite-length element without its end-of-contents octets.
        case missingEndOfContents = "missing_end_of_contents"
        /// End-of-contents octets where no indefinite length is open.
        case unexpectedEndOfContents = "unexpected_end_of_contents"
        /// A 00 octet followed by a non-zero length where end-of-contents was expected.
        case invalidEndOfContents = "invalid_end_of_contents"
        /// Bytes after the document's one element.
        case trailingData = "trailing_data"
        /// Deeper than ``BERLimits/maximumDepth``.
        case nestingTooDeep = "nesting_too_deep"
        /// More than ``BERLimits/maximumElementCount`` elements.
        case tooManyElements = "too_many_elements"
        /// More than ``BERLimits/maximumSegmentCount`` segments in one string.
        case tooManySegments = "too_many_segments"
        /// A segment of a constructed string that is not a string of its type.
        case invalidSegment = "invalid_segment"

        /// What is wrong, as a phrase.
        public var description: String {
            switch self {
            case .truncated: "the input ends inside an element"
            case .lengthExceedsInput: "a length runs past the enclosing element"
            case .unsupportedLength: "a length of more than four octets"
            case .invalidTag: "a malformed tag"
            case .indefinitePrimitive: "an indefinite length on a primitive element"
            case .missingEndOfContents: "an indefinite-length element without its end-of-contents octets"
            case .unexpectedEndOfContents: "end-of-contents octets where no indefinite length is open"
            case .invalidEndOfContents: "malformed end-of-contents octets"
            case .trailingData: "bytes after the end of the document"
            case .nestingTooDeep: "nested too deep"
            case .tooManyElements: "too many elements"
            case .tooManySegments: "too many segments in one string"
            case .invalidSegment: "a segment of a constructed string that is not a string of its type"
            }
        }
    }

    /// `ber.` and the reason's code, for example `ber.missing_end_of_contents`.
    public var code: String { "ber." + reason.rawValue }

    /// The reason and offset.
    public var description: String { "BER error at byte \(offset): \(reason)" }
}

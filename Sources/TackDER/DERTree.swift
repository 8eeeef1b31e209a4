/// One element of a ``DERTree``: where it is and how deep.
public struct DERNode: Sendable, Hashable {
    /// The element (tag and absolute ranges in ``DERTree/bytes``).
    public var element: DERElement
    /// The nesting depth: 0 for the top-level element.
    public var depth: Int

    /// Creates a node.
    ///
    /// - Parameters:
    ///   - element: The element.
    ///   - depth: Its nesting depth.
    public init(element: DERElement, depth: Int) {
        self.element = element
        self.depth = depth
    }
}

/// A generic, schema-less view of a DER document: every element in pre-order.
///
/// Use it to inspect, dump or fuzz arbitrary DER. Parsing enters every constructed
/// element and, by default, checks the contents of every universal primitive type
/// (BOOLEAN, INTEGER, BIT STRING, NULL, OBJECT IDENTIFIER, ENUMERATED, the times and
/// the string types) with the same rules as the typed reads. ``encoded()`` rebuilds
/// the document from the nodes with ``DERWriter``, so `DERTree.parse(x).encoded() == x`
/// checks that the reader accepts only canonical DER.
public struct DERTree: Sendable {
    /// The document's bytes.
    public let bytes: [UInt8]
    /// Every element, in pre-order (a parent before its children).
    public let nodes: [DERNode]

    /// Parses one top-level element and everything inside it.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - limits: Depth and size limits.
    ///   - checksPrimitives: Whether to check universal primitive contents (default `true`).
    /// - Returns: The tree.
    /// - Throws: The first ``DERError`` found, with its offset.
    public static func parse(_ bytes: [UInt8], limits: DERLimits = .default,
                             checksPrimitives: Bool = true) throws(DERError) -> DERTree {
        var nodes: [DERNode] = []
        try DER.walk(bytes, limits: limits, checksPrimitives: checksPrimitives) { element, depth in
            nodes.append(DERNode(element: element, depth: depth))
        }
        return DERTree(bytes: bytes, nodes: nodes)
    }

    private init(bytes: [UInt8], nodes: [DERNode]) {
        self.bytes = bytes
        self.nodes = nodes
    }

    /// Re-encodes the document from its nodes: tags and lengths are written anew by
    /// ``DERWriter``; primitive contents are copied.
    ///
    /// - Returns: The encoding, equal to ``bytes`` for any document the parser accepts.
    public func encoded() -> [UInt8] {
        var writer = DERWriter(capacity: bytes.count)
        var index = 0
        // Recursion depth is bounded by DERLimits.maximumDepth, which parsing enforced.
        while index < nodes.count { index = encode(at: index, into: &writer) }
        return writer.bytes
    }

    /// Writes node `index` and its descendants; returns the index after them.
    private func encode(at index: Int, into writer: inout DERWriter) -> Int {
        let node = nodes[index]
        guard node.element.tag.isConstructed else {
            writer.writeElement(node.element.tag, contents: bytes[node.element.contentRange])
            return index + 1
        }
        var next = index + 1
        writer.writeConstructed(node.element.tag) { (inner: inout DERWriter) in
            while next < nodes.count && nodes[next].depth > node.depth {
                next = encode(at: next, into: &inner)
            }
        }
        return next
    }
}

extension DER {
    /// Walks one top-level element and every element inside it, in pre-order, without
    /// allocating: the allocation-free core of ``DERTree``.
    ///
    /// The walk is iterative, so its stack use does not depend on the input.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - limits: Depth and size limits.
    ///   - checksPrimitives: Whether to check universal primitive contents.
    ///   - visit: Called with each element and its depth (0 for the top level).
    /// - Returns: The number of elements visited.
    /// - Throws: The first ``DERError`` found.
    @discardableResult
    public static func walk(
        _ bytes: [UInt8],
        limits: DERLimits = .default,
        checksPrimitives: Bool = true,
        _ visit: (DERElement, Int) -> Void
    ) throws(DERError) -> Int {
        try bytes.withUnsafeBufferPointer { (buffer) throws(DERError) -> Int in
            try walk(in: buffer, limits: limits, checksPrimitives: checksPrimitives, visit)
        }
    }

    /// The walk over `buffer`: the body of both public forms of `walk`.
    internal static func walk(
        in buffer: UnsafeBufferPointer<UInt8>,
        limits: DERLimits,
        checksPrimitives: Bool,
        _ visit: (DERElement, Int) -> Void
    ) throws(DERError) -> Int {
        // A pre-order walk over contiguous bytes needs only a cursor and the end
        // offsets of the open constructed elements: ends[d] bounds depth d. The
        // stack grows to at most limits.maximumDepth + 1 entries.
        var ends: [Int] = [buffer.count]
        ends.reserveCapacity(16)
        var cursor = 0
        var count = 0
        let maximumLength = limits.maximumElementLength
        let checker = DERReader(buffer: buffer, origin: 0, range: 0..<buffer.count, depth: 0, limits: limits)
        while true {
            var depth = ends.count - 1
            while depth > 0 && cursor >= ends[depth] {
                ends.removeLast()
                depth -= 1
            }
            if depth == 0 && count > 0 {
                // The top-level element is complete; anything after it is trailing.
                guard cursor >= buffer.count else { throw DERError(.trailingData, at: cursor) }
                break
            }
            let (element, next) = try DERReader.parseElement(
                in: buffer, at: cursor, end: ends[depth], origin: 0, maximumLength: maximumLength)
            count += 1
            visit(element, depth)
            let tag = element.tag
            if tag.isConstructed {
                if tag.tagClass == .universal && tag.number != 16 && tag.number != 17 {
                    // Constructed strings and other constructed universal types
                    // are BER-only (X.690 §10.2).
                    throw DERError(.wrongConstructedBit, at: element.offset)
                }
                guard depth < limits.maximumDepth else { throw DERError(.nestingTooDeep, at: element.offset) }
                ends.append(next)
                cursor = element.contentRange.lowerBound
            } else {
                if checksPrimitives && tag.tagClass == .universal {
                    try checker.checkPrimitive(element)
                }
                cursor = next
            }
        }
        guard count > 0 else { throw DERError(.truncated, at: 0) }
        return count
    }
}

extension DERReader {
    /// Checks the contents of a universal primitive element with the typed-read rules.
    ///
    /// - Parameter element: A primitive element read by this reader.
    /// - Throws: The rule its contents break; SEQUENCE or SET without the constructed
    ///   bit is ``DERError/Reason/wrongConstructedBit``.
    public func checkPrimitive(_ element: DERElement) throws(DERError) {
        let tag = element.tag
        switch tag.number {
        case 1: _ = try booleanValue(of: element)
        case 2, 10: try checkInteger(element)
        case 3: _ = try bitStringValue(of: element)
        case 5: guard element.contentLength == 0 else { throw DERError(.invalidNull, at: element.offset) }
        case 6:
            try withBytes(in: element.contentRange) { (contents) throws(DERError) in
                if let reason = OID.validate(contents) { throw DERError(reason, at: element.offset) }
            }
        case 16, 17: throw DERError(.wrongConstructedBit, at: element.offset)
        case 23, 24:
            _ = try withBytes(in: element.contentRange) { (contents) throws(DERError) -> DERTime in
                try DERTime.parse(contents, isUTCTime: tag.number == 23, offset: element.offset)
            }
        default:
            if let kind = DERStringKind(tag: tag) {
                try withBytes(in: element.contentRange) { (contents) throws(DERError) in
                    try kind.validate(contents, offset: element.offset)
                }
            }
        }
    }
}

// TackDER's low-level layer: every public entry point of TackDER that takes or
// lends an `Unsafe…Pointer`, in one place (with DERUnsafeStrings.swift). They
// exist for speed: a DERReader views the caller's bytes without copying, and
// the X.509 decoders above it check contents in place. Each pointer is valid
// only inside the closure that receives it and must not escape.
//
// TackX509, TackSignature and TackTrust use this layer internally and never
// pass a pointer through their own public API (scripts/check-public-api.sh).
// The catalog's article (TackDER.docc, "The low-level layer") documents it.

extension DER {
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

    /// Walks raw memory; see the array form of `walk`.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - limits: Depth and size limits.
    ///   - checksPrimitives: Whether to check universal primitive contents.
    ///   - visit: Called with each element and its depth.
    /// - Returns: The number of elements visited.
    /// - Throws: The first ``DERError`` found.
    @discardableResult
    public static func walk(
        _ bytes: UnsafeRawBufferPointer,
        limits: DERLimits = .default,
        checksPrimitives: Bool = true,
        _ visit: (DERElement, Int) -> Void
    ) throws(DERError) -> Int {
        try walk(in: bytes.assumingMemoryBound(to: UInt8.self), limits: limits,
                 checksPrimitives: checksPrimitives, visit)
    }
}

extension DERReader {
    /// Calls `body` with the bytes in `range` (absolute offsets within this reader's buffer).
    ///
    /// - Parameters:
    ///   - range: An absolute range, typically an element's `contentRange`.
    ///   - body: Receives the bytes; the buffer must not escape.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
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
}

extension OID {
    /// Calls `body` with the contents octets.
    ///
    /// - Parameter body: Receives the octets; the buffer must not escape.
    /// - Returns: What `body` returns.
    @inlinable
    public func withContents<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var words = self.words
        let count = Int(self.count)
        return withUnsafeBytes(of: &words) { raw in
            body(UnsafeBufferPointer(rebasing: raw.assumingMemoryBound(to: UInt8.self)[0..<count]))
        }
    }
}

extension DERElement {
    /// Parses the header of the element at index `start` of `buffer`, which must
    /// end by index `end`, with TackDER's one header parser (the one every
    /// ``DERReader`` read uses); offsets in the result index `buffer`.
    ///
    /// For code that walks bytes in place, such as TackX509's fast check of
    /// distinguished names.
    ///
    /// - Parameters:
    ///   - buffer: The bytes.
    ///   - start: The index of the identifier octet.
    ///   - end: The index the element must end by (at most `buffer.count`).
    ///   - maximumLength: The longest contents accepted (``DERLimits/maximumElementLength``).
    /// - Returns: The element and the index just past it.
    /// - Throws: ``DERError`` for a malformed header, contents past `end`, or
    ///   ``DERError/Reason/lengthExceedsInput`` if `start..<end` is not within `buffer`.
    @inlinable
    @inline(__always)
    public static func parseHeader(
        in buffer: UnsafeBufferPointer<UInt8>, at start: Int, end: Int,
        maximumLength: Int = DERLimits.default.maximumElementLength
    ) throws(DERError) -> (element: DERElement, next: Int) {
        guard start >= 0, start <= end, end <= buffer.count else { throw DERError(.lengthExceedsInput, at: start) }
        return try DERReader.parseElement(in: buffer, at: start, end: end, origin: 0, maximumLength: maximumLength)
    }
}

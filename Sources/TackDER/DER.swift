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
}

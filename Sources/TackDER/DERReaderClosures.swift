// The closure forms of DERReader: read a constructed element, hand its contents
// to a closure, and require that the closure read all of them (the pattern of
// swift-asn1's DER.sequence). The closure-free `enter…` forms are in DERReader.swift.

extension DERReader {
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
    /// DER's ordering rule for SET OF (X.690 §11.6) is not checked here: a caller
    /// that needs it compares the elements it reads.
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
}

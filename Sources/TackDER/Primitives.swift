/// A BIT STRING's location and unused-bit count (X.690 §8.6).
public struct DERBitString: Sendable, Hashable {
    /// The absolute range of the octets that carry the bits (after the unused-bits octet).
    public var bytesRange: Range<Int>
    /// The number of unused bits in the last octet, 0...7 (always 0 when empty).
    public var unusedBitCount: Int

    /// Creates a description of a BIT STRING.
    ///
    /// - Parameters:
    ///   - bytesRange: The absolute range of the bit-carrying octets.
    ///   - unusedBitCount: The unused bits in the last octet.
    public init(bytesRange: Range<Int>, unusedBitCount: Int) {
        self.bytesRange = bytesRange
        self.unusedBitCount = unusedBitCount
    }

    /// The number of bits in the string.
    public var bitCount: Int { bytesRange.count * 8 - unusedBitCount }
}

extension DERReader {
    // MARK: BOOLEAN, NULL

    /// Reads a BOOLEAN, whose contents must be exactly 0x00 or 0xFF (X.690 §11.1).
    ///
    /// - Parameter tag: The tag to expect (IMPLICIT tagging); ``DERTag/boolean`` by default.
    /// - Returns: The value.
    /// - Throws: ``DERError/Reason/invalidBoolean`` or a structural ``DERError``.
    public mutating func readBoolean(tag: DERTag = .boolean) throws(DERError) -> Bool {
        let element = try readElement(tag)
        return try booleanValue(of: element)
    }

    /// Reads a BOOLEAN if one comes next with `tag`.
    ///
    /// - Parameter tag: The tag of the optional field.
    /// - Returns: The value, or `nil` if absent.
    /// - Throws: ``DERError/Reason/invalidBoolean`` or a structural ``DERError``.
    public mutating func readOptionalBoolean(tag: DERTag = .boolean) throws(DERError) -> Bool? {
        guard let element = try readOptionalElement(tag) else { return nil }
        return try booleanValue(of: element)
    }

    /// Reads a `BOOLEAN DEFAULT defaultValue` field: absent means the default, and
    /// an encoded value equal to the default is an error (X.690 §11.5).
    ///
    /// - Parameters:
    ///   - defaultValue: The DEFAULT value of the field.
    ///   - tag: The tag of the field.
    /// - Returns: The value.
    /// - Throws: ``DERError/Reason/defaultValueEncoded``, ``DERError/Reason/invalidBoolean``.
    public mutating func readBoolean(default defaultValue: Bool, tag: DERTag = .boolean) throws(DERError) -> Bool {
        guard let element = try readOptionalElement(tag) else { return defaultValue }
        let value = try booleanValue(of: element)
        guard value != defaultValue else { throw DERError(.defaultValueEncoded, at: element.offset) }
        return value
    }

    internal func booleanValue(of element: DERElement) throws(DERError) -> Bool {
        guard element.contentLength == 1 else { throw DERError(.invalidBoolean, at: element.offset) }
        let byte = buffer[element.contentRange.lowerBound - origin]
        switch byte {
        case 0x00: return false
        case 0xFF: return true
        default: throw DERError(.invalidBoolean, at: element.offset)
        }
    }

    /// Reads a NULL, whose contents must be empty (X.690 §8.8.2).
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/null`` by default.
    /// - Throws: ``DERError/Reason/invalidNull`` or a structural ``DERError``.
    public mutating func readNull(tag: DERTag = .null) throws(DERError) {
        let element = try readElement(tag)
        guard element.contentLength == 0 else { throw DERError(.invalidNull, at: element.offset) }
    }

    /// Reads a NULL if one comes next.
    ///
    /// - Parameter tag: The tag of the optional field.
    /// - Returns: Whether a NULL was present.
    /// - Throws: ``DERError/Reason/invalidNull`` or a structural ``DERError``.
    public mutating func readOptionalNull(tag: DERTag = .null) throws(DERError) -> Bool {
        guard let element = try readOptionalElement(tag) else { return false }
        guard element.contentLength == 0 else { throw DERError(.invalidNull, at: element.offset) }
        return true
    }

    // MARK: INTEGER

    /// Reads an INTEGER and checks that it is minimally encoded (X.690 §8.3.2).
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/integer`` by default.
    /// - Returns: The element; its contents are the two's-complement value.
    /// - Throws: ``DERError/Reason/emptyInteger``, ``DERError/Reason/nonMinimalInteger``,
    ///   or a structural ``DERError``.
    public mutating func readIntegerElement(tag: DERTag = .integer) throws(DERError) -> DERElement {
        let element = try readElement(tag)
        try checkInteger(element)
        return element
    }

    /// Checks an INTEGER element's contents (non-empty, minimal).
    ///
    /// - Parameter element: An element read by this reader.
    /// - Throws: ``DERError/Reason/emptyInteger`` or ``DERError/Reason/nonMinimalInteger``.
    internal func checkInteger(_ element: DERElement) throws(DERError) {
        let start = element.contentRange.lowerBound - origin
        let count = element.contentLength
        guard count > 0 else { throw DERError(.emptyInteger, at: element.offset) }
        if count > 1 {
            let first = buffer[start]
            let secondHigh = buffer[start + 1] & 0x80
            if (first == 0x00 && secondHigh == 0) || (first == 0xFF && secondHigh != 0) {
                throw DERError(.nonMinimalInteger, at: element.offset)
            }
        }
    }

    /// Whether an INTEGER element (already checked) is negative.
    ///
    /// - Parameter element: An INTEGER element with at least one contents octet.
    /// - Returns: `true` if the sign bit is set.
    @usableFromInline
    internal func isNegativeInteger(_ element: DERElement) -> Bool {
        guard element.contentLength > 0 else { return false }
        return buffer[element.contentRange.lowerBound - origin] & 0x80 != 0
    }

    /// Reads an INTEGER into a Swift integer type, reporting overflow instead of trapping.
    ///
    /// - Parameters:
    ///   - type: The integer type, signed or unsigned.
    ///   - tag: The tag to expect; ``DERTag/integer`` by default.
    /// - Returns: The value.
    /// - Throws: ``DERError/Reason/integerOverflow`` if it does not fit,
    ///   ``DERError/Reason/negativeInteger`` for a negative value into an unsigned type,
    ///   or the errors of ``readIntegerElement(tag:)``.
    @inlinable
    public mutating func readInteger<T: FixedWidthInteger>(_ type: T.Type, tag: DERTag = .integer) throws(DERError) -> T {
        let element = try readIntegerElement(tag: tag)
        return try integerValue(of: element, as: T.self)
    }

    /// Converts a checked INTEGER element to a Swift integer type.
    ///
    /// - Parameters:
    ///   - element: A minimal INTEGER element read by this reader.
    ///   - type: The integer type.
    /// - Returns: The value.
    /// - Throws: ``DERError/Reason/integerOverflow`` or ``DERError/Reason/negativeInteger``.
    @inlinable
    internal func integerValue<T: FixedWidthInteger>(of element: DERElement, as type: T.Type) throws(DERError) -> T {
        let negative = isNegativeInteger(element)
        if negative && !T.isSigned { throw DERError(.negativeInteger, at: element.offset) }
        // A minimal encoding of a value that fits T has at most bitWidth/8 octets, plus
        // one 0x00 sign octet for unsigned types (255 is 00 FF).
        let maximumLength = T.bitWidth / 8 + (T.isSigned ? 0 : 1)
        guard element.contentLength <= maximumLength else { throw DERError(.integerOverflow, at: element.offset) }
        // Accumulate in 64-bit two's complement (contents are at most 8 octets here
        // for types up to 64 bits; wider types are handled octet by octet below).
        if T.bitWidth <= 64 {
            var value: UInt64 = negative ? ~0 : 0
            var index = element.contentRange.lowerBound - origin
            let end = element.contentRange.upperBound - origin
            while index < end {
                value = (value << 8) | UInt64(buffer[index])
                index += 1
            }
            if T.isSigned {
                guard let result = T(exactly: Int64(bitPattern: value)) else {
                    throw DERError(.integerOverflow, at: element.offset)
                }
                return result
            } else {
                guard let result = T(exactly: value) else { throw DERError(.integerOverflow, at: element.offset) }
                return result
            }
        }
        var value: T = negative ? ~T.zero : T.zero
        var index = element.contentRange.lowerBound - origin
        let end = element.contentRange.upperBound - origin
        while index < end {
            value = (value << 8) | T(truncatingIfNeeded: buffer[index])
            index += 1
        }
        return value
    }

    /// Reads a non-negative INTEGER and returns the range of its magnitude octets:
    /// big-endian, without the 0x00 sign octet (zero is the single octet 0x00).
    ///
    /// This is how RSA moduli and exponents are read without copying.
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/integer`` by default.
    /// - Returns: The absolute range of the magnitude octets.
    /// - Throws: ``DERError/Reason/negativeInteger`` or the errors of
    ///   ``readIntegerElement(tag:)``.
    public mutating func readUnsignedIntegerMagnitude(tag: DERTag = .integer) throws(DERError) -> Range<Int> {
        let element = try readIntegerElement(tag: tag)
        guard !isNegativeInteger(element) else { throw DERError(.negativeInteger, at: element.offset) }
        let range = element.contentRange
        if range.count > 1 && buffer[range.lowerBound - origin] == 0 {
            return (range.lowerBound + 1)..<range.upperBound
        }
        return range
    }

    // MARK: BIT STRING, OCTET STRING

    /// Reads a BIT STRING (X.690 §8.6, §11.2): the first contents octet is the
    /// number of unused bits (0...7, 0 if no other octets), and those bits are zero.
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/bitString`` by default.
    /// - Returns: The bit-carrying range and unused-bit count.
    /// - Throws: ``DERError/Reason/invalidBitStringUnusedBits``,
    ///   ``DERError/Reason/nonZeroBitStringPadding``, or a structural ``DERError``.
    public mutating func readBitString(tag: DERTag = .bitString) throws(DERError) -> DERBitString {
        let element = try readElement(tag)
        return try bitStringValue(of: element)
    }

    /// Checks a BIT STRING element's contents (X.690 §8.6, §11.2.1).
    ///
    /// - Parameter element: An element read by this reader.
    /// - Returns: The bit-carrying range and unused-bit count.
    /// - Throws: ``DERError/Reason/invalidBitStringUnusedBits`` or
    ///   ``DERError/Reason/nonZeroBitStringPadding``.
    public func bitStringValue(of element: DERElement) throws(DERError) -> DERBitString {
        let start = element.contentRange.lowerBound - origin
        guard element.contentLength >= 1 else { throw DERError(.invalidBitStringUnusedBits, at: element.offset) }
        let unused = Int(buffer[start])
        guard unused <= 7 else { throw DERError(.invalidBitStringUnusedBits, at: element.offset) }
        if element.contentLength == 1 {
            guard unused == 0 else { throw DERError(.invalidBitStringUnusedBits, at: element.offset) }
        } else if unused > 0 {
            let last = buffer[element.contentRange.upperBound - origin - 1]
            let mask = UInt8(truncatingIfNeeded: (1 << unused) - 1)
            guard last & mask == 0 else { throw DERError(.nonZeroBitStringPadding, at: element.offset) }
        }
        return DERBitString(bytesRange: (element.contentRange.lowerBound + 1)..<element.contentRange.upperBound,
                            unusedBitCount: unused)
    }

    /// Reads an OCTET STRING.
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/octetString`` by default.
    /// - Returns: The absolute range of its contents.
    /// - Throws: A structural ``DERError`` (a constructed OCTET STRING is
    ///   ``DERError/Reason/wrongConstructedBit``).
    public mutating func readOctetString(tag: DERTag = .octetString) throws(DERError) -> Range<Int> {
        try readElement(tag).contentRange
    }

    // MARK: OBJECT IDENTIFIER

    /// Reads an OBJECT IDENTIFIER and checks its encoding (X.690 §8.19).
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/objectIdentifier`` by default.
    /// - Returns: The identifier (stored inline: at most ``OID/maximumLength`` octets).
    /// - Throws: ``DERError/Reason/emptyObjectIdentifier``,
    ///   ``DERError/Reason/nonMinimalObjectIdentifierArc``,
    ///   ``DERError/Reason/truncatedObjectIdentifier``,
    ///   ``DERError/Reason/objectIdentifierArcTooLong``,
    ///   ``DERError/Reason/objectIdentifierTooLong``, or a structural ``DERError``.
    public mutating func readObjectIdentifier(tag: DERTag = .objectIdentifier) throws(DERError) -> OID {
        let element = try readElement(tag)
        let start = element.contentRange.lowerBound - origin
        let count = element.contentLength
        // Most identifiers sit well inside the input: check and copy them by words.
        if count >= 1 && count <= 32 && buffer.count - start >= 32, let base = buffer.baseAddress,
           let oid = OID.readFast(base + start, count: count) {
            return oid
        }
        let contents = UnsafeBufferPointer(rebasing: buffer[start..<(start + count)])
        if let reason = OID.validate(contents) { throw DERError(reason, at: element.offset) }
        return OID(uncheckedContents: contents)
    }
}

/// Builds DER, canonical by construction.
///
/// Lengths are always minimal, INTEGERs minimal, BOOLEANs 0x00/0xFF, BIT STRING
/// padding zero, times in the RFC 5280 forms, and SET OF sorted (X.690 §11.6) by
/// ``writeSetOf(_:)``. Constructed elements are written by a closure; the length is
/// filled in when the closure returns.
///
/// ```swift
/// var writer = DERWriter()
/// writer.writeSequence { spki in
///     spki.writeSequence { algorithm in
///         algorithm.writeObjectIdentifier(OID(1, 2, 840, 113549, 1, 1, 1))
///         algorithm.writeNull()
///     }
///     spki.writeBitString(bytes: publicKey)
/// }
/// let der = writer.bytes
/// ```
public struct DERWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    ///
    /// - Parameter capacity: Bytes to reserve up front.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    /// Appends identifier octets for `tag` (X.690 §8.1.2).
    internal mutating func appendTag(_ tag: DERTag) {
        let leading = (tag.tagClass.rawValue << 6) | (tag.isConstructed ? 0x20 : 0)
        if let single = tag.singleOctet {
            bytes.append(single)
            return
        }
        bytes.append(leading | 0x1F)
        let number = UInt64(min(tag.number, DERTag.maximumNumber))
        var septets: [UInt8] = []
        OID.appendBase128(number, to: &septets)
        bytes.append(contentsOf: septets)
    }

    /// The minimal length octets for `length` (X.690 §10.1).
    internal static func lengthOctets(_ length: Int) -> [UInt8] {
        if length < 0x80 { return [UInt8(truncatingIfNeeded: length)] }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
        return [0x80 | UInt8(truncatingIfNeeded: octets.count)] + octets.reversed()
    }

    /// Appends an element with `tag` and the given contents octets.
    ///
    /// - Parameters:
    ///   - tag: The tag.
    ///   - contents: The contents octets, written as they are.
    public mutating func writeElement(_ tag: DERTag, contents: some Collection<UInt8>) {
        appendTag(tag)
        bytes.append(contentsOf: DERWriter.lengthOctets(contents.count))
        bytes.append(contentsOf: contents)
    }

    /// Appends an already-encoded element (for example a SubjectPublicKeyInfo copied
    /// from a certificate) as it is.
    ///
    /// - Parameter encoded: A complete TLV encoding.
    public mutating func writeEncoded(_ encoded: some Collection<UInt8>) {
        bytes.append(contentsOf: encoded)
    }

    /// Appends a constructed element with `tag` whose contents `body` writes.
    ///
    /// - Parameters:
    ///   - tag: The tag; its constructed bit should be set.
    ///   - body: Writes the contents.
    /// - Throws: What `body` throws.
    public mutating func writeConstructed<E: Error>(_ tag: DERTag, _ body: (inout DERWriter) throws(E) -> Void) throws(E) {
        appendTag(tag)
        let start = bytes.count
        try body(&self)
        let length = bytes.count - start
        bytes.insert(contentsOf: DERWriter.lengthOctets(length), at: start)
    }

    /// Appends a SEQUENCE whose contents `body` writes.
    ///
    /// - Parameter body: Writes the contents.
    /// - Throws: What `body` throws.
    public mutating func writeSequence<E: Error>(_ body: (inout DERWriter) throws(E) -> Void) throws(E) {
        try writeConstructed(.sequence, body)
    }

    /// Appends a SET whose contents `body` writes, in the order written.
    ///
    /// For SET OF, whose DER encoding must be sorted, use ``writeSetOf(_:)``.
    ///
    /// - Parameter body: Writes the contents.
    /// - Throws: What `body` throws.
    public mutating func writeSet<E: Error>(_ body: (inout DERWriter) throws(E) -> Void) throws(E) {
        try writeConstructed(.set, body)
    }

    /// Appends a SET OF from encoded elements, sorted by their encodings as DER
    /// requires (X.690 §11.6).
    ///
    /// - Parameter elements: The complete encodings of the members.
    public mutating func writeSetOf(_ elements: [[UInt8]]) {
        let sorted = elements.sorted { $0.lexicographicallyPrecedes($1) }
        writeConstructed(.set) { (set: inout DERWriter) in
            for element in sorted { set.writeEncoded(element) }
        }
    }

    /// Appends an EXPLICIT context-specific tag `[number]` around what `body` writes.
    ///
    /// - Parameters:
    ///   - number: The context-specific tag number.
    ///   - body: Writes the tagged value.
    /// - Throws: What `body` throws.
    public mutating func writeExplicit<E: Error>(_ number: UInt32, _ body: (inout DERWriter) throws(E) -> Void) throws(E) {
        try writeConstructed(.contextSpecific(number, isConstructed: true), body)
    }

    // MARK: Primitive values

    /// Appends a BOOLEAN (0xFF for true, X.690 §11.1).
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - tag: The tag; ``DERTag/boolean`` by default.
    public mutating func writeBoolean(_ value: Bool, tag: DERTag = .boolean) {
        writeElement(tag, contents: CollectionOfOne(value ? 0xFF : 0x00))
    }

    /// Appends a NULL.
    ///
    /// - Parameter tag: The tag; ``DERTag/null`` by default.
    public mutating func writeNull(tag: DERTag = .null) {
        writeElement(tag, contents: EmptyCollection())
    }

    /// Appends an INTEGER with a Swift integer's value, minimally encoded.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - tag: The tag; ``DERTag/integer`` by default.
    public mutating func writeInteger<T: FixedWidthInteger>(_ value: T, tag: DERTag = .integer) {
        // Two's complement big-endian octets of the value, widened to one more
        // octet than T so that unsigned values keep a sign octet.
        var octets: [UInt8] = []
        let byteCount = T.bitWidth / 8
        let negative = value < 0
        octets.append(negative ? 0xFF : 0x00)
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            octets.append(UInt8(truncatingIfNeeded: value >> (index * 8)))
        }
        writeElement(tag, contents: DERWriter.minimalInteger(octets))
    }

    /// Appends a non-negative INTEGER from big-endian magnitude octets (any length),
    /// adding a 0x00 sign octet where the top bit is set and dropping leading zeros.
    ///
    /// - Parameters:
    ///   - magnitude: The unsigned big-endian value; empty means zero.
    ///   - tag: The tag; ``DERTag/integer`` by default.
    public mutating func writeInteger(magnitude: some Collection<UInt8>, tag: DERTag = .integer) {
        var octets: [UInt8] = [0x00]
        octets.append(contentsOf: magnitude)
        writeElement(tag, contents: DERWriter.minimalInteger(octets))
    }

    /// Drops redundant leading octets from a two's-complement encoding (X.690 §8.3.2).
    internal static func minimalInteger(_ octets: [UInt8]) -> ArraySlice<UInt8> {
        var start = octets.startIndex
        while octets.endIndex - start > 1 {
            let first = octets[start], nextHigh = octets[start + 1] & 0x80
            if (first == 0x00 && nextHigh == 0) || (first == 0xFF && nextHigh != 0) {
                start += 1
            } else {
                break
            }
        }
        return octets[start...]
    }

    /// Appends a BIT STRING.
    ///
    /// - Parameters:
    ///   - content: The bit-carrying octets.
    ///   - unusedBitCount: Unused bits in the last octet, 0...7 (0 when `content` is empty).
    ///   - tag: The tag; ``DERTag/bitString`` by default.
    /// - Throws: ``DERError/Reason/unencodableValue`` if the count is out of range or
    ///   the unused bits are not zero (DER would not round-trip them, X.690 §11.2.1).
    public mutating func writeBitString(bytes content: some Collection<UInt8>, unusedBitCount: Int = 0,
                                        tag: DERTag = .bitString) throws(DERError) {
        guard (0...7).contains(unusedBitCount), !(content.isEmpty && unusedBitCount != 0) else {
            throw DERError(.unencodableValue, at: bytes.count)
        }
        if unusedBitCount > 0, let last = content.reversed().first,
           last & UInt8(truncatingIfNeeded: (1 << unusedBitCount) - 1) != 0 {
            throw DERError(.unencodableValue, at: bytes.count)
        }
        appendTag(tag)
        bytes.append(contentsOf: DERWriter.lengthOctets(content.count + 1))
        bytes.append(UInt8(truncatingIfNeeded: unusedBitCount))
        bytes.append(contentsOf: content)
    }

    /// Appends an OCTET STRING.
    ///
    /// - Parameters:
    ///   - contents: The octets.
    ///   - tag: The tag; ``DERTag/octetString`` by default.
    public mutating func writeOctetString(_ contents: some Collection<UInt8>, tag: DERTag = .octetString) {
        writeElement(tag, contents: contents)
    }

    /// Appends an OBJECT IDENTIFIER.
    ///
    /// - Parameters:
    ///   - oid: The identifier.
    ///   - tag: The tag; ``DERTag/objectIdentifier`` by default.
    public mutating func writeObjectIdentifier(_ oid: OID, tag: DERTag = .objectIdentifier) {
        oid.withContents { writeElement(tag, contents: $0) }
    }

    /// Appends a character string of type `kind`, checking its alphabet.
    ///
    /// - Parameters:
    ///   - value: The text.
    ///   - kind: The string type.
    ///   - tag: The tag; the type's universal tag by default.
    /// - Throws: The alphabet error of `kind` (offset: the writer's position) if
    ///   `value` cannot be represented, for example a non-ASCII character in an
    ///   IA5String or a character outside the BMP in a BMPString.
    public mutating func writeString(_ value: String, as kind: DERStringKind, tag: DERTag? = nil) throws(DERError) {
        var contents: [UInt8] = []
        switch kind {
        case .utf8, .printable, .ia5, .numeric, .visible:
            contents = Array(value.utf8)
            // Re-validate with the reader's rules so the writer never emits what the
            // reader would refuse.
            _ = try contents.withUnsafeBufferPointer { (buffer) throws(DERError) -> String in
                try kind.decode(buffer, offset: bytes.count)
            }
        case .teletex:
            for scalar in value.unicodeScalars {
                guard scalar.value <= 0xFF else { throw DERError(.unencodableValue, at: bytes.count) }
                contents.append(UInt8(truncatingIfNeeded: scalar.value))
            }
        case .bmp:
            for scalar in value.unicodeScalars {
                guard scalar.value <= 0xFFFF else { throw DERError(.invalidBMPString, at: bytes.count) }
                contents.append(UInt8(truncatingIfNeeded: scalar.value >> 8))
                contents.append(UInt8(truncatingIfNeeded: scalar.value))
            }
        case .universal:
            for scalar in value.unicodeScalars {
                for shift in [24, 16, 8, 0] as [UInt32] {
                    contents.append(UInt8(truncatingIfNeeded: scalar.value >> shift))
                }
            }
        }
        writeElement(tag ?? kind.tag, contents: contents)
    }

    /// Appends a time as RFC 5280 §4.1.2.5 requires: UTCTime through 2049,
    /// GeneralizedTime from 2050.
    ///
    /// - Parameter time: The time.
    public mutating func writeTime(_ time: DERTime) {
        if time.fitsUTCTime {
            writeElement(.utcTime, contents: time.encodedContents(asUTCTime: true))
        } else {
            writeElement(.generalizedTime, contents: time.encodedContents(asUTCTime: false))
        }
    }

    /// Appends a UTCTime (`YYMMDDHHMMSSZ`).
    ///
    /// - Parameters:
    ///   - time: The time; its year must be 1950...2049.
    ///   - tag: The tag; ``DERTag/utcTime`` by default.
    /// - Throws: ``DERError/Reason/unencodableValue`` for a year outside 1950...2049.
    public mutating func writeUTCTime(_ time: DERTime, tag: DERTag = .utcTime) throws(DERError) {
        guard time.fitsUTCTime else { throw DERError(.unencodableValue, at: bytes.count) }
        writeElement(tag, contents: time.encodedContents(asUTCTime: true))
    }

    /// Appends a GeneralizedTime (`YYYYMMDDHHMMSSZ`).
    ///
    /// - Parameters:
    ///   - time: The time.
    ///   - tag: The tag; ``DERTag/generalizedTime`` by default.
    public mutating func writeGeneralizedTime(_ time: DERTime, tag: DERTag = .generalizedTime) {
        writeElement(tag, contents: time.encodedContents(asUTCTime: false))
    }
}

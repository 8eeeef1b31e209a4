/// Base64 encoding and strict decoding, RFC 4648 §4 (the standard alphabet
/// `A`–`Z`, `a`–`z`, `0`–`9`, `+`, `/`, with `=` padding).
///
/// Tack uses Base64 for PEM bodies (RFC 7468) and for certificate pins
/// (the `sha256/<base64>` form of RFC 7469 §2.4), so the decoder is strict by
/// default: it accepts exactly the texts the encoder produces and nothing else.
/// Each rejection is a ``Base64Error`` that names the rule and the byte offset
/// of the offending character:
///
/// - a byte outside the alphabet (``Base64Error/invalidCharacter(_:offset:)``),
/// - `=` where padding cannot be (``Base64Error/misplacedPadding(offset:)``),
/// - the wrong number of `=` (``Base64Error/invalidPadding(offset:)``),
/// - no `=` after a short final quantum (``Base64Error/missingPadding(offset:)``),
/// - a length no encoder produces (``Base64Error/invalidLength(offset:)``),
/// - non-zero unused bits in the last character
///   (``Base64Error/nonZeroTrailingBits(offset:)``).
///
/// The only relaxation is ``DecodingOptions/ignoringWhitespace``, which skips
/// line breaks and blanks, as PEM parsers must (RFC 7468 §3).
///
/// ```swift
/// let text = Base64.encode([0x66, 0x6F, 0x6F])   // "Zm9v"
/// let bytes = try Base64.decode(text)              // [0x66, 0x6F, 0x6F]
/// ```
///
/// Both directions are table-driven single passes that write straight into
/// the result's storage: no per-character allocation, no Foundation.
public enum Base64 {
    /// Relaxations of the strict decoder.
    public struct DecodingOptions: OptionSet, Sendable {
        /// The raw bits of the option set.
        public let rawValue: UInt8

        /// Creates an option set from its raw bits.
        ///
        /// - Parameter rawValue: The bits of the options to include.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// Skip whitespace anywhere in the text: space, horizontal tab,
        /// line feed, vertical tab, form feed and carriage return (the `W`
        /// production of RFC 7468 §3). Used for PEM bodies, which are split
        /// into lines. Everything else stays strict; in particular padding is
        /// still required and `=` must still end the data.
        public static let ignoringWhitespace = DecodingOptions(rawValue: 1 << 0)
    }

    // MARK: Encoding

    /// Returns the number of characters in the Base64 encoding of
    /// `byteCount` bytes: `4 * ceil(byteCount / 3)` (RFC 4648 §4).
    ///
    /// - Parameter byteCount: The number of bytes to encode; must not be
    ///   negative.
    /// - Returns: The length of the padded encoding, or `nil` if it does not
    ///   fit in an `Int` or `byteCount` is negative.
    public static func encodedCount(ofByteCount byteCount: Int) -> Int? {
        guard byteCount >= 0 else { return nil }
        let quanta = byteCount / 3 + (byteCount % 3 == 0 ? 0 : 1)
        let (count, overflow) = quanta.multipliedReportingOverflow(by: 4)
        return overflow ? nil : count
    }

    /// Encodes bytes as padded Base64 text (RFC 4648 §4) on a single line.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The Base64 text; empty for empty input.
    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let fast = bytes.withContiguousStorageIfAvailable { input in
            encodeToString(input)
        }
        if let fast {
            return fast
        }
        let copy = Array(bytes)
        return copy.withUnsafeBufferPointer { encodeToString($0) }
    }

    /// Encodes bytes as padded Base64 (RFC 4648 §4) and returns the ASCII
    /// characters as bytes, for callers that assemble binary output.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The ASCII bytes of the Base64 text; empty for empty input.
    public static func encodedBytes<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        let fast = bytes.withContiguousStorageIfAvailable { input in
            encodeToBytes(input)
        }
        if let fast {
            return fast
        }
        let copy = Array(bytes)
        return copy.withUnsafeBufferPointer { encodeToBytes($0) }
    }

    // MARK: Decoding

    /// Decodes Base64 text strictly (RFC 4648 §4).
    ///
    /// - Parameters:
    ///   - text: The Base64 text. Offsets in errors count its UTF-8 bytes
    ///     from the first one.
    ///   - options: Relaxations; by default none, so the text must be exactly
    ///     what ``encode(_:)`` produces.
    /// - Returns: The decoded bytes.
    /// - Throws: ``Base64Error`` naming the first rule the text breaks and the
    ///   offset of the offending character.
    public static func decode<Text: StringProtocol>(
        _ text: Text,
        options: DecodingOptions = []
    ) throws(Base64Error) -> [UInt8] {
        try decode(text.utf8, options: options)
    }

    /// Decodes Base64 text given as ASCII bytes, strictly (RFC 4648 §4).
    ///
    /// - Parameters:
    ///   - bytes: The ASCII bytes of the Base64 text. Offsets in errors count
    ///     from its first byte (not from a slice's `startIndex`).
    ///   - options: Relaxations; by default none, so the text must be exactly
    ///     what ``encodedBytes(_:)`` produces.
    /// - Returns: The decoded bytes.
    /// - Throws: ``Base64Error`` naming the first rule the text breaks and the
    ///   offset of the offending character.
    public static func decode<Bytes: Collection<UInt8>>(
        _ bytes: Bytes,
        options: DecodingOptions = []
    ) throws(Base64Error) -> [UInt8] {
        let skip = options.contains(.ignoringWhitespace)
        let fast = bytes.withContiguousStorageIfAvailable { input in
            decodeBuffer(input, offsetBase: 0, ignoringWhitespace: skip)
        }
        let result: Result<[UInt8], Base64Error>
        if let fast {
            result = fast
        } else {
            let copy = Array(bytes)
            result = copy.withUnsafeBufferPointer {
                decodeBuffer($0, offsetBase: 0, ignoringWhitespace: skip)
            }
        }
        return try result.get()
    }
}

// MARK: - Implementation

extension Base64 {
    /// The RFC 4648 §4 alphabet, indexed by 6-bit value. A `StaticString`
    /// lives in read-only data, so reading it needs no lazy initialisation.
    private static let alphabet: StaticString =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    /// Marks `=` in ``decodingTable``.
    private static let padValue: UInt8 = 0x40
    /// Marks the whitespace of RFC 7468 §3 (`W`) in ``decodingTable``.
    private static let whitespaceValue: UInt8 = 0x41
    /// Marks every other byte in ``decodingTable``.
    private static let invalidValue: UInt8 = 0xFF

    /// Maps each byte to its 6-bit value (0x00–0x3F), ``padValue``,
    /// ``whitespaceValue`` or ``invalidValue``. A constant literal, so the
    /// optimizer emits it as static data.
    private static let decodingTable: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x41, 0x41, 0x41, 0x41, 0x41, 0xFF, 0xFF,  // 0x00
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0x10
        0x41, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3E, 0xFF, 0xFF, 0xFF, 0x3F,  // 0x20 ' ' '+' '/'
        0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0xFF, 0xFF, 0xFF, 0x40, 0xFF, 0xFF,  // 0x30 '0'-'9' '='
        0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E,  // 0x40 'A'-'O'
        0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0x50 'P'-'Z'
        0xFF, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,  // 0x60 'a'-'o'
        0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x32, 0x33, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0x70 'p'-'z'
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0x80
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0x90
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0xA0
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0xB0
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0xC0
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0xD0
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0xE0
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0xF0
    ]

    /// Whether `byte` is whitespace in the sense of RFC 7468 §3 (`W`):
    /// space, tab, LF, VT, FF or CR.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Writes the encoding of `input` to `output`, which must hold exactly
    /// `encodedCount(ofByteCount: input.count)` bytes.
    private static func encode(
        _ input: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        alphabet.withUTF8Buffer { table in
            var i = 0
            var o = 0
            // Whole 3-byte groups: 24 bits become four 6-bit indices.
            while input.count - i >= 3 {
                let group = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                output[o] = table[Int(group >> 18)]
                output[o + 1] = table[Int((group >> 12) & 0x3F)]
                output[o + 2] = table[Int((group >> 6) & 0x3F)]
                output[o + 3] = table[Int(group & 0x3F)]
                i += 3
                o += 4
            }
            // The final 1 or 2 bytes, zero-filled and padded (RFC 4648 §4 cases 2, 3).
            switch input.count - i {
            case 1:
                let group = UInt32(input[i]) << 16
                output[o] = table[Int(group >> 18)]
                output[o + 1] = table[Int((group >> 12) & 0x3F)]
                output[o + 2] = UInt8(ascii: "=")
                output[o + 3] = UInt8(ascii: "=")
            case 2:
                let group = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                output[o] = table[Int(group >> 18)]
                output[o + 1] = table[Int((group >> 12) & 0x3F)]
                output[o + 2] = table[Int((group >> 6) & 0x3F)]
                output[o + 3] = UInt8(ascii: "=")
            default:
                break
            }
        }
    }

    /// The encoded length of `count` bytes; an array's count can never make
    /// it overflow (a byte array that large cannot exist), hence the trap.
    private static func checkedEncodedCount(_ count: Int) -> Int {
        guard let length = encodedCount(ofByteCount: count) else {
            preconditionFailure("Base64: input too large to encode")
        }
        return length
    }

    private static func encodeToString(_ input: UnsafeBufferPointer<UInt8>) -> String {
        let length = checkedEncodedCount(input.count)
        return String(unsafeUninitializedCapacity: length) { output in
            encode(input, into: UnsafeMutableBufferPointer(rebasing: output[0..<length]))
            return length
        }
    }

    private static func encodeToBytes(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let length = checkedEncodedCount(input.count)
        return [UInt8](unsafeUninitializedCapacity: length) { output, initialized in
            encode(input, into: UnsafeMutableBufferPointer(rebasing: output[0..<length]))
            initialized = length
        }
    }

    /// The decoder proper, shared with ``PEM``.
    ///
    /// A single pass over `input` that keeps the current 4-character quantum
    /// in `accumulator` and writes each completed group of 3 bytes straight
    /// into the result. Whole quanta of four alphabet characters take a fast
    /// path; everything else (whitespace, padding, errors) goes byte by byte.
    ///
    /// - Parameters:
    ///   - input: The text's bytes.
    ///   - offsetBase: Added to every offset in an error, so a PEM body can
    ///     report offsets in the whole file.
    ///   - ignoringWhitespace: Skip RFC 7468 §3 whitespace.
    /// - Returns: The bytes, or the first error.
    static func decodeBuffer(
        _ input: UnsafeBufferPointer<UInt8>,
        offsetBase: Int,
        ignoringWhitespace: Bool
    ) -> Result<[UInt8], Base64Error> {
        // Every 4 input characters give at most 3 bytes; a final partial
        // quantum gives at most 2 more. No overflow: count / 4 * 3 < Int.max.
        let capacity = input.count / 4 * 3 + 3
        var failure: Base64Error?
        let count = input.count
        let bytes = decodingTable.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
                var accumulator: UInt32 = 0  // at most 4 × 6 = 24 bits
                var quantumCount = 0  // alphabet characters in the current quantum, 0...3
                var padCount = 0  // '=' seen so far; non-zero only in the last quantum
                var padStart = 0  // offset of the first '='
                var quantumStart = 0  // offset of the current quantum's first character
                var lastData = 0  // offset of the last alphabet character
                var dataEnd = 0  // offset just past the last non-whitespace character
                var o = 0
                var i = 0

                // `offsetBase + i` cannot overflow: offsetBase is the position of
                // `input` inside a larger buffer, so it plus `count` is a valid count.
                scan: while i < count {
                    // Fast path: a whole quantum of four alphabet characters.
                    // (quantumCount == 0 implies padCount == 0: padding never
                    // starts before the third character of a quantum.)
                    if quantumCount == 0, count - i >= 4 {
                        let a = table[Int(input[i])]
                        let b = table[Int(input[i + 1])]
                        let c = table[Int(input[i + 2])]
                        let d = table[Int(input[i + 3])]
                        if (a | b | c | d) < 0x40 {
                            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                            output[o] = UInt8(truncatingIfNeeded: group >> 16)
                            output[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
                            output[o + 2] = UInt8(truncatingIfNeeded: group)
                            o += 3
                            i += 4
                            lastData = i - 1
                            dataEnd = i
                            continue scan
                        }
                    }

                    let byte = input[i]
                    let value = table[Int(byte)]
                    if value < 0x40 {
                        if padCount != 0 {
                            failure = .misplacedPadding(offset: offsetBase + padStart)
                            break scan
                        }
                        if quantumCount == 0 {
                            quantumStart = i
                        }
                        accumulator = accumulator << 6 | UInt32(value)
                        quantumCount += 1
                        lastData = i
                        dataEnd = i + 1
                        if quantumCount == 4 {
                            output[o] = UInt8(truncatingIfNeeded: accumulator >> 16)
                            output[o + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                            output[o + 2] = UInt8(truncatingIfNeeded: accumulator)
                            o += 3
                            quantumCount = 0
                            accumulator = 0
                        }
                    } else if value == padValue {
                        if padCount == 0 {
                            if quantumCount == 0 {
                                failure = .misplacedPadding(offset: offsetBase + i)
                                break scan
                            }
                            if quantumCount == 1 {
                                failure = .invalidLength(offset: offsetBase + quantumStart)
                                break scan
                            }
                            padStart = i
                        }
                        padCount += 1
                        if quantumCount + padCount > 4 {
                            failure = .invalidPadding(offset: offsetBase + i)
                            break scan
                        }
                        dataEnd = i + 1
                    } else if value == whitespaceValue && ignoringWhitespace {
                        // Skipped (RFC 7468 §3).
                    } else {
                        failure = .invalidCharacter(byte, offset: offsetBase + i)
                        break scan
                    }
                    i += 1
                }

                if failure == nil {
                    if padCount > 0 {
                        if quantumCount + padCount != 4 {
                            failure = .invalidPadding(offset: offsetBase + dataEnd)
                        }
                    } else if quantumCount == 1 {
                        failure = .invalidLength(offset: offsetBase + quantumStart)
                    } else if quantumCount > 1 {
                        failure = .missingPadding(offset: offsetBase + dataEnd)
                    }
                }
                if failure == nil {
                    // A final quantum of 2 characters holds 12 bits for 1 byte,
                    // one of 3 characters 18 bits for 2 bytes; the rest must be 0.
                    if quantumCount == 2 {
                        if accumulator & 0xF != 0 {
                            failure = .nonZeroTrailingBits(offset: offsetBase + lastData)
                        } else {
                            output[o] = UInt8(truncatingIfNeeded: accumulator >> 4)
                            o += 1
                        }
                    } else if quantumCount == 3 {
                        if accumulator & 0x3 != 0 {
                            failure = .nonZeroTrailingBits(offset: offsetBase + lastData)
                        } else {
                            output[o] = UInt8(truncatingIfNeeded: accumulator >> 10)
                            output[o + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                            o += 2
                        }
                    }
                }
                initialized = failure == nil ? o : 0
            }
        }
        if let failure {
            return .failure(failure)
        }
        return .success(bytes)
    }
}

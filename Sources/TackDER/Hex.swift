/// Hexadecimal (Base16, RFC 4648 §8) text: the one hex codec of every module
/// (pins and fingerprints, the command line, vector files, tests).
///
/// Decoding is strict: digits only (either case), no separators, an even count.
public enum Hex {
    /// Decodes hexadecimal digits.
    ///
    /// - Parameter text: The UTF-8 text.
    /// - Returns: The bytes, two digits each.
    /// - Throws: ``HexError`` at the first byte that is not a hex digit, or at the
    ///   end of an odd-length text (where the missing digit belongs).
    public static func decode(_ text: some Collection<UInt8>) throws(HexError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8? = nil
        var offset = 0
        for unit in text {
            guard let value = Hex.value(of: unit) else { throw HexError(offset: offset) }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
            offset += 1
        }
        guard high == nil else { throw HexError(offset: offset) }
        return bytes
    }

    /// Decodes the hexadecimal digits of a string (see ``decode(_:)-swift.type.method``).
    ///
    /// - Parameter text: The text.
    /// - Returns: The bytes.
    /// - Throws: ``HexError`` with the UTF-8 offset of the first bad character.
    public static func decode(_ text: String) throws(HexError) -> [UInt8] {
        try decode(text.utf8)
    }

    /// Encodes bytes as hexadecimal digits: the one hex encoder of every module
    /// (digests, pins, fingerprints, serial numbers, `tack` output).
    ///
    /// ```swift
    /// Hex.encode([0x00, 0xAB])                                  // "00ab"
    /// Hex.encode([0x00, 0xAB], separator: ":", uppercase: true) // "00:AB"
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The bytes.
    ///   - separator: Text written between two bytes' digits (none by default).
    ///   - uppercase: Whether the digits `a`–`f` are written as `A`–`F`.
    /// - Returns: Two digits per byte.
    public static func encode(_ bytes: some Sequence<UInt8>, separator: String = "", uppercase: Bool = false) -> String {
        TextBytes.withUTF8(separator) { separatorUTF8 in
            var text: [UInt8] = []
            // At most 2 + separator bytes per input byte; an estimate only, so an
            // overflowing product just skips the reservation.
            let (estimate, overflow) = bytes.underestimatedCount.multipliedReportingOverflow(by: 2 &+ separatorUTF8.count)
            if !overflow { text.reserveCapacity(estimate) }
            var first = true
            for byte in bytes {
                if !first { text.append(contentsOf: separatorUTF8) }
                first = false
                append(byte, uppercase: uppercase, to: &text)
            }
            // Hex digits and whole copies of the separator's UTF-8: well-formed.
            return TextBytes.string(writtenUTF8: text)
        }
    }

    /// Appends the two hex digits of `byte` to `text`, as UTF-8: the byte-level writer
    /// under ``encode(_:separator:uppercase:)``, for text built as bytes.
    ///
    /// - Parameters:
    ///   - byte: The byte.
    ///   - uppercase: Whether the digits `a`–`f` are written as `A`–`F`.
    ///   - text: The UTF-8 text appended to.
    package static func append(_ byte: UInt8, uppercase: Bool, to text: inout [UInt8]) {
        let letterBase = uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")
        text.append(digit(byte >> 4, letterBase: letterBase))
        text.append(digit(byte & 0x0F, letterBase: letterBase))
    }

    /// Whether `unit` is a hexadecimal digit (`0-9`, `a-f`, `A-F`).
    ///
    /// - Parameter unit: A UTF-8 code unit.
    /// - Returns: Whether `unit` is a hexadecimal digit.
    public static func isDigit(_ unit: UInt8) -> Bool {
        value(of: unit) != nil
    }

    private static func digit(_ value: UInt8, letterBase: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : letterBase + value - 10
    }

    /// The value of a hexadecimal digit (`0-9`, `a-f`, `A-F`): the one hex-digit
    /// decoder of Tack (JSON `\u` escapes, property-list character references and IPv6
    /// text use it too).
    ///
    /// - Parameter unit: A UTF-8 code unit.
    /// - Returns: 0...15, or `nil` when `unit` is not a hex digit.
    public static func value(of unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): unit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Why a text is not hexadecimal: the offset of the first byte that is not a
/// hex digit, or the text's length when it has an odd number of digits.
public struct HexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset of the offending character (the text's length for an odd
    /// number of digits).
    public var offset: Int

    /// Creates an error at `offset`.
    ///
    /// - Parameter offset: The byte offset of the offending character.
    public init(offset: Int) {
        self.offset = offset
    }

    /// A one-line description with the offset.
    public var description: String {
        "hex error at byte \(offset): not a hex digit, or a missing final digit"
    }
}

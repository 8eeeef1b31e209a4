// The errors of the JSON reader (JSONReader.swift).

/// Why a JSON document was refused, and where.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The document is larger than ``JSONLimits/maximumSize``.
        case tooLarge(limit: Int)
        /// Arrays and objects nest deeper than ``JSONLimits/maximumDepth``.
        case tooDeep(limit: Int)
        /// The document ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue the value here.
        case unexpectedByte(UInt8)
        /// Something follows the top-level value.
        case trailingData
        /// A number that breaks the RFC 8259 §6 grammar (leading zero, lone `-`, `1.`, `1e`).
        case invalidNumber
        /// An unescaped control character (below U+0020) inside a string (§7).
        case controlCharacterInString
        /// A backslash escape other than the eight of §7.
        case invalidEscape
        /// A `\u` escape without four hex digits.
        case invalidUnicodeEscape
        /// A UTF-16 surrogate escape without its partner (`\uD800` alone, or a low one first).
        case loneSurrogate
        /// Bytes that are not UTF-8 (§8.1).
        case invalidUTF8
        /// An object names the same member twice.
        case duplicateKey
    }

    /// What went wrong.
    public let reason: Reason
    /// Where in the document.
    public let location: TextLocation

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - location: Where.
    public init(_ reason: Reason, at location: TextLocation) {
        self.reason = reason
        self.location = location
    }

    /// The byte offset in the document (``location``'s offset).
    public var offset: Int { location.offset }

    /// `line:column: problem`.
    public var description: String {
        let what: String
        switch reason {
        case .tooLarge(let limit): what = "document larger than \(limit) bytes"
        case .tooDeep(let limit): what = "nesting deeper than \(limit) levels"
        case .unexpectedEnd: what = "unexpected end of document"
        case .unexpectedByte(let byte):
            what = byte >= 0x20 && byte < 0x7F
                ? "unexpected character '\(Character(Unicode.Scalar(byte)))'"
                : "unexpected byte 0x\(String(byte, radix: 16))"
        case .trailingData: what = "data after the JSON value"
        case .invalidNumber: what = "malformed number"
        case .controlCharacterInString: what = "unescaped control character in a string"
        case .invalidEscape: what = "invalid backslash escape"
        case .invalidUnicodeEscape: what = "\\u escape without four hex digits"
        case .loneSurrogate: what = "unpaired UTF-16 surrogate escape"
        case .invalidUTF8: what = "invalid UTF-8"
        case .duplicateKey: what = "duplicate object key"
        }
        return "\(location): \(what)"
    }
}

// A small strict JSON reader (RFC 8259) for pin policies, standard library only.
//
// Strict where RFC 8259 is strict: one value, optionally surrounded by the four
// whitespace characters of §2; no comments, no trailing commas, no leading zeros,
// no NaN/Infinity, no control characters inside strings, no lone surrogates
// (§7 allows them in principle; they are not Unicode text, so they are refused),
// valid UTF-8 only (§8.1). Deliberate choices where RFC 8259 leaves room:
// duplicate object keys are refused (§4: names SHOULD be unique; a policy with
// two `"domain"` keys is a mistake, not data), and depth and size are bounded
// (§9: "An implementation may set limits").

/// A JSON value.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its text plus its integer value when it is one.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order.
    case object([JSONMember])
}

/// A JSON number: its literal text (RFC 8259 §6 grammar) and, when the literal is an
/// integer without fraction or exponent that fits, its `Int64` value.
public struct JSONNumber: Sendable, Hashable {
    /// The literal as written.
    public let literal: String
    /// The value when the literal is an integer in `Int64` range; `nil` otherwise.
    public let integer: Int64?

    /// Creates a number (for adapters from other document models).
    public init(literal: String, integer: Int64?) {
        self.literal = literal
        self.integer = integer
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public let key: String
    /// The value.
    public let value: JSONValue
    /// The byte offset of the key's opening quote in the document.
    public let offset: Int

    /// Creates a member (for adapters from other document models).
    public init(key: String, value: JSONValue, offset: Int) {
        self.key = key
        self.value = value
        self.offset = offset
    }
}

/// Limits of ``JSONReader``.
public struct JSONLimits: Sendable, Hashable {
    /// The largest document, in bytes.
    public var maximumSize: Int
    /// The deepest nesting of arrays and objects.
    public var maximumDepth: Int

    /// Creates limits.
    public init(maximumSize: Int, maximumDepth: Int) {
        self.maximumSize = maximumSize
        self.maximumDepth = maximumDepth
    }

    /// 1 MiB and depth 32: a pin policy for thousands of domains is a few hundred
    /// kilobytes and four levels deep; the bounds keep hostile input cheap.
    public static let `default` = JSONLimits(maximumSize: 1 << 20, maximumDepth: 32)
}

/// Why a JSON document was refused, and the byte offset where.
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
    /// The byte offset in the document.
    public let offset: Int

    /// Creates an error.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// One line naming the problem and the offset.
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
        return "JSON: \(what) at byte \(offset)"
    }
}

/// Reads one JSON document (RFC 8259) into a ``JSONValue``.
public enum JSONReader {
    /// Parses `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 document (a leading byte-order mark is refused, §8.1).
    ///   - limits: Size and depth bounds.
    /// - Returns: The value.
    /// - Throws: ``JSONError`` with the offset of the first problem.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = .default) throws(JSONError) -> JSONValue {
        guard bytes.count <= limits.maximumSize else {
            throw JSONError(.tooLarge(limit: limits.maximumSize), offset: limits.maximumSize)
        }
        var parser = JSONParser(bytes: bytes, maximumDepth: limits.maximumDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw JSONError(.trailingData, offset: parser.index) }
        return value
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func skipWhitespace() {
        // §2: space, horizontal tab, line feed, carriage return.
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func peek() throws(JSONError) -> UInt8 {
        guard index < bytes.count else { throw JSONError(.unexpectedEnd, offset: index) }
        return bytes[index]
    }

    mutating func expectLiteral(_ literal: String) throws(JSONError) {
        for wanted in literal.utf8 {
            guard index < bytes.count else { throw JSONError(.unexpectedEnd, offset: index) }
            guard bytes[index] == wanted else { throw JSONError(.unexpectedByte(bytes[index]), offset: index) }
            index += 1
        }
    }

    mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw JSONError(.unexpectedByte(byte), offset: index)
        }
    }

    mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONError(.tooDeep(limit: maximumDepth), offset: index) }
        index += 1  // {
        var members: [JSONMember] = []
        var keys: Set<String> = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard try peek() == UInt8(ascii: "\"") else { throw JSONError(.unexpectedByte(bytes[index]), offset: index) }
            let key = try parseString()
            guard keys.insert(key).inserted else { throw JSONError(.duplicateKey, offset: keyOffset) }
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw JSONError(.unexpectedByte(bytes[index]), offset: index) }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONMember(key: key, value: value, offset: keyOffset))
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw JSONError(.unexpectedByte(next), offset: index - 1) }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONError(.tooDeep(limit: maximumDepth), offset: index) }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw JSONError(.unexpectedByte(next), offset: index - 1) }
        }
    }

    /// §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = index
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError(.invalidNumber, offset: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw JSONError(.invalidNumber, offset: index) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError(.invalidNumber, offset: index) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError(.invalidNumber, offset: index) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        // Int64(_:) checks the range (no overflow trap); "-0" reads as 0.
        return JSONNumber(literal: literal, integer: isInteger ? Int64(literal) : nil)
    }

    mutating func hexQuad() throws(JSONError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw JSONError(.invalidUnicodeEscape, offset: index) }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError(.invalidUnicodeEscape, offset: index + offset)
            }
            value = value << 4 | UInt16(digit)
        }
        index += 4
        return value
    }

    mutating func parseString() throws(JSONError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        while true {
            guard index < bytes.count else { throw JSONError(.unexpectedEnd, offset: index) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                let escapeOffset = index
                index += 1
                guard index < bytes.count else { throw JSONError(.unexpectedEnd, offset: index) }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hexQuad()
                    switch unit {
                    case 0xD800...0xDBFF:
                        // A high surrogate must be followed by `\u` and a low one (§7).
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw JSONError(.loneSurrogate, offset: escapeOffset) }
                        index += 2
                        let low = try hexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { throw JSONError(.loneSurrogate, offset: escapeOffset) }
                        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        guard let scalar = Unicode.Scalar(value) else { throw JSONError(.loneSurrogate, offset: escapeOffset) }
                        scalars.append(scalar)
                    case 0xDC00...0xDFFF:
                        throw JSONError(.loneSurrogate, offset: escapeOffset)
                    default:
                        guard let scalar = Unicode.Scalar(unit) else { throw JSONError(.loneSurrogate, offset: escapeOffset) }
                        scalars.append(scalar)
                    }
                default:
                    throw JSONError(.invalidEscape, offset: escapeOffset)
                }
            case 0x00..<0x20:
                throw JSONError(.controlCharacterInString, offset: index)
            case 0x20..<0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                scalars.append(try decodeUTF8Scalar())
            }
        }
    }

    /// One multi-byte UTF-8 sequence (RFC 3629 §4: no overlong forms, no surrogates,
    /// nothing above U+10FFFF).
    mutating func decodeUTF8Scalar() throws(JSONError) -> Unicode.Scalar {
        let start = index
        let lead = bytes[index]
        let count: Int
        var value: UInt32
        let lowest: UInt32
        switch lead {
        case 0xC2...0xDF: count = 2; value = UInt32(lead & 0x1F); lowest = 0x80
        case 0xE0...0xEF: count = 3; value = UInt32(lead & 0x0F); lowest = 0x800
        case 0xF0...0xF4: count = 4; value = UInt32(lead & 0x07); lowest = 0x10000
        default: throw JSONError(.invalidUTF8, offset: start)
        }
        guard bytes.count - index >= count else { throw JSONError(.invalidUTF8, offset: start) }
        for offset in 1..<count {
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { throw JSONError(.invalidUTF8, offset: index + offset) }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { throw JSONError(.invalidUTF8, offset: start) }
        index += count
        return scalar
    }
}

// MARK: - Writing

/// JSON text output for reports: escaping per RFC 8259 §7.
enum JSONText {
    /// A string literal with the mandatory escapes (quote, backslash, controls).
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// An array of string literals.
    static func strings(_ texts: [String]) -> String {
        "[" + texts.map(string).joined(separator: ", ") + "]"
    }
}

// The one JSON value type of the command line: every `--format json` document, every
// NDJSON line of `tack scan` and the SARIF log are built as a `JSONValue` and written
// by its serializer; the parser reads JSON back (a failure report from TackTrust, and
// the tests' schemas and outputs).

/// A JSON value (RFC 8259). Objects keep their keys in the order given.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// An integer from any integer type.
    static func int(_ value: some BinaryInteger) -> JSONValue { .integer(Int64(clamping: value)) }

    /// A string, or `null` for `nil`.
    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// An array of strings.
    static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    /// The value under `key` of an object; `nil` for other values and absent keys.
    subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    /// The element at `index` of an array; `nil` otherwise.
    subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }
    var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    var objectValue: [(String, JSONValue)]? { if case .object(let fields) = self { fields } else { nil } }

    // MARK: Writing

    /// The value as JSON text: on one line (`pretty: false`, for NDJSON) or indented
    /// by two spaces per level, with no trailing newline.
    func serialized(pretty: Bool = true) -> String {
        var text = ""
        write(to: &text, pretty: pretty, indent: 0)
        return text
    }

    private func write(to text: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .string(let value): JSONValue.writeString(value, to: &text)
        case .array(let items):
            guard !items.isEmpty else { text += "[]"; return }
            // Arrays of scalars stay on one line: pins and names read best that way.
            let inline = !pretty || items.allSatisfy(\.isScalar)
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += inline && pretty ? ", " : "," }
                if !inline { JSONValue.newline(&text, indent + 1) }
                item.write(to: &text, pretty: pretty, indent: indent + 1)
            }
            if !inline { JSONValue.newline(&text, indent) }
            text += "]"
        case .object(let fields):
            guard !fields.isEmpty else { text += "{}"; return }
            text += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { text += "," }
                if pretty { JSONValue.newline(&text, indent + 1) }
                JSONValue.writeString(field.0, to: &text)
                text += pretty ? ": " : ":"
                field.1.write(to: &text, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&text, indent) }
            text += "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private static func newline(_ text: inout String, _ indent: Int) {
        text += "\n"
        text += String(repeating: "  ", count: indent)
    }

    /// A string literal with RFC 8259 §7's mandatory escapes.
    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    // MARK: Reading

    /// A reason the parser stopped, with the byte offset.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "JSON: \(reason) at byte \(offset)" }
    }

    /// Parses one JSON document (RFC 8259; integers only, as the CLI writes no
    /// fractions: a number with a fraction or exponent is refused). Nesting is capped
    /// at 64 levels.
    static func parse(_ text: String) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw ParseError(offset: parser.index, reason: "trailing text") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func fail(_ reason: String) -> ParseError { ParseError(offset: index, reason: reason) }

        mutating func literal(_ word: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
                throw fail("unexpected text")
            }
            index += expected.count
            return value
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 64 else { throw fail("nested deeper than 64 levels") }
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw fail("unterminated array") }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected , or ]") }
                    index += 1
                }
            case UInt8(ascii: "{"):
                index += 1
                var fields: [(String, JSONValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected :") }
                    index += 1
                    fields.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw fail("unterminated object") }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                    guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected , or }") }
                    index += 1
                }
            default:
                let start = index
                if bytes[index] == UInt8(ascii: "-") { index += 1 }
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > start, let value = Int64(String(decoding: bytes[start..<index], as: UTF8.self)) else {
                    throw fail("not a JSON value")
                }
                if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                    throw fail("a number with a fraction or exponent")
                }
                return .integer(value)
            }
        }

        mutating func string() throws(ParseError) -> String {
            index += 1  // the opening quote
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard index < bytes.count else { throw fail("unterminated escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw fail("a lone surrogate")
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw fail("a lone surrogate") }
                        scalars.append(scalar)
                    default: throw fail("unknown escape")
                    }
                case 0..<0x20:
                    throw fail("a control character in a string")
                default:
                    run.append(byte)
                }
            }
            throw fail("unterminated string")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard bytes.count - index >= 4, let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
                throw fail("a \\u escape needs four hex digits")
            }
            index += 4
            return value
        }
    }
}

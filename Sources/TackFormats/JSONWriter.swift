// Writing JSON text: the one serializer of every JSON document Tack produces (pin
// failure reports, every `--format json` document and NDJSON line of the `tack`
// command, the SARIF log). Values are built as `JSONValue`s and written here; no
// output is concatenated as text, and no Foundation coder is used.

extension JSONValue {
    /// The value as JSON text (RFC 8259), with no trailing newline.
    ///
    /// The output is deterministic: object members are written in the order the value
    /// holds them (the order they were built or read in), and the same value always
    /// gives the same text. Strings get the escapes of RFC 8259 §7: the quotation mark,
    /// the reverse solidus and every control character U+0000–U+001F (`\n`, `\r`, `\t`
    /// by name, the others as `\u00XX`); every other scalar is written as UTF-8. A Swift
    /// `String` holds Unicode scalars only, so it cannot carry a lone surrogate, and none
    /// is ever written (``JSONReader`` refuses them on input). Numbers are written as
    /// their ``JSONNumber/literal``, which reads back to the same value.
    ///
    /// - Parameter pretty: `true` (the default) indents by two spaces per level and keeps
    ///   an array of scalars on one line; `false` writes one line with no spaces (NDJSON).
    /// - Returns: The JSON text.
    public func serialized(pretty: Bool = true) -> String {
        var text = ""
        write(to: &text, pretty: pretty, indent: 0)
        return text
    }

    private func write(to text: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let number): text += number.literal
        case .string(let value): JSONValue.writeString(value, to: &text)
        case .array(let items):
            guard !items.isEmpty else { text += "[]"; return }
            // Arrays of scalars stay on one line: pins and names read best that way.
            let inline = !pretty || items.allSatisfy { $0.isScalar }
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += inline && pretty ? ", " : "," }
                if !inline { JSONValue.newline(&text, indent + 1) }
                item.write(to: &text, pretty: pretty, indent: indent + 1)
            }
            if !inline { JSONValue.newline(&text, indent) }
            text += "]"
        case .object(let members):
            guard !members.isEmpty else { text += "{}"; return }
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                if pretty { JSONValue.newline(&text, indent + 1) }
                JSONValue.writeString(member.key, to: &text)
                text += pretty ? ": " : ":"
                member.value.write(to: &text, pretty: pretty, indent: indent + 1)
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
        for _ in 0..<indent { text += "  " }
    }

    /// Appends `value` as a string literal with RFC 8259 §7's mandatory escapes.
    static func writeString(_ value: String, to text: inout String) {
        text += "\""
        // Every character JSON escapes is a single ASCII byte (a quote, a backslash, a
        // control), so a text without one is its own literal: one pass over the UTF-8
        // bytes instead of decoding scalars (tack-bench `scan-ca-bundle`, where nearly
        // every value is such a text). The seeded test "the writer's escaping equals
        // scalar-by-scalar escaping" holds both ways to the same output.
        if value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += TextEscaping.replacing(value, jsonEscape)
        } else {
            text += value
        }
        text += "\""
    }

    /// The escape of one scalar in a JSON string, or `nil` when it is written as it is.
    static func jsonEscape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case _ where scalar.value < 0x20:
            "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        default: nil
        }
    }
}

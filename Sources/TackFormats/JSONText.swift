// Writing JSON text.

/// JSON text output (pin reports, the `tack` command's `--json` output): string
/// literals escaped per RFC 8259 §7.
public enum JSONText {
    /// A string literal with the mandatory escapes (quote, backslash, controls).
    ///
    /// - Parameter text: The text.
    /// - Returns: The JSON string literal, quotes included.
    public static func string(_ text: String) -> String {
        // Every character JSON escapes is a single ASCII byte (a quote, a backslash,
        // a control), so a text without one is its own literal: one pass over the
        // UTF-8 bytes instead of decoding scalars (tack-bench `scan-ca-bundle`, where
        // nearly every value is such a text). The seeded test "JSONText equals
        // scalar-by-scalar escaping" holds both ways to the same output.
        let escaped = text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            ? escapingScalars(text) : text
        var literal = "\""
        literal.reserveCapacity(escaped.utf8.count &+ 2)
        literal += escaped
        literal += "\""
        return literal
    }

    private static func escapingScalars(_ text: String) -> String {
        TextEscaping.replacing(text) { scalar in
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

    /// An array of string literals.
    ///
    /// - Parameter texts: The texts.
    /// - Returns: A JSON array of string literals.
    public static func strings(_ texts: [String]) -> String {
        "[" + texts.map(string).joined(separator: ", ") + "]"
    }
}

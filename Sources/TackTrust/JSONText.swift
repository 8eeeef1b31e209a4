// Writing JSON text.

/// JSON text output (pin reports, the `tack` command's `--json` output): string
/// literals escaped per RFC 8259 §7.
public enum JSONText {
    /// A string literal with the mandatory escapes (quote, backslash, controls).
    public static func string(_ text: String) -> String {
        let escaped = TextEscaping.replacing(text) { scalar in
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
        return "\"" + escaped + "\""
    }

    /// An array of string literals.
    public static func strings(_ texts: [String]) -> String {
        "[" + texts.map(string).joined(separator: ", ") + "]"
    }
}

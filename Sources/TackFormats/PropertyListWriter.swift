import TackDER

// Writing XML property lists as Xcode writes them.

extension PropertyList {
    /// The XML document for `value`, as Xcode writes it: the XML declaration, Apple's
    /// DOCTYPE, `<plist version="1.0">`, one element per line indented by tabs.
    ///
    /// - Parameter value: The root value.
    /// - Returns: The whole document, XML declaration and DOCTYPE included.
    public static func xmlDocument(_ value: PropertyListValue) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(value, indent: 0, into: &out)
        out += "</plist>\n"
        return out
    }

    /// The XML elements of `value` alone (no declaration or `<plist>`), each line
    /// indented by `indent` tabs: a fragment to paste into an existing `Info.plist`.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - indent: The indentation level of its first line.
    /// - Returns: The value's XML.
    public static func xmlFragment(_ value: PropertyListValue, indent: Int = 0) -> String {
        var out = ""
        write(value, indent: indent, into: &out)
        return out
    }

    private static func write(_ value: PropertyListValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "\t", count: indent)
        switch value {
        case .dictionary(let dictionary):
            if dictionary.isEmpty {
                out += pad + "<dict/>\n"
                return
            }
            out += pad + "<dict>\n"
            for entry in dictionary.entries {
                out += pad + "\t<key>" + escaped(entry.key) + "</key>\n"
                write(entry.value, indent: indent + 1, into: &out)
            }
            out += pad + "</dict>\n"
        case .array(let items):
            if items.isEmpty {
                out += pad + "<array/>\n"
                return
            }
            out += pad + "<array>\n"
            for item in items { write(item, indent: indent + 1, into: &out) }
            out += pad + "</array>\n"
        case .string(let text): out += pad + "<string>" + escaped(text) + "</string>\n"
        case .integer(let number): out += pad + "<integer>\(number)</integer>\n"
        case .real(let number): out += pad + "<real>\(number)</real>\n"
        case .boolean(let flag): out += pad + (flag ? "<true/>\n" : "<false/>\n")
        case .date(let seconds):
            let text = (try? DERTime(secondsSince1970: seconds))?.description ?? "1970-01-01T00:00:00Z"
            out += pad + "<date>" + text + "</date>\n"
        case .data(let bytes): out += pad + "<data>" + Base64.encode(bytes) + "</data>\n"
        }
    }

    /// `text` with `&`, `<` and `>` escaped for element content.
    private static func escaped(_ text: String) -> String {
        TextEscaping.replacing(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            default: nil
            }
        }
    }
}

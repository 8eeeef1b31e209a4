// Escaping text for output: the one loop behind JSONText's string literals and the
// property-list writer's element content.

enum TextEscaping {
    /// `text` with every scalar for which `replacement` gives a string replaced by
    /// that string, and every other scalar kept.
    static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                out += replaced
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

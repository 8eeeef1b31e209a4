// Escaping text for output: the one loop behind the JSON writer's string literals and the
// property-list writer's element content.

enum TextEscaping {
    /// `text` with every scalar for which `replacement` gives a string replaced by
    /// that string, and every other scalar kept.
    static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        // Runs of kept scalars are copied whole, and a text with nothing to
        // replace (nearly every name and value) is returned as it is: scalar by
        // scalar appending was a third of `tack scan`'s instructions.
        let scalars = text.unicodeScalars
        var out = ""
        var runStart = scalars.startIndex
        var index = runStart
        var replacedAny = false
        while index < scalars.endIndex {
            let next = scalars.index(after: index)
            if let replaced = replacement(scalars[index]) {
                if !replacedAny { out.reserveCapacity(text.utf8.count &+ 8) }
                replacedAny = true
                out += String(scalars[runStart..<index])
                out += replaced
                runStart = next
            }
            index = next
        }
        guard replacedAny else { return text }
        out += String(scalars[runStart...])
        return out
    }
}

/// Equality and hashing of text by its UTF-8 bytes, for the names and URIs that
/// TackTrust's values hold (ASCII host names, pin rule domains, report URIs).
///
/// `String`'s own `==` and `hash(into:)` compare by canonical equivalence, which needs
/// the standard library's Unicode normalisation tables (about 37 KB in a firmware
/// image, issue 36); for these texts the bytes are the identity (host names and
/// domains are lowercase ASCII once normalised), so nothing is lost.
enum TextBytes {
    /// Whether `a` and `b` have the same UTF-8 bytes.
    static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// Whether two lists of texts are equal element by element, by bytes.
    static func equal(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
    }

    /// Feeds `text`'s UTF-8 bytes, and their count, to `hasher` (at once when the
    /// string is stored contiguously, as native strings are).
    static func hash(_ text: String, into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}

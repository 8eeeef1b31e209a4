/// Text as its UTF-8 bytes: equality, hashing and in-place access for the names and
/// URIs that TackTrust's values hold (ASCII host names, pin rule domains, report URIs).
///
/// `String`'s own `==` and `hash(into:)` compare by canonical equivalence, which needs
/// the standard library's Unicode normalisation tables (about 37 KB in a firmware
/// image, issue 36); for these texts the bytes are the identity (host names and
/// domains are lowercase ASCII once normalised), so nothing is lost. The generic
/// algorithms over `String.UTF8View` (`elementsEqual`, `starts(with:)`, `map`,
/// iterators) step by `String.Index`, whose general code (UTF-16 offsets, index
/// breadcrumbs) a firmware image would link for them: every reading goes through
/// ``withUTF8(_:_:)`` and works on a buffer with integer indices.
enum TextBytes {
    /// Runs `body` on `text`'s UTF-8 bytes: in place for a native or small string
    /// (contiguous, as every string of Embedded Swift and Linux is), on a copy for
    /// a bridged one.
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var result: Result?
        forUTF8(of: text) { result = body($0) }
        // `forUTF8(of:_:)` calls its closure exactly once.
        guard let result else { preconditionFailure("TextBytes.forUTF8 did not call its closure") }
        return result
    }

    /// ``withUTF8(_:_:)``'s access to the bytes, once in an image: unoptimised, so
    /// that the optimiser does not clone it with each caller's closure (a copy of
    /// `withContiguousStorageIfAvailable`'s small-string handling per call site,
    /// about 250 bytes each on a Cortex-M4). On 32-bit targets only: unoptimised on a
    /// 64-bit host, the generic call costs the cached verdicts (`e2e-*-cached`) about
    /// 19,000 instructions, 8 to 14%.
    #if _pointerBitWidth(_32)
    @inline(never) @_optimize(none)
    #endif
    private static func forUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) != nil { return }
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether `a` and `b` have the same UTF-8 bytes.
    static func equal(_ a: String, _ b: String) -> Bool {
        withUTF8(a) { a in withUTF8(b) { b in a.elementsEqual(b) } }
    }

    /// Whether two lists of texts are equal element by element, by bytes.
    static func equal(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
    }

    /// Feeds `text`'s UTF-8 bytes, and their count, to `hasher`.
    static func hash(_ text: String, into hasher: inout Hasher) {
        withUTF8(text) { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}

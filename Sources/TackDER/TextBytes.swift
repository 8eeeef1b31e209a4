/// Text as its UTF-8 bytes, for every module: in-place reading of a `String`, and
/// the one way back from bytes to a `String`.
///
/// `String`'s own `==` and `hash(into:)` compare by canonical equivalence, which needs
/// the standard library's Unicode normalisation tables (about 37 KB in a firmware
/// image, issue 36); for the texts Tack holds (ASCII host names, pin rule domains,
/// report URIs, pin and hex text) the bytes are the identity, so nothing is lost. The
/// generic algorithms over `String.UTF8View` (`Array(text.utf8)`, `elementsEqual`,
/// `starts(with:)`, `map`, iterators) step by `String.Index`, whose general code
/// (UTF-16 offsets, index breadcrumbs) a firmware image would link for them: every
/// reading goes through ``withUTF8(_:_:)`` and works on a buffer with integer
/// indices. `String(decoding:as:)` repairs ill-formed input and links the repairing
/// and growing code; ``string(validUTF8:)`` validates instead.
///
/// A `package` function's body is not available to other modules, so its generic
/// forms run unspecialised there: the verdict's callers in other modules use the
/// non-generic ``forUTF8(of:_:)``.
package enum TextBytes {
    /// Runs `body` on `text`'s UTF-8 bytes, in place: a native or small string is
    /// contiguous, as every string of Embedded Swift and Linux is; a bridged one (a
    /// platform with Objective-C) is copied first.
    package static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var result: Result?
        forUTF8(of: text) { result = body($0) }
        // `forUTF8(of:_:)` calls its closure exactly once.
        guard let result else { preconditionFailure("TextBytes.forUTF8 did not call its closure") }
        return result
    }

    /// ``withUTF8(_:_:)``'s access to the bytes, and the form other modules call on a
    /// hot path: a generic `package` function is not specialised across modules (its
    /// body is not serialised for them), and unspecialised it instantiates
    /// `Optional<Result>`'s metadata at run time on every call (e2e-*-cached: +30%
    /// instructions on the host). Once in an image: unoptimised, so
    /// that the optimiser does not clone it with each caller's closure (a copy of
    /// `withContiguousStorageIfAvailable`'s small-string handling per call site,
    /// about 250 bytes each on a Cortex-M4). On 32-bit targets only: unoptimised on a
    /// 64-bit host, the generic call costs the cached verdicts (`e2e-*-cached`) about
    /// 19,000 instructions, 8 to 14%.
    #if _pointerBitWidth(_32)
    @inline(never) @_optimize(none)
    #endif
    package static func forUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) != nil { return }
        #if _runtime(_ObjC)
        // A bridged NSString: copied once, through the generic view.
        Array(text.utf8).withUnsafeBufferPointer(body)
        #else
        // Without Objective-C every String is native or small, both contiguous UTF-8
        // (`_StringGuts.isFastUTF8`); only a bridged string is not. The copy that
        // would serve one is left out, with the String.Index code it links.
        preconditionFailure("a String without Objective-C bridging is always contiguous UTF-8")
        #endif
    }

    /// A copy of `text`'s UTF-8 bytes.
    package static func bytes(_ text: String) -> [UInt8] {
        withUTF8(text) { Array($0) }
    }

    /// The text of `utf8`, or `nil` when it is not well-formed UTF-8 (it is validated,
    /// never repaired).
    package static func string(validUTF8 utf8: some Collection<UInt8>) -> String? {
        String(validating: utf8, as: UTF8.self)
    }

    /// The text of bytes this code wrote itself from ASCII and from the UTF-8 of other
    /// strings (hex digits and separators, addresses, lowercased host names), which are
    /// well-formed by construction; validated all the same, and empty if they were not.
    package static func string(writtenUTF8 utf8: some Collection<UInt8>) -> String {
        String(validating: utf8, as: UTF8.self) ?? ""
    }

    /// Whether `a` and `b` have the same UTF-8 bytes.
    package static func equal(_ a: String, _ b: String) -> Bool {
        withUTF8(a) { a in withUTF8(b) { b in a.elementsEqual(b) } }
    }

    /// Whether two lists of texts are equal element by element, by bytes.
    package static func equal(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
    }

    /// Feeds `text`'s UTF-8 bytes, and their count, to `hasher`.
    package static func hash(_ text: String, into hasher: inout Hasher) {
        withUTF8(text) { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}

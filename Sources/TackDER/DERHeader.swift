// The one parser of DER element headers (identifier and length octets) in Tack.
// Every reader goes through it: DERReader's reads, DERTree's walk,
// DERElement(headerIn:at:end:), and through those every X.509 decoder.

extension DERReader {
    /// Parses one element header at relative index `start` of `buffer[..<end]` and
    /// returns the element (absolute offsets: relative + `origin`) and the relative
    /// index just past its contents.
    ///
    /// Identifier octets follow X.690 §8.1.2 (high tag numbers minimal, at most
    /// four octets: Tack's cap, as webpki's), length octets §8.1.3 in DER's
    /// definite, minimal form (§10.1), with at most four octets of length; the
    /// contents must fit before `end` and within `maximumLength`.
    ///
    /// The fast path comes first, inside this function: a low tag number (every
    /// tag X.509 uses) with a short-form length, or a minimal one- or two-octet
    /// long form (`81 nn` with nn ≥ 0x80, `82 nnnn` with a nonzero first octet:
    /// certificates, names, keys and extension lists). When it does not apply or
    /// any check fails, the general path below decides and names the error.
    ///
    /// - Precondition: `0 <= start` and `end <= buffer.count` (every caller's
    ///   invariant: a reader's cursor and end always lie within its buffer).
    /// - Returns: The element and the relative index just past it.
    /// - Throws: ``DERError`` for a truncated, non-minimal, indefinite or too
    ///   long header, or contents that run past `end` or `maximumLength`.
    ///
    /// Inlined into every read on 64-bit targets, where the fast path pays for its
    /// copies (`x509-parse`, `e2e-*`); called, once in the image, on 32-bit targets,
    /// where the copies (one per read site of every decoder, about 100 bytes each)
    /// were the largest single share of a firmware image's DER code (issue 36).
    @inlinable
    #if _pointerBitWidth(_32)
    @inline(never)
    #else
    @inline(__always)
    #endif
    internal static func parseElement(
        in buffer: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, origin: Int, maximumLength: Int
    ) throws(DERError) -> (element: DERElement, next: Int) {
        // Fast path. start >= 0 and end <= buffer.count (precondition), and each
        // read below is at an index under end, checked first: all in bounds.
        if end &- start >= 2, let base = buffer.baseAddress {
            let first = base[start]
            let lengthByte = base[start &+ 1]
            if first & 0x1F != 0x1F {
                var length = Int(lengthByte)
                var contentStart = start &+ 2
                if lengthByte >= 0x80 {
                    if lengthByte == 0x81, end &- start >= 3, base[start &+ 2] >= 0x80 {
                        length = Int(base[start &+ 2])
                        contentStart = start &+ 3
                    } else if lengthByte == 0x82, end &- start >= 4, base[start &+ 2] != 0 {
                        length = Int(base[start &+ 2]) << 8 | Int(base[start &+ 3])
                        contentStart = start &+ 4
                    } else {
                        length = -1
                    }
                }
                // length < 2^16 and contentStart <= end: no overflow below.
                if length >= 0 && length <= end &- contentStart && length <= maximumLength {
                    let tag = DERTag(leadingBits: first, number: UInt32(first & 0x1F))
                    let absolute = origin + contentStart
                    return (DERElement(tag: tag, offset: origin + start, contentRange: absolute..<(absolute + length)),
                            contentStart &+ length)
                }
            }
        }

        return try parseInGeneral()

        /// The general path: high tag numbers, long-form lengths beyond the fast
        /// path's, and every error. Outlined (`@inline(never)`) so that only the
        /// fast path above is copied into each call site (DERReader's reads are
        /// inlined into every decoder of TackX509); a build that inlined all of
        /// it measured far above the 12,813 instructions per certificate of
        /// Benchmarks/count-instructions.sh x509-parse.
        @inline(never)
        func parseInGeneral() throws(DERError) -> (element: DERElement, next: Int) {
            let elementOffset = origin + start
            var index = start
            guard index < end else { throw DERError(.truncated, at: elementOffset) }
            let first = buffer[index]
            index += 1

            // Identifier octets (X.690 §8.1.2).
            var number = UInt32(first & 0x1F)
            if number == 0x1F {
                // High-tag-number form (§8.1.2.4): base-128, first octet not 0x80, value >= 31.
                number = 0
                var octets = 0
                while true {
                    guard index < end else { throw DERError(.truncated, at: elementOffset) }
                    let byte = buffer[index]
                    index += 1
                    if octets == 0 && byte == 0x80 { throw DERError(.nonMinimalTagNumber, at: elementOffset) }
                    octets += 1
                    guard octets <= 4 else { throw DERError(.tagNumberTooLarge, at: elementOffset) }
                    // At most 4 octets of 7 bits: fits in 28 bits, no overflow.
                    number = (number << 7) | UInt32(byte & 0x7F)
                    if byte & 0x80 == 0 { break }
                }
                guard number >= 31 else { throw DERError(.nonMinimalTagNumber, at: elementOffset) }
            }
            let tag = DERTag(leadingBits: first, number: number)

            // Length octets (X.690 §8.1.3, §10.1).
            guard index < end else { throw DERError(.truncated, at: elementOffset) }
            let lengthByte = buffer[index]
            index += 1
            var length: Int
            if lengthByte < 0x80 {
                length = Int(lengthByte)
            } else if lengthByte == 0x80 {
                throw DERError(.indefiniteLength, at: elementOffset)
            } else {
                let count = Int(lengthByte & 0x7F)
                // 0xFF is reserved (§8.1.3.5 c); more than 4 octets is beyond Tack's cap.
                guard count <= 4 else { throw DERError(.unsupportedLength, at: elementOffset) }
                guard end - index >= count else { throw DERError(.truncated, at: elementOffset) }
                guard buffer[index] != 0 else { throw DERError(.nonMinimalLength, at: elementOffset) }
                // At most 4 octets: the value is below 2^32, which fits UInt32 on every
                // platform but not a 32-bit Int (where 2^31 and above would wrap
                // negative and be misreported as non-minimal).
                var value: UInt32 = 0
                for _ in 0..<count {
                    value = (value << 8) | UInt32(buffer[index])
                    index += 1
                }
                guard value >= 0x80 else { throw DERError(.nonMinimalLength, at: elementOffset) }
                // Compared as unsigned (UInt holds any UInt32 and end - index >= 0),
                // so the conversion to Int below cannot trap.
                guard UInt(value) <= UInt(end - index) else { throw DERError(.lengthExceedsInput, at: elementOffset) }
                length = Int(value)
            }
            guard length <= end - index else { throw DERError(.lengthExceedsInput, at: elementOffset) }
            guard length <= maximumLength else { throw DERError(.elementTooLarge, at: elementOffset) }
            let contentStart = origin + index
            return (DERElement(tag: tag, offset: elementOffset, contentRange: contentStart..<(contentStart + length)), index + length)
        }
    }
}

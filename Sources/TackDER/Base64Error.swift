/// The reason a Base64 text was rejected by one of ``Base64``'s decoders.
///
/// Every case carries the byte offset of the offending character, counted from
/// the first byte of the input (or, when the text is the body of a PEM block,
/// from the first byte of the whole PEM input). An offset equal to the input's
/// length means "at the end of the input", for example where padding was
/// expected but the text stopped.
///
/// When an input breaks several rules, the error describes the first offending
/// character in input order; the checks that need the whole text (padding
/// count, length, trailing bits) are made at the end, in the order listed here.
public enum Base64Error: Error, Equatable, Sendable {
    /// A byte that is neither in the Base64 alphabet of RFC 4648 §4 (Table 1)
    /// nor the pad character `=`; with
    /// ``Base64/DecodingOptions/ignoringWhitespace`` whitespace is skipped
    /// instead of being reported here.
    ///
    /// - Parameters:
    ///   - byte: The rejected byte.
    ///   - offset: Its byte offset.
    case invalidCharacter(UInt8, offset: Int)

    /// A `=` in a position where padding cannot be: at the start of a
    /// 4-character quantum, or followed by another alphabet character
    /// (RFC 4648 §3.3: padding only ends the data). The offset is that of the
    /// misplaced `=` (the first `=` of the run when data follows it).
    case misplacedPadding(offset: Int)

    /// The final quantum has the wrong number of `=`: too many (`QUI==`,
    /// reported at the first excess `=`) or too few (`QQ=`, reported at the
    /// end of the data, where the missing `=` belongs). RFC 4648 §4 allows
    /// exactly `xx==` and `xxx=`.
    case invalidPadding(offset: Int)

    /// The text ends with a 2- or 3-character quantum and no padding at all.
    /// RFC 4648 §3.2 requires padding unless a specification says otherwise;
    /// none of Tack's formats (PEM, pins) do. The offset is the end of the
    /// data.
    case missingPadding(offset: Int)

    /// The text's length is impossible for Base64: a quantum holds a single
    /// alphabet character, which encodes only 6 bits (RFC 4648 §4 produces
    /// 2, 3 or 4 characters per quantum). The offset is that of the lone
    /// character.
    case invalidLength(offset: Int)

    /// The last alphabet character carries bits that no output byte uses, and
    /// they are not zero (RFC 4648 §3.5: encoders set them to zero; rejecting
    /// them makes the encoding canonical, so each byte string has exactly one
    /// accepted text). The offset is that of the character.
    case nonZeroTrailingBits(offset: Int)

    /// The byte offset of the offending character (see the discussion of
    /// ``Base64Error`` for how offsets are counted).
    public var offset: Int {
        switch self {
        case .invalidCharacter(_, let offset),
            .misplacedPadding(let offset),
            .invalidPadding(let offset),
            .missingPadding(let offset),
            .invalidLength(let offset),
            .nonZeroTrailingBits(let offset):
            return offset
        }
    }
}

extension Base64Error: CustomStringConvertible {
    /// A one-line description with the offset, for diagnostics.
    public var description: String {
        switch self {
        case .invalidCharacter(let byte, let offset):
            let shown = byte >= 0x20 && byte < 0x7F ? "'\(String(Unicode.Scalar(byte)))'" : "byte \(byte)"
            return "Base64 error at byte \(offset): \(shown) is not in the alphabet"
        case .misplacedPadding(let offset): return "Base64 error at byte \(offset): '=' before the end"
        case .invalidPadding(let offset): return "Base64 error at byte \(offset): wrong padding"
        case .missingPadding(let offset): return "Base64 error at byte \(offset): missing '=' padding"
        case .invalidLength(let offset): return "Base64 error at byte \(offset): length is not a multiple of 4"
        case .nonZeroTrailingBits(let offset): return "Base64 error at byte \(offset): non-zero trailing bits"
        }
    }
}

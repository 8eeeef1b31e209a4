/// The reason a PEM input was rejected by one of ``PEM``'s parsers.
///
/// Offsets count bytes from the first byte of the whole input, so a tool can
/// point at the broken line of a file.
public enum PEMError: Error, Equatable, Sendable {
    /// The input holds no PEM block, and the caller asked for at least one.
    case noBlock

    /// A line that starts like an encapsulation boundary (`-----BEGIN ` or
    /// `-----END `) is not one: the closing `-----` is missing, the label
    /// breaks the `label` grammar of RFC 7468 §3 (printable ASCII except `-`,
    /// single spaces or hyphens only between characters), or something other
    /// than whitespace follows the closing `-----`.
    ///
    /// - Parameter offset: The offset of the line's first byte.
    case malformedBoundary(offset: Int)

    /// A `-----BEGIN label-----` line has no matching `-----END label-----`
    /// line: the input ends, or another BEGIN line starts, first
    /// (RFC 7468 §2: every pre-encapsulation boundary is followed by a
    /// post-encapsulation boundary).
    ///
    /// - Parameter offset: The offset of the unterminated block's BEGIN line
    ///   (the label is there, in the caller's input).
    case missingEndLine(offset: Int)

    /// The END line's label differs from the BEGIN line's (RFC 7468 §2: the
    /// labels must match).
    ///
    /// - Parameters:
    ///   - beginOffset: The offset of the BEGIN line.
    ///   - offset: The offset of the END line.
    case labelMismatch(beginOffset: Int, offset: Int)

    /// An END line outside any block, which usually means the input was cut
    /// or spliced and a BEGIN line was lost.
    ///
    /// - Parameter offset: The offset of the END line.
    case unmatchedEndLine(offset: Int)

    /// The body of a block is not valid Base64 (RFC 7468 §3, with whitespace
    /// between characters allowed). The wrapped error's offset counts from
    /// the start of the whole PEM input, not from the body.
    case invalidBase64(Base64Error)

    /// The byte offset the error refers to, or `nil` for ``noBlock``.
    public var offset: Int? {
        switch self {
        case .noBlock:
            return nil
        case .malformedBoundary(let offset),
            .missingEndLine(let offset),
            .labelMismatch(_, let offset),
            .unmatchedEndLine(let offset):
            return offset
        case .invalidBase64(let error):
            return error.offset
        }
    }
}

extension PEMError: CustomStringConvertible {
    /// A one-line description with the offset, for diagnostics.
    public var description: String {
        switch self {
        case .noBlock: return "PEM error: no PEM block found"
        case .malformedBoundary(let offset): return "PEM error at byte \(offset): malformed BEGIN/END line"
        case .missingEndLine(let offset):
            return "PEM error at byte \(offset): the BEGIN line has no END line"
        case .labelMismatch(let beginOffset, let offset):
            return "PEM error at byte \(offset): the END label differs from the BEGIN label at byte \(beginOffset)"
        case .unmatchedEndLine(let offset): return "PEM error at byte \(offset): END line without a BEGIN line"
        case .invalidBase64(let error): return "PEM block: \(error)"
        }
    }
}

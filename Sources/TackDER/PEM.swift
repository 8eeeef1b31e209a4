/// One PEM block: a label and the bytes its Base64 body decodes to.
///
/// For `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----` the label is
/// `CERTIFICATE` and ``bytes`` is the DER certificate.
public struct PEMBlock: Equatable, Sendable {
    /// The label of the block's BEGIN and END lines, for example
    /// `CERTIFICATE`, `PUBLIC KEY` or `PRIVATE KEY` (RFC 7468 §4–§13).
    public var label: String

    /// The decoded body, usually DER.
    public var bytes: [UInt8]

    /// The byte offset of the block's BEGIN line in the parsed input (the
    /// first byte of the line), so a caller can tell blocks apart in messages.
    public var offset: Int

    /// Creates a block.
    ///
    /// - Parameters:
    ///   - label: The label; see ``PEM/isValidLabel(_:)`` for the grammar
    ///     ``PEM/encode(label:bytes:)`` requires.
    ///   - bytes: The body bytes.
    ///   - offset: The byte offset of the BEGIN line; 0 for a block that did
    ///     not come from a parse.
    public init(label: String, bytes: [UInt8], offset: Int = 0) {
        self.label = label
        self.bytes = bytes
        self.offset = offset
    }
}

/// PEM, the textual encoding of RFC 7468: parsing any number of blocks from
/// one input, and encoding.
///
/// The parser is "lax" in the sense of RFC 7468 §3 where real files need it
/// and strict elsewhere:
///
/// - Text before, between and after blocks is ignored, so the whole output of
///   `openssl s_client -showcerts` yields its certificates.
/// - Boundary lines may be indented and followed by spaces, tabs or a CR;
///   lines may end in LF or CRLF.
/// - Inside a body, whitespace (including blank lines) is ignored and lines
///   may have any length, but the Base64 itself is strict (``Base64``):
///   padding is required, `=` only at the end, no stray characters. RFC 1421
///   headers such as `Proc-Type:` are therefore rejected.
/// - Every BEGIN line needs an END line with the same label before the next
///   BEGIN line, and a line that looks like a boundary but is malformed is an
///   error rather than text, so a damaged file is never read as fewer
///   certificates without a word.
///
/// ```swift
/// for block in try PEM.parse(text, requiresBlock: true) where block.label == "CERTIFICATE" {
///     use(block.bytes)
/// }
/// ```
public enum PEM {
    /// The longest label `parse(_:requiresBlock:)`
    /// accepts, in bytes. RFC 7468 sets no limit; the longest label it
    /// defines (`ATTRIBUTE CERTIFICATE`) has 21 characters, so 64 leaves
    /// room for private labels while keeping error payloads small.
    public static let maximumLabelLength = 64

    /// Parses every PEM block in a text.
    ///
    /// - Parameters:
    ///   - text: The input; offsets count its UTF-8 bytes from the first one.
    ///   - requiresBlock: Throw ``PEMError/noBlock`` if the input holds no
    ///     block at all. By default an input without blocks gives `[]`.
    /// - Returns: The blocks in input order.
    /// - Throws: ``PEMError`` for the first broken block; see the cases for
    ///   the rules.
    public static func parse<Text: StringProtocol>(
        _ text: Text,
        requiresBlock: Bool = false
    ) throws(PEMError) -> [PEMBlock] {
        try parse(text.utf8, requiresBlock: requiresBlock)
    }

    /// Parses every PEM block in bytes, for example a file's contents.
    ///
    /// - Parameters:
    ///   - bytes: The input; offsets count from its first byte (not from a
    ///     slice's `startIndex`).
    ///   - requiresBlock: Throw ``PEMError/noBlock`` if the input holds no
    ///     block at all. By default an input without blocks gives `[]`.
    /// - Returns: The blocks in input order.
    /// - Throws: ``PEMError`` for the first broken block; see the cases for
    ///   the rules.
    public static func parse<Bytes: Collection<UInt8>>(
        _ bytes: Bytes,
        requiresBlock: Bool = false
    ) throws(PEMError) -> [PEMBlock] {
        let fast = bytes.withContiguousStorageIfAvailable { input in
            parseBuffer(input, requiresBlock: requiresBlock)
        }
        let result: Result<[PEMBlock], PEMError>
        if let fast {
            result = fast
        } else {
            let copy = Array(bytes)
            result = copy.withUnsafeBufferPointer { parseBuffer($0, requiresBlock: requiresBlock) }
        }
        return try result.get()
    }

    /// Encodes bytes as one PEM block: the BEGIN line, the Base64 body in
    /// lines of 64 characters, and the END line, each ending in LF
    /// (the strict form of RFC 7468 §3). An empty body gives no body line.
    ///
    /// - Parameters:
    ///   - label: The label, for example `CERTIFICATE`. It must satisfy
    ///     ``isValidLabel(_:)``; labels are constants chosen by the caller,
    ///     so an invalid one is a programming error and traps.
    ///   - bytes: The bytes to encode.
    /// - Returns: The PEM text, ending in a line feed.
    public static func encode<Bytes: Collection<UInt8>>(label: String, bytes: Bytes) -> String {
        precondition(isValidLabel(label), "PEM.encode: label breaks the RFC 7468 §3 grammar")
        let body = Base64.encodedBytes(bytes)
        let lineLength = 64  // RFC 7468 §2: "exactly 64 characters" per full line
        let labelBytes = Array(label.utf8)
        var out: [UInt8] = []
        // Both boundaries (11 + 9 fixed bytes, 2 × 6 for dashes and LF) plus
        // the body and one LF per body line.
        out.reserveCapacity(32 + 2 * labelBytes.count + body.count + body.count / lineLength + 1)
        out.append(contentsOf: beginPrefix)
        out.append(contentsOf: labelBytes)
        out.append(contentsOf: dashes)
        out.append(lineFeed)
        var start = 0
        while start < body.count {
            let end = min(start + lineLength, body.count)
            out.append(contentsOf: body[start..<end])
            out.append(lineFeed)
            start = end
        }
        out.append(contentsOf: endPrefix)
        out.append(contentsOf: labelBytes)
        out.append(contentsOf: dashes)
        out.append(lineFeed)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `label` is a valid PEM label: at most ``maximumLabelLength``
    /// bytes of printable ASCII other than `-` (RFC 7468 §3 `labelchar`),
    /// where a single space or hyphen may separate two such characters.
    /// The empty label is valid.
    ///
    /// - Parameter label: The label to check.
    /// - Returns: `true` if ``encode(label:bytes:)`` accepts the label and
    ///   `parse(_:requiresBlock:)` reads it back.
    public static func isValidLabel<Text: StringProtocol>(_ label: Text) -> Bool {
        let bytes = Array(label.utf8)
        return bytes.withUnsafeBufferPointer { isValidLabel($0, from: 0, to: $0.count) }
    }
}

// MARK: - Implementation

extension PEM {
    private static let beginPrefix: [UInt8] = Array("-----BEGIN ".utf8)
    private static let endPrefix: [UInt8] = Array("-----END ".utf8)
    private static let dashes: [UInt8] = Array("-----".utf8)
    private static let lineFeed = UInt8(ascii: "\n")

    /// RFC 7468 §3: `labelchar = %x21-2C / %x2E-7E` (printable, not `-`).
    private static func isLabelCharacter(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte <= 0x7E && byte != UInt8(ascii: "-")
    }

    /// RFC 7468 §3: `label = [ labelchar *( ["-" / SP] labelchar ) ]`, plus
    /// Tack's length cap.
    private static func isValidLabel(_ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard end - start <= maximumLabelLength else { return false }
        var previousWasSeparator = true  // a label may not start with a separator
        var i = start
        while i < end {
            let byte = input[i]
            if isLabelCharacter(byte) {
                previousWasSeparator = false
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") {
                if previousWasSeparator { return false }
                previousWasSeparator = true
            } else {
                return false
            }
            i += 1
        }
        // Empty, or ends with a labelchar.
        return start == end || !previousWasSeparator
    }

    /// Whether `input[at...]` starts with `prefix`.
    private static func hasPrefix(_ input: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, _ prefix: [UInt8]) -> Bool {
        guard end - start >= prefix.count else { return false }
        var k = 0
        while k < prefix.count {
            if input[start + k] != prefix[k] { return false }
            k += 1
        }
        return true
    }

    /// What a line is, for the parser.
    private enum LineKind {
        case text
        case begin(label: String)
        case end(label: String)
    }

    /// Classifies the line `input[start..<end]` (without its LF): a BEGIN or
    /// END boundary, ordinary text, or a malformed boundary.
    private static func classifyLine(
        _ input: UnsafeBufferPointer<UInt8>,
        start: Int,
        end: Int
    ) -> Result<LineKind, PEMError> {
        // Boundaries may be indented by spaces or tabs.
        var p = start
        while p < end, input[p] == UInt8(ascii: " ") || input[p] == UInt8(ascii: "\t") {
            p += 1
        }
        let isBegin: Bool
        if hasPrefix(input, at: p, end: end, beginPrefix) {
            isBegin = true
            p += beginPrefix.count
        } else if hasPrefix(input, at: p, end: end, endPrefix) {
            isBegin = false
            p += endPrefix.count
        } else {
            return .success(.text)
        }
        // The label runs to the first "--"; a valid label never contains two
        // consecutive hyphens, so the closing "-----" must start there.
        let labelStart = p
        while p < end, !(input[p] == UInt8(ascii: "-") && end - p >= 2 && input[p + 1] == UInt8(ascii: "-")) {
            p += 1
        }
        let labelEnd = p
        guard hasPrefix(input, at: p, end: end, dashes),
            isValidLabel(input, from: labelStart, to: labelEnd)
        else {
            return .failure(.malformedBoundary(offset: start))
        }
        p += dashes.count
        // Only trailing whitespace (including the CR of CRLF) may follow.
        while p < end {
            guard Base64.isWhitespace(input[p]) else {
                return .failure(.malformedBoundary(offset: start))
            }
            p += 1
        }
        let label = String(decoding: UnsafeBufferPointer(rebasing: input[labelStart..<labelEnd]), as: UTF8.self)
        return .success(isBegin ? .begin(label: label) : .end(label: label))
    }

    /// The end of the line starting at `start`: the offset of its LF, or the
    /// input's end.
    private static func lineEnd(_ input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < input.count, input[i] != lineFeed {
            i += 1
        }
        return i
    }

    /// The parser proper: one pass over the lines.
    private static func parseBuffer(
        _ input: UnsafeBufferPointer<UInt8>,
        requiresBlock: Bool
    ) -> Result<[PEMBlock], PEMError> {
        var blocks: [PEMBlock] = []
        var lineStart = 0
        // Each iteration consumes at least one line, so the loop is linear.
        while lineStart < input.count {
            let end = lineEnd(input, from: lineStart)
            let next = end + 1  // past the LF; may exceed count at the very end
            switch classifyLine(input, start: lineStart, end: end) {
            case .failure(let error):
                return .failure(error)
            case .success(.text):
                lineStart = next
            case .success(.end):
                return .failure(.unmatchedEndLine(offset: lineStart))
            case .success(.begin(let label)):
                let beginOffset = lineStart
                let bodyStart = min(next, input.count)
                // Find the END line.
                var scan = bodyStart
                var found: (label: String, start: Int, end: Int)?
                search: while scan < input.count {
                    let scanEnd = lineEnd(input, from: scan)
                    switch classifyLine(input, start: scan, end: scanEnd) {
                    case .failure(let error):
                        return .failure(error)
                    case .success(.text):
                        scan = scanEnd + 1
                    case .success(.begin):
                        break search
                    case .success(.end(let endLabel)):
                        found = (endLabel, scan, scanEnd)
                        break search
                    }
                }
                guard let found else {
                    return .failure(.missingEndLine(offset: beginOffset))
                }
                guard found.label == label else {
                    return .failure(.labelMismatch(beginOffset: beginOffset, offset: found.start))
                }
                let body = UnsafeBufferPointer(rebasing: input[bodyStart..<found.start])
                switch Base64.decodeBuffer(body, offsetBase: bodyStart, ignoringWhitespace: true) {
                case .failure(let error):
                    return .failure(.invalidBase64(error))
                case .success(let bytes):
                    blocks.append(PEMBlock(label: label, bytes: bytes, offset: beginOffset))
                }
                lineStart = found.end + 1
            }
        }
        if requiresBlock && blocks.isEmpty {
            return .failure(.noBlock)
        }
        return .success(blocks)
    }
}

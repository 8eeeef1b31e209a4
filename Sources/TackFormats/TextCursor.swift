// The one cursor over UTF-8 bytes that the JSON and property-list readers walk with.

/// A position in a UTF-8 document that keeps its line and column as it moves.
///
/// Every move goes through ``advance()``, which counts line feeds, so a reader's
/// ``location`` is always exact without rescanning the document.
struct TextCursor {
    /// The document.
    let bytes: [UInt8]
    /// The offset of the next byte.
    private(set) var position = 0
    /// The current line, from 1.
    private var line = 1
    /// The offset where the current line starts.
    private var lineStart = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Where the cursor is.
    var location: TextLocation { location(at: position) }

    /// The location of `offset`, which must be on the cursor's current line (at or
    /// after its start): a byte inside the token being read.
    func location(at offset: Int) -> TextLocation {
        TextLocation(line: line, column: offset - lineStart + 1, offset: offset)
    }

    /// The location of any `offset` in `bytes`, counting lines from the start
    /// (for errors found before or apart from the cursor's walk).
    static func location(of offset: Int, in bytes: [UInt8]) -> TextLocation {
        var cursor = TextCursor(bytes)
        cursor.advance(by: offset)
        return cursor.location
    }

    /// Whether every byte has been read.
    var atEnd: Bool { position >= bytes.count }

    /// The byte `distance` ahead of the cursor, or `nil` past the end.
    func peek(_ distance: Int = 0) -> UInt8? {
        let index = position + distance
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether the bytes at the cursor are `text`.
    func looking(at text: StaticString) -> Bool {
        text.withUTF8Buffer { marker in
            guard bytes.count - position >= marker.count else { return false }
            return bytes[position..<(position + marker.count)].elementsEqual(marker)
        }
    }

    /// Moves past one byte (none at the end), keeping the line count.
    mutating func advance() {
        guard position < bytes.count else { return }
        if bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        position += 1
    }

    /// Moves past `count` bytes, stopping at the end.
    mutating func advance(by count: Int) {
        for _ in 0..<max(count, 0) where !atEnd { advance() }
    }

    /// Moves past white space: space, tab, line feed and carriage return, the same
    /// four characters in JSON (RFC 8259 §2) and XML (XML 1.0 §2.3 `S`).
    mutating func skipWhitespace() {
        while let byte = peek(), TextCursor.isWhitespace(byte) { advance() }
    }

    /// Space, tab, line feed or carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// What ``firstProblem(in:refusing:)`` found.
    enum UTF8Problem: Equatable {
        /// Bytes that are not UTF-8 (RFC 3629 §4: no overlong forms, no surrogates,
        /// nothing above U+10FFFF), at this offset.
        case invalidEncoding(offset: Int)
        /// A scalar the format refuses, at this offset.
        case refusedScalar(offset: Int)
    }

    /// The first place where `bytes` is not UTF-8 or holds a scalar `isRefused`
    /// refuses, or `nil` when the whole document is good. Checking once up front
    /// lets a reader work on bytes afterwards; the standard library's decoder is
    /// the one UTF-8 decoder both readers use.
    static func firstProblem(in bytes: [UInt8], refusing isRefused: (Unicode.Scalar) -> Bool) -> UTF8Problem? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if isRefused(scalar) { return .refusedScalar(offset: offset) }
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return .invalidEncoding(offset: offset)
            }
        }
    }
}

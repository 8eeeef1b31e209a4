// Where something is in a document (a JSON pin policy, an XML or binary property list).

/// Where something is in a document: in a text document (JSON, an XML property
/// list) the 1-based line and column (the column counts UTF-8 bytes, as clang and
/// GCC do) and the 0-based byte offset; in a binary property list (`bplist00`),
/// which has no lines, the byte offset alone.
///
/// ``JSONError``, ``PropertyListError``, ``JSONMember`` and
/// ``PropertyListDictionary/Entry`` all say where they are with one of these.
public struct TextLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1 (0 in a binary document, and for values built in code
    /// rather than read).
    public var line: Int
    /// The column, from 1, in UTF-8 bytes (0 in a binary document, and for values
    /// built in code).
    public var column: Int
    /// The byte offset from the start of the document, from 0.
    public var offset: Int
    /// Whether the document is binary (a `bplist00` property list), so that only
    /// ``offset`` says where.
    public var isBinary: Bool

    /// Creates a location in a text document.
    ///
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - column: The column in UTF-8 bytes, from 1.
    ///   - offset: The byte offset, from 0.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
        self.isBinary = false
    }

    /// Creates a location in a binary document: a byte offset, no line or column.
    ///
    /// - Parameter byteOffset: The byte offset, from 0.
    public init(byteOffset: Int) {
        self.line = 0
        self.column = 0
        self.offset = byteOffset
        self.isBinary = true
    }

    /// The location of `offset` in `document`: a byte offset when the document is a
    /// binary property list (it starts with `bplist00`), the line and column
    /// counted from the start otherwise.
    ///
    /// - Parameters:
    ///   - offset: The byte offset, from 0 (clamped to the document's end).
    ///   - document: The whole document.
    public init(offset: Int, in document: [UInt8]) {
        if PropertyList.isBinary(document) {
            self.init(byteOffset: offset)
        } else {
            self = TextCursor.location(of: offset, in: document)
        }
    }

    /// `line:column`, or `byte N` in a binary document.
    public var description: String { isBinary ? "byte \(offset)" : "\(line):\(column)" }
}

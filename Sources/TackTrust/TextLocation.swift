// Where something is in a text document (a JSON pin policy, an XML property list).

/// Where something is in a UTF-8 document: 1-based line and column (the column
/// counts UTF-8 bytes, as clang and GCC do) and the 0-based byte offset.
///
/// ``JSONError``, ``PropertyListError``, ``JSONMember`` and
/// ``PropertyListDictionary/Entry`` all say where they are with one of these.
public struct TextLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1 (0 for values built in code rather than read).
    public var line: Int
    /// The column, from 1, in UTF-8 bytes (0 for values built in code).
    public var column: Int
    /// The byte offset from the start of the document, from 0.
    public var offset: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - column: The column in UTF-8 bytes, from 1.
    ///   - offset: The byte offset, from 0.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

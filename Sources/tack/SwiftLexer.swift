// A lexical scanner for Swift sources, just enough for `tack lint`: identifiers,
// punctuation and string literals with their line and column, comments kept apart,
// so that a rule never fires inside a comment or a string (unless it asks for
// string literals).

/// One token of Swift source.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        /// An identifier or keyword (`SecTrustEvaluate`, `func`, `nil`, `#if`).
        case identifier
        /// A string literal of any form (`"…"`, `"""…"""`, `#"…"#`); `text` is the
        /// literal as written, quotes included.
        case string
        /// A number literal.
        case number
        /// One punctuation character (`(`, `.`, `:`, `{`, ...) or an operator run.
        case punctuation
    }

    var kind: Kind
    var text: Substring
    var line: Int
    var column: Int
}

/// A comment, with the line it starts on (for `tack-lint:disable` directives).
struct SwiftComment {
    var text: Substring
    var line: Int
    var endLine: Int
}

/// Splits Swift source into tokens and comments. Never fails: an unterminated
/// string or comment runs to the end of the file (the compiler would reject it).
struct SwiftLexer {
    private(set) var tokens: [SwiftToken] = []
    private(set) var comments: [SwiftComment] = []

    init(_ source: String) {
        let text = Substring(source)
        var index = text.startIndex
        var line = 1
        var lineStart = text.startIndex

        func column(_ at: Substring.Index) -> Int {
            text.utf8.distance(from: lineStart, to: at) + 1
        }
        /// Advances over one character, counting lines.
        func step(_ at: inout Substring.Index) {
            if text[at] == "\n" || text[at] == "\r\n" {
                line += 1
                at = text.index(after: at)
                lineStart = at
            } else {
                at = text.index(after: at)
            }
        }
        func starts(_ prefix: String, at position: Substring.Index) -> Bool {
            text[position...].hasPrefix(prefix)
        }

        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                step(&index)
                continue
            }
            let startLine = line
            let startColumn = column(index)
            let start = index
            // Comments: line, and block (which nest in Swift).
            if starts("//", at: index) {
                while index < text.endIndex, text[index] != "\n", text[index] != "\r\n" { index = text.index(after: index) }
                comments.append(SwiftComment(text: text[start..<index], line: startLine, endLine: startLine))
                continue
            }
            if starts("/*", at: index) {
                var depth = 0
                while index < text.endIndex {
                    if starts("/*", at: index) {
                        depth += 1
                        index = text.index(index, offsetBy: 2)
                    } else if starts("*/", at: index) {
                        depth -= 1
                        index = text.index(index, offsetBy: 2)
                        if depth == 0 { break }
                    } else {
                        step(&index)
                    }
                }
                comments.append(SwiftComment(text: text[start..<index], line: startLine, endLine: line))
                continue
            }
            // String literals: optional #s, then """ or ".
            var hashes = 0
            var probe = index
            while probe < text.endIndex, text[probe] == "#" {
                hashes += 1
                probe = text.index(after: probe)
            }
            if probe < text.endIndex, text[probe] == "\"" {
                let multiline = starts("\"\"\"", at: probe)
                index = text.index(probe, offsetBy: multiline ? 3 : 1)
                let closing = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
                let escape = "\\" + String(repeating: "#", count: hashes)
                while index < text.endIndex {
                    if starts(escape, at: index) {
                        index = text.index(index, offsetBy: escape.count)
                        if index < text.endIndex, text[index] == "(" {
                            // Interpolation: skip to the balancing parenthesis, strings inside included.
                            var depth = 0
                            while index < text.endIndex {
                                if text[index] == "(" { depth += 1 }
                                if text[index] == ")" {
                                    depth -= 1
                                    if depth == 0 { break }
                                }
                                if text[index] == "\"" {
                                    index = text.index(after: index)
                                    while index < text.endIndex, text[index] != "\"" {
                                        if text[index] == "\\" { index = text.index(after: index) }
                                        if index < text.endIndex { step(&index) }
                                    }
                                }
                                if index < text.endIndex { step(&index) }
                            }
                        }
                        if index < text.endIndex { step(&index) }
                        continue
                    }
                    if starts(closing, at: index) {
                        index = text.index(index, offsetBy: closing.count)
                        break
                    }
                    if !multiline && (text[index] == "\n" || text[index] == "\r\n") { break }
                    step(&index)
                }
                tokens.append(SwiftToken(kind: .string, text: text[start..<index], line: startLine, column: startColumn))
                continue
            }
            if character.isLetter || character == "_" || character == "$" || character == "#" || character == "@"
                || character == "`" {
                index = text.index(after: index)
                while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "_" || text[index] == "`" {
                    index = text.index(after: index)
                }
                tokens.append(SwiftToken(kind: .identifier, text: text[start..<index], line: startLine, column: startColumn))
                continue
            }
            if character.isNumber {
                while index < text.endIndex, text[index].isNumber || text[index].isLetter || text[index] == "_" || text[index] == "." {
                    // Stop at a member access on a number (`1.description` is rare; `0..<n` is not).
                    if text[index] == ".", starts("..", at: index) { break }
                    index = text.index(after: index)
                }
                tokens.append(SwiftToken(kind: .number, text: text[start..<index], line: startLine, column: startColumn))
                continue
            }
            index = text.index(after: index)
            tokens.append(SwiftToken(kind: .punctuation, text: text[start..<index], line: startLine, column: startColumn))
        }
    }
}

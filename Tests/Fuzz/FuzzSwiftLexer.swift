// libFuzzer harness for the Swift-source scanner of `tack lint`. Built and run by
// scripts/fuzz.sh (target `swiftlex`), not by SwiftPM; see README.md here.
//
// The scanner (`SwiftLexer`, Sources/tack/SwiftLexer.swift) is internal to the
// `tack` executable, which no harness can import, so fuzz.sh compiles that one
// file into this program (it uses the standard library only). `lintSwift`, which
// walks the tokens, stays in the CLI with Foundation and is not fuzzed here.
//
// Properties, each trapping on violation: the scanner never fails (its contract:
// an unterminated string or comment runs to the end of the file); every token and
// comment is a non-empty slice of the source, in source order and not
// overlapping; lines and columns start at 1, never go back, and a token's line
// and column are those of its first byte.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSwiftLexer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lexer = SwiftLexer(source)
    let text = Substring(source)
    // Line starts, in UTF-8 offsets: the scanner breaks lines at "\n" (and "\r\n",
    // one Character ending in "\n"), not at a lone "\r" or other separators.
    var lineStarts = [0]
    for (offset, byte) in source.utf8.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
    func position(_ index: Substring.Index) -> (line: Int, column: Int) {
        let at = text.utf8.distance(from: text.startIndex, to: index)
        // The last line start at or before `at` (binary search: lineStarts[0] == 0).
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= at { low = middle } else { high = middle - 1 }
        }
        return (low + 1, at - lineStarts[low] + 1)
    }
    var end = text.startIndex
    for token in lexer.tokens {
        guard !token.text.isEmpty else { fatalError("empty token at \(token.line):\(token.column)") }
        guard token.text.startIndex >= end, token.text.endIndex <= text.endIndex else {
            fatalError("token \(token.text.debugDescription) overlaps the previous one or leaves the source")
        }
        end = token.text.endIndex
        let (line, column) = position(token.text.startIndex)
        guard token.line == line, token.column == column else {
            fatalError("token \(token.text.debugDescription) at \(token.line):\(token.column), expected \(line):\(column)")
        }
    }
    var commentEnd = text.startIndex
    for comment in lexer.comments {
        guard !comment.text.isEmpty, comment.text.startIndex >= commentEnd, comment.endLine >= comment.line else {
            fatalError("comment at line \(comment.line) is empty, out of order or ends before it starts")
        }
        commentEnd = comment.text.endIndex
        guard position(comment.text.startIndex).line == comment.line else {
            fatalError("comment \(comment.text.debugDescription) says line \(comment.line)")
        }
    }
    return 0
}

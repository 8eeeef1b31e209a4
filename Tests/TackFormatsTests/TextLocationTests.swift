import Testing
import TackFormats

/// The readers' line and column agree with a count made from scratch.
enum TextLocationTests {
    /// The location of `offset` in `bytes`: lines counted by line feeds before it,
    /// the column in UTF-8 bytes from the line's start.
    static func location(of offset: Int, in bytes: [UInt8]) -> TextLocation {
        let before = bytes[..<min(offset, bytes.count)]
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        return TextLocation(line: before.count { $0 == 0x0A } + 1, column: offset - lineStart + 1, offset: offset)
    }
}

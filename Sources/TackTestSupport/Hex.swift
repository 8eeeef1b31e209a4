// Hexadecimal test literals.
//
// Test-only helpers: they may trap on malformed input, because their input is
// the test's own source text or committed vector files, never untrusted data.

import TackDER

/// The bytes written by a hexadecimal test literal such as `"30 03 02 01 05"`.
///
/// Digits may be upper or lower case. ASCII whitespace (space, tab, line feed,
/// carriage return) and colons (OpenSSL's `30:03:02` form) are skipped wherever
/// they appear, so a literal can be grouped and wrapped freely.
///
/// This function **traps** on a malformed literal (a character that is neither
/// a digit nor a separator, or an odd number of digits), reporting the caller's
/// file and line. That is acceptable only because it decodes a test's own
/// literals; vector files whose hex should fail a test rather than stop the
/// run go through ``hexBytesIfValid(_:)``.
///
/// - Parameters:
///   - text: The hexadecimal literal.
///   - file: The caller's file, for the trap message.
///   - line: The caller's line, for the trap message.
/// - Returns: One byte per pair of digits, in order.
public func hexBytes(_ text: String, file: StaticString = #file, line: UInt = #line) -> [UInt8] {
    guard let bytes = hexBytesIfValid(text) else {
        fatalError("malformed hex test literal: \(text)", file: file, line: line)
    }
    return bytes
}

/// The bytes of a hex text with optional separators (space, tab, newline, colon),
/// or `nil` if it holds a non-hex character or an odd number of digits. The
/// digits are decoded by TackDER's ``Hex``, the one hex decoder.
public func hexBytesIfValid(_ text: String) -> [UInt8]? {
    try? Hex.decode(text.utf8.filter { !isHexSeparator($0) })
}

/// The big-endian bytes of an integer written in hexadecimal, whose leading
/// zero digit may be missing (as Python's `format(n, "x")` writes it).
///
/// An odd number of digits gets a leading `0` digit, so `"10001"` gives
/// `01 00 01`; otherwise this is ``hexBytes(_:file:line:)``, and like it
/// **traps** on a malformed literal (test data only).
///
/// - Parameters:
///   - integer: The hexadecimal integer.
///   - file: The caller's file, for the trap message.
///   - line: The caller's line, for the trap message.
/// - Returns: The integer's big-endian bytes, `(digits + 1) / 2` of them.
public func hexBytes(integer: String, file: StaticString = #file, line: UInt = #line) -> [UInt8] {
    let digits = integer.utf8.reduce(0) { count, unit in isHexSeparator(unit) ? count : count + 1 }
    return hexBytes(digits % 2 == 1 ? "0" + integer : integer, file: file, line: line)
}

/// Lowercase hex of `bytes` (TackDER's ``Hex/encode(_:)``).
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    Hex.encode(bytes)
}

/// Whether `unit` is a separator that hex literals may contain: ASCII
/// whitespace or a colon.
private func isHexSeparator(_ unit: UInt8) -> Bool {
    switch unit {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ":"): true
    default: false
    }
}

/// The value of one hexadecimal digit, or `nil` for any other character.

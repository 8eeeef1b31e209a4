// Hexadecimal test literals.
//
// Test-only helpers: they may trap on malformed input, because their input is
// the test's own source text or committed vector files, never untrusted data.

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

/// The bytes written by a hexadecimal string, or `nil` when it is malformed.
///
/// Accepts exactly what ``hexBytes(_:file:line:)`` accepts: upper- or
/// lower-case digits, with ASCII whitespace and colons skipped.
///
/// - Parameter text: The hexadecimal text.
/// - Returns: One byte per pair of digits, or `nil` on a character that is
///   neither a digit nor a separator, or on an odd number of digits.
public func hexBytesIfValid(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count / 2)
    var high: UInt8?
    for unit in text.utf8 where !isHexSeparator(unit) {
        guard let value = hexDigitValue(unit) else { return nil }
        if let first = high {
            bytes.append(first << 4 | value)
            high = nil
        } else {
            high = value
        }
    }
    return high == nil ? bytes : nil
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

/// Lower-case hexadecimal of `bytes`, two digits per byte, without separators.
///
/// - Parameter bytes: The bytes to render.
/// - Returns: A string such as `"300302"`.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
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
private func hexDigitValue(_ unit: UInt8) -> UInt8? {
    switch unit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): unit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): unit - UInt8(ascii: "A") + 10
    default: nil
    }
}

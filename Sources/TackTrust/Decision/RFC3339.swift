internal import TackDER

/// RFC 3339 timestamps (UTC) for policies, reports and messages, through TackDER's
/// `DERTime` (years 0...9999).
public enum RFC3339 {
    /// `2026-12-01T12:00:00Z`, or the number of seconds when outside years 0...9999.
    ///
    /// - Parameter seconds: Seconds since 1970.
    /// - Returns: The timestamp.
    public static func format(_ seconds: Int64) -> String {
        guard let time = try? DERTime(secondsSince1970: seconds) else { return "\(seconds) s since 1970" }
        return time.description
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS`, an optional fraction (ignored: the core counts
    /// whole seconds), and `Z` or a `+HH:MM`/`-HH:MM` offset (RFC 3339 §5.6), into
    /// seconds since 1970. Leap second 60 is refused (RFC 5280 has none either).
    ///
    /// - Parameter text: The timestamp.
    /// - Returns: Seconds since 1970, or `nil` when `text` is not RFC 3339.
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for byte in b[start..<(start + count)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let time = try? DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var index = 19
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 { index += 1 }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        if b[index] == UInt8(ascii: "Z") || b[index] == UInt8(ascii: "z") {
            index += 1
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            guard index + 6 == b.count, b[index + 3] == UInt8(ascii: ":"),
                let offsetHours = number(index + 1, 2), let offsetMinutes = number(index + 4, 2), offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = (offsetHours * 60 + offsetMinutes) * 60 * (b[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == b.count else { return nil }
        return time.secondsSince1970 - Int64(offset)
    }
}

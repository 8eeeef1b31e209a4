/// A calendar date and time in UTC, as carried by UTCTime and GeneralizedTime.
///
/// RFC 5280 §4.1.2.5 fixes the DER forms: UTCTime is `YYMMDDHHMMSSZ` and
/// GeneralizedTime `YYYYMMDDHHMMSSZ`, both in UTC with seconds and without
/// fractions. Times compare chronologically.
public struct DERTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 0...9999.
    public var year: Int
    /// The month, 1...12.
    public var month: Int
    /// The day of the month, 1...31 (checked against the month and leap years).
    public var day: Int
    /// The hour, 0...23.
    public var hour: Int
    /// The minute, 0...59.
    public var minute: Int
    /// The second, 0...59 (RFC 5280 has no leap seconds).
    public var second: Int

    /// Creates a time from its fields, checking their ranges.
    ///
    /// - Parameters:
    ///   - year: 0...9999.
    ///   - month: 1...12.
    ///   - day: 1 through the length of the month.
    ///   - hour: 0...23.
    ///   - minute: 0...59.
    ///   - second: 0...59.
    /// - Throws: ``DERError/Reason/invalidDate`` (offset 0) if a field is out of range.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) throws(DERError) {
        guard DERTime.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw DERError(.invalidDate, at: 0)
        }
        self.init(unchecked: year, month, day, hour, minute, second)
    }

    internal init(unchecked year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Creates the time `seconds` after 1970-01-01T00:00:00Z.
    ///
    /// - Parameter seconds: Seconds since the Unix epoch; negative values are before it.
    /// - Throws: ``DERError/Reason/invalidDate`` if the result is outside years 0...9999.
    public init(secondsSince1970 seconds: Int64) throws(DERError) {
        // Years 0...9999 span about ±3.2e11 seconds around 1970; reject anything
        // outside before dividing so the arithmetic below cannot overflow.
        guard seconds >= DERTime.minimumSeconds, seconds <= DERTime.maximumSeconds else {
            throw DERError(.invalidDate, at: 0)
        }
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (y, m, d) = DERTime.civil(fromDays: days)
        self.init(unchecked: Int(y), Int(m), Int(d), Int(rest / 3600), Int(rest % 3600 / 60), Int(rest % 60))
    }

    /// 0000-01-01T00:00:00Z.
    private static let minimumSeconds: Int64 = -62_167_219_200
    /// 9999-12-31T23:59:59Z.
    private static let maximumSeconds: Int64 = 253_402_300_799

    /// Seconds since 1970-01-01T00:00:00Z (negative before it).
    public var secondsSince1970: Int64 {
        let days = DERTime.days(fromCivil: Int64(year), Int64(month), Int64(day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Whether the time can be written as a UTCTime (years 1950...2049, RFC 5280 §4.1.2.5).
    public var fitsUTCTime: Bool { year >= 1950 && year <= 2049 }

    /// ISO 8601 form, for example `2025-03-01T12:00:00Z`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.utf8.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
    }

    /// Orders times chronologically.
    public static func < (lhs: DERTime, rhs: DERTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second)
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second)
    }

    internal static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    internal static func isValid(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Bool {
        guard year >= 0 && year <= 9999, month >= 1 && month <= 12, hour >= 0 && hour <= 23,
              minute >= 0 && minute <= 59, second >= 0 && second <= 59, day >= 1 else { return false }
        let length: Int
        switch month {
        case 2: length = isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: length = 30
        default: length = 31
        }
        return day <= length
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    internal static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    internal static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Parses the contents of a UTCTime or GeneralizedTime in the RFC 5280 DER form.
    internal static func parse(_ contents: UnsafeBufferPointer<UInt8>, isUTCTime: Bool, offset: Int) throws(DERError) -> DERTime {
        let yearDigits = isUTCTime ? 2 : 4
        let expectedLength = yearDigits + 11  // MMDDHHMMSS + Z
        guard contents.count == expectedLength, contents[expectedLength - 1] == UInt8(ascii: "Z") else {
            if !isUTCTime && contents.count > 15 && contents[14] == UInt8(ascii: ".") {
                throw DERError(.fractionalSecondsNotAllowed, at: offset)
            }
            throw DERError(.invalidTimeFormat, at: offset)
        }
        // Every character before the Z must be a digit; check them in one pass.
        var digitsAreValid = true
        for index in 0..<(expectedLength - 1) {
            let digit = contents[index] &- 0x30  // wraps for bytes below '0': caught by the compare
            digitsAreValid = digitsAreValid && digit <= 9
        }
        guard digitsAreValid else { throw DERError(.invalidTimeFormat, at: offset) }
        @inline(__always) func pair(_ index: Int) -> Int {
            Int(contents[index] &- 0x30) &* 10 &+ Int(contents[index + 1] &- 0x30)
        }
        let rawYear = isUTCTime ? pair(0) : pair(0) &* 100 &+ pair(2)
        let month = pair(yearDigits), day = pair(yearDigits + 2)
        let hour = pair(yearDigits + 4), minute = pair(yearDigits + 6), second = pair(yearDigits + 8)
        // RFC 5280 §4.1.2.5.1: YY >= 50 is 19YY, YY < 50 is 20YY.
        let year = isUTCTime ? (rawYear >= 50 ? 1900 + rawYear : 2000 + rawYear) : rawYear
        guard isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw DERError(.invalidDate, at: offset)
        }
        return DERTime(unchecked: year, month, day, hour, minute, second)
    }

    /// The DER contents of this time as a UTCTime (`YYMMDDHHMMSSZ`) or GeneralizedTime.
    internal func encodedContents(asUTCTime: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(15)
        func append(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(truncatingIfNeeded: 0x30 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        if asUTCTime { append(year % 100, 2) } else { append(year, 4) }
        append(month, 2); append(day, 2); append(hour, 2); append(minute, 2); append(second, 2)
        out.append(UInt8(ascii: "Z"))
        return out
    }
}

extension DERReader {
    /// Reads a UTCTime or GeneralizedTime, whichever comes next (the X.509 `Time` CHOICE).
    ///
    /// - Returns: The time.
    /// - Throws: ``DERError/Reason/invalidTimeFormat``,
    ///   ``DERError/Reason/fractionalSecondsNotAllowed``, ``DERError/Reason/invalidDate``,
    ///   or ``DERError/Reason/unexpectedTag(expected:found:)`` for another type.
    public mutating func readTime() throws(DERError) -> DERTime {
        guard !isAtEnd else { throw DERError(.missingElement(expected: .utcTime), at: offset) }
        let (element, next) = try parseElement(at: cursor)
        let isUTCTime: Bool
        if element.tag == .utcTime {
            isUTCTime = true
        } else if element.tag == .generalizedTime {
            isUTCTime = false
        } else if element.tag.isUniversal(23) || element.tag.isUniversal(24) {
            throw DERError(.wrongConstructedBit, at: element.offset)
        } else {
            throw DERError(.unexpectedTag(expected: .utcTime, found: element.tag), at: element.offset)
        }
        let time = try withBytes(in: element.contentRange) { (contents) throws(DERError) -> DERTime in
            try DERTime.parse(contents, isUTCTime: isUTCTime, offset: element.offset)
        }
        cursor = next
        return time
    }

    /// Reads a UTCTime in the form `YYMMDDHHMMSSZ` (RFC 5280 §4.1.2.5.1).
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/utcTime`` by default.
    /// - Returns: The time, with years 50–99 in the 1900s and 00–49 in the 2000s.
    /// - Throws: ``DERError/Reason/invalidTimeFormat``, ``DERError/Reason/invalidDate``.
    public mutating func readUTCTime(tag: DERTag = .utcTime) throws(DERError) -> DERTime {
        let element = try readElement(tag)
        return try withBytes(in: element.contentRange) { (contents) throws(DERError) -> DERTime in
            try DERTime.parse(contents, isUTCTime: true, offset: element.offset)
        }
    }

    /// Reads a GeneralizedTime in the form `YYYYMMDDHHMMSSZ` (RFC 5280 §4.1.2.5.2).
    ///
    /// - Parameter tag: The tag to expect; ``DERTag/generalizedTime`` by default.
    /// - Returns: The time.
    /// - Throws: ``DERError/Reason/invalidTimeFormat``,
    ///   ``DERError/Reason/fractionalSecondsNotAllowed``, ``DERError/Reason/invalidDate``.
    public mutating func readGeneralizedTime(tag: DERTag = .generalizedTime) throws(DERError) -> DERTime {
        let element = try readElement(tag)
        return try withBytes(in: element.contentRange) { (contents) throws(DERError) -> DERTime in
            try DERTime.parse(contents, isUTCTime: false, offset: element.offset)
        }
    }
}

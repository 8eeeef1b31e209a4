// The low-level layer (see DERUnsafe.swift and the TackDER catalog's "The
// low-level layer"): the alphabet checks and decoding of the directory string
// types over raw buffers, which TackX509 runs on bytes a DERReader lends it
// with withBytes(in:), without copying. Safe code reads strings with
// DERReader.readString() and stringValue(of:kind:).

extension DERStringKind {
    /// Checks contents octets of this type without decoding them (no allocation).
    ///
    /// - Parameters:
    ///   - contents: The contents octets.
    ///   - offset: The offset to report in errors.
    /// - Throws: The ``DERError/Reason`` for this type's alphabet.
    public func validate(_ contents: UnsafeBufferPointer<UInt8>, offset: Int) throws(DERError) {
        switch self {
        case .utf8:
            guard DERStringKind.isValidUTF8(contents) else { throw DERError(.invalidUTF8String, at: offset) }
        case .printable:
            guard DERStringKind.isPrintable(contents) else { throw DERError(.invalidPrintableString, at: offset) }
        case .ia5:
            guard DERStringKind.isASCII(contents) else { throw DERError(.invalidIA5String, at: offset) }
        case .numeric:
            for byte in contents where !(byte == 0x20 || (byte >= 0x30 && byte <= 0x39)) {
                throw DERError(.invalidNumericString, at: offset)
            }
        case .visible:
            for byte in contents where byte < 0x20 || byte > 0x7E { throw DERError(.invalidVisibleString, at: offset) }
        case .teletex:
            break
        case .bmp:
            guard contents.count % 2 == 0 else { throw DERError(.invalidBMPString, at: offset) }
            var index = 0
            while index < contents.count {
                // A high octet of 0xD8...0xDF is a surrogate code unit.
                guard contents[index] & 0xF8 != 0xD8 else { throw DERError(.invalidBMPString, at: offset) }
                index += 2
            }
        case .universal:
            guard contents.count % 4 == 0 else { throw DERError(.invalidUniversalString, at: offset) }
            var index = 0
            while index < contents.count {
                var value: UInt32 = 0
                for k in 0..<4 { value = value << 8 | UInt32(contents[index + k]) }
                guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
                    throw DERError(.invalidUniversalString, at: offset)
                }
                index += 4
            }
        }
    }

    /// Whether every octet of `bytes` is in the PrintableString alphabet.
    ///
    /// One table lookup per octet, folded with AND, and one test at the end: the
    /// strings of a certificate's names are short and almost always valid.
    ///
    /// - Parameter bytes: The contents octets.
    /// - Returns: `true` if each octet is a PrintableString character.
    public static func isPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let table = printableTable.utf8Start
        // The table has 128 entries; 0x80 and above are rejected through bit 7.
        var folded: UInt8 = 1
        var high: UInt8 = 0
        var index = 0
        let count = bytes.count
        // Four octets per round while four remain (index + 4 <= count), then the rest.
        while count &- index >= 4 {
            let a = base[index], b = base[index &+ 1], c = base[index &+ 2], d = base[index &+ 3]
            high |= a | b | c | d
            folded &= table[Int(a & 0x7F)] & table[Int(b & 0x7F)] & table[Int(c & 0x7F)] & table[Int(d & 0x7F)]
            index &+= 4
        }
        while index < count {
            let byte = base[index]
            high |= byte
            folded &= table[Int(byte & 0x7F)]
            index &+= 1
        }
        return folded & 1 == 1 && high < 0x80
    }

    /// Whether every octet of `bytes` is below 0x80 (the IA5String alphabet).
    ///
    /// - Parameter bytes: The contents octets.
    /// - Returns: `true` if the octets are all ASCII.
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiPrefixCount(bytes) == bytes.count
    }

    /// The number of leading octets of `bytes` below 0x80, found eight octets at a time.
    internal static func asciiPrefixCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var index = 0
        let raw = UnsafeRawPointer(base)
        // index + 8 <= count: each load stays inside the buffer.
        while count &- index >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { break }
            index &+= 8
        }
        while index < count && base[index] < 0x80 { index &+= 1 }
        return index
    }

    /// Whether `bytes` is well-formed UTF-8 (RFC 3629 §4): no overlong forms, no
    /// surrogates, nothing above U+10FFFF, no truncated sequences.
    ///
    /// - Parameter bytes: The bytes to check.
    /// - Returns: Whether they are well-formed UTF-8.
    public static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Names and alternative names are nearly always ASCII: skip the ASCII prefix
        // eight octets at a time, then decode the rest one sequence at a time.
        var index = asciiPrefixCount(bytes)
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return false
            }
            guard count - index >= length else { return false }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return false }
            var k = 2
            while k < length {
                guard bytes[index + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            index += length
        }
        return true
    }

    /// Decodes and checks contents octets of this type.
    ///
    /// - Parameters:
    ///   - contents: The contents octets.
    ///   - offset: The offset to report in errors.
    /// - Returns: The decoded text.
    /// - Throws: The ``DERError/Reason`` for this type's alphabet.
    public func decode(_ contents: UnsafeBufferPointer<UInt8>, offset: Int) throws(DERError) -> String {
        // The alphabet is checked once, by the check that reading without decoding uses.
        try validate(contents, offset: offset)
        let width: Int
        switch self {
        case .utf8, .printable, .ia5, .numeric, .visible:
            // validate(_:offset:) checked the UTF-8 (or the ASCII alphabet); the String
            // is validated again, never repaired.
            guard let text = TextBytes.string(validUTF8: contents) else { throw DERError(.invalidUTF8String, at: offset) }
            return text
        case .teletex: width = 1
        case .bmp: width = 2
        case .universal: width = 4
        }
        // Latin-1, UCS-2 or UCS-4 (a whole number of code units, checked): the scalars
        // encoded as UTF-8 and made a String once, without `String` appends, whose
        // generic index code a firmware image would link for this.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(contents.count)
        var index = 0
        while contents.count - index >= width {
            var value: UInt32 = 0
            for k in 0..<width { value = value << 8 | UInt32(contents[index + k]) }
            // validate(_:offset:) refused surrogates and values above U+10FFFF.
            guard let scalar = Unicode.Scalar(value) else {
                throw DERError(width == 2 ? .invalidBMPString : .invalidUniversalString, at: offset)
            }
            UTF8.encode(scalar) { utf8.append($0) }
            index += width
        }
        guard let text = TextBytes.string(validUTF8: utf8) else {
            throw DERError(width == 2 ? .invalidBMPString : .invalidUniversalString, at: offset)
        }
        return text
    }
}

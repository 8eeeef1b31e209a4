/// The ASN.1 character string types that X.509 uses (X.680 §41).
public enum DERStringKind: Sendable, Hashable, CaseIterable {
    /// UTF8String (tag 12): UTF-8, checked for validity.
    case utf8
    /// NumericString (tag 18): digits and space.
    case numeric
    /// PrintableString (tag 19): `A–Z a–z 0–9 ' ( ) + , - . / : = ?` and space.
    case printable
    /// TeletexString / T61String (tag 20). Read as ISO 8859-1 (Latin-1), a deliberate
    /// leniency: T.61 proper is a stateful code that no CA uses, while Latin-1 in
    /// TeletexString is what old certificates carry. Every octet is accepted.
    case teletex
    /// IA5String (tag 22): octets 0x00...0x7F.
    case ia5
    /// VisibleString (tag 26): octets 0x20...0x7E.
    case visible
    /// UniversalString (tag 28): UCS-4 big-endian, Unicode scalars only.
    case universal
    /// BMPString (tag 30): UCS-2 big-endian, no surrogate code units.
    case bmp

    /// The universal tag of this string type.
    public var tag: DERTag {
        switch self {
        case .utf8: .utf8String
        case .numeric: .numericString
        case .printable: .printableString
        case .teletex: .teletexString
        case .ia5: .ia5String
        case .visible: .visibleString
        case .universal: .universalString
        case .bmp: .bmpString
        }
    }

    /// The string type with the universal tag `tag`, or `nil`.
    ///
    /// - Parameter tag: A universal, primitive tag.
    @inlinable
    public init?(tag: DERTag) {
        guard tag.tagClass == .universal, !tag.isConstructed else { return nil }
        switch tag.number {
        case 12: self = .utf8
        case 18: self = .numeric
        case 19: self = .printable
        case 20: self = .teletex
        case 22: self = .ia5
        case 26: self = .visible
        case 28: self = .universal
        case 30: self = .bmp
        default: return nil
        }
    }

    /// Whether `byte` is in the PrintableString alphabet (X.680 §41.4, table 10).
    @inlinable
    public static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: " "), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

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

    /// The PrintableString alphabet (X.680 §41.4) as a table of the 128 octets below
    /// 0x80: the character at index `b` is "1" (0x31, odd) when octet `b` is in the
    /// alphabet and "0" (0x30, even) otherwise; octets from 0x80 are never in it. A
    /// `StaticString` keeps the table in constant data: no initialization and no
    /// allocation, also in Embedded Swift. A test checks every octet against the
    /// one-octet `isPrintable`.
    internal static let printableTable: StaticString =
        "00000000000000000000000000000000100000011101111111111111111001010111111111111111111111111110000001111111111111111111111111100000"

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
        switch self {
        case .utf8:
            guard DERStringKind.isValidUTF8(contents) else { throw DERError(.invalidUTF8String, at: offset) }
            return String(decoding: contents, as: UTF8.self)
        case .printable:
            guard DERStringKind.isPrintable(contents) else { throw DERError(.invalidPrintableString, at: offset) }
            return String(decoding: contents, as: UTF8.self)
        case .ia5:
            guard DERStringKind.isASCII(contents) else { throw DERError(.invalidIA5String, at: offset) }
            return String(decoding: contents, as: UTF8.self)
        case .numeric:
            for byte in contents where !(byte == 0x20 || (byte >= 0x30 && byte <= 0x39)) {
                throw DERError(.invalidNumericString, at: offset)
            }
            return String(decoding: contents, as: UTF8.self)
        case .visible:
            for byte in contents where byte < 0x20 || byte > 0x7E { throw DERError(.invalidVisibleString, at: offset) }
            return String(decoding: contents, as: UTF8.self)
        case .teletex:
            var scalars = String.UnicodeScalarView()
            for byte in contents { scalars.append(Unicode.Scalar(byte)) }
            return String(scalars)
        case .bmp:
            guard contents.count % 2 == 0 else { throw DERError(.invalidBMPString, at: offset) }
            var scalars = String.UnicodeScalarView()
            var index = 0
            while index < contents.count {
                let unit = UInt32(contents[index]) << 8 | UInt32(contents[index + 1])
                guard let scalar = Unicode.Scalar(unit) else { throw DERError(.invalidBMPString, at: offset) }
                scalars.append(scalar)
                index += 2
            }
            return String(scalars)
        case .universal:
            guard contents.count % 4 == 0 else { throw DERError(.invalidUniversalString, at: offset) }
            var scalars = String.UnicodeScalarView()
            var index = 0
            while index < contents.count {
                var value: UInt32 = 0
                for k in 0..<4 { value = value << 8 | UInt32(contents[index + k]) }
                guard let scalar = Unicode.Scalar(value) else { throw DERError(.invalidUniversalString, at: offset) }
                scalars.append(scalar)
                index += 4
            }
            return String(scalars)
        }
    }
}

/// A character string read from DER: its type, decoded text and location.
public struct DERString: Sendable, Hashable {
    /// The string type.
    public var kind: DERStringKind
    /// The decoded text.
    public var value: String
    /// The absolute range of the contents octets (for byte-exact comparison).
    public var contentRange: Range<Int>

    /// Creates a string description.
    ///
    /// - Parameters:
    ///   - kind: The string type.
    ///   - value: The decoded text.
    ///   - contentRange: The absolute range of the contents octets.
    public init(kind: DERStringKind, value: String, contentRange: Range<Int>) {
        self.kind = kind
        self.value = value
        self.contentRange = contentRange
    }
}

extension DERReader {
    /// Reads a character string of any of the ``DERStringKind`` types, checks its
    /// alphabet and decodes it.
    ///
    /// - Returns: The string.
    /// - Throws: The alphabet error of its type, or
    ///   ``DERError/Reason/unexpectedTag(expected:found:)`` (expected UTF8String) if the
    ///   next element is not a string type.
    public mutating func readString() throws(DERError) -> DERString {
        let element = try readElement()
        guard let kind = DERStringKind(tag: element.tag) else {
            throw DERError(.unexpectedTag(expected: .utf8String, found: element.tag), at: element.offset)
        }
        return try stringValue(of: element, kind: kind)
    }

    /// Reads a character string of type `kind`, optionally IMPLICITly tagged.
    ///
    /// - Parameters:
    ///   - kind: The string type.
    ///   - tag: The tag to expect; the type's universal tag by default.
    /// - Returns: The string.
    /// - Throws: The alphabet error of `kind`, or a structural ``DERError``.
    public mutating func readString(_ kind: DERStringKind, tag: DERTag? = nil) throws(DERError) -> DERString {
        let element = try readElement(tag ?? kind.tag)
        return try stringValue(of: element, kind: kind)
    }

    /// Decodes an element's contents as a string of type `kind`.
    ///
    /// - Parameters:
    ///   - element: An element read by this reader.
    ///   - kind: The string type.
    /// - Returns: The string.
    /// - Throws: The alphabet error of `kind`.
    public func stringValue(of element: DERElement, kind: DERStringKind) throws(DERError) -> DERString {
        let value = try withBytes(in: element.contentRange) { (contents) throws(DERError) -> String in
            try kind.decode(contents, offset: element.offset)
        }
        return DERString(kind: kind, value: value, contentRange: element.contentRange)
    }
}

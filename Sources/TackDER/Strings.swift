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
    ///
    /// - Parameter byte: An octet of the string.
    /// - Returns: Whether it is a PrintableString character.
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

    /// The PrintableString alphabet (X.680 §41.4) as a table of the 128 octets below
    /// 0x80: the character at index `b` is "1" (0x31, odd) when octet `b` is in the
    /// alphabet and "0" (0x30, even) otherwise; octets from 0x80 are never in it. A
    /// `StaticString` keeps the table in constant data: no initialization and no
    /// allocation, also in Embedded Swift. A test checks every octet against the
    /// one-octet `isPrintable`.
    internal static let printableTable: StaticString =
        "00000000000000000000000000000000100000011101111111111111111001010111111111111111111111111110000001111111111111111111111111100000"
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

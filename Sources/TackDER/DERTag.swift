/// An ASN.1 tag as DER encodes it in an element's identifier octets (X.690 §8.1.2).
///
/// A tag is its class, its constructed bit and its number. Numbers up to 30 use the
/// single-octet form; larger numbers use the high-tag-number form, which Tack reads
/// and writes for numbers up to 2^28 − 1 (four subsequent octets).
public struct DERTag: Sendable, Hashable, CustomStringConvertible {
    /// The class of a tag (X.690 §8.1.2.2, bits 8 and 7 of the identifier octet).
    public enum TagClass: UInt8, Sendable, Hashable {
        /// Types defined by X.680 itself (INTEGER, SEQUENCE, ...).
        case universal = 0
        /// Application-wide tags.
        case application = 1
        /// Tags whose meaning depends on the enclosing structure (`[0]`, `[1]`, ...).
        case contextSpecific = 2
        /// Private-use tags.
        case `private` = 3
    }

    /// The class and constructed bits exactly as in the first identifier octet
    /// (bits 8–6), so that building and comparing tags costs one byte each.
    @usableFromInline internal var leadingBits: UInt8
    /// The tag number. At most 2^28 − 1.
    public var number: UInt32

    /// The tag's class.
    public var tagClass: TagClass {
        get {
            switch leadingBits >> 6 {
            case 0: .universal
            case 1: .application
            case 2: .contextSpecific
            default: .private
            }
        }
        set { leadingBits = (leadingBits & 0x20) | (newValue.rawValue << 6) }
    }

    /// Whether the element is constructed (contains elements) rather than primitive.
    public var isConstructed: Bool {
        get { leadingBits & 0x20 != 0 }
        set { leadingBits = (leadingBits & 0xC0) | (newValue ? 0x20 : 0) }
    }

    /// The largest tag number Tack accepts: four octets of seven bits.
    public static let maximumNumber: UInt32 = (1 << 28) - 1

    /// Creates a tag.
    ///
    /// - Parameters:
    ///   - tagClass: The class.
    ///   - isConstructed: Whether the element is constructed.
    ///   - number: The tag number; numbers above ``maximumNumber`` cannot be written.
    public init(_ tagClass: TagClass, isConstructed: Bool, number: UInt32) {
        self.leadingBits = (tagClass.rawValue << 6) | (isConstructed ? 0x20 : 0)
        self.number = number
    }

    /// Creates a tag from the first identifier octet's class and constructed bits.
    @usableFromInline
    internal init(leadingBits: UInt8, number: UInt32) {
        self.leadingBits = leadingBits & 0xE0
        self.number = number
    }

    /// Whether this is a universal tag with `number` (any constructed bit).
    internal func isUniversal(_ number: UInt32) -> Bool {
        leadingBits & 0xC0 == 0 && self.number == number
    }

    /// A context-specific tag `[number]`.
    ///
    /// - Parameters:
    ///   - number: The tag number.
    ///   - isConstructed: `true` for EXPLICIT tags and IMPLICIT tags on constructed
    ///     types; `false` for IMPLICIT tags on primitive types.
    /// - Returns: The tag.
    public static func contextSpecific(_ number: UInt32, isConstructed: Bool) -> DERTag {
        DERTag(.contextSpecific, isConstructed: isConstructed, number: number)
    }

    /// The identifier octet for single-octet tags (numbers below 31), or `nil`.
    public var singleOctet: UInt8? {
        guard number < 31 else { return nil }
        return leadingBits | UInt8(truncatingIfNeeded: number)
    }

    /// BOOLEAN (universal 1).
    public static var boolean: DERTag { DERTag(.universal, isConstructed: false, number: 1) }
    /// INTEGER (universal 2).
    public static var integer: DERTag { DERTag(.universal, isConstructed: false, number: 2) }
    /// BIT STRING (universal 3).
    public static var bitString: DERTag { DERTag(.universal, isConstructed: false, number: 3) }
    /// OCTET STRING (universal 4).
    public static var octetString: DERTag { DERTag(.universal, isConstructed: false, number: 4) }
    /// NULL (universal 5).
    public static var null: DERTag { DERTag(.universal, isConstructed: false, number: 5) }
    /// OBJECT IDENTIFIER (universal 6).
    public static var objectIdentifier: DERTag { DERTag(.universal, isConstructed: false, number: 6) }
    /// ENUMERATED (universal 10).
    public static var enumerated: DERTag { DERTag(.universal, isConstructed: false, number: 10) }
    /// UTF8String (universal 12).
    public static var utf8String: DERTag { DERTag(.universal, isConstructed: false, number: 12) }
    /// SEQUENCE and SEQUENCE OF (universal 16, constructed).
    public static var sequence: DERTag { DERTag(.universal, isConstructed: true, number: 16) }
    /// SET and SET OF (universal 17, constructed).
    public static var set: DERTag { DERTag(.universal, isConstructed: true, number: 17) }
    /// NumericString (universal 18).
    public static var numericString: DERTag { DERTag(.universal, isConstructed: false, number: 18) }
    /// PrintableString (universal 19).
    public static var printableString: DERTag { DERTag(.universal, isConstructed: false, number: 19) }
    /// TeletexString, also called T61String (universal 20).
    public static var teletexString: DERTag { DERTag(.universal, isConstructed: false, number: 20) }
    /// IA5String (universal 22).
    public static var ia5String: DERTag { DERTag(.universal, isConstructed: false, number: 22) }
    /// UTCTime (universal 23).
    public static var utcTime: DERTag { DERTag(.universal, isConstructed: false, number: 23) }
    /// GeneralizedTime (universal 24).
    public static var generalizedTime: DERTag { DERTag(.universal, isConstructed: false, number: 24) }
    /// VisibleString (universal 26).
    public static var visibleString: DERTag { DERTag(.universal, isConstructed: false, number: 26) }
    /// UniversalString (universal 28).
    public static var universalString: DERTag { DERTag(.universal, isConstructed: false, number: 28) }
    /// BMPString (universal 30).
    public static var bmpString: DERTag { DERTag(.universal, isConstructed: false, number: 30) }

    /// The tag in ASN.1 notation: `SEQUENCE`, `INTEGER`, `[0]`, `[APPLICATION 3]`,
    /// with ` (constructed)` appended where the bit is unusual for the class.
    public var description: String {
        switch tagClass {
        case .universal:
            let name: String
            switch number {
            case 1: name = "BOOLEAN"
            case 2: name = "INTEGER"
            case 3: name = "BIT STRING"
            case 4: name = "OCTET STRING"
            case 5: name = "NULL"
            case 6: name = "OBJECT IDENTIFIER"
            case 10: name = "ENUMERATED"
            case 12: name = "UTF8String"
            case 16: name = "SEQUENCE"
            case 17: name = "SET"
            case 18: name = "NumericString"
            case 19: name = "PrintableString"
            case 20: name = "TeletexString"
            case 22: name = "IA5String"
            case 23: name = "UTCTime"
            case 24: name = "GeneralizedTime"
            case 26: name = "VisibleString"
            case 28: name = "UniversalString"
            case 30: name = "BMPString"
            default: name = "UNIVERSAL \(number)"
            }
            let expectsConstructed = number == 16 || number == 17
            return isConstructed == expectsConstructed ? name : name + (isConstructed ? " (constructed)" : " (primitive)")
        case .application:
            return "[APPLICATION \(number)]" + (isConstructed ? " (constructed)" : "")
        case .contextSpecific:
            return "[\(number)]" + (isConstructed ? " (constructed)" : "")
        case .private:
            return "[PRIVATE \(number)]" + (isConstructed ? " (constructed)" : "")
        }
    }
}

public import TackDER

/// One name of the `GeneralName` CHOICE (RFC 5280 §4.2.1.6), as used by the
/// subject and issuer alternative names, name constraints, the authority key
/// identifier, CRL distribution points and authority information access.
///
/// ```
/// GeneralName ::= CHOICE {
///      otherName                 [0]  OtherName,
///      rfc822Name                [1]  IA5String,
///      dNSName                   [2]  IA5String,
///      x400Address               [3]  ORAddress,
///      directoryName             [4]  Name,
///      ediPartyName              [5]  EDIPartyName,
///      uniformResourceIdentifier [6]  IA5String,
///      iPAddress                 [7]  OCTET STRING,
///      registeredID              [8]  OBJECT IDENTIFIER }
/// OtherName ::= SEQUENCE { type-id OBJECT IDENTIFIER, value [0] EXPLICIT ANY }
/// ```
///
/// The module uses IMPLICIT tagging, except that `directoryName` wraps its Name
/// (a CHOICE) explicitly. The IA5String forms are checked for their alphabet
/// (octets 0x00...0x7F). `x400Address` and `ediPartyName`, which the Web PKI does
/// not use, are kept as the raw contents of their tagged element. Raw payloads are
/// slices of the certificate's buffer: no copy is made.
public enum GeneralName: Sendable, Hashable, CustomStringConvertible {
    /// `otherName`: a type identifier and the complete encoding of the value
    /// inside the `[0] EXPLICIT` wrapper (for example a UTF8String for a
    /// Microsoft UPN, 1.3.6.1.4.1.311.20.2.3).
    case otherName(typeID: OID, value: ArraySlice<UInt8>)
    /// `rfc822Name`: an email address (or, in name constraints, a host or domain).
    case rfc822Name(String)
    /// `dNSName`: a host name (or, in name constraints, a domain).
    case dnsName(String)
    /// `x400Address`: the contents of the `[3]` element, undecoded.
    case x400Address(ArraySlice<UInt8>)
    /// `directoryName`: a distinguished name.
    case directoryName(DistinguishedName)
    /// `ediPartyName`: the contents of the `[5]` element, undecoded.
    case ediPartyName(ArraySlice<UInt8>)
    /// `uniformResourceIdentifier`: a URI.
    case uniformResourceIdentifier(String)
    /// `iPAddress`: an IPv4 or IPv6 address, or in name constraints an address
    /// and a mask.
    case ipAddress(IPAddressName)
    /// `registeredID`: an object identifier.
    case registeredID(OID)

    /// The context-specific tag number of this form of name (0...8).
    public var tagNumber: UInt32 {
        switch self {
        case .otherName: 0
        case .rfc822Name: 1
        case .dnsName: 2
        case .x400Address: 3
        case .directoryName: 4
        case .ediPartyName: 5
        case .uniformResourceIdentifier: 6
        case .ipAddress: 7
        case .registeredID: 8
        }
    }

    /// A one-line rendering in the style of OpenSSL's `-ext subjectAltName`
    /// output: `DNS:example.com`, `IP Address:192.0.2.1`, `email:a@example.com`,
    /// `URI:https://example.com/`, `DirName:CN=x`, `Registered ID:1.2.3`,
    /// `othername:1.2.3;#0C0161`, `X400Name:#…`, `EdiPartyName:#…` (raw values in
    /// uppercase hexadecimal).
    public var description: String {
        switch self {
        case .otherName(let typeID, let value): "othername:\(typeID.dottedString);#" + Hex.encode(value, uppercase: true)
        case .rfc822Name(let text): "email:" + text
        case .dnsName(let text): "DNS:" + text
        case .x400Address(let raw): "X400Name:#" + Hex.encode(raw, uppercase: true)
        case .directoryName(let name): "DirName:" + name.rfc4514String
        case .ediPartyName(let raw): "EdiPartyName:#" + Hex.encode(raw, uppercase: true)
        case .uniformResourceIdentifier(let text): "URI:" + text
        case .ipAddress(let address): "IP Address:" + address.description
        case .registeredID(let oid): "Registered ID:" + oid.dottedString
        }
    }

    /// Where a GeneralName appears, which decides the allowed iPAddress lengths.
    internal enum Context {
        /// An alternative name, access location, CRL issuer...: 4 or 16 octets
        /// (RFC 5280 §4.2.1.6).
        case name
        /// The base of a name-constraints subtree: 8 or 32 octets, address then
        /// mask (RFC 5280 §4.2.1.10).
        case constraint
    }

    /// Reads one GeneralName, checking it; with `storage`, also builds the value
    /// (strings are decoded), otherwise allocates nothing and returns `nil`.
    ///
    /// - Parameters:
    ///   - reader: Positioned at the GeneralName.
    ///   - failure: Receives semantic errors, reported as `.invalidExtension(oid, …)`.
    ///   - oid: The enclosing extension, for errors.
    ///   - context: Which iPAddress lengths are allowed.
    ///   - storage: The buffer, when a value should be built.
    internal static func read(
        _ reader: inout DERReader, oid: OID, context: Context, storage: [UInt8]?
    ) throws(X509Error) -> GeneralName? {
        let start = reader.offset
        guard let tag = try der(reader.peekTag()) else {
            throw X509Error(.der(.missingElement(expected: .contextSpecific(2, isConstructed: false))), at: start)
        }
        guard tag.tagClass == .contextSpecific, tag.number <= 8 else {
            throw X509Error(.invalidExtension(oid, .notAGeneralName(tag)), at: start)
        }
        switch tag.number {
        case 0:
            let (typeID, value) = try reader.readConstructed(.contextSpecific(0, isConstructed: true)) {
                (other) throws(X509Error) -> (OID, DERElement) in
                let typeID = try der(other.readObjectIdentifier())
                let value = try other.readExplicit(0) { (inner) throws(X509Error) -> DERElement in try der(inner.readElement()) }
                return (typeID, value)
            }
            guard let storage else { return nil }
            return .otherName(typeID: typeID, value: storage[value.encodedRange])
        case 1, 2, 6:
            let element = try der(reader.readElement(.contextSpecific(tag.number, isConstructed: false)))
            try der(reader.checkString(element, kind: .ia5))
            guard let storage else { return nil }
            let text = decodeCheckedString(storage, range: element.contentRange, kind: .ia5)
            switch tag.number {
            case 1: return .rfc822Name(text)
            case 2: return .dnsName(text)
            default: return .uniformResourceIdentifier(text)
            }
        case 3, 5:
            let element = try der(reader.readElement(.contextSpecific(tag.number, isConstructed: true)))
            guard let storage else { return nil }
            let raw = storage[element.contentRange]
            return tag.number == 3 ? .x400Address(raw) : .ediPartyName(raw)
        case 4:
            let wrapper = try der(reader.readElement(.contextSpecific(4, isConstructed: true)))
            var inner = try der(reader.contentsReader(of: wrapper))
            let nameElement = try der(inner.readElement(.sequence))
            let count = try DistinguishedName.checkContents(of: nameElement, reader: inner)
            try der(inner.expectEnd())
            guard let storage else { return nil }
            return .directoryName(DistinguishedName(checked: storage, element: nameElement, count: count))
        case 7:
            let element = try der(reader.readElement(.contextSpecific(7, isConstructed: false)))
            let length = element.contentLength
            switch context {
            case .name:
                guard length == 4 || length == 16 else {
                    throw X509Error(.invalidExtension(oid, .invalidIPAddressLength(length)),
                                        at: element.offset)
                }
            case .constraint:
                guard length == 8 || length == 32 else {
                    throw X509Error(.invalidExtension(oid, .invalidIPAddressConstraintLength(length)),
                                        at: element.offset)
                }
            }
            guard let storage else { return nil }
            return .ipAddress(IPAddressName(bytes: storage[element.contentRange]))
        default:
            let registered = try der(reader.readObjectIdentifier(tag: .contextSpecific(8, isConstructed: false)))
            guard storage != nil else { return nil }
            return .registeredID(registered)
        }
    }
}

/// The octets of an `iPAddress` GeneralName: an IPv4 (4 octets) or IPv6
/// (16 octets) address, or in name constraints an address followed by a mask of
/// the same length (8 or 32 octets, RFC 5280 §4.2.1.10).
public struct IPAddressName: Sendable, Hashable, CustomStringConvertible {
    /// The octets as they appear in the certificate (network byte order).
    public let bytes: ArraySlice<UInt8>

    /// Wraps the octets of an iPAddress; any length is kept, but only 4, 8, 16
    /// and 32 octets are meaningful.
    ///
    /// - Parameter bytes: The OCTET STRING contents.
    public init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// Whether this is an IPv6 address (16 octets) or IPv6 constraint (32 octets).
    public var isIPv6: Bool { bytes.count == 16 || bytes.count == 32 }

    /// Whether the octets carry a mask (a name constraint: 8 or 32 octets).
    public var hasMask: Bool { bytes.count == 8 || bytes.count == 32 }

    /// The address octets: all of them, or the first half when there is a mask.
    public var address: ArraySlice<UInt8> {
        hasMask ? bytes.prefix(bytes.count / 2) : bytes
    }

    /// The mask octets of a name constraint, or `nil`.
    public var mask: ArraySlice<UInt8>? {
        hasMask ? bytes.suffix(bytes.count / 2) : nil
    }

    /// The prefix length of the mask, or `nil` if there is no mask or it is not a
    /// run of ones followed by zeros.
    public var prefixLength: Int? {
        guard let mask else { return nil }
        var length = 0
        var seenZero = false
        for byte in mask {
            for bit in (0..<8).reversed() {
                if byte & (1 << bit) != 0 {
                    if seenZero { return nil }
                    length += 1
                } else {
                    seenZero = true
                }
            }
        }
        return length
    }

    /// Dotted decimal for IPv4, the RFC 5952 form for IPv6 (lowercase, longest run
    /// of two or more zero groups as `::`); a constraint is `address/prefix` when
    /// the mask is contiguous and `address/mask` otherwise. Other lengths are
    /// rendered as `#` and hexadecimal.
    public var description: String {
        // Written as UTF-8 bytes and made a String once: no `String` appends or
        // `joined`, whose generic index code a firmware image would link for this.
        var text: [UInt8] = []
        guard bytes.count == 4 || bytes.count == 8 || bytes.count == 16 || bytes.count == 32 else {
            text.append(UInt8(ascii: "#"))
            for byte in bytes { Hex.append(byte, uppercase: true, to: &text) }
            return TextBytes.string(writtenUTF8: text)
        }
        text.reserveCapacity(isIPv6 ? 84 : 32)
        IPAddressName.render(address, into: &text)
        if let mask {
            text.append(UInt8(ascii: "/"))
            if let prefixLength {
                IPAddressName.appendDecimal(prefixLength, to: &text)
            } else {
                IPAddressName.render(mask, into: &text)
            }
        }
        // Digits, hex digits and punctuation.
        return TextBytes.string(writtenUTF8: text)
    }

    /// Appends the text form of a 4- or 16-octet address to `text`.
    private static func render(_ octets: ArraySlice<UInt8>, into text: inout [UInt8]) {
        if octets.count == 4 {
            for index in octets.indices {
                if index != octets.startIndex { text.append(UInt8(ascii: ".")) }
                appendDecimal(Int(octets[index]), to: &text)
            }
            return
        }
        var groups: [UInt16] = []
        groups.reserveCapacity(8)
        var index = octets.startIndex
        while index + 1 < octets.endIndex {
            groups.append(UInt16(octets[index]) << 8 | UInt16(octets[index + 1]))
            index += 2
        }
        // The longest run of at least two zero groups, first one on ties (RFC 5952 §4.2).
        var bestStart = -1, bestLength = 0, runStart = -1
        for (position, group) in groups.enumerated() {
            if group == 0 {
                if runStart < 0 { runStart = position }
                let length = position - runStart + 1
                if length > bestLength { bestStart = runStart; bestLength = length }
            } else {
                runStart = -1
            }
        }
        if bestLength < 2 { bestStart = -1 }
        let start = text.count
        var position = 0
        while position < groups.count {
            if position == bestStart {
                text.append(UInt8(ascii: ":"))
                text.append(UInt8(ascii: ":"))
                position += bestLength
                continue
            }
            if text.count > start, text[text.count - 1] != UInt8(ascii: ":") { text.append(UInt8(ascii: ":")) }
            appendHex(groups[position], to: &text)
            position += 1
        }
    }

    /// Appends `value` (non-negative) in decimal.
    private static func appendDecimal(_ value: Int, to text: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends `group` in lowercase hexadecimal without leading zeros (RFC 5952 §4.1).
    private static func appendHex(_ group: UInt16, to text: inout [UInt8]) {
        var shift = 12
        while shift > 0 && group >> UInt16(shift) == 0 { shift -= 4 }
        while shift >= 0 {
            let digit = UInt8(truncatingIfNeeded: group >> UInt16(shift)) & 0x0F
            text.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            shift -= 4
        }
    }
}

/// A `GeneralNames` sequence (RFC 5280 §4.2.1.6: `SEQUENCE SIZE (1..MAX) OF
/// GeneralName`), checked when created and decoded lazily when iterated.
///
/// Equality and hashing compare the encodings.
public struct GeneralNames: Sendable, Hashable, Sequence {
    /// The sequence in its buffer (equality and hashing are its encoding's).
    internal let sequence: CheckedSequence
    internal var storage: [UInt8] { sequence.storage }
    /// The absolute range of the whole encoding (the SEQUENCE, or an IMPLICITly
    /// tagged `[n]` in AuthorityKeyIdentifier and DistributionPoint).
    public var encodedRange: Range<Int> { sequence.encodedRange }
    internal var contentRange: Range<Int> { sequence.contentRange }
    /// The number of names (at least 1).
    public var count: Int { sequence.count }

    internal init(checked storage: [UInt8], element: DERElement, count: Int) {
        sequence = CheckedSequence(checked: storage, element: element, count: count)
    }

    /// Reads and checks a GeneralNames with `tag`; returns its element and count.
    /// An empty sequence is an error (SIZE (1..MAX)).
    internal static func check(
        _ reader: inout DERReader, oid: OID, tag: DERTag, context: GeneralName.Context
    ) throws(X509Error) -> (DERElement, Int) {
        let element = try der(reader.readElement(tag))
        var inner = try der(reader.contentsReader(of: element))
        var count = 0
        while !inner.isAtEnd {
            _ = try GeneralName.read(&inner, oid: oid, context: context, storage: nil)
            count += 1
        }
        guard count > 0 else {
            throw X509Error(.invalidExtension(oid, .emptySequence), at: element.offset)
        }
        return (element, count)
    }

    /// Reads a checked GeneralNames with `tag` as a value.
    internal static func read(
        _ reader: inout DERReader, oid: OID, tag: DERTag, context: GeneralName.Context,
        storage: [UInt8]
    ) throws(X509Error) -> GeneralNames {
        let (element, count) = try check(&reader, oid: oid, tag: tag, context: context)
        return GeneralNames(checked: storage, element: element, count: count)
    }

    /// The encoding, as a slice of the original buffer.
    public var derEncoded: ArraySlice<UInt8> { storage[encodedRange] }

    /// The number of names.
    public var underestimatedCount: Int { count }

    /// The names in encoding order.
    public func makeIterator() -> CheckedDERIterator<GeneralName> {
        CheckedDERIterator(storage, contentRange) { GeneralName.decodeChecked($0, element: $1) }
    }

    /// Whether the octets of one `dNSName` entry satisfy `predicate`, read in place:
    /// no `String` is decoded and nothing is allocated (a decoded name of more than
    /// 10 octets is a heap block on 32-bit targets). What a host check on a
    /// verdict's path compares; ``dnsNames`` gives the text.
    ///
    /// - Parameter predicate: Called with each name's IA5String contents (checked
    ///   ASCII when the extension was read; a slice of the certificate's bytes, so its
    ///   indices are offsets in the certificate), in encoding order, until it returns
    ///   `true`.
    /// - Returns: Whether `predicate` returned `true` for one of them.
    public func containsDNSName(where predicate: (ArraySlice<UInt8>) -> Bool) -> Bool {
        var elements = CheckedElements(bytes: storage, range: contentRange)
        while let element = elements.next() {
            let range = element.contentRange
            guard element.tag == .contextSpecific(2, isConstructed: false), range.upperBound <= storage.count else {
                continue
            }
            if predicate(storage[range]) { return true }
        }
        return false
    }

    /// The `dNSName` entries.
    public var dnsNames: [String] {
        compactMap { if case .dnsName(let name) = $0 { name } else { nil } }
    }

    /// The `iPAddress` entries.
    public var ipAddresses: [IPAddressName] {
        compactMap { if case .ipAddress(let address) = $0 { address } else { nil } }
    }

    /// The `rfc822Name` entries.
    public var emailAddresses: [String] {
        compactMap { if case .rfc822Name(let address) = $0 { address } else { nil } }
    }

    /// The `uniformResourceIdentifier` entries.
    public var uris: [String] {
        compactMap { if case .uniformResourceIdentifier(let uri) = $0 { uri } else { nil } }
    }

    /// The `directoryName` entries.
    public var directoryNames: [DistinguishedName] {
        compactMap { if case .directoryName(let name) = $0 { name } else { nil } }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: GeneralNames, rhs: GeneralNames) -> Bool {
        lhs.sequence == rhs.sequence
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) {
        sequence.hash(into: &hasher)
    }
}

extension GeneralName {
    /// The OID passed when re-reading checked elements: errors are impossible for
    /// them, so it is never reported.
    private static let uncheckedContextOID = OID(0, 0)

    /// Builds a GeneralName from an element that was checked earlier; `nil` cannot
    /// happen for such elements. The iPAddress length was checked in its context,
    /// so decoding here accepts both.
    internal static func decodeChecked(_ storage: [UInt8], element: DERElement) -> GeneralName? {
        let placeholder = GeneralName.uncheckedContextOID
        let decoded = rereadChecked(storage, element: element) { (reader) throws(X509Error) -> GeneralName? in
            let context: Context = element.contentLength == 8 || element.contentLength == 32 ? .constraint : .name
            return try GeneralName.read(&reader, oid: placeholder, context: context, storage: storage)
        }
        return decoded ?? nil
    }
}

public import TackDER

extension DistinguishedName {
    /// Object identifiers of the naming attributes that certificates use.
    ///
    /// The short names that ``DistinguishedName/shortName(for:)`` returns are those
    /// of RFC 4514 §3 (CN, L, ST, O, OU, C, STREET, DC, UID) and, for the rest, the
    /// short names OpenSSL prints, so that Tack's rendering matches
    /// `openssl x509 -nameopt RFC2253`.
    public enum AttributeType {
        /// commonName, `CN` (X.520, 2.5.4.3).
        public static let commonName = OID(2, 5, 4, 3)
        /// surname, `SN` (2.5.4.4).
        public static let surname = OID(2, 5, 4, 4)
        /// serialNumber (2.5.4.5).
        public static let serialNumber = OID(2, 5, 4, 5)
        /// countryName, `C` (2.5.4.6).
        public static let countryName = OID(2, 5, 4, 6)
        /// localityName, `L` (2.5.4.7).
        public static let localityName = OID(2, 5, 4, 7)
        /// stateOrProvinceName, `ST` (2.5.4.8).
        public static let stateOrProvinceName = OID(2, 5, 4, 8)
        /// streetAddress, `street` (2.5.4.9).
        public static let streetAddress = OID(2, 5, 4, 9)
        /// organizationName, `O` (2.5.4.10).
        public static let organizationName = OID(2, 5, 4, 10)
        /// organizationalUnitName, `OU` (2.5.4.11).
        public static let organizationalUnitName = OID(2, 5, 4, 11)
        /// title (2.5.4.12).
        public static let title = OID(2, 5, 4, 12)
        /// description (2.5.4.13).
        public static let description = OID(2, 5, 4, 13)
        /// businessCategory (2.5.4.15).
        public static let businessCategory = OID(2, 5, 4, 15)
        /// postalCode (2.5.4.17).
        public static let postalCode = OID(2, 5, 4, 17)
        /// name (2.5.4.41).
        public static let name = OID(2, 5, 4, 41)
        /// givenName, `GN` (2.5.4.42).
        public static let givenName = OID(2, 5, 4, 42)
        /// initials (2.5.4.43).
        public static let initials = OID(2, 5, 4, 43)
        /// generationQualifier (2.5.4.44).
        public static let generationQualifier = OID(2, 5, 4, 44)
        /// dnQualifier (2.5.4.46).
        public static let dnQualifier = OID(2, 5, 4, 46)
        /// pseudonym (2.5.4.65).
        public static let pseudonym = OID(2, 5, 4, 65)
        /// organizationIdentifier (2.5.4.97, X.520 2016; used by eIDAS CAs).
        public static let organizationIdentifier = OID(2, 5, 4, 97)
        /// domainComponent, `DC` (RFC 4519, 0.9.2342.19200300.100.1.25).
        public static let domainComponent = OID(0, 9, 2342, 19_200_300, 100, 1, 25)
        /// userId, `UID` (RFC 4519, 0.9.2342.19200300.100.1.1).
        public static let userID = OID(0, 9, 2342, 19_200_300, 100, 1, 1)
        /// emailAddress (PKCS #9, 1.2.840.113549.1.9.1); deprecated by RFC 5280
        /// §4.1.2.6 in favour of rfc822Name alternative names, still common.
        public static let emailAddress = OID(1, 2, 840, 113_549, 1, 9, 1)
        /// jurisdictionLocalityName, `jurisdictionL` (CA/B Forum EV, 1.3.6.1.4.1.311.60.2.1.1).
        public static let jurisdictionLocalityName = OID(1, 3, 6, 1, 4, 1, 311, 60, 2, 1, 1)
        /// jurisdictionStateOrProvinceName, `jurisdictionST` (1.3.6.1.4.1.311.60.2.1.2).
        public static let jurisdictionStateOrProvinceName = OID(1, 3, 6, 1, 4, 1, 311, 60, 2, 1, 2)
        /// jurisdictionCountryName, `jurisdictionC` (1.3.6.1.4.1.311.60.2.1.3).
        public static let jurisdictionCountryName = OID(1, 3, 6, 1, 4, 1, 311, 60, 2, 1, 3)
    }

    /// The short name used in string renderings for an attribute type, or `nil` for
    /// a type Tack does not name (rendered in dotted form, RFC 4514 §2.3).
    ///
    /// - Parameter type: The attribute type.
    /// - Returns: The short name, such as `"CN"`.
    public static func shortName(for type: OID) -> String? {
        // Compare the contents octets directly: cheaper than the static constants.
        type.withContents { contents -> String? in
            // 2.5.4.x is encoded 55 04 x (x < 128).
            if contents.count == 3 && contents[0] == 0x55 && contents[1] == 0x04 {
                switch contents[2] {
                case 3: return "CN"
                case 4: return "SN"
                case 5: return "serialNumber"
                case 6: return "C"
                case 7: return "L"
                case 8: return "ST"
                case 9: return "street"
                case 10: return "O"
                case 11: return "OU"
                case 12: return "title"
                case 13: return "description"
                case 15: return "businessCategory"
                case 17: return "postalCode"
                case 41: return "name"
                case 42: return "GN"
                case 43: return "initials"
                case 44: return "generationQualifier"
                case 46: return "dnQualifier"
                case 65: return "pseudonym"
                case 97: return "organizationIdentifier"
                default: return nil
                }
            }
            return nil
        } ?? otherShortName(for: type)
    }

    private static func otherShortName(for type: OID) -> String? {
        if type == AttributeType.domainComponent { return "DC" }
        if type == AttributeType.userID { return "UID" }
        if type == AttributeType.emailAddress { return "emailAddress" }
        if type == AttributeType.jurisdictionCountryName { return "jurisdictionC" }
        if type == AttributeType.jurisdictionStateOrProvinceName { return "jurisdictionST" }
        if type == AttributeType.jurisdictionLocalityName { return "jurisdictionL" }
        return nil
    }

    /// The name in the string form of RFC 4514 (LDAP distinguished names).
    ///
    /// RDNs appear in reverse order (most specific first) separated by `,`; the
    /// attributes of a multi-valued RDN are joined with `+` in encoding order. Each
    /// attribute is `type=value`, where `type` is ``shortName(for:)`` or the dotted
    /// OID. Following RFC 4514 §2.4:
    /// - a string value of a named type is written as text, escaping `, + " \ < > ;`
    ///   with a backslash, as well as a leading `#` or space and a trailing space;
    /// - the value of a type written in dotted form, and any value that is not a
    ///   string, is `#` followed by the hexadecimal (uppercase) of its complete DER
    ///   encoding.
    ///
    /// Beyond RFC 4514, control characters (U+0000...U+001F and U+007F) are written
    /// as `\XX` hexadecimal escapes so that the output is safe to print; RFC 4514
    /// requires this only for NUL. Other characters, including non-ASCII ones, are
    /// written as UTF-8 (OpenSSL's RFC2253 option escapes every non-ASCII octet as
    /// `\XX` instead; RFC 4514 permits both).
    public var rfc4514String: String {
        // The RDN elements in encoding order, rendered last to first into one
        // UTF-8 buffer (two allocations in all, plus the final String).
        var elements: [DERElement] = []
        elements.reserveCapacity(count)
        var iterator = CheckedElements(bytes: storage, range: contentRange)
        while let element = iterator.next() { elements.append(element) }
        var out: [UInt8] = []
        out.reserveCapacity(encodedRange.count + 8)
        for (index, element) in elements.reversed().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            RelativeDistinguishedName(checked: storage, element: element).appendRFC4514(to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension RelativeDistinguishedName {
    /// The RDN in RFC 4514 form: its attributes joined with `+`, in encoding order.
    public var rfc4514String: String {
        var out: [UInt8] = []
        appendRFC4514(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    internal func appendRFC4514(to out: inout [UInt8]) {
        var first = true
        for attribute in self {
            if !first { out.append(UInt8(ascii: "+")) }
            first = false
            attribute.appendRFC4514(to: &out)
        }
    }
}

extension RelativeDistinguishedName.Attribute {
    /// The attribute in RFC 4514 form, `type=value`; see
    /// ``DistinguishedName/rfc4514String``.
    public var rfc4514String: String {
        var out: [UInt8] = []
        appendRFC4514(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    internal func appendRFC4514(to out: inout [UInt8]) {
        let name = DistinguishedName.shortName(for: type)
        if let name {
            out.append(contentsOf: name.utf8)
        } else {
            out.append(contentsOf: type.dottedString.utf8)
        }
        out.append(UInt8(ascii: "="))
        guard name != nil, let kind = stringKind else {
            out.append(UInt8(ascii: "#"))
            out.append(contentsOf: Hex.encode(encodedValue, uppercase: true).utf8)
            return
        }
        storage.withUnsafeBufferPointer { buffer in
            RelativeDistinguishedName.Attribute.appendEscaped(
                RawScalars(contents: UnsafeBufferPointer(rebasing: buffer[valueElement.contentRange]), kind: kind), to: &out)
        }
    }

    /// Appends the UTF-8 of a string value, escaped as RFC 4514 §2.4 requires
    /// (plus control characters as `\XX`).
    internal static func appendEscaped(_ scalars: RawScalars, to out: inout [UInt8]) {
        var scalars = scalars
        var isFirst = true
        var pendingSpaces = 0
        while let scalar = scalars.next() {
            // A space is escaped when it is first or last; hold spaces back until
            // the next character shows they are not last.
            if scalar == " " {
                if isFirst {
                    out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: " ")])
                    isFirst = false
                } else {
                    pendingSpaces += 1
                }
                continue
            }
            if pendingSpaces > 0 {
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pendingSpaces))
                pendingSpaces = 0
            }
            switch scalar {
            case ",", "+", "\"", "\\", "<", ">", ";":
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(truncatingIfNeeded: scalar.value))
            case "#" where isFirst:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "#")])
            case "\u{00}"..."\u{1F}", "\u{7F}":
                out.append(UInt8(ascii: "\\"))
                out.append(contentsOf: Hex.encode(CollectionOfOne(UInt8(truncatingIfNeeded: scalar.value)), uppercase: true).utf8)
            default:
                if scalar.value < 0x80 {
                    out.append(UInt8(truncatingIfNeeded: scalar.value))
                } else {
                    UTF8.encode(scalar) { out.append($0) }
                }
            }
            isFirst = false
        }
        if pendingSpaces > 0 {
            // The last space is escaped.
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pendingSpaces - 1))
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: " ")])
        }
    }
}

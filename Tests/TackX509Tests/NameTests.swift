import Testing
import TackDER
import TackTestSupport
@testable import TackX509

@Suite("DistinguishedName decoding")
struct NameDecodingTests {
    @Test("A simple name decodes into its RDNs and attributes")
    func simpleName() throws {
        let name = try name([(AT.countryName, "US"), (AT.organizationName, "Example Org"), (AT.commonName, "example.com")])
        #expect(name.count == 3)
        #expect(!name.isEmpty)
        let types = name.map { rdn in rdn.map(\.type) }
        #expect(types == [[AT.countryName], [AT.organizationName], [AT.commonName]])
        #expect(name.commonName == "example.com")
        #expect(name.values(of: AT.organizationName) == ["Example Org"])
        #expect(name.rfc4514String == "CN=example.com,O=Example Org,C=US")
        #expect(name.description == name.rfc4514String)
    }

    @Test("The name keeps absolute ranges into the caller's buffer")
    func absoluteRanges() throws {
        let encoded = encodeName([[.string(AT.commonName, "x")]])
        let buffer = [0xAA, 0xBB] + encoded + [0xCC]
        let name = try DistinguishedName(derEncoded: buffer, range: 2..<(2 + encoded.count))
        #expect(name.encodedRange == 2..<(2 + encoded.count))
        #expect(Array(name.derEncoded) == encoded)
        let attribute = try #require(name.first?.first)
        #expect(attribute.valueElement.offset == 2 + encoded.count - 3)
        #expect(Array(attribute.encodedValue) == [0x0C, 0x01, 0x78])
    }

    @Test("An empty name is accepted (RFC 5280 §4.1.2.6)")
    func emptyName() throws {
        let name = try DistinguishedName(derEncoded: [0x30, 0x00])
        #expect(name.isEmpty)
        #expect(name.count == 0)
        #expect(name.rfc4514String == "")
        #expect(name.commonName == nil)
    }

    @Test("Every directory string type decodes", arguments: DERStringKind.allCases)
    func stringKinds(kind: DERStringKind) throws {
        let text = kind == .numeric ? "0123 456" : "Abc 12"
        let name = try DistinguishedName(derEncoded: encodeName([[.string(AT.commonName, text, kind)]]))
        let attribute = try #require(name.first?.first)
        #expect(attribute.stringKind == kind)
        #expect(attribute.stringValue == text)
        #expect(name.rfc4514String == "CN=" + text)
    }

    @Test("Non-ASCII text from BMPString, UniversalString and TeletexString decodes")
    func nonASCII() throws {
        for kind in [DERStringKind.bmp, .universal, .utf8] {
            let name = try DistinguishedName(derEncoded: encodeName([[.string(AT.organizationName, "Zürich Ω", kind)]]))
            #expect(name.rfc4514String == "O=Zürich Ω")
        }
        // TeletexString is read as ISO 8859-1: 0xFC is ü.
        let teletex: [UInt8] = [0x30, 0x0E, 0x31, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x04, 0x0A, 0x14, 0x03, 0x5A, 0xFC, 0x72]
        #expect(try DistinguishedName(derEncoded: teletex).rfc4514String == "O=Zür")
    }

    @Test("Multi-valued RDNs keep their attributes in encoding order")
    func multiValued() throws {
        let encoded = encodeName([
            [.string(AT.countryName, "DE", .printable)],
            [.string(AT.commonName, "Alice"), .string(AT.userID, "alice", .ia5)],
        ])
        let name = try DistinguishedName(derEncoded: encoded)
        #expect(name.count == 2)
        #expect(name.map(\.count) == [1, 2])
        #expect(name.rfc4514String == "CN=Alice+UID=alice,C=DE")
    }

    @Test("Values that are not strings are kept raw and rendered as #hex")
    func rawValues() throws {
        let encoded = encodeName([[.raw(AT.commonName, [0x02, 0x01, 0x05])], [.raw(AT.title, [0x30, 0x03, 0x01, 0x01, 0xFF])]])
        let name = try DistinguishedName(derEncoded: encoded)
        let first = try #require(name.first?.first)
        #expect(first.stringKind == nil)
        #expect(first.stringValue == nil)
        #expect(Array(first.valueBytes) == [0x05])
        #expect(name.rfc4514String == "title=#30030101FF,CN=#020105")
    }

    @Test("Unknown attribute types are kept and rendered as dotted OID with #hex (RFC 4514 §2.4)")
    func unknownType() throws {
        let oid = OID(1, 2, 3, 4)
        let name = try DistinguishedName(derEncoded: encodeName([[.string(oid, "abc")]]))
        #expect(name.first?.first?.type == oid)
        #expect(name.first?.first?.stringValue == "abc")
        #expect(name.rfc4514String == "1.2.3.4=#0C03616263")
    }

    @Test("Short names cover the common attribute types")
    func shortNames() {
        let expected: [(OID, String)] = [
            (AT.commonName, "CN"), (AT.surname, "SN"), (AT.serialNumber, "serialNumber"), (AT.countryName, "C"),
            (AT.localityName, "L"), (AT.stateOrProvinceName, "ST"), (AT.streetAddress, "street"),
            (AT.organizationName, "O"), (AT.organizationalUnitName, "OU"), (AT.title, "title"),
            (AT.givenName, "GN"), (AT.domainComponent, "DC"), (AT.userID, "UID"),
            (AT.emailAddress, "emailAddress"), (AT.organizationIdentifier, "organizationIdentifier"),
            (AT.jurisdictionCountryName, "jurisdictionC"), (AT.postalCode, "postalCode"),
        ]
        for (oid, short) in expected { #expect(DistinguishedName.shortName(for: oid) == short) }
        #expect(DistinguishedName.shortName(for: OID(2, 5, 4, 99)) == nil)
        #expect(DistinguishedName.shortName(for: OID(1, 2, 3)) == nil)
    }

    @Test("Equality and hashing compare encodings byte for byte")
    func byteEquality() throws {
        let a = try name([(AT.commonName, "x")])
        let b = try name([(AT.commonName, "x")])
        let c = try name([(AT.commonName, "x")], kind: .printable)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        #expect(a.matches(c))
    }
}

@Suite("DistinguishedName rejection")
struct NameRejectionTests {
    @Test("An empty RDN is rejected at its offset")
    func emptyRDN() {
        // SEQUENCE { SET { SEQUENCE { CN "x" } }, SET {} }
        let bytes: [UInt8] = [0x30, 0x0E, 0x31, 0x0A, 0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0C, 0x01, 0x78, 0x31, 0x00]
        #expect(throws: X509Error(.invalidName(.emptyRelativeDistinguishedName), at: 14)) {
            try DistinguishedName(derEncoded: bytes)
        }
    }

    @Test("A string outside its alphabet is rejected at the string's offset")
    func badAlphabet() {
        // PrintableString "a@" ('@' is not in the alphabet).
        let bytes: [UInt8] = [0x30, 0x0D, 0x31, 0x0B, 0x30, 0x09, 0x06, 0x03, 0x55, 0x04, 0x03, 0x13, 0x02, 0x61, 0x40]
        #expect(throws: X509Error(.der(.invalidPrintableString), at: 11)) { try DistinguishedName(derEncoded: bytes) }
        var utf8 = bytes
        utf8[11] = 0x0C
        utf8[14] = 0xC0  // a lone lead byte
        #expect(throws: X509Error(.der(.invalidUTF8String), at: 11)) { try DistinguishedName(derEncoded: utf8) }
        var ia5 = bytes
        ia5[11] = 0x16
        ia5[14] = 0x80
        #expect(throws: X509Error(.der(.invalidIA5String), at: 11)) { try DistinguishedName(derEncoded: ia5) }
    }

    @Test("A constructed string is rejected (X.690 §10.2)")
    func constructedString() {
        // value 0x33 = constructed PrintableString containing a primitive one.
        let bytes: [UInt8] = [0x30, 0x0F, 0x31, 0x0D, 0x30, 0x0B, 0x06, 0x03, 0x55, 0x04, 0x03, 0x33, 0x04, 0x13, 0x02, 0x61, 0x62]
        #expect(throws: X509Error(.der(.wrongConstructedBit), at: 11)) { try DistinguishedName(derEncoded: bytes) }
    }

    @Test("Structural errors carry their offsets")
    func structural() {
        // Missing value in the AttributeTypeAndValue: the reader reports the end.
        let missing: [UInt8] = [0x30, 0x09, 0x31, 0x07, 0x30, 0x05, 0x06, 0x03, 0x55, 0x04, 0x03]
        #expect(throws: X509Error(.der(.truncated), at: 11)) { try DistinguishedName(derEncoded: missing) }
        // Two values in one AttributeTypeAndValue.
        let extra: [UInt8] = [0x30, 0x0E, 0x31, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0C, 0x00, 0x0C, 0x01, 0x78]
        #expect(throws: X509Error(.der(.trailingData), at: 13)) { try DistinguishedName(derEncoded: extra) }
        // A SEQUENCE where the RDN's SET belongs.
        let notSet: [UInt8] = [0x30, 0x02, 0x30, 0x00]
        #expect(throws: X509Error(.der(.unexpectedTag(expected: .set, found: .sequence)), at: 2)) {
            try DistinguishedName(derEncoded: notSet)
        }
        // A SET where the Name's SEQUENCE belongs.
        #expect(throws: X509Error(.der(.unexpectedTag(expected: .sequence, found: .set)), at: 0)) {
            try DistinguishedName(derEncoded: [0x31, 0x00])
        }
        // Truncated.
        #expect(throws: X509Error(.der(.lengthExceedsInput), at: 0)) { try DistinguishedName(derEncoded: [0x30, 0x05, 0x31]) }
        // The attribute type must be an OBJECT IDENTIFIER.
        let notOID: [UInt8] = [0x30, 0x08, 0x31, 0x06, 0x30, 0x04, 0x02, 0x00, 0x0C, 0x00]
        #expect(throws: X509Error(.der(.unexpectedTag(expected: .objectIdentifier, found: .integer)), at: 6)) {
            try DistinguishedName(derEncoded: notOID)
        }
    }

    @Test("An RDN with more than the maximum number of attributes is rejected")
    func tooManyAttributes() throws {
        let many = (0...DistinguishedName.maximumAttributesPerRDN).map { TestAttribute.string(AT.commonName, "\($0)") }
        let encoded = encodeName([many])
        // The RDN's SET follows the Name's header (tag + long-form length).
        let setOffset = encoded[1] & 0x80 != 0 ? 2 + Int(encoded[1] & 0x7F) : 2
        #expect(throws: X509Error(.invalidName(.tooManyAttributes), at: setOffset)) {
            try DistinguishedName(derEncoded: encoded)
        }
        let enough = encodeName([Array(many.dropLast())])
        #expect(try DistinguishedName(derEncoded: enough).first?.count == 32)
    }

    @Test("Every strict prefix of a valid name is rejected")
    func dripFeed() throws {
        let encoded = encodeName([[.string(AT.countryName, "US", .printable)], [.string(AT.commonName, "a"), .string(AT.userID, "b", .ia5)]])
        _ = try DistinguishedName(derEncoded: encoded)
        for length in 0..<encoded.count {
            #expect(throws: X509Error(derPrefixError(encoded, length: length, ifEmpty: .missingElement(expected: .sequence)))) { try DistinguishedName(derEncoded: Array(encoded[0..<length])) }
        }
    }
}

@Suite("RFC 4514 rendering")
struct NameRenderingTests {
    @Test("Special characters are escaped (RFC 4514 §2.4)", arguments: [
        ("a,b", "a\\,b"), ("a+b", "a\\+b"), ("say \"hi\"", "say \\\"hi\\\""), ("back\\slash", "back\\\\slash"),
        ("<tag>", "\\<tag\\>"), ("a;b", "a\\;b"), ("#first", "\\#first"), ("mid#dle", "mid#dle"),
        (" lead", "\\ lead"), ("trail ", "trail\\ "), (" ", "\\ "), ("in ner", "in ner"), ("a=b", "a=b"),
        ("tab\there", "tab\\09here"), ("nul\u{0}", "nul\\00"), ("del\u{7F}", "del\\7F"), ("é", "é"), ("", ""),
    ])
    func escaping(value: String, expected: String) throws {
        let name = try name([(AT.commonName, value)])
        #expect(name.rfc4514String == "CN=" + expected)
    }
}

@Suite("RFC 5280 §7.1 name matching")
struct NameMatchingTests {
    @Test("Case and whitespace differences match", arguments: [
        ("Example Org", "example org"), ("Example Org", "EXAMPLE ORG"), ("  Example   Org ", "example org"),
        ("Example\tOrg", "Example Org"), ("Example \n\r Org", "example org"), ("a", "a"), ("", "   "),
    ])
    func folded(a: String, b: String) throws {
        #expect(try name([(AT.organizationName, a)]).matches(name([(AT.organizationName, b)])))
        #expect(try name([(AT.organizationName, b)]).matches(name([(AT.organizationName, a)])))
    }

    @Test("Different text does not match", arguments: [
        ("Example Org", "ExampleOrg"), ("a", "b"), ("ab", "a"), ("a b", "a  c"), ("Ä", "ä"), ("x", ""),
    ])
    func different(a: String, b: String) throws {
        #expect(try !name([(AT.organizationName, a)]).matches(name([(AT.organizationName, b)])))
    }

    @Test("The same text in different string types matches")
    func acrossKinds() throws {
        let kinds: [DERStringKind] = [.utf8, .printable, .ia5, .visible, .teletex, .bmp, .universal]
        for lhs in kinds {
            for rhs in kinds {
                let a = try name([(AT.commonName, "Test CA 1")], kind: lhs)
                let b = try name([(AT.commonName, " test  ca 1 ")], kind: rhs)
                #expect(a.matches(b), "\(lhs) vs \(rhs)")
            }
        }
        let utf = try name([(AT.commonName, "Zürich")], kind: .utf8)
        let bmp = try name([(AT.commonName, "ZÜRICH")], kind: .bmp)
        let bmpSame = try name([(AT.commonName, "zürich")], kind: .bmp)
        #expect(!utf.matches(bmp))  // non-ASCII case folding is not performed
        #expect(utf.matches(bmpSame))
    }

    @Test("Multi-valued RDNs match regardless of member order")
    func multiValuedOrder() throws {
        let a = try DistinguishedName(derEncoded: encodeName([[.string(AT.commonName, "Alice"), .string(AT.userID, "alice", .ia5)]]))
        let b = try DistinguishedName(derEncoded: encodeName([[.string(AT.userID, "ALICE", .utf8), .string(AT.commonName, "alice")]]))
        let c = try DistinguishedName(derEncoded: encodeName([[.string(AT.commonName, "Alice")]]))
        let d = try DistinguishedName(derEncoded: encodeName([[.string(AT.commonName, "Alice"), .string(AT.commonName, "Alice")]]))
        let e = try DistinguishedName(derEncoded: encodeName([[.string(AT.commonName, "Alice"), .string(AT.userID, "bob", .ia5)]]))
        #expect(a.matches(b))
        #expect(b.matches(a))
        #expect(!a.matches(c))
        #expect(!a.matches(d))
        #expect(!d.matches(a))
        #expect(!a.matches(e))
    }

    @Test("RDN order, count and attribute types matter")
    func structure() throws {
        let a = try name([(AT.countryName, "US"), (AT.commonName, "x")])
        #expect(!a.matches(try name([(AT.commonName, "x"), (AT.countryName, "US")])))
        #expect(!a.matches(try name([(AT.countryName, "US")])))
        #expect(!a.matches(try name([(AT.countryName, "US"), (AT.organizationName, "x")])))
        #expect(a.matches(a))
        let empty = try DistinguishedName(derEncoded: [0x30, 0x00])
        #expect(empty.matches(empty))
        #expect(!empty.matches(a))
    }

    @Test("Values that are not strings match only byte for byte")
    func rawValues() throws {
        let a = try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, [0x02, 0x01, 0x05])]]))
        let b = try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, [0x02, 0x01, 0x05])]]))
        let c = try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, [0x02, 0x01, 0x06])]]))
        let text = try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, [0x04, 0x01, 0x05])]]))
        #expect(a.matches(b))
        #expect(!a.matches(c))
        #expect(!a.matches(text))
    }

    @Test("Subtree membership compares leading RDNs (RFC 5280 §7.1)")
    func subtree() throws {
        let base = try name([(AT.countryName, "US"), (AT.organizationName, "Example")])
        let below = try name([(AT.countryName, "us"), (AT.organizationName, "EXAMPLE"), (AT.commonName, "host")])
        let other = try name([(AT.countryName, "US"), (AT.organizationName, "Other"), (AT.commonName, "host")])
        #expect(below.isWithinSubtree(of: base))
        #expect(base.isWithinSubtree(of: base))
        #expect(!base.isWithinSubtree(of: below))
        #expect(!other.isWithinSubtree(of: base))
        #expect(base.isWithinSubtree(of: try DistinguishedName(derEncoded: [0x30, 0x00])))
    }
}

@Suite("Name match keys")
struct NameMatchKeyTests {
    @Test("Two names have equal match keys exactly when they match")
    func keysAgreeWithMatching() throws {
        let kinds: [DERStringKind] = [.utf8, .printable, .bmp, .teletex]
        var names: [DistinguishedName] = []
        for text in ["Example Org", "example  org", " EXAMPLE ORG ", "Example Org2", "Zürich", "zürich", "ZÜRICH", ""] {
            for kind in kinds where !(kind == .printable && text.unicodeScalars.contains { $0.value > 0x7F }) {
                names.append(try name([(AT.countryName, "US"), (AT.organizationName, text)], kind: kind))
            }
        }
        names.append(try DistinguishedName(derEncoded: encodeName([[.string(AT.commonName, "A"), .string(AT.userID, "b", .ia5)]])))
        names.append(try DistinguishedName(derEncoded: encodeName([[.string(AT.userID, "B"), .string(AT.commonName, "a", .bmp)]])))
        names.append(try DistinguishedName(derEncoded: encodeName([[.string(AT.commonName, "A"), .string(AT.commonName, "A")]])))
        names.append(try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, [0x02, 0x01, 0x05])]])))
        names.append(try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, [0x04, 0x01, 0x05])]])))
        names.append(try DistinguishedName(derEncoded: [0x30, 0x00]))
        for der in SystemCABundle.certificates.prefix(30) {
            let certificate = try Certificate(derEncoded: der)
            names.append(try certificate.subject)
        }
        var matching = 0
        for a in names {
            for b in names {
                #expect(a.matches(b) == (a.matchKey == b.matchKey), "\(a) vs \(b)")
                // The hash computed in place agrees with the key: names that match share it.
                if a.matches(b) { #expect(a.matchHash == b.matchHash, "\(a) vs \(b): match hash") }
                if a.matches(b) && a != b { matching += 1 }
            }
        }
        #expect(matching > 10)
    }
}

@Suite("DistinguishedName fast path")
struct NameFastPathTests {
    /// The full reader's verdict: the contents range and RDN count, or nil.
    private func fullCheck(_ bytes: [UInt8]) -> (Range<Int>, Int)? {
        try? readX509(bytes, range: 0..<bytes.count) { (reader) throws(X509Error) -> (Range<Int>, Int) in
            try DistinguishedName.check(&reader, tag: .sequence)
        }
    }

    @Test("Identifiers with long arcs take the full reader, which applies TackDER's arc limit")
    func longArcs() throws {
        // 1.2.<2^35>: a 6-octet arc, outside the fast path's subset but valid.
        let long = encodeName([[.string(OID(1, 2, 1 << 35), "x")]])
        #expect(DistinguishedName.quickCheck(long, range: 0..<long.count) == nil)
        #expect(try DistinguishedName(derEncoded: long).first?.first?.type == OID(1, 2, 1 << 35))
        // An arc of 33 octets is refused (OID.maximumArcOctets).
        let arc = Array(repeating: UInt8(0xFF), count: 32) + [0x7F]
        var writer = DERWriter()
        writer.writeSequence { (name: inout DERWriter) in
            name.writeSet { (set: inout DERWriter) in
                set.writeSequence { (pair: inout DERWriter) in
                    pair.writeElement(.objectIdentifier, contents: [0x2A] + arc)
                    try? pair.writeString("x", as: .utf8)
                }
            }
        }
        #expect(throws: X509Error(.der(.objectIdentifierArcTooLong), at: 6)) { try DistinguishedName(derEncoded: writer.bytes) }
    }

    @Test("The fast path never accepts what the full reader rejects, on mutated names")
    func agreesWithFullReader() throws {
        var names: [[UInt8]] = [
            encodeName([[.string(AT.countryName, "US", .printable)], [.string(AT.commonName, "a"), .string(AT.userID, "b", .ia5)]]),
            encodeName([[.string(AT.commonName, String(repeating: "x", count: 300))]]),
            encodeName([[.string(AT.organizationName, "Zürich", .bmp)], [.string(AT.commonName, "é", .utf8)]]),
            [0x30, 0x00],
        ]
        for der in SystemCABundle.certificates.prefix(40) {
            let certificate = try Certificate(derEncoded: der)
            names.append(Array(certificate.subjectBytes))
        }
        // Seeded, so that a failure reproduces (TackTestSupport.DeterministicStream).
        var generator = DeterministicStream(state: 0x7AC1_4A3E)
        var fastAccepted = 0
        for name in names {
            // Valid names take the fast path, with the full reader's result.
            let quick = try #require(DistinguishedName.quickCheck(name, range: 0..<name.count))
            let full = try #require(fullCheck(name))
            #expect(quick == full)
            for _ in 0..<300 {
                let mutated = generator.mutate(name, edits: 1...2, kinds: [
                    .replace, .flipBit, .special([0x00, 0x80, 0x7F, 0xFF, 0x1F, 0x30, 0x31, 0x06, 0x13, 0x0C, 0x81, 0x82]), .remove,
                ])
                guard let quick = DistinguishedName.quickCheck(mutated, range: 0..<mutated.count) else { continue }
                fastAccepted += 1
                let full = fullCheck(mutated)
                #expect(full.map { $0.0 } == quick.0 && full.map { $0.1 } == quick.1, "fast path accepted \(mutated)")
            }
        }
        #expect(fastAccepted > 0)
    }
}

@Suite("Name match hash fast path")
struct NameMatchHashFastPathTests {
    @Test("Octet-by-octet string preparation hashes as the scalar iterator does (seeded)")
    func octetwiseAgreesWithScalars() throws {
        // Per string tag, the octets its values are drawn from (valid for the tag):
        // spaces and the other ASCII whitespace, both cases, digits, and for UTF-8 and
        // TeletexString octets above 0x7F (UTF-8's as whole scalars).
        let ascii: [[UInt8]] = [[0x20], [0x20], [0x41], [0x5A], [0x61], [0x7A], [0x4D], [0x30], [0x2D], [0x2E]]
        let whitespace: [[UInt8]] = [[0x09], [0x0A], [0x0D], [0x0B], [0x0C]]
        let alphabets: [(tag: UInt8, pieces: [[UInt8]])] = [
            (0x0C, ascii + whitespace + [[0xC3, 0xBC], [0xC3, 0x9C], [0xE2, 0x82, 0xAC]]),  // UTF8String
            (0x13, ascii),  // PrintableString
            (0x14, ascii + whitespace + [[0xFC], [0xDC], [0x80], [0xFF]]),  // TeletexString
            (0x16, ascii + whitespace + [[0x00], [0x7F]]),  // IA5String
            (0x1A, ascii),  // VisibleString
        ]
        // Seeded, so that a failure reproduces (TackTestSupport.DeterministicStream).
        var generator = DeterministicStream(state: 0x35B_0C7E7)
        var octetwiseTaken = 0
        for round in 0..<2000 {
            let alphabet = alphabets[round % alphabets.count]
            var value: [UInt8] = []
            let pieces = Int(generator.next() % 12)
            for _ in 0..<pieces {
                value += alphabet.pieces[Int(generator.next() % UInt64(alphabet.pieces.count))]
            }
            let name = try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, [alphabet.tag, UInt8(value.count)] + value)]]))
            for rdn in name {
                for attribute in rdn {
                    #expect(attribute.matchHash(octetwise: true) == attribute.matchHash(octetwise: false), "\(value)")
                    if alphabet.tag != 0x0C || value.allSatisfy({ $0 < 0x80 }) { octetwiseTaken += 1 }
                }
            }
        }
        #expect(octetwiseTaken > 1000)
    }

    @Test("Octet-by-octet attribute comparison agrees with the scalar iterator (seeded)")
    func octetwiseMatchingAgreesWithScalars() throws {
        // Symbols and their encodings per string tag (nil: not valid for that tag).
        // UTF8String 0x0C, PrintableString 0x13, TeletexString 0x14, IA5String 0x16,
        // BMPString 0x1E.
        let tags: [UInt8] = [0x0C, 0x13, 0x14, 0x16, 0x1E]
        let table: [[[UInt8]?]] = [
            // utf8, printable, teletex, ia5, bmp
            [[0x20], [0x20], [0x20], [0x20], [0x00, 0x20]],
            [[0x09], nil, [0x09], [0x09], [0x00, 0x09]],
            [[0x41], [0x41], [0x41], [0x41], [0x00, 0x41]],
            [[0x61], [0x61], [0x61], [0x61], [0x00, 0x61]],
            [[0x5A], [0x5A], [0x5A], [0x5A], [0x00, 0x5A]],
            [[0x7A], [0x7A], [0x7A], [0x7A], [0x00, 0x7A]],
            [[0x30], [0x30], [0x30], [0x30], [0x00, 0x30]],
            [[0x2D], [0x2D], [0x2D], [0x2D], [0x00, 0x2D]],
            [[0xC3, 0xBC], nil, [0xFC], nil, [0x00, 0xFC]],  // ü
            [[0xC3, 0x9C], nil, [0xDC], nil, [0x00, 0xDC]],  // Ü
            [[0xC3, 0x83], nil, [0xC3], nil, [0x00, 0xC3]],  // Ã, whose UTF-8 starts like ü's
        ]
        // Seeded, so that a failure reproduces (TackTestSupport.DeterministicStream).
        var generator = DeterministicStream(state: 0x35B_3A7C)
        func encode(_ text: [Int], kindIndex: Int) -> [UInt8]? {
            var value: [UInt8] = []
            for symbol in text {
                guard let octets = table[symbol][kindIndex] else { return nil }
                value += octets
            }
            return [tags[kindIndex], UInt8(value.count)] + value
        }
        func attribute(_ encoded: [UInt8]) throws -> RelativeDistinguishedName.Attribute? {
            let name = try DistinguishedName(derEncoded: encodeName([[.raw(AT.commonName, encoded)]]))
            return name.first?.first
        }
        var compared = 0
        var matched = 0
        for _ in 0..<3000 {
            let text = (0..<Int(generator.next() % 8)).map { _ in Int(generator.next() % UInt64(table.count)) }
            // The other text: the same with case changed, spaces added or dropped, or a
            // symbol replaced, now and then.
            var other: [Int] = []
            for symbol in text {
                switch generator.next() % 8 {
                case 0: other.append(symbol ^ 1)  // pairs: space/tab, A/a, Z/z, 0/-, ü/Ü
                case 1: other += [0, symbol]
                case 2: continue
                case 3: other.append(Int(generator.next() % UInt64(table.count)))
                default: other.append(symbol)
                }
            }
            if generator.next() % 2 == 0 { other.append(0) }
            guard let left = encode(text, kindIndex: Int(generator.next() % 5)),
                  let right = encode(other.map { min($0, table.count - 1) }, kindIndex: Int(generator.next() % 5)),
                  let a = try attribute(left), let b = try attribute(right) else { continue }
            compared += 1
            let general = a.matches(b, octetwise: false)
            #expect(a.matches(b, octetwise: true) == general, "\(left) vs \(right)")
            #expect(b.matches(a, octetwise: true) == general, "\(right) vs \(left)")
            if general { matched += 1 }
        }
        #expect(compared > 1000)
        #expect(matched > 100)
    }
}

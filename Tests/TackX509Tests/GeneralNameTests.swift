import Testing
import TackDER
import TackTestSupport
import TackX509

private let san = SubjectAlternativeNames.oid

private func decodeSAN(_ value: [UInt8]) throws -> SubjectAlternativeNames {
    try decodeValue(value) { try SubjectAlternativeNames(derEncoded: $0, valueRange: $1) }
}

@Suite("GeneralName")
struct GeneralNameTests {
    @Test("containsDNSName sees the dNSName octets alone, in order, and stops at the first match")
    func dnsNameOctets() throws {
        let value = build { writer in
            writer.writeSequence { (names: inout DERWriter) in
                try? names.writeString("a@example.com", as: .ia5, tag: implicitTag(1))
                try? names.writeString("example.com", as: .ia5, tag: implicitTag(2))
                try? names.writeString("https://example.org/", as: .ia5, tag: implicitTag(6))
                try? names.writeString("", as: .ia5, tag: implicitTag(2))
                names.writeOctetString([192, 0, 2, 7], tag: implicitTag(7))
                try? names.writeString("*.example.net", as: .ia5, tag: implicitTag(2))
            }
        }
        let names = try decodeSAN(value).names
        var seen: [String] = []
        #expect(!names.containsDNSName { seen.append(String(decoding: $0, as: UTF8.self)); return false })
        #expect(seen == ["example.com", "", "*.example.net"])
        seen = []
        #expect(names.containsDNSName { seen.append(String(decoding: $0, as: UTF8.self)); return $0.isEmpty })
        #expect(seen == ["example.com", ""])
        #expect(seen == names.dnsNames.prefix(2).map { $0 })
    }

    @Test("Every GeneralName form decodes")
    func everyForm() throws {
        let directory = encodeName([[.string(AT.countryName, "DE", .printable)], [.string(AT.commonName, "Dir")]])
        let value = build { writer in
            writer.writeSequence { (names: inout DERWriter) in
                names.writeConstructed(constructedTag(0)) { (other: inout DERWriter) in
                    other.writeObjectIdentifier(OID(1, 3, 6, 1, 4, 1, 311, 20, 2, 3))
                    other.writeExplicit(0) { (inner: inout DERWriter) in try? inner.writeString("u@x", as: .utf8) }
                }
                try? names.writeString("a@example.com", as: .ia5, tag: implicitTag(1))
                try? names.writeString("example.com", as: .ia5, tag: implicitTag(2))
                names.writeConstructed(constructedTag(3)) { (x400: inout DERWriter) in x400.writeSequence { _ in } }
                names.writeConstructed(constructedTag(4)) { (dir: inout DERWriter) in dir.writeEncoded(directory) }
                names.writeConstructed(constructedTag(5)) { (edi: inout DERWriter) in
                    edi.writeExplicit(1) { (party: inout DERWriter) in try? party.writeString("p", as: .utf8) }
                }
                try? names.writeString("https://example.com/", as: .ia5, tag: implicitTag(6))
                names.writeOctetString([192, 0, 2, 7], tag: implicitTag(7))
                names.writeOctetString([0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 12), tag: implicitTag(7))
                names.writeObjectIdentifier(OID(1, 2, 3, 4), tag: implicitTag(8))
            }
        }
        let names = try decodeSAN(value)
        #expect(names.names.count == 10)
        let decoded = Array(names)
        #expect(decoded.count == 10)
        #expect(decoded[0] == .otherName(typeID: OID(1, 3, 6, 1, 4, 1, 311, 20, 2, 3), value: [0x0C, 0x03, 0x75, 0x40, 0x78][...]))
        #expect(decoded[1] == .rfc822Name("a@example.com"))
        #expect(decoded[2] == .dnsName("example.com"))
        #expect(decoded[3] == .x400Address([0x30, 0x00][...]))
        guard case .directoryName(let name) = decoded[4] else {
            Issue.record("not a directory name")
            return
        }
        #expect(name.rfc4514String == "CN=Dir,C=DE")
        #expect(Array(name.derEncoded) == directory)
        #expect(decoded[5] == .ediPartyName([0xA1, 0x03, 0x0C, 0x01, 0x70][...]))
        #expect(decoded[6] == .uniformResourceIdentifier("https://example.com/"))
        #expect(decoded[7].description == "IP Address:192.0.2.7")
        #expect(decoded[8].description == "IP Address:2001:db8::")
        #expect(decoded[9] == .registeredID(OID(1, 2, 3, 4)))
        #expect(decoded.map(\.tagNumber) == [0, 1, 2, 3, 4, 5, 6, 7, 7, 8])
        #expect(decoded.map(\.description) == [
            "othername:1.3.6.1.4.1.311.20.2.3;#0C03754078", "email:a@example.com", "DNS:example.com", "X400Name:#3000",
            "DirName:CN=Dir,C=DE", "EdiPartyName:#A1030C0170", "URI:https://example.com/", "IP Address:192.0.2.7",
            "IP Address:2001:db8::", "Registered ID:1.2.3.4",
        ])
        #expect(names.names.dnsNames == ["example.com"])
        #expect(names.names.emailAddresses == ["a@example.com"])
        #expect(names.names.uris == ["https://example.com/"])
        #expect(names.names.directoryNames.count == 1)
        #expect(names.names.ipAddresses.count == 2)
    }

    @Test("Malformed GeneralNames are rejected with their offsets", arguments: [
        ("30 00", X509Error(.invalidExtension(san, .emptySequence), at: 3)),
        ("30 07 87 05 01 02 03 04 05", X509Error(.invalidExtension(san, .invalidIPAddressLength(5)), at: 5)),
        ("30 0A 87 08 0A 00 00 00 FF 00 00 00", X509Error(.invalidExtension(san, .invalidIPAddressLength(8)), at: 5)),
        ("30 02 87 00", X509Error(.invalidExtension(san, .invalidIPAddressLength(0)), at: 5)),
        ("30 03 82 01 80", X509Error(.der(.invalidIA5String), at: 5)),
        ("30 03 81 01 FF", X509Error(.der(.invalidIA5String), at: 5)),
        ("30 03 86 01 80", X509Error(.der(.invalidIA5String), at: 5)),
        ("30 02 89 00", X509Error(.invalidExtension(san, .notAGeneralName(.contextSpecific(9, isConstructed: false))), at: 5)),
        ("30 02 04 00", X509Error(.invalidExtension(san, .notAGeneralName(.octetString)), at: 5)),
        ("30 04 A2 02 05 00", X509Error(.der(.wrongConstructedBit), at: 5)),
        ("30 02 A7 00", X509Error(.der(.wrongConstructedBit), at: 5)),
        ("30 02 83 00", X509Error(.der(.wrongConstructedBit), at: 5)),
        ("30 06 A4 04 30 00 30 00", X509Error(.der(.trailingData), at: 9)),
        ("30 04 A4 02 31 00", X509Error(.der(.unexpectedTag(expected: .sequence, found: .set)), at: 7)),
        ("30 06 A4 04 30 02 31 00", X509Error(.invalidName(.emptyRelativeDistinguishedName), at: 9)),
        ("30 07 A0 05 06 03 2A 03 04", X509Error(.der(.missingElement(expected: .contextSpecific(0, isConstructed: true))), at: 12)),
        ("30 03 88 01 80", X509Error(.der(.truncatedObjectIdentifier), at: 5)),
        ("30 03 82 00 82", X509Error(.der(.truncated), at: 7)),
        ("30 02 82 00 00", X509Error(.der(.trailingData), at: 7)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decodeSAN(bytes(hex)) }
    }

    @Test("Every strict prefix of a valid SAN value is rejected")
    func dripFeed() throws {
        let value = bytes("30 13 82 0B 65 78 61 6D 70 6C 65 2E 63 6F 6D 87 04 C0 00 02 01")[...]
        #expect(try Array(decodeSAN(Array(value))).count == 2)
        for length in 0..<value.count {
            #expect(throws: X509Error(derPrefixError(Array(value), length: length, origin: valuePad, ifEmpty: .missingElement(expected: .sequence)))) { try decodeSAN(Array(value.prefix(length))) }
        }
    }

    @Test("Equality compares encodings, not buffers")
    func equality() throws {
        let value = bytes("30 0D 82 0B 65 78 61 6D 70 6C 65 2E 63 6F 6D")
        let a = try decodeSAN(value)
        let b = try SubjectAlternativeNames(derEncoded: value, valueRange: 0..<value.count)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.names.derEncoded == b.names.derEncoded)
    }
}

@Suite("IP address rendering")
struct GeneralNameIPAddressTests {
    @Test("Addresses and masks render as documented", arguments: [
        ([192, 0, 2, 1], "192.0.2.1"),
        ([0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], "2001:db8::1"),
        (Array(repeating: 0, count: 16), "::"),
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], "::1"),
        ([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "1::"),
        ([0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], "2001:db8::1:0:0:1"),
        ([0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], "2001:db8:0:1:1:1:1:1"),
        ([0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0xAB, 0xCD, 0, 0, 0, 0, 0, 0], "fe80::abcd:0:0:0"),
        ([10, 0, 0, 0, 255, 0, 0, 0], "10.0.0.0/8"),
        ([192, 0, 2, 0, 255, 255, 255, 255], "192.0.2.0/32"),
        ([0, 0, 0, 0, 0, 0, 0, 0], "0.0.0.0/0"),
        ([10, 0, 0, 0, 255, 0, 255, 0], "10.0.0.0/255.0.255.0"),
        ([0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 12) + [0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0, count: 12),
         "2001:db8::/32"),
        ([1, 2, 3, 4, 5], "#0102030405"),
    ] as [([UInt8], String)])
    func rendering(octets: [UInt8], expected: String) {
        #expect(IPAddressName(bytes: octets[...]).description == expected)
    }

    @Test("Address, mask and prefix length are exposed")
    func parts() {
        let v4 = IPAddressName(bytes: [192, 0, 2, 1][...])
        #expect(!v4.isIPv6 && !v4.hasMask && v4.mask == nil && v4.prefixLength == nil)
        #expect(Array(v4.address) == [192, 0, 2, 1])
        let constraint = IPAddressName(bytes: [10, 1, 0, 0, 255, 255, 0, 0][...])
        #expect(constraint.hasMask && !constraint.isIPv6)
        #expect(Array(constraint.address) == [10, 1, 0, 0])
        #expect(constraint.mask.map(Array.init) == [255, 255, 0, 0])
        #expect(constraint.prefixLength == 16)
        let v6 = IPAddressName(bytes: (Array(repeating: 0, count: 16) + Array(repeating: 0xFF, count: 16))[...])
        #expect(v6.isIPv6 && v6.hasMask && v6.prefixLength == 128)
    }
}

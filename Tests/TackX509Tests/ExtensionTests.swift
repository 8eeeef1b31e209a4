import Testing
import TackDER
import TackX509

// Each suite feeds values at offset `valuePad` (3) of a larger buffer, so the
// expected offsets below are absolute: 3 is the value's first byte.

@Suite("Extension: basic constraints")
struct ExtensionBasicConstraintsTests {
    private func decode(_ hex: String) throws -> BasicConstraints {
        try decodeValue(bytes(hex)) { try BasicConstraints(derEncoded: $0, valueRange: $1) }
    }

    @Test("Accepted values", arguments: [
        ("30 00", false, nil), ("30 03 01 01 FF", true, nil), ("30 06 01 01 FF 02 01 00", true, 0),
        ("30 07 01 01 FF 02 02 00 80", true, 128), ("30 03 02 01 05", false, 5), ("30 06 01 01 FF 02 01 7F", true, 127),
    ] as [(String, Bool, Int?)])
    func accepted(hex: String, isCA: Bool, pathLength: Int?) throws {
        let value = try decode(hex)
        #expect(value == BasicConstraints(isCertificateAuthority: isCA, pathLengthConstraint: pathLength))
    }

    @Test("Rejected values", arguments: [
        ("30 03 01 01 00", X509Error(.der(.defaultValueEncoded), at: 5)),
        ("30 03 01 01 01", X509Error(.der(.invalidBoolean), at: 5)),
        ("30 06 01 01 FF 02 01 FF", X509Error(.der(.negativeInteger), at: 8)),
        ("30 07 01 01 FF 02 02 00 05", X509Error(.der(.nonMinimalInteger), at: 8)),
        ("30 0E 01 01 FF 02 09 00 FF FF FF FF FF FF FF FF", X509Error(.der(.integerOverflow), at: 8)),
        ("30 06 02 01 01 01 01 FF", X509Error(.der(.trailingData), at: 8)),
        ("30 00 00", X509Error(.der(.trailingData), at: 5)),
        ("31 00", X509Error(.der(.unexpectedTag(expected: .sequence, found: .set)), at: 3)),
        ("", X509Error(.der(.missingElement(expected: .sequence)), at: 3)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decode(hex) }
    }
}

@Suite("Extension: key usage")
struct ExtensionKeyUsageTests {
    private func decode(_ hex: String) throws -> KeyUsage {
        try decodeValue(bytes(hex)) { try KeyUsage(derEncoded: $0, valueRange: $1) }
    }

    @Test("Accepted values, including trailing zero bits", arguments: [
        ("03 02 05 A0", [.digitalSignature, .keyEncipherment]),
        ("03 02 01 06", [.keyCertSign, .cRLSign]),
        ("03 02 07 80", .digitalSignature),
        ("03 03 07 00 80", .decipherOnly),
        ("03 02 00 06", [.keyCertSign, .cRLSign]),  // trailing zero bit kept (not DER, accepted)
        ("03 03 00 86 00", [.digitalSignature, .keyCertSign, .cRLSign]),  // a whole zero octet
        ("03 03 07 FF 80", [.digitalSignature, .nonRepudiation, .keyEncipherment, .dataEncipherment, .keyAgreement,
                            .keyCertSign, .cRLSign, .encipherOnly, .decipherOnly]),
    ] as [(String, KeyUsage)])
    func accepted(hex: String, usage: KeyUsage) throws {
        #expect(try decode(hex) == usage)
    }

    @Test("Rejected values", arguments: [
        ("03 03 06 00 40", X509Error(.invalidExtension(KeyUsage.oid, .undefinedBit(9)), at: 3)),
        ("03 04 00 00 00 01", X509Error(.invalidExtension(KeyUsage.oid, .undefinedBit(23)), at: 3)),
        ("03 01 00", X509Error(.invalidExtension(KeyUsage.oid, .noKeyUsage), at: 3)),
        ("03 02 00 00", X509Error(.invalidExtension(KeyUsage.oid, .noKeyUsage), at: 3)),
        ("03 02 08 00", X509Error(.der(.invalidBitStringUnusedBits), at: 3)),
        ("03 01 01", X509Error(.der(.invalidBitStringUnusedBits), at: 3)),
        ("03 02 01 07", X509Error(.der(.nonZeroBitStringPadding), at: 3)),
        ("04 01 00", X509Error(.der(.unexpectedTag(expected: .bitString, found: .octetString)), at: 3)),
        ("23 00", X509Error(.der(.wrongConstructedBit), at: 3)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decode(hex) }
    }
}

@Suite("Extension: extended key usage")
struct ExtensionExtendedKeyUsageTests {
    @Test("Purposes decode in order and membership works")
    func accepted() throws {
        let value = build { writer in
            writer.writeSequence { (list: inout DERWriter) in
                list.writeObjectIdentifier(ExtendedKeyUsage.serverAuth)
                list.writeObjectIdentifier(OID(1, 2, 3))
                list.writeObjectIdentifier(ExtendedKeyUsage.anyExtendedKeyUsage)
            }
        }
        let usage = try decodeValue(value) { try ExtendedKeyUsage(derEncoded: $0, valueRange: $1) }
        #expect(usage.count == 3)
        #expect(Array(usage) == [ExtendedKeyUsage.serverAuth, OID(1, 2, 3), ExtendedKeyUsage.anyExtendedKeyUsage])
        #expect(usage.contains(ExtendedKeyUsage.serverAuth))
        #expect(!usage.contains(ExtendedKeyUsage.clientAuth))
        #expect(ExtendedKeyUsage.ocspSigning.dottedString == "1.3.6.1.5.5.7.3.9")
        #expect(ExtendedKeyUsage.timeStamping.dottedString == "1.3.6.1.5.5.7.3.8")
    }

    @Test("Rejected values", arguments: [
        ("30 00", X509Error(.invalidExtension(ExtendedKeyUsage.oid, .emptySequence), at: 3)),
        ("30 03 02 01 01", X509Error(.der(.unexpectedTag(expected: .objectIdentifier, found: .integer)), at: 5)),
        ("30 04 06 02 80 01", X509Error(.der(.nonMinimalObjectIdentifierArc), at: 5)),
        ("30 02 06 00", X509Error(.der(.emptyObjectIdentifier), at: 5)),
        ("06 03 2B 06 01", X509Error(.der(.unexpectedTag(expected: .sequence, found: .objectIdentifier)), at: 3)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decodeValue(bytes(hex)) { try ExtendedKeyUsage(derEncoded: $0, valueRange: $1) } }
    }
}

@Suite("Extension: alternative names")
struct ExtensionAlternativeNamesTests {
    @Test("Issuer alternative names share the GeneralNames decoding")
    func issuerAlternativeNames() throws {
        let names = try decodeValue(bytes("30 0D 81 0B 61 40 65 78 61 6D 70 6C 65 2E 63")) {
            try IssuerAlternativeNames(derEncoded: $0, valueRange: $1)
        }
        #expect(Array(names) == [.rfc822Name("a@example.c")])
        #expect(throws: X509Error(.invalidExtension(IssuerAlternativeNames.oid, .emptySequence), at: 3)) {
            try decodeValue(bytes("30 00")) { try IssuerAlternativeNames(derEncoded: $0, valueRange: $1) }
        }
    }
}

@Suite("Extension: name constraints")
struct ExtensionNameConstraintsTests {
    private static let oid = NameConstraints.oid

    private func decode(_ value: [UInt8]) throws -> NameConstraints {
        try decodeValue(value) { try NameConstraints(derEncoded: $0, valueRange: $1) }
    }

    @Test("Permitted and excluded subtrees decode to their bases")
    func accepted() throws {
        let value = build { writer in
            writer.writeSequence { (constraints: inout DERWriter) in
                constraints.writeConstructed(constructedTag(0)) { (permitted: inout DERWriter) in
                    permitted.writeSequence { (subtree: inout DERWriter) in try? subtree.writeString(".example.com", as: .ia5, tag: implicitTag(2)) }
                    permitted.writeSequence { (subtree: inout DERWriter) in subtree.writeOctetString([10, 0, 0, 0, 255, 0, 0, 0], tag: implicitTag(7)) }
                }
                constraints.writeConstructed(constructedTag(1)) { (excluded: inout DERWriter) in
                    excluded.writeSequence { (subtree: inout DERWriter) in
                        subtree.writeConstructed(constructedTag(4)) { (name: inout DERWriter) in
                            name.writeEncoded(encodeName([[.string(AT.countryName, "US", .printable)]]))
                        }
                    }
                }
            }
        }
        let constraints = try decode(value)
        #expect(constraints.permittedSubtrees.map { $0.map(\.description) } == ["DNS:.example.com", "IP Address:10.0.0.0/8"])
        #expect(constraints.permittedSubtrees?.count == 2)
        #expect(constraints.excludedSubtrees.map { $0.map(\.description) } == ["DirName:C=US"])
        let onlyExcluded = try decode(bytes("30 07 A1 05 30 03 82 01 61"))
        #expect(onlyExcluded.permittedSubtrees == nil)
        #expect(onlyExcluded.excludedSubtrees.map(Array.init) == [.dnsName("a")])
    }

    @Test("Rejected values", arguments: [
        ("30 00", X509Error(.invalidExtension(oid, .emptyNameConstraints), at: 3)),
        ("30 02 A0 00", X509Error(.invalidExtension(oid, .emptySequence), at: 5)),
        ("30 0A A0 08 30 06 82 01 61 80 01 00", X509Error(.der(.defaultValueEncoded), at: 12)),
        ("30 0A A0 08 30 06 82 01 61 80 01 01",
         X509Error(.invalidExtension(oid, .subtreeMinimumNotZero), at: 12)),
        ("30 0A A0 08 30 06 82 01 61 81 01 02",
         X509Error(.invalidExtension(oid, .subtreeMaximumPresent), at: 12)),
        ("30 0A A0 08 30 06 87 04 0A 00 00 00",
         X509Error(.invalidExtension(oid, .invalidIPAddressConstraintLength(4)), at: 9)),
        ("30 0E A1 05 30 03 82 01 61 A0 05 30 03 82 01 62", X509Error(.der(.trailingData), at: 12)),
        ("30 04 A0 02 30 00", X509Error(.der(.missingElement(expected: .contextSpecific(2, isConstructed: false))), at: 9)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decode(bytes(hex)) }
    }
}

@Suite("Extension: key identifiers")
struct ExtensionKeyIdentifierTests {
    private static let oid = AuthorityKeyIdentifier.oid

    @Test("Authority key identifiers decode each field")
    func authority() throws {
        let keyOnly = try decodeValue(bytes("30 06 80 04 01 02 03 04")) { try AuthorityKeyIdentifier(derEncoded: $0, valueRange: $1) }
        #expect(keyOnly.keyIdentifier.map(Array.init) == [1, 2, 3, 4])
        #expect(keyOnly.authorityCertIssuer == nil && keyOnly.authorityCertSerialNumber == nil)
        let all = try decodeValue(bytes("30 0D 80 01 AA A1 05 82 03 63 61 2E 82 01 05")) {
            try AuthorityKeyIdentifier(derEncoded: $0, valueRange: $1)
        }
        #expect(all.keyIdentifier.map(Array.init) == [0xAA])
        #expect(all.authorityCertIssuer.map(Array.init) == [.dnsName("ca.")])
        #expect(all.authorityCertSerialNumber.map(Array.init) == [5])
        let empty = try decodeValue(bytes("30 00")) { try AuthorityKeyIdentifier(derEncoded: $0, valueRange: $1) }
        #expect(empty.keyIdentifier == nil)
    }

    @Test("Malformed authority key identifiers are rejected", arguments: [
        ("30 05 A1 03 82 01 61", X509Error(.invalidExtension(oid, .incompleteAuthorityCertIssuer), at: 3)),
        ("30 03 82 01 05", X509Error(.invalidExtension(oid, .incompleteAuthorityCertIssuer), at: 3)),
        ("30 04 82 02 00 05", X509Error(.der(.nonMinimalInteger), at: 5)),
        ("30 02 A1 00", X509Error(.invalidExtension(oid, .emptySequence), at: 5)),
        ("30 04 A0 02 04 00", X509Error(.der(.trailingData), at: 5)),
        ("30 06 82 01 05 80 01 AA", X509Error(.der(.trailingData), at: 8)),
    ])
    func authorityRejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decodeValue(bytes(hex)) { try AuthorityKeyIdentifier(derEncoded: $0, valueRange: $1) } }
    }

    @Test("Subject key identifiers decode as a slice of the buffer")
    func subject() throws {
        let identifier = try decodeValue(bytes("04 03 01 02 03")) { try SubjectKeyIdentifier(derEncoded: $0, valueRange: $1) }
        #expect(Array(identifier.keyIdentifier) == [1, 2, 3])
        #expect(identifier.keyIdentifier.startIndex == 5)
        // A long-form length takes the full reader's path, with the same result.
        let long = try decodeValue([0x04, 0x81, 0x80] + Array(repeating: 0x5A, count: 128)) {
            try SubjectKeyIdentifier(derEncoded: $0, valueRange: $1)
        }
        #expect(long.keyIdentifier.count == 128 && long.keyIdentifier.startIndex == 6)
        #expect(throws: X509Error(.der(.nonMinimalLength), at: 3)) {
            try decodeValue([0x04, 0x81, 0x05, 1, 2, 3, 4, 5]) { try SubjectKeyIdentifier(derEncoded: $0, valueRange: $1) }
        }
        #expect(throws: X509Error(.der(.unexpectedTag(expected: .octetString, found: .sequence)), at: 3)) {
            try decodeValue(bytes("30 00")) { try SubjectKeyIdentifier(derEncoded: $0, valueRange: $1) }
        }
        #expect(throws: X509Error(.der(.trailingData), at: 5)) {
            try decodeValue(bytes("04 00 04 00")) { try SubjectKeyIdentifier(derEncoded: $0, valueRange: $1) }
        }
    }
}

@Suite("Extension: CRL distribution points")
struct ExtensionCRLDistributionPointsTests {
    private static let oid = CRLDistributionPoints.oid

    private func decode(_ value: [UInt8]) throws -> CRLDistributionPoints {
        try decodeValue(value) { try CRLDistributionPoints(derEncoded: $0, valueRange: $1) }
    }

    @Test("Full names, relative names, reasons and CRL issuers decode")
    func accepted() throws {
        let value = build { writer in
            writer.writeSequence { (points: inout DERWriter) in
                points.writeSequence { (point: inout DERWriter) in
                    point.writeExplicit(0) { (name: inout DERWriter) in
                        name.writeConstructed(constructedTag(0)) { (full: inout DERWriter) in
                            try? full.writeString("http://crl.example/a.crl", as: .ia5, tag: implicitTag(6))
                        }
                    }
                }
                points.writeSequence { (point: inout DERWriter) in
                    point.writeExplicit(0) { (name: inout DERWriter) in
                        // nameRelativeToCRLIssuer [1] IMPLICIT RelativeDistinguishedName.
                        name.writeConstructed(constructedTag(1)) { (rdn: inout DERWriter) in
                            rdn.writeSequence { (pair: inout DERWriter) in
                                pair.writeObjectIdentifier(AT.commonName)
                                try? pair.writeString("CRL1", as: .printable)
                            }
                        }
                    }
                    try? point.writeBitString(bytes: [0x60], unusedBitCount: 5, tag: implicitTag(1))
                    point.writeConstructed(constructedTag(2)) { (issuer: inout DERWriter) in
                        try? issuer.writeString("crl-issuer.example", as: .ia5, tag: implicitTag(2))
                    }
                }
            }
        }
        let points = Array(try decode(value))
        #expect(points.count == 2)
        guard case .fullName(let full)? = points[0].name else {
            Issue.record("no fullName")
            return
        }
        #expect(full.uris == ["http://crl.example/a.crl"])
        #expect(points[0].reasons == nil && points[0].crlIssuer == nil)
        guard case .nameRelativeToCRLIssuer(let rdn)? = points[1].name else {
            Issue.record("no nameRelativeToCRLIssuer")
            return
        }
        #expect(rdn.rfc4514String == "CN=CRL1")
        #expect(points[1].reasons == [.keyCompromise, .caCompromise])
        #expect(points[1].crlIssuer?.dnsNames == ["crl-issuer.example"])
    }

    @Test("Rejected values", arguments: [
        ("30 00", X509Error(.invalidExtension(oid, .emptySequence), at: 3)),
        ("30 06 30 04 81 02 01 02",
         X509Error(.invalidExtension(oid, .emptyDistributionPoint), at: 5)),
        ("30 02 30 00",
         X509Error(.invalidExtension(oid, .emptyDistributionPoint), at: 5)),
        ("30 06 30 04 A0 02 82 00",
         X509Error(.der(.unexpectedTag(expected: .contextSpecific(0, isConstructed: true), found: .contextSpecific(2, isConstructed: false))), at: 9)),
        ("30 04 30 02 A0 00", X509Error(.der(.missingElement(expected: .contextSpecific(0, isConstructed: true))), at: 9)),
        ("30 0E 30 0C A0 07 A0 05 86 03 61 3A 62 04 01 00", X509Error(.der(.trailingData), at: 16)),
        ("30 0F 30 0D A0 05 A0 03 86 01 61 81 04 06 00 00 40",
         X509Error(.invalidExtension(oid, .undefinedBit(17)), at: 14)),
        ("30 08 30 06 A0 04 A0 02 86 80", X509Error(.der(.indefiniteLength), at: 11)),
        ("30 06 30 04 A0 02 A0 00", X509Error(.invalidExtension(oid, .emptySequence), at: 9)),
        ("30 06 30 04 A0 02 A1 00", X509Error(.invalidName(.emptyRelativeDistinguishedName), at: 9)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decode(bytes(hex)) }
    }
}

@Suite("Extension: authority information access")
struct ExtensionAuthorityInformationAccessTests {
    private static let oid = AuthorityInformationAccess.oid

    @Test("Access descriptions decode and filter by method")
    func accepted() throws {
        let value = build { writer in
            writer.writeSequence { (list: inout DERWriter) in
                for (method, uri) in [(AuthorityInformationAccess.ocsp, "http://o/"), (AuthorityInformationAccess.caIssuers, "http://c/"),
                                      (AuthorityInformationAccess.ocsp, "http://o2/")] {
                    list.writeSequence { (description: inout DERWriter) in
                        description.writeObjectIdentifier(method)
                        try? description.writeString(uri, as: .ia5, tag: implicitTag(6))
                    }
                }
            }
        }
        let access = try decodeValue(value) { try AuthorityInformationAccess(derEncoded: $0, valueRange: $1) }
        #expect(access.count == 3)
        #expect(access.map(\.method) == [AuthorityInformationAccess.ocsp, AuthorityInformationAccess.caIssuers, AuthorityInformationAccess.ocsp])
        #expect(access.locations(for: AuthorityInformationAccess.ocsp) == [.uniformResourceIdentifier("http://o/"),
                                                                          .uniformResourceIdentifier("http://o2/")])
        #expect(access.locations(for: AuthorityInformationAccess.caIssuers) == [.uniformResourceIdentifier("http://c/")])
    }

    @Test("Rejected values", arguments: [
        ("30 00", X509Error(.invalidExtension(oid, .emptySequence), at: 3)),
        ("30 0A 30 08 06 06 2B 06 01 05 05 07", X509Error(.der(.missingElement(expected: .contextSpecific(2, isConstructed: false))), at: 15)),
        ("30 0C 30 0A 06 06 2B 06 01 05 05 07 04 00", X509Error(.invalidExtension(oid, .notAGeneralName(.octetString)), at: 15)),
        ("30 0D 30 0B 06 06 2B 06 01 05 05 07 87 01 00",
         X509Error(.invalidExtension(oid, .invalidIPAddressLength(1)), at: 15)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decodeValue(bytes(hex)) { try AuthorityInformationAccess(derEncoded: $0, valueRange: $1) } }
    }
}

@Suite("Extension: embedded SCT list")
struct ExtensionSCTListTests {
    private static let oid = SignedCertificateTimestampList.oid

    @Test("The TLS framing is checked and each SCT is a slice")
    func accepted() throws {
        let list = try decodeValue(bytes("04 0A 00 08 00 02 AB CD 00 02 EF 01")) {
            try SignedCertificateTimestampList(derEncoded: $0, valueRange: $1)
        }
        #expect(list.count == 2)
        #expect(Array(list).map(Array.init) == [[0xAB, 0xCD], [0xEF, 0x01]])
        #expect(list.list.count == 10)
        #expect(list.list.startIndex == 5)
    }

    @Test("Rejected values", arguments: [
        ("04 01 00", X509Error(.invalidExtension(oid, .truncatedSCTList), at: 5)),
        ("04 04 00 03 00 01", X509Error(.invalidExtension(oid, .sctListLengthMismatch), at: 5)),
        ("04 02 00 00", X509Error(.invalidExtension(oid, .sctListLengthMismatch), at: 5)),
        ("04 04 00 02 00 00", X509Error(.invalidExtension(oid, .invalidSCTLength), at: 7)),
        ("04 05 00 03 00 05 AA", X509Error(.invalidExtension(oid, .invalidSCTLength), at: 7)),
        ("04 03 00 01 00", X509Error(.invalidExtension(oid, .truncatedSCTLength), at: 7)),
        ("30 00", X509Error(.der(.unexpectedTag(expected: .octetString, found: .sequence)), at: 3)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decodeValue(bytes(hex)) { try SignedCertificateTimestampList(derEncoded: $0, valueRange: $1) } }
    }
}

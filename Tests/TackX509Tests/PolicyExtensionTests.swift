import Testing
import TackDER
import TackX509

// The policy extensions (RFC 5280 §4.2.1.4, §4.2.1.5, §4.2.1.11, §4.2.1.14), apart from
// ExtensionTests.swift so that each file stays short. Values sit at `valuePad` (3) of a
// larger buffer, so the expected offsets are absolute.

@Suite("Extension: certificate policies")
struct ExtensionCertificatePoliciesTests {
    private static let oid = CertificatePolicies.oid

    private func decode(_ value: [UInt8]) throws -> CertificatePolicies {
        try decodeValue(value) { try CertificatePolicies(derEncoded: $0, valueRange: $1) }
    }

    private func policy(_ id: OID, into writer: inout DERWriter, qualifiers: ((inout DERWriter) -> Void)? = nil) {
        writer.writeSequence { (information: inout DERWriter) in
            information.writeObjectIdentifier(id)
            if let qualifiers { information.writeSequence(qualifiers) }
        }
    }

    @Test("Policies, CPS, user notices and unknown qualifiers decode")
    func accepted() throws {
        let value = build { writer in
            writer.writeSequence { (list: inout DERWriter) in
                policy(CertificatePolicies.anyPolicy, into: &list)
                policy(OID(1, 2, 3), into: &list) { qualifiers in
                    qualifiers.writeSequence { (info: inout DERWriter) in
                        info.writeObjectIdentifier(CertificatePolicies.cpsQualifier)
                        try? info.writeString("https://cps.example/", as: .ia5)
                    }
                    qualifiers.writeSequence { (info: inout DERWriter) in
                        info.writeObjectIdentifier(CertificatePolicies.userNoticeQualifier)
                        info.writeSequence { (notice: inout DERWriter) in try? notice.writeString("Visible text", as: .visible) }
                    }
                    qualifiers.writeSequence { (info: inout DERWriter) in
                        info.writeObjectIdentifier(CertificatePolicies.userNoticeQualifier)
                        info.writeSequence { (notice: inout DERWriter) in
                            notice.writeSequence { (reference: inout DERWriter) in
                                try? reference.writeString("Org", as: .bmp)
                                reference.writeSequence { (numbers: inout DERWriter) in
                                    numbers.writeInteger(7)
                                    numbers.writeInteger(300)
                                }
                            }
                        }
                    }
                    qualifiers.writeSequence { (info: inout DERWriter) in
                        info.writeObjectIdentifier(OID(1, 2, 3, 9))
                        info.writeInteger(5)
                    }
                }
            }
        }
        let policies = try decode(value)
        #expect(policies.count == 2)
        #expect(policies.contains(CertificatePolicies.anyPolicy))
        #expect(!policies.contains(OID(1, 2, 4)))
        let list = Array(policies)
        #expect(list.map(\.policyIdentifier) == [CertificatePolicies.anyPolicy, OID(1, 2, 3)])
        #expect(list[0].qualifiers == nil)
        let qualifiers = Array(try #require(list[1].qualifiers))
        #expect(qualifiers.count == 4)
        #expect(qualifiers[0] == .cpsURI("https://cps.example/"))
        guard case .userNotice(let explicit) = qualifiers[1], case .userNotice(let referenced) = qualifiers[2] else {
            Issue.record("user notices not decoded")
            return
        }
        #expect(explicit.explicitText == "Visible text" && explicit.noticeReference == nil)
        #expect(explicit.derEncoded.first == 0x30)
        #expect(referenced.explicitText == nil)
        #expect(referenced.noticeReference?.organization == "Org")
        #expect(referenced.noticeReference?.noticeNumbers == [7, 300])
        #expect(qualifiers[3] == .other(qualifierID: OID(1, 2, 3, 9), value: [0x02, 0x01, 0x05][...]))
    }

    @Test("Rejected values", arguments: [
        ("30 00", X509Error(.invalidExtension(oid, .emptySequence), at: 3)),
        ("30 0C 30 04 06 02 2A 03 30 04 06 02 2A 03", X509Error(.invalidExtension(oid, .duplicatePolicy), at: 11)),
        ("30 08 30 06 06 02 2A 03 30 00", X509Error(.invalidExtension(oid, .emptySequence), at: 11)),
        ("30 06 30 04 06 02 2A 03 00", X509Error(.der(.trailingData), at: 11)),
        ("30 05 30 03 02 01 01", X509Error(.der(.unexpectedTag(expected: .objectIdentifier, found: .integer)), at: 7)),
    ])
    func rejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decode(bytes(hex)) }
    }

    @Test("Fuzzer regression: a policy OID with an arc longer than TackDER allows is rejected when checked")
    func longArcRegression() {
        // Found by Tests/Fuzz/FuzzExtensions.swift: the check once accepted this
        // identifier that the later decoding refused, so iteration stopped early.
        let value = bytes("30 32 30 30 06 2E 00 97 FF FD CF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FD CF CF 00 A4 27 4F 31 00 A4 30 02 30 00 A4 00")
        #expect(throws: X509Error(.der(.objectIdentifierArcTooLong), at: 7)) { try decode(value) }
    }

    @Test("Malformed qualifiers are rejected at their offsets")
    func badQualifiers() throws {
        func withQualifier(_ body: @escaping (inout DERWriter) -> Void) -> [UInt8] {
            build { writer in
                writer.writeSequence { (list: inout DERWriter) in
                    policy(OID(1, 2, 3), into: &list) { qualifiers in qualifiers.writeSequence(body) }
                }
            }
        }
        let badCPS = withQualifier { info in
            info.writeObjectIdentifier(CertificatePolicies.cpsQualifier)
            info.writeElement(.ia5String, contents: [0x80])
        }
        #expect(throws: X509Error(.der(.invalidIA5String), at: offset(of: [0x16, 0x01, 0x80], in: badCPS))) { try decode(badCPS) }
        let cpsNotIA5 = withQualifier { info in
            info.writeObjectIdentifier(CertificatePolicies.cpsQualifier)
            try? info.writeString("x", as: .utf8)
        }
        #expect(throws: X509Error(.der(.unexpectedTag(expected: .ia5String, found: .utf8String)),
                                  at: offset(of: [0x0C, 0x01, 0x78], in: cpsNotIA5))) { try decode(cpsNotIA5) }
        let noticeNotText = withQualifier { info in
            info.writeObjectIdentifier(CertificatePolicies.userNoticeQualifier)
            info.writeSequence { (notice: inout DERWriter) in notice.writeInteger(1) }
        }
        #expect(throws: X509Error(.der(.unexpectedTag(expected: .utf8String, found: .integer)),
                                  at: offset(of: [0x30, 0x03, 0x02, 0x01, 0x01], in: noticeNotText) + 2)) { try decode(noticeNotText) }
    }

    @Test("More than the maximum number of policies is rejected")
    func tooMany() throws {
        func policies(_ count: Int) -> [UInt8] {
            build { writer in
                writer.writeSequence { (list: inout DERWriter) in
                    for index in 0..<count { policy(OID(1, 2, UInt64(index)), into: &list) }
                }
            }
        }
        #expect(try decode(policies(64)).count == 64)
        let tooMany = policies(65)
        // The 65th policy is the last element: SEQUENCE { OID 1.2.64 } is 30 04 06 02 2A 40.
        #expect(throws: X509Error(.invalidExtension(CertificatePolicies.oid, .tooManyPolicies),
                                  at: valuePad + tooMany.count - 6)) { try decode(tooMany) }
    }
}

@Suite("Extension: policy mappings, policy constraints, inhibit anyPolicy")
struct ExtensionPolicyConstraintTests {
    @Test("Policy mappings decode in order")
    func mappings() throws {
        let mappings = try decodeValue(bytes("30 0A 30 08 06 02 2A 03 06 02 2A 04")) { try PolicyMappings(derEncoded: $0, valueRange: $1) }
        #expect(Array(mappings) == [PolicyMappings.Mapping(issuerDomainPolicy: OID(1, 2, 3), subjectDomainPolicy: OID(1, 2, 4))])
        #expect(mappings.count == 1)
        #expect(throws: X509Error(.invalidExtension(PolicyMappings.oid, .emptySequence), at: 3)) {
            try decodeValue(bytes("30 00")) { try PolicyMappings(derEncoded: $0, valueRange: $1) }
        }
        #expect(throws: X509Error(.der(.missingElement(expected: .objectIdentifier)), at: 11)) {
            try decodeValue(bytes("30 06 30 04 06 02 2A 03")) { try PolicyMappings(derEncoded: $0, valueRange: $1) }
        }
    }

    @Test("Policy constraints: accepted values", arguments: [
        ("30 06 80 01 00 81 01 02", 0, 2), ("30 03 81 01 01", nil, 1), ("30 03 80 01 04", 4, nil),
    ] as [(String, Int?, Int?)])
    func constraintsAccepted(hex: String, require: Int?, inhibit: Int?) throws {
        let constraints = try decodeValue(bytes(hex)) { try PolicyConstraints(derEncoded: $0, valueRange: $1) }
        #expect(constraints.requireExplicitPolicy == require)
        #expect(constraints.inhibitPolicyMapping == inhibit)
    }

    @Test("Policy constraints: rejected values", arguments: [
        ("30 00", X509Error(.invalidExtension(PolicyConstraints.oid, .emptyPolicyConstraints), at: 3)),
        ("30 03 80 01 FF", X509Error(.der(.negativeInteger), at: 5)),
        ("30 06 81 01 01 80 01 00", X509Error(.der(.trailingData), at: 8)),
        ("30 03 02 01 01", X509Error(.der(.trailingData), at: 5)),
    ])
    func constraintsRejected(hex: String, error: X509Error) {
        #expect(throws: error) { try decodeValue(bytes(hex)) { try PolicyConstraints(derEncoded: $0, valueRange: $1) } }
    }

    @Test("Inhibit anyPolicy", arguments: [
        ("02 01 00", .success(0)), ("02 01 05", .success(5)), ("02 02 01 00", .success(256)),
        ("02 01 FF", .failure(X509Error(.der(.negativeInteger), at: 3))),
        ("02 02 00 05", .failure(X509Error(.der(.nonMinimalInteger), at: 3))),
        ("02 00", .failure(X509Error(.der(.emptyInteger), at: 3))),
        ("04 01 00", .failure(X509Error(.der(.unexpectedTag(expected: .integer, found: .octetString)), at: 3))),
    ] as [(String, Result<Int, X509Error>)])
    func inhibitAnyPolicy(hex: String, expected: Result<Int, X509Error>) {
        let result = Result { () throws(X509Error) -> Int in
            let buffer = [0xEE, 0xEE, 0xEE] + bytes(hex)
            return try InhibitAnyPolicy(derEncoded: buffer, valueRange: 3..<buffer.count).skipCerts
        }
        #expect(result == expected)
    }
}

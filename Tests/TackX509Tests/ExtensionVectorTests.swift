import Foundation
import Testing
import TackTestSupport
import TackDER
import TackX509

/// The certificates of Vectors/extensions (see its README).
private func extensionVector(_ name: String) throws -> Certificate {
    let url = RepositoryPaths.vectors("extensions/" + name)
    return try Certificate(derEncoded: [UInt8](try Data(contentsOf: url)))
}

@Suite("Extensions of the openssl-generated vectors")
struct ExtensionVectorTests {
    @Test("Every extension of all-extensions.der decodes to the configured values")
    func allExtensions() throws {
        let certificate = try extensionVector("all-extensions.der")
        let decoded = try certificate.decodeAllExtensions()
        #expect(decoded.unrecognized.isEmpty)

        let basic = try #require(decoded.basicConstraints)
        #expect(basic.isCertificateAuthority && basic.pathLengthConstraint == 2)
        #expect(decoded.keyUsage == [.keyCertSign, .cRLSign, .digitalSignature])

        let eku = try #require(decoded.extendedKeyUsage)
        #expect(Array(eku) == [ExtendedKeyUsage.serverAuth, ExtendedKeyUsage.clientAuth, ExtendedKeyUsage.codeSigning,
                               ExtendedKeyUsage.emailProtection, ExtendedKeyUsage.timeStamping, ExtendedKeyUsage.ocspSigning,
                               OID(1, 2, 3, 4, 5)])
        #expect(eku.contains(ExtendedKeyUsage.serverAuth) && !eku.contains(ExtendedKeyUsage.anyExtendedKeyUsage))

        let ski = try #require(decoded.subjectKeyIdentifier)
        #expect(ski.keyIdentifier.count == 20)
        let aki = try #require(decoded.authorityKeyIdentifier)
        #expect(aki.keyIdentifier == ski.keyIdentifier)
        #expect(aki.authorityCertSerialNumber.map(Array.init) == [0x10, 0x01])
        let akiIssuer = try #require(aki.authorityCertIssuer?.directoryNames.first)
        #expect(try akiIssuer.matches(certificate.issuer))

        let san = try #require(decoded.subjectAlternativeNames)
        #expect(san.map(\.description) == [
            "DNS:all.example", "DNS:*.wild.example", "IP Address:192.0.2.1", "IP Address:2001:db8::1",
            "email:admin@example.com", "URI:https://all.example/path", "Registered ID:1.2.3.4.5.6",
            "DirName:CN=Dir Name,O=Directory Org,C=DE",
            "othername:1.3.6.1.4.1.311.20.2.3;#0C0F75706E406578616D706C652E636F6D",
        ])
        #expect(san.names.dnsNames == ["all.example", "*.wild.example"])
        #expect(san.names.ipAddresses.map { Array($0.bytes) } == [[192, 0, 2, 1], [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [1]])
        #expect(san.names.emailAddresses == ["admin@example.com"])
        #expect(san.names.uris == ["https://all.example/path"])
        #expect(try certificate.subjectAlternativeNames == san)

        let ian = try #require(decoded.issuerAlternativeNames)
        #expect(ian.map(\.description) == ["email:issuer@example.com", "URI:https://issuer.example/"])

        let constraints = try #require(decoded.nameConstraints)
        #expect(constraints.permittedSubtrees.map { $0.map(\.description) } == [
            "DNS:.example", "IP Address:192.0.2.0/24", "IP Address:2001:db8::/32", "email:example.com",
        ])
        #expect(constraints.excludedSubtrees.map { $0.map(\.description) } == [
            "DNS:bad.example", "DirName:CN=Dir Name,O=Directory Org,C=DE",
        ])

        let policies = try #require(decoded.certificatePolicies)
        #expect(policies.map(\.policyIdentifier) == [OID(2, 23, 140, 1, 2, 1), OID(1, 3, 6, 1, 4, 1, 99999, 1)])
        #expect(policies.contains(OID(2, 23, 140, 1, 2, 1)))
        let qualifiers = try #require(Array(policies).last?.qualifiers.map(Array.init))
        #expect(qualifiers.count == 2)
        #expect(qualifiers.first == .cpsURI("https://cps.example/cps"))
        guard case .userNotice(let notice)? = qualifiers.last else {
            Issue.record("no user notice")
            return
        }
        #expect(notice.explicitText == "Explicit notice text")
        #expect(notice.noticeReference?.organization == "Notice Org")
        #expect(notice.noticeReference?.noticeNumbers == [1, 2, 3])

        let mappings = try #require(decoded.policyMappings)
        #expect(mappings.map(\.issuerDomainPolicy) == [OID(1, 2, 3, 1), OID(1, 2, 3, 3)])
        #expect(mappings.map(\.subjectDomainPolicy) == [OID(1, 2, 3, 2), OID(1, 2, 3, 4)])
        #expect(decoded.policyConstraints?.requireExplicitPolicy == 1)
        #expect(decoded.policyConstraints?.inhibitPolicyMapping == 3)
        #expect(decoded.inhibitAnyPolicy?.skipCerts == 5)

        let points = try #require(decoded.crlDistributionPoints.map(Array.init))
        #expect(points.count == 1)
        guard case .fullName(let locations)? = points.first?.name else {
            Issue.record("no fullName")
            return
        }
        #expect(locations.uris == ["http://crl.example/ca.crl"])
        #expect(points.first?.reasons == [.keyCompromise, .caCompromise])
        #expect(points.first?.crlIssuer == nil)

        let access = try #require(decoded.authorityInformationAccess)
        #expect(access.locations(for: AuthorityInformationAccess.ocsp) == [.uniformResourceIdentifier("http://ocsp.example/")])
        #expect(access.locations(for: AuthorityInformationAccess.caIssuers) == [.uniformResourceIdentifier("http://ca.example/ca.der")])

        let scts = try #require(decoded.signedCertificateTimestamps)
        #expect(scts.count == 1)
        #expect(Array(scts).first?.count == 49)
        #expect(Array(scts).first?.dropFirst().prefix(32).allSatisfy { $0 == 0xAA } == true)
    }

    @Test("The typed accessors agree with decodeAllExtensions and return nil when absent")
    func accessors() throws {
        let full = try extensionVector("all-extensions.der")
        let decoded = try full.decodeAllExtensions()
        #expect(try full.basicConstraints == decoded.basicConstraints)
        #expect(try full.keyUsage == decoded.keyUsage)
        #expect(try full.extendedKeyUsage == decoded.extendedKeyUsage)
        #expect(try full.issuerAlternativeNames == decoded.issuerAlternativeNames)
        #expect(try full.nameConstraints == decoded.nameConstraints)
        #expect(try full.authorityKeyIdentifier == decoded.authorityKeyIdentifier)
        #expect(try full.subjectKeyIdentifier == decoded.subjectKeyIdentifier)
        #expect(try full.certificatePolicies == decoded.certificatePolicies)
        #expect(try full.policyMappings == decoded.policyMappings)
        #expect(try full.policyConstraints == decoded.policyConstraints)
        #expect(try full.inhibitAnyPolicy == decoded.inhibitAnyPolicy)
        #expect(try full.crlDistributionPoints == decoded.crlDistributionPoints)
        #expect(try full.authorityInformationAccess == decoded.authorityInformationAccess)
        #expect(try full.signedCertificateTimestamps == decoded.signedCertificateTimestamps)

        let leaf = try extensionVector("minimal-leaf.der")
        #expect(try leaf.basicConstraints == BasicConstraints(isCertificateAuthority: false, pathLengthConstraint: nil))
        #expect(try leaf.keyUsage == .digitalSignature)
        #expect(try leaf.subjectAlternativeNames?.names.dnsNames == ["min.example"])
        #expect(try leaf.extendedKeyUsage == nil)
        #expect(try leaf.certificatePolicies == nil)
        #expect(try leaf.nameConstraints == nil)
        #expect(try leaf.authorityInformationAccess == nil)
        #expect(try leaf.signedCertificateTimestamps == nil)
        #expect(try leaf.subject.rfc4514String == "CN=min.example")
    }

    @Test("The subject's multi-valued RDN and escapes render in RFC 4514 form")
    func subjectRendering() throws {
        let certificate = try extensionVector("all-extensions.der")
        let subject = try certificate.subject
        // The multi-valued RDN is rendered in encoding (DER SET OF) order, UID first;
        // OpenSSL prints "CN=\#all.example+UID=all\ " because it reverses the flat
        // list of entries (see NameBundleTests for the divergence list).
        #expect(subject.rfc4514String
            == ##"UID=all\ +CN=\#all.example,OU=Extensions \+ Names,O=Tack Test \"Vectors\"\, Inc.,L=San Francisco,ST=California,C=US"##)
        #expect(openSSLComparable(subject.rfc4514String) == openSSLComparable(
            ##"CN=\#all.example+UID=all\ ,OU=Extensions \+ Names,O=Tack Test \"Vectors\"\, Inc.,L=San Francisco,ST=California,C=US"##))
        #expect(subject.count == 6)
        #expect(Array(subject).last?.count == 2)
        #expect(try subject.matches(certificate.issuer))
    }
}

import Foundation
import Testing
import TackTestSupport
import TackDER
import TackX509

/// Decodes one extension by OID and, if it decodes, walks every lazily decoded
/// part, checking that the walk yields exactly what the check counted.
private func decodeAndWalk(_ bytes: [UInt8], _ raw: Extension) throws {
    let range = raw.valueRange
    switch raw.oid {
    case SubjectAlternativeNames.oid:
        let names = try SubjectAlternativeNames(derEncoded: bytes, valueRange: range)
        #expect(Array(names).count == names.names.count)
        for case .directoryName(let name) in names { #expect(Array(name).count == name.count); _ = name.rfc4514String }
    case IssuerAlternativeNames.oid:
        let names = try IssuerAlternativeNames(derEncoded: bytes, valueRange: range)
        #expect(Array(names).count == names.names.count)
    case NameConstraints.oid:
        let constraints = try NameConstraints(derEncoded: bytes, valueRange: range)
        for subtrees in [constraints.permittedSubtrees, constraints.excludedSubtrees].compactMap({ $0 }) {
            #expect(Array(subtrees).count == subtrees.count)
        }
    case AuthorityKeyIdentifier.oid:
        let identifier = try AuthorityKeyIdentifier(derEncoded: bytes, valueRange: range)
        if let issuer = identifier.authorityCertIssuer { #expect(Array(issuer).count == issuer.count) }
    case CertificatePolicies.oid:
        let policies = try CertificatePolicies(derEncoded: bytes, valueRange: range)
        #expect(Array(policies).count == policies.count)
        for policy in policies { _ = policy.qualifiers.map(Array.init) }
    case CRLDistributionPoints.oid:
        let points = try CRLDistributionPoints(derEncoded: bytes, valueRange: range)
        #expect(Array(points).count == points.count)
        for point in points { if case .fullName(let names)? = point.name { #expect(Array(names).count == names.count) } }
    case AuthorityInformationAccess.oid:
        let access = try AuthorityInformationAccess(derEncoded: bytes, valueRange: range)
        #expect(Array(access).count == access.count)
    case ExtendedKeyUsage.oid:
        let usage = try ExtendedKeyUsage(derEncoded: bytes, valueRange: range)
        #expect(Array(usage).count == usage.count)
    case PolicyMappings.oid:
        let mappings = try PolicyMappings(derEncoded: bytes, valueRange: range)
        #expect(Array(mappings).count == mappings.count)
    case SignedCertificateTimestampList.oid:
        let list = try SignedCertificateTimestampList(derEncoded: bytes, valueRange: range)
        #expect(Array(list).count == list.count)
    case BasicConstraints.oid: _ = try BasicConstraints(derEncoded: bytes, valueRange: range)
    case KeyUsage.oid: _ = try KeyUsage(derEncoded: bytes, valueRange: range)
    case SubjectKeyIdentifier.oid: _ = try SubjectKeyIdentifier(derEncoded: bytes, valueRange: range)
    case PolicyConstraints.oid: _ = try PolicyConstraints(derEncoded: bytes, valueRange: range)
    case InhibitAnyPolicy.oid: _ = try InhibitAnyPolicy(derEncoded: bytes, valueRange: range)
    default: break
    }
}

@Suite("Extension decoders under mutation")
struct ExtensionMutationTests {
    @Test("Mutated extension values either fail with an error inside the value or decode and iterate fully")
    func mutations() throws {
        let url = RepositoryPaths.vectors("extensions/all-extensions.der")
        let original = [UInt8](try Data(contentsOf: url))
        let certificate = try Certificate(derEncoded: original)
        // Seeded, so that a failure reproduces (TackTestSupport.DeterministicStream).
        var generator = DeterministicStream(state: 0x7AC1_3E47)
        var accepted = 0, rejected = 0
        for raw in certificate.extensions {
            for _ in 0..<400 {
                let bytes = generator.mutate(original, edits: 1...3, kinds: [.replace, .flipBit], within: raw.valueRange)
                do {
                    try decodeAndWalk(bytes, raw)
                    accepted += 1
                } catch let error as X509Error {
                    rejected += 1
                    // Errors point inside the value (or at its end, for truncation).
                    #expect(raw.valueRange.contains(error.offset) || error.offset == raw.valueRange.upperBound,
                            "\(raw.oid): offset \(error.offset) outside \(raw.valueRange)")
                }
            }
        }
        #expect(accepted > 0 && rejected > 0)
    }
}

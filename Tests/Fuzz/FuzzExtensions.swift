// libFuzzer harness for names and typed extensions (TackX509). Built and run by
// scripts/fuzz.sh (target `extensions`), not by SwiftPM; see README.md here.
//
// The first input byte picks the decoder (a DistinguishedName or one of the
// extension types); the rest is its DER value, decoded in place (offsets are
// absolute in the input). Beyond "never crash", it checks:
//
// 1. A rejected value's error offset lies inside the value (1...count).
// 2. An accepted value's lazy collections iterate to exactly the number of
//    elements that the check counted (decoding after the check cannot fail),
//    and every nested name, RDN and GeneralName decodes and renders.
// 3. A name matches itself, is within its own subtree, and its RFC 4514 form is
//    produced; the fast path and the full reader agree (DistinguishedName
//    accepts the same bytes whether or not it sits inside a larger buffer).

import TackDER
import TackX509

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExtensions(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let range = 1..<size
    do {
        try decode(selector: bytes[0] % 16, bytes, range)
    } catch {
        guard error.offset >= 1 && error.offset <= size else {
            fatalError("error offset \(error.offset) outside the value 1..<\(size): \(error)")
        }
    }
    return 0
}

private func expectCount(_ walked: Int, _ counted: Int, _ what: StaticString) {
    guard walked == counted else { fatalError("\(what): walked \(walked), counted \(counted)") }
}

private func walk(_ name: DistinguishedName) {
    var rdns = 0
    for rdn in name {
        rdns += 1
        for attribute in rdn { _ = attribute.stringValue; _ = attribute.rfc4514String }
        guard rdn.matches(rdn) else { fatalError("RDN does not match itself") }
    }
    expectCount(rdns, name.count, "RDNs")
    _ = name.rfc4514String
    guard name.matches(name), name.isWithinSubtree(of: name) else { fatalError("name does not match itself") }
}

private func walk(_ names: GeneralNames) {
    var count = 0
    for name in names {
        count += 1
        _ = name.description
        if case .directoryName(let directory) = name { walk(directory) }
    }
    expectCount(count, names.count, "GeneralNames")
}

private func decode(selector: UInt8, _ bytes: [UInt8], _ range: Range<Int>) throws(X509Error) {
    switch selector {
    case 0:
        let name = try DistinguishedName(derEncoded: bytes, range: range)
        walk(name)
        // The same bytes alone must decode the same way.
        let alone = try DistinguishedName(derEncoded: Array(bytes[range]))
        guard alone == name, alone.count == name.count else { fatalError("name decodes differently alone") }
    case 1:
        walk(try SubjectAlternativeNames(derEncoded: bytes, valueRange: range).names)
    case 2:
        walk(try IssuerAlternativeNames(derEncoded: bytes, valueRange: range).names)
    case 3:
        let constraints = try NameConstraints(derEncoded: bytes, valueRange: range)
        for subtrees in [constraints.permittedSubtrees, constraints.excludedSubtrees] {
            guard let subtrees else { continue }
            var count = 0
            for base in subtrees {
                count += 1
                _ = base.description
            }
            expectCount(count, subtrees.count, "GeneralSubtrees")
        }
    case 4:
        let identifier = try AuthorityKeyIdentifier(derEncoded: bytes, valueRange: range)
        if let issuer = identifier.authorityCertIssuer { walk(issuer) }
    case 5:
        let policies = try CertificatePolicies(derEncoded: bytes, valueRange: range)
        var count = 0
        for policy in policies {
            count += 1
            if let qualifiers = policy.qualifiers { for _ in qualifiers {} }
        }
        expectCount(count, policies.count, "policies")
    case 6:
        let points = try CRLDistributionPoints(derEncoded: bytes, valueRange: range)
        var count = 0
        for point in points {
            count += 1
            switch point.name {
            case .fullName(let names)?: walk(names)
            case .nameRelativeToCRLIssuer(let rdn)?: _ = rdn.rfc4514String
            case nil: break
            }
            if let issuer = point.crlIssuer { walk(issuer) }
        }
        expectCount(count, points.count, "distribution points")
    case 7:
        let access = try AuthorityInformationAccess(derEncoded: bytes, valueRange: range)
        var count = 0
        for description in access {
            count += 1
            _ = description.location.description
        }
        expectCount(count, access.count, "access descriptions")
    case 8:
        let usage = try ExtendedKeyUsage(derEncoded: bytes, valueRange: range)
        var count = 0
        for _ in usage { count += 1 }
        expectCount(count, usage.count, "purposes")
    case 9:
        let mappings = try PolicyMappings(derEncoded: bytes, valueRange: range)
        var count = 0
        for _ in mappings { count += 1 }
        expectCount(count, mappings.count, "mappings")
    case 10:
        let list = try SignedCertificateTimestampList(derEncoded: bytes, valueRange: range)
        var count = 0
        for _ in list { count += 1 }
        expectCount(count, list.count, "SCTs")
    case 11: _ = try BasicConstraints(derEncoded: bytes, valueRange: range)
    case 12: _ = try KeyUsage(derEncoded: bytes, valueRange: range)
    case 13: _ = try SubjectKeyIdentifier(derEncoded: bytes, valueRange: range)
    case 14: _ = try PolicyConstraints(derEncoded: bytes, valueRange: range)
    default: _ = try InhibitAnyPolicy(derEncoded: bytes, valueRange: range)
    }
}

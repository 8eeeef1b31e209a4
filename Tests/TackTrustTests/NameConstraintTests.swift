import Testing

import TackDER
import TackTestSupport
@testable import TackTrust
import TackX509

/// RFC 5280 §4.2.1.10 name constraints: `checkNameConstraints` over the generated
/// chains of Vectors/chains/nc, and the DNS subtree helpers.
@Suite("Name constraints")
struct NameConstraintTests {
    static func certificate(_ file: String) throws -> Certificate {
        try Certificate(derEncoded: try RepositoryPaths.vectorBytes("chains/" + file))
    }

    static func check(ca: String, leaf: String) throws -> NameConstraintOutcome {
        let constraints = try #require(try certificate(ca).nameConstraints)
        return checkNameConstraints(constraints, appliedTo: try certificate(leaf), isLeaf: true)
    }

    @Test("Generated leaves against their constraining CA", arguments: [
        ("nc/ca-permit-dns.der", "nc/leaf-dns-in.der", NameConstraintOutcome.satisfied),
        ("nc/ca-permit-dns.der", "nc/leaf-dns-out.der", .violated),
        ("nc/ca-permit-dns.der", "nc/leaf-dns-suffix.der", .violated),
        ("nc/ca-exclude-dns.der", "nc/leaf-dns-excluded.der", .violated),
        ("nc/ca-exclude-dns.der", "nc/leaf-dns-excl-wild.der", .violated),
        ("nc/ca-exclude-dns.der", "nc/leaf-dns-in.der", .satisfied),
        ("nc/ca-permit-ip.der", "nc/leaf-ip-in.der", .satisfied),
        ("nc/ca-permit-ip.der", "nc/leaf-ip-out.der", .violated),
        ("nc/ca-permit-ip.der", "nc/leaf-ip6-out.der", .violated),
        ("nc/ca-permit-ip.der", "nc/leaf-dns-in.der", .satisfied),  // no IP names: unconstrained
        ("nc/ca-permit-dn.der", "nc/leaf-dn-in.der", .satisfied),
        ("nc/ca-permit-dn.der", "nc/leaf-dn-out.der", .violated),
    ])
    func generated(ca: String, leaf: String, expected: NameConstraintOutcome) throws {
        #expect(try Self.check(ca: ca, leaf: leaf) == expected)
    }

    @Test("A self-issued intermediate is exempt; the same certificate as leaf is not")
    func selfIssued() throws {
        // The constraining CA's own certificate is self-issued by no one here, so use
        // a self-signed root checked against another CA's constraints.
        let constraints = try #require(try Self.certificate("nc/ca-permit-dns.der").nameConstraints)
        let root = try Self.certificate("nc/root.der")  // self-issued, subject CN=NC Root
        #expect(checkNameConstraints(constraints, appliedTo: root, isLeaf: false) == .satisfied)
    }

    @Test("DNS subtrees are whole-label suffixes; wildcards count as one label", arguments: [
        ("www.example.com", "example.com", true),
        ("example.com", "example.com", true),
        ("notexample.com", "example.com", false),
        ("example.com", "www.example.com", false),
        ("*.example.com", "example.com", true),
        ("*.example.com", "foo.example.com", false),
    ])
    func dnsSubtree(name: String, base: String, expected: Bool) throws {
        let n = try #require(DNSNameBytes(presented: name, allowWildcard: true))
        let b = try #require(DNSNameBytes(presented: base, allowWildcard: false))
        #expect(n.isWithinSubtree(of: b) == expected)
    }

    @Test("An excluded subtree catches a wildcard that may stand for it", arguments: [
        ("*.example.com", "bar.example.com", true),
        ("*.example.com", "example.com", true),
        ("*.example.com", "a.bar.example.com", false),
        ("*.example.com", "bar.example.org", false),
        ("www.example.com", "bar.example.com", false),
    ])
    func wildcardExclusion(name: String, base: String, expected: Bool) throws {
        let n = try #require(DNSNameBytes(presented: name, allowWildcard: true))
        let b = try #require(DNSNameBytes(presented: base, allowWildcard: false))
        #expect(n.wildcardMayMatchWithin(b) == expected)
    }

    @Test("URI hosts", arguments: [
        ("https://example.com/path", "example.com"),
        ("https://user@example.com:8443/", "example.com"),
        ("ldap://example.com?x", "example.com"),
        ("https://[2001:db8::1]/", nil),
        ("urn:isbn:123", nil),
        ("https:///path", nil),
    ] as [(String, String?)])
    func uriHosts(uri: String, host: String?) {
        let found = TextBytes.withUTF8(uri) { uriHost($0).map { String(decoding: $0, as: UTF8.self) } }
        #expect(found == host)
    }
}

import Testing

import TackTestSupport
@testable import TackTrust
import TackX509

/// RFC 6125 / RFC 9525 server identity: `Certificate.matches(peerName:)` and its
/// DNS-name helpers.
@Suite("Server identity")
struct ServerIdentityTests {
    static func certificate(_ file: String) throws -> Certificate {
        try Certificate(derEncoded: try RepositoryPaths.vectorBytes("chains/" + file))
    }

    @Test("Presented names match references by whole labels, ignoring ASCII case", arguments: [
        ("example.com", "example.com", true),
        ("example.com", "EXAMPLE.com", true),
        ("Example.COM", "example.com", true),
        ("example.com", "example.com.", true),  // one trailing dot on the reference is dropped
        ("example.com", "example.com..", false),
        ("example.com", "www.example.com", false),
        ("www.example.com", "example.com", false),
        ("example.com", "example.co", false),
        ("*.example.com", "www.example.com", true),
        ("*.example.com", "WWW.EXAMPLE.COM", true),
        ("*.example.com", "a.b.example.com", false),  // exactly one label
        ("*.example.com", "example.com", false),  // not the apex
        ("*.example.com", ".example.com", false),  // the wildcard label is never empty
        ("*.example.com", "xn--bcher-kva.example.com", false),  // never an A-label
        ("*.example.com", "XN--bcher-kva.example.com", false),
        ("*.xn--bcher-kva.example", "www.xn--bcher-kva.example", true),  // IDN below the wildcard is fine
        ("*.com", "example.com", false),  // two labels after the wildcard at least
        ("*", "com", false),
        ("ba*.example.com", "baz.example.com", false),  // partial-label wildcards are not wildcards
        ("*z.example.com", "baz.example.com", false),
        ("foo.*.example.com", "foo.bar.example.com", false),
        ("*.*.example.com", "a.b.example.com", false),
        ("xn--*-1b3c148a.example.com", "xn--bliss-1b3c148a.example.com", false),
        ("example..com", "example..com", false),  // empty labels are not names
        (".example.com", "example.com", false),
        ("exa mple.com", "exa mple.com", false),
        ("*.example.com", "*.example.com", false),  // a reference is never a wildcard
        ("_srv.example.com", "_srv.example.com", false),  // LDH only (RFC 1034 §3.5)
    ])
    func dnsMatching(presented: String, reference: String, expected: Bool) {
        let matched = DNSNameBytes(reference: reference)?.isMatched(byPresented: presented) ?? false
        #expect(matched == expected, "\(presented) vs \(reference)")
    }

    @Test("Labels over 63 octets and names over 253 octets are refused")
    func lengthLimits() {
        let label63 = String(repeating: "a", count: 63)
        #expect(DNSNameBytes(reference: label63 + ".com") != nil)
        #expect(DNSNameBytes(reference: label63 + "a.com") == nil)
        let long = Array(repeating: "abcdefghi", count: 25).joined(separator: ".")  // 249 octets
        #expect(DNSNameBytes(reference: long + ".com") != nil)  // 253 octets
        #expect(DNSNameBytes(reference: long + ".comm") == nil)  // 254 octets
    }

    @Test("Non-ASCII reference names are refused: compare A-labels")
    func nonASCII() {
        #expect(DNSNameBytes(reference: "bücher.example") == nil)
        #expect(DNSNameBytes(reference: "xn--bcher-kva.example") != nil)
    }

    @Test("A certificate matches its dNSName SANs and nothing else")
    func certificateDNS() throws {
        let leaf = try Self.certificate("ecdsa/leaf.der")  // SAN example.com, www.example.com; CN leaf.example.com
        #expect(try leaf.matches(peerName: .dns("example.com")))
        #expect(try leaf.matches(peerName: .dns("WWW.example.com")))
        #expect(try !leaf.matches(peerName: .dns("leaf.example.com")))  // no CN fallback
        #expect(try !leaf.matches(peerName: .dns("other.example.com")))
        #expect(try !leaf.matches(peerName: .ipAddress([192, 0, 2, 10])))
        #expect(try !leaf.matches(peerName: .email("a@example.com")))
    }

    @Test("IP addresses match iPAddress SANs as bytes, v4 and v6")
    func certificateIP() throws {
        let leaf = try Self.certificate("rsa/leaf-ip.der")  // 192.0.2.10, 2001:db8::1, DNS:192.0.2.99
        #expect(try leaf.matches(peerName: .ipAddress([192, 0, 2, 10])))
        #expect(try !leaf.matches(peerName: .ipAddress([192, 0, 2, 11])))
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]
        #expect(try leaf.matches(peerName: .ipAddress(v6)))
        var other = v6
        other[15] = 2
        #expect(try !leaf.matches(peerName: .ipAddress(other)))
        // An address written in a dNSName SAN is not an IP identity.
        #expect(try !leaf.matches(peerName: .ipAddress([192, 0, 2, 99])))
        // IPv4-mapped IPv6 is a different identity.
        let mapped: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 10]
        #expect(try !leaf.matches(peerName: .ipAddress(mapped)))
        // Neither 4 nor 16 octets: nothing.
        #expect(try !leaf.matches(peerName: .ipAddress([192, 0, 2])))
        #expect(try !leaf.matches(peerName: .dns("192.0.2.10")))
    }

    @Test("Wildcard certificates follow the one-label rule")
    func certificateWildcard() throws {
        let leaf = try Self.certificate("ecdsa/leaf-wildcard.der")
        #expect(try leaf.matches(peerName: .dns("www.example.com")))
        #expect(try !leaf.matches(peerName: .dns("example.com")))
        #expect(try !leaf.matches(peerName: .dns("a.b.example.com")))
        let tld = try Self.certificate("ecdsa/leaf-wildcard-tld.der")
        #expect(try !tld.matches(peerName: .dns("example.com")))
    }

    @Test("Mailboxes: exact local part, case-insensitive domain, one @", arguments: [
        ("user@example.com", "user@example.com", true),
        ("user@example.com", "user@EXAMPLE.com", true),
        ("user@example.com", "USER@example.com", false),
        ("user@example.com", "user@www.example.com", false),
        ("*@example.com", "user@example.com", false),
        ("a@b@example.com", "a@b@example.com", false),
        ("@example.com", "@example.com", false),
        ("user@", "user@", false),
    ])
    func mailboxes(presented: String, reference: String, expected: Bool) {
        let equal: Bool
        if let p = Mailbox(presented), let r = Mailbox(reference) { equal = p == r } else { equal = false }
        #expect(equal == expected, "\(presented) vs \(reference)")
    }
}

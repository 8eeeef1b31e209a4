import Testing

import TackDER
import TackTestSupport
@testable import TackTrust
import TackVectorSuites
import TackX509

/// RFC 6125 / RFC 9525 server identity: `PeerHost`, `Certificate.matches(_:)` and the
/// DNS-name grammar.
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
        ("-a.example.com", "-a.example.com", false),  // no hyphen at either end of a label
        ("a-.example.com", "a-.example.com", false),
        ("a-b.example.com", "a-b.example.com", true),
    ])
    func dnsMatching(presented: String, reference: String, expected: Bool) {
        // The reference goes through PeerHost, as every caller's does.
        let name = (try? PeerHost(reference))?.dnsName
        let matched = name.map { DNSNameBytes.reference($0, isMatchedByPresented: presented) } ?? false
        #expect(matched == expected, "\(presented) vs \(reference)")
    }

    @Test("Labels over 63 octets and names over 253 octets are refused")
    func lengthLimits() {
        let label63 = String(repeating: "a", count: 63)
        #expect(DNSNameBytes(presented: label63 + ".com", allowWildcard: false) != nil)
        #expect(DNSNameBytes(presented: label63 + "a.com", allowWildcard: false) == nil)
        let long = Array(repeating: "abcdefghi", count: 25).joined(separator: ".")  // 249 octets
        #expect(DNSNameBytes(presented: long + ".com", allowWildcard: false) != nil)  // 253 octets
        #expect(DNSNameBytes(presented: long + ".comm", allowWildcard: false) == nil)  // 254 octets
        // The in-place comparison refuses what the parser refuses.
        #expect(DNSNameBytes.reference(label63 + ".com", isMatchedByPresented: label63 + ".com"))
        #expect(!DNSNameBytes.reference(label63 + "a.com", isMatchedByPresented: label63 + "a.com"))
        #expect(!DNSNameBytes.reference(long + ".comm", isMatchedByPresented: long + ".comm"))
    }

    @Test("Non-ASCII reference names are refused: compare A-labels")
    func nonASCII() {
        #expect(DNSNameBytes(presented: "bücher.example", allowWildcard: false) == nil)
        #expect(DNSNameBytes(presented: "xn--bcher-kva.example", allowWildcard: false) != nil)
    }

    @Test("A certificate matches its dNSName SANs and nothing else")
    func certificateDNS() throws {
        let leaf = try Self.certificate("ecdsa/leaf.der")  // SAN example.com, www.example.com; CN leaf.example.com
        #expect(try leaf.matches(PeerHost("example.com")))
        #expect(try leaf.matches(PeerHost("WWW.example.com")))
        #expect(try leaf.matches(PeerHost("www.example.com.")))  // the absolute form
        #expect(try !leaf.matches(PeerHost("leaf.example.com")))  // no CN fallback
        #expect(try !leaf.matches(PeerHost("other.example.com")))
        #expect(try !leaf.matches(PeerHost("192.0.2.10")))
        #expect(try !leaf.matches(email: "a@example.com"))
    }

    @Test("IP addresses match iPAddress SANs as bytes, v4 and v6")
    func certificateIP() throws {
        let leaf = try Self.certificate("rsa/leaf-ip.der")  // 192.0.2.10, 2001:db8::1, DNS:192.0.2.99
        #expect(try leaf.matches(PeerHost("192.0.2.10")))
        #expect(try leaf.matches(PeerHost(ipAddress: [192, 0, 2, 10])))
        #expect(try !leaf.matches(PeerHost("192.0.2.11")))
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]
        #expect(try leaf.matches(PeerHost(ipAddress: v6)))
        #expect(try leaf.matches(PeerHost("2001:db8::1")))
        #expect(try leaf.matches(PeerHost("[2001:DB8::1]")))
        #expect(try leaf.matches(PeerHost("2001:db8:0:0:0:0:0:1")))
        #expect(try !leaf.matches(PeerHost("2001:db8::2")))
        // An address written in a dNSName SAN is not an IP identity.
        #expect(try !leaf.matches(PeerHost("192.0.2.99")))
        // IPv4-mapped IPv6 is a different identity.
        #expect(try !leaf.matches(PeerHost("::ffff:192.0.2.10")))
        // Neither 4 nor 16 octets: not a host.
        #expect(throws: PeerHostError(.invalidIPAddress, offset: 0)) { try PeerHost(ipAddress: [192, 0, 2]) }
    }

    @Test("Wildcard certificates follow the one-label rule")
    func certificateWildcard() throws {
        let leaf = try Self.certificate("ecdsa/leaf-wildcard.der")
        #expect(try leaf.matches(PeerHost("www.example.com")))
        #expect(try !leaf.matches(PeerHost("example.com")))
        #expect(try !leaf.matches(PeerHost("a.b.example.com")))
        let tld = try Self.certificate("ecdsa/leaf-wildcard-tld.der")
        #expect(try !tld.matches(PeerHost("example.com")))
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

    /// 2001:db8::1 as octets.
    static let documentationV6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]

    static let hostTexts: [(String, PeerHost.Kind)] = [
        ("api.example.com", .dnsName("api.example.com")),
        ("API.Example.COM.", .dnsName("api.example.com")),  // one trailing dot: the absolute form
        ("xn--bcher-kva.example", .dnsName("xn--bcher-kva.example")),
        ("a-b.c0.example", .dnsName("a-b.c0.example")),
        ("localhost", .dnsName("localhost")),
        ("10.0.0.1", .ipAddress([10, 0, 0, 1])),
        ("255.255.255.255", .ipAddress([255, 255, 255, 255])),
        ("2001:db8::1", .ipAddress(documentationV6)),
        ("[2001:db8::1]", .ipAddress(documentationV6)),
        ("::", .ipAddress([UInt8](repeating: 0, count: 16))),
        ("::1", .ipAddress([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
        ("fe80::", .ipAddress([0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
        ("::ffff:192.0.2.1", .ipAddress([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1])),
        ("1:2:3:4:5:6:7:8", .ipAddress([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8])),
    ]

    @Test("Host text: names and addresses parse to one value", arguments: hostTexts)
    func hostParses(text: String, kind: PeerHost.Kind) throws {
        #expect(try PeerHost(text).kind == kind)
    }

    static let malformedHosts: [(String, PeerHostError.Reason, Int)] = [
        ("", .empty, 0),
        ("https://example.com", .url, 5),
        ("example.com/path", .url, 11),
        ("example.com:443", .port, 11),
        ("[2001:db8::1]:443", .port, 13),
        ("*.example.com", .wildcard, 0),
        ("www.ex*mple.com", .wildcard, 6),
        ("-a.example.com", .labelStartsWithHyphen, 0),
        ("a-.example.com", .labelEndsWithHyphen, 1),
        ("www.example-.com", .labelEndsWithHyphen, 11),
        ("a..example.com", .emptyLabel, 2),
        (".example.com", .emptyLabel, 0),
        ("example.com..", .trailingDots, 11),
        ("bücher.example", .nonASCII, 1),
        ("exa mple.com", .invalidCharacter(0x20), 3),
        ("_srv.example.com", .invalidCharacter(0x5F), 0),
        ("1.2.3", .numericName, 4),
        ("10.0.0.256", .numericName, 7),
        ("010.0.0.1", .numericName, 8),
        ("1:2", .port, 1),
        ("2001:db8::1::2", .invalidIPAddress, 0),
        ("2001:db8:1", .invalidIPAddress, 0),
        ("1:2:3:4:5:6:7:8:9", .invalidIPAddress, 0),
        ("fe80::1%eth0", .invalidIPAddress, 0),
        ("[10.0.0.1]", .invalidIPAddress, 1),
        ("[2001:db8::1", .invalidIPAddress, 0),
    ]

    @Test("Malformed host text: the exact reason and offset", arguments: malformedHosts)
    func hostRefused(text: String, reason: PeerHostError.Reason, offset: Int) {
        #expect(throws: PeerHostError(reason, offset: offset)) { try PeerHost(text) }
    }

    @Test("Host error codes and messages: the A-label is named for non-ASCII text")
    func hostErrorText() {
        let error = PeerHostError(.nonASCII, offset: 1)
        #expect(error.code == "host_non_ascii")
        #expect(error.description == "non-ASCII text: write an internationalised name as its A-label (xn--…) (at byte 1)")
        #expect(PeerHostError(.port, offset: 11).code == "host_port")
        #expect(PeerHostError(.trailingDots, offset: 11).code == "host_trailing_dots")
    }

    @Test("Labels of 63 octets and names of 253 octets are hosts; one more octet is refused")
    func hostLengths() throws {
        let label63 = String(repeating: "a", count: 63)
        #expect(try PeerHost(label63 + ".com").kind == .dnsName(label63 + ".com"))
        #expect(throws: PeerHostError(.labelTooLong, offset: 0)) { try PeerHost(label63 + "a.com") }
        let long = Array(repeating: "abcdefghi", count: 25).joined(separator: ".")  // 249 octets
        #expect(try PeerHost(long + ".com").description == long + ".com")
        #expect(try PeerHost(long + ".com.").description == long + ".com")  // 253 plus the absolute dot
        #expect(throws: PeerHostError(.nameTooLong, offset: 253)) { try PeerHost(long + ".comm") }
    }

    @Test("Seeded differential: IPv6 text parses as inet_pton reads it, over 2,000 generated forms")
    func ipv6AgainstInetPton() {
        var generator = DeterministicStream(state: 0x1F6_7E57)
        for _ in 0..<2_000 {
            // Eight random groups, written with a random run of zero groups compressed,
            // random case, leading zeros and sometimes an embedded IPv4 tail.
            let groups = (0..<8).map { _ in generator.next() % 3 == 0 ? 0 : UInt16(truncatingIfNeeded: generator.next()) }
            let withIPv4 = generator.next() % 4 == 0
            var texts = groups.map { String($0, radix: 16, uppercase: generator.next() % 2 == 0) }
            if withIPv4 {
                let high = groups[6], low = groups[7]
                texts[6] = "\(high >> 8).\(high & 0xFF).\(low >> 8).\(low & 0xFF)"
                texts.removeLast()
            }
            var text = texts.joined(separator: ":")
            let compressible = withIPv4 ? 6 : 8
            if generator.next() % 2 == 0, let start = groups[..<compressible].firstIndex(of: 0) {
                var end = start
                while end + 1 < compressible, groups[end + 1] == 0 { end += 1 }
                let head = texts[..<start].joined(separator: ":")
                let tail = texts[(end + 1)...].joined(separator: ":")
                text = head + "::" + tail
            }
            if generator.next() % 7 == 0 { text += ":" }  // malformed: a trailing colon
            let expected = LimboHarness.parseIPAddress(text).flatMap { $0.count == 16 ? $0 : nil }
            let parsed = IPAddressText.parseIPv6(Array(text.utf8)[...])
            #expect(parsed == expected, "\(text)")
        }
    }
}

extension DNSNameBytes {
    /// ``matches(reference:presented:)`` on two texts' UTF-8 bytes (the rule
    /// `Certificate.matches(_:)` applies to each `dNSName` in place).
    static func reference(_ reference: String, isMatchedByPresented presented: String) -> Bool {
        TextBytes.withUTF8(reference) { reference in
            TextBytes.withUTF8(presented) { presented in matches(reference: reference[...], presented: presented[...]) }
        }
    }
}

import Foundation
import TackTrust
import TackTestSupport
import TackFormats
import Testing

@testable import tack

extension PolicyVectorCase {
    var arguments: [String] {
        var arguments = ["verify", "--json", "--host", host, "--at", at]
        for root in roots { arguments += ["--roots", "Vectors/policies/" + root] }
        if let policy { arguments += ["--policy", "Vectors/policies/" + policy] }
        return arguments + ["Vectors/policies/" + chain]
    }
}

@Suite("tack verify")
struct VerifyCommandTests {
    @Test("every case of Vectors/policies/manifest.json: exit status, verdict, decision code, pin outcome, diagnostic code",
          arguments: try PolicyVectorCase.all())
    func manifest(_ policyCase: PolicyVectorCase) throws {
        let run = CLI.run(policyCase.arguments)
        #expect(Int(run.status.rawValue) == policyCase.exit, "\(run.errors)")
        let document = try run.json()
        let schema = run.status == .failure ? "error" : "verify"
        #expect(try Schema.load(schema).problems(document) == [])
        guard run.status != .failure else { return }
        // The manifest's verdict is path validation's: a pin mismatch has a valid path.
        if let verdict = policyCase.verdict {
            #expect((document["verdict"] != .string("untrusted")) == (verdict == "trusted"))
        }
        if let decision = policyCase.decision { #expect(document["code"] == .string(decision)) }
        if let pins = policyCase.pins { #expect(document["pins"]?["outcome"] == .string(pins)) }
        if let diagnostic = policyCase.diagnostic {
            let items = (document["pins"]?["diagnostics"]?.arrayValue ?? []) + (document["policy_warnings"]?.arrayValue ?? [])
            #expect(items.contains { $0["code"] == .string(diagnostic) }, "no \(diagnostic) in \(items.map { $0.serialized(pretty: false) })")
        }
    }

    static let p256 = ["--roots", "Vectors/certs/p256-ca.pem", "--at", "2026-06-01T00:00:00Z", "Vectors/certs/p256-leaf.pem"]

    @Test("an IP host matches the leaf's iPAddress names, in every written form",
          arguments: ["192.0.2.10", "2001:db8::10", "[2001:db8::10]", "2001:DB8:0:0:0:0:0:10", "p256.example.com", "P256.example.com."])
    func ipHost(host: String) throws {
        let document = try CLI.json(["verify", "--json", "--host", host] + VerifyCommandTests.p256, schema: "verify")
        #expect(document["trusted"] == .bool(true))
    }

    @Test("a name mismatch names the host and every DNS and IP name of the leaf")
    func mismatch() throws {
        let document = try CLI.json(["verify", "--json", "--host", "192.0.2.11"] + VerifyCommandTests.p256, status: .untrusted, schema: "verify")
        let failure = try #require(document["failures"]?[0])
        #expect(failure["code"] == .string("peer_name_mismatch"))
        let message = try #require(failure["message"]?.stringValue)
        for name in ["192.0.2.11", "p256.example.com", "*.wildcard.example.com", "192.0.2.10", "2001:db8::10"] {
            #expect(message.contains(name), "\(name) in \(message)")
        }
    }

    @Test("an expired chain: the time in RFC 3339 and the days before the check time")
    func expired() throws {
        let document = try CLI.json(["verify", "--json", "--host", "p256.example.com", "--roots", "Vectors/certs/p256-ca.pem",
                                     "--at", "2036-01-01T00:00:00Z", "Vectors/certs/p256-leaf.pem"], status: .untrusted, schema: "verify")
        let failure = try #require(document["failures"]?.arrayValue?.first { $0["code"] == .string("expired") })
        #expect(failure["message"]?.stringValue?.hasPrefix("certificate expired at 2035-01-01T00:00:00Z, 365 days before the check time") == true)
    }

    @Test("--system-roots alone is accepted (it is the default)")
    func systemRootsAlone() throws {
        let run = CLI.run(["verify", "--host", "p256.example.com", "--system-roots", "--at", "2026-06-01T00:00:00Z", "Vectors/certs/p256-leaf.pem"])
        #expect(run.status == .untrusted)
    }

    @Test("unreadable roots or a refused policy: status 1 with the code")
    func badInputs() throws {
        let roots = try CLI.json(["verify", "--json", "--host", "a.example", "--roots", "Vectors/no-such.pem", "Vectors/certs/p256-leaf.pem"],
                                 status: .failure, schema: "error")
        #expect(roots["error"]?["code"] == .string("unreadable_input"))
        let policy = try CLI.json(["verify", "--json", "--policy", "Vectors/policies/malformed.json"] + ["--host", "p256.example.com"] + VerifyCommandTests.p256,
                                  status: .failure, schema: "error")
        #expect(policy["error"]?["code"] == .string("policy_refused"))
    }
}

@Suite("Host arguments")
struct HostArgumentTests {
    static let documentationPrefix: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]
    static let acceptedHosts: [(String, PeerNameExpectation)] = [
        ("10.0.0.1", PeerNameExpectation.ip([10, 0, 0, 1])),
        ("2001:db8::1", .ip(documentationPrefix)),
        ("[2001:db8::1]", .ip(documentationPrefix)),
        ("::ffff:192.0.2.1", .ip([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1])),
        ("www.example.com", .dns("www.example.com")),
        ("www.example.com.", .dns("www.example.com")),
        ("WWW.Example.COM", .dns("www.example.com")),
        ("xn--bcher-kva.example", .dns("xn--bcher-kva.example")),
        ("localhost", .dns("localhost")),
    ]

    @Test("addresses and names that are accepted", arguments: acceptedHosts)
    func accepted(text: String, expected: PeerNameExpectation) throws {
        let peer = try parsePeer(text)
        switch expected {
        case .ip(let bytes): #expect(peer.kind == .ipAddress(bytes))
        case .dns(let name): #expect(peer.kind == .dnsName(name))
        }
    }

    /// The CLI's code is `host_` and TackTrust's ``PeerHostError`` reason, snake_case.
    static let malformedHosts: [(String, String)] = [
        ("", "host_empty"),
        ("https://example.com", "host_url"),
        ("example.com/path", "host_url"),
        ("example.com:443", "host_port"),
        ("*.example.com", "host_wildcard"),
        ("-bad.example.com", "host_label_starts_with_hyphen"),
        ("bad-.example.com", "host_label_ends_with_hyphen"),
        ("a..example.com", "host_empty_label"),
        (".example.com", "host_empty_label"),
        ("www.example.com..", "host_trailing_dots"),
        ("bücher.example", "host_non_ascii"),
        ("under_score.example", "host_invalid_character"),
        ("10.0.0.256", "host_numeric_name"),
        ("1.2.3", "host_numeric_name"),
        ("2001:db8::1::2", "host_invalid_ip_address"),
        (String(repeating: "a", count: 64) + ".example", "host_label_too_long"),
    ]

    @Test("malformed hosts: usage errors with the reason's code", arguments: malformedHosts)
    func refused(text: String, code: String) {
        do {
            _ = try parsePeer(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.status == .usage)
            #expect(error.code == code)
        }
    }
}

enum PeerNameExpectation: Sendable {
    case ip([UInt8])
    case dns(String)
}

@Suite("tack verify: served order, strict policy")
struct VerifyExtraTests {
    @Test("a chain served CA first says so, by code")
    func wrongOrder() throws {
        let chain = try CLI.text("Vectors/certs/chain-example.pem")
        let blocks = chain.components(separatedBy: "-----END CERTIFICATE-----\n").filter { $0.contains("BEGIN") }
            .map { $0 + "-----END CERTIFICATE-----\n" }
        let path = try InputTests.temporaryDirectory() + "/reversed.pem"
        try (blocks[1] + blocks[0]).write(toFile: path, atomically: true, encoding: .utf8)
        let document = try CLI.json(["verify", "--json", "--host", "www.example.com", "--roots", "Vectors/certs/chain-root.pem",
                                     "--at", "2026-06-01T00:00:00Z", path], status: .untrusted, schema: "verify")
        #expect(document["failures"]?.arrayValue?.compactMap { $0["code"]?.stringValue } == ["served_out_of_order", "peer_name_mismatch"])
        // After servedOutOfOrder, certificates are named by served position: the CA
        // served first is never "the leaf".
        let messages = document["failures"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        #expect(messages.dropFirst().allSatisfy { !$0.contains("the leaf") }, "\(messages)")
        #expect(messages.last?.hasPrefix("served certificate #1 is not for www.example.com") == true, "\(messages)")
    }

    @Test("a served self-signed root that is not an anchor is said to be exactly that")
    func untrustedRoot() throws {
        let document = try CLI.json(["verify", "--json", "--host", "www.example.com", "--roots", "Vectors/certs/p256-ca.pem",
                                     "--at", "2026-06-01T00:00:00Z", "Vectors/certs/chain-example.pem"], status: .untrusted, schema: "verify")
        let failure = try #require(document["failures"]?[0])
        #expect(failure["code"] == .string("untrusted_root"))
        #expect(failure["message"]?.stringValue?.hasPrefix("served certificate #3 is a self-signed root (CN=Tack Example Root CA") == true,
                "\(failure)")
        #expect(failure["message"]?.stringValue?.contains("not one of the anchors") == true)
    }

    @Test("--strict-policy: a policy warning is status 1; without it, the verdict's status")
    func strictPolicy() throws {
        let arguments = ["verify", "--json", "--host", "api.example.com", "--at", "2026-12-01T12:00:00Z", "--roots", "Vectors/policies/certs/root.pem",
                         "--policy", "Vectors/policies/single-pin.plist", "Vectors/policies/certs/chain.pem"]
        let lenient = try CLI.json(arguments, schema: "verify")
        #expect(lenient["policy_warnings"]?[0]?["code"] == .string("missing_backup_pin"))
        let strict = CLI.run(arguments + ["--strict-policy"])
        #expect(strict.status == .failure)
        #expect(strict.errors.contains("[missing_backup_pin]"))
    }

    @Test("--strict-policy: an unknown Info.plist key is a located warning (stderr and JSON), status 1")
    func strictPolicyUnknownKey() throws {
        // Vectors/policies/ca-intermediate.plist with NSIncludesSubdomains misspelt (line 15):
        // the rule no longer covers api.example.com, which a warning must say.
        let plist = try CLI.text("Vectors/policies/ca-intermediate.plist")
            .replacingOccurrences(of: "NSIncludesSubdomains", with: "NSIncludesSubdomain")
        let path = try InputTests.temporaryDirectory() + "/typo.plist"
        try plist.write(toFile: path, atomically: true, encoding: .utf8)
        let arguments = ["verify", "--json", "--host", "api.example.com", "--at", "2026-12-01T12:00:00Z", "--roots", "Vectors/policies/certs/root.pem",
                         "--policy", path, "Vectors/policies/certs/chain.pem"]
        let lenient = CLI.run(arguments)
        let document = try lenient.json()
        #expect(try Schema.load("verify").problems(document) == [])
        let warning = try #require(document["policy_warnings"]?.arrayValue?.first { $0["code"] == .string("misspelt_key") })
        #expect(warning["line"] == .int(15) && warning["column"] != .null)
        #expect(lenient.status == .success)
        #expect(lenient.errors.contains("\(path):15:"))
        // The location once: FILE:LINE:COLUMN: warning: …
        let message = try #require(warning["message"]?.stringValue)
        #expect(lenient.errors.contains("\(path):\(message) [misspelt_key]"))
        #expect(!lenient.errors.contains("\(path):15:4: 15:4:"))
        #expect(lenient.errors.contains("[misspelt_key]"))
        let strict = CLI.run(arguments + ["--strict-policy"])
        #expect(strict.status == .failure)
    }

    @Test("A binary Info.plist policy: the pins hold, its warnings carry byte offsets (stderr and JSON), --strict-policy status 1")
    func binaryPolicy() throws {
        let path = "Vectors/plists/policy-warnings.bplist"
        let arguments = ["verify", "--json", "--host", "www.example.com", "--roots", "Vectors/certs/chain-root.pem", "--at", "2026-06-01T00:00:00Z",
                         "--policy", path, "Vectors/certs/chain-example.pem"]
        let lenient = CLI.run(arguments)
        #expect(lenient.status == .success, "\(lenient.errors)")
        let document = try lenient.json()
        #expect(try Schema.load("verify").problems(document) == [])
        let warnings = document["policy_warnings"]?.arrayValue ?? []
        // Five warnings on standard error; the verdict carries the four that concern
        // www.example.com (the *.example.org rule's is another host's).
        #expect(warnings.count == 4)
        #expect(!warnings.contains { $0["code"] == .string("wildcard_domain") })
        #expect(lenient.errors.contains("*.example.org: App Transport Security does not support wildcard domains"))
        #expect(warnings.allSatisfy { $0["line"] == .null && $0["column"] == .null && ($0["byte_offset"]?.integerValue ?? 0) > 8 })
        let typo = try #require(warnings.first { $0["message"]?.stringValue?.contains("NSIncludesSubdomain\"") == true })
        let offset = try #require(typo["byte_offset"]?.integerValue)
        #expect(lenient.errors.contains("\(path): byte \(offset): warning: example.com: unknown key \"NSIncludesSubdomain\""))
        #expect(CLI.run(arguments + ["--strict-policy"]).status == .failure)
    }

    static let weakLeaf = ["--host", "example.com", "--roots", "Vectors/apple-profile/root.der", "--at", "2024-06-01T00:00:00Z",
                           "Vectors/apple-profile/leaf-rsa2047.der", "Vectors/apple-profile/intermediate.der"]

    @Test("--profile: rfc5280 by default; apple refuses a 2047-bit leaf as weakKey, in the JSON and the text")
    func profile() throws {
        let lenient = try CLI.json(["verify", "--json"] + Self.weakLeaf, schema: "verify")
        #expect(lenient["profile"] == .string("rfc5280"))
        #expect(lenient["trusted"] == .bool(true))
        let strict = try CLI.json(["verify", "--json", "--profile", "apple"] + Self.weakLeaf, status: .untrusted, schema: "verify")
        #expect(strict["profile"] == .string("apple"))
        #expect(strict["code"] == .string("weak_key"))
        let message = try #require(strict["failures"]?[0]?["message"]?.stringValue)
        #expect(message.contains("2047-bit RSA key, below the minimum of 2048 bits"), "\(message)")
        let text = CLI.run(["verify", "--profile", "apple"] + Self.weakLeaf)
        #expect(text.status == .untrusted)
        #expect(text.output.contains("profile: apple"))
        #expect(text.output.contains("[weak_key]"))
        let unknown = CLI.run(["verify", "--profile", "ios"] + Self.weakLeaf)
        #expect(unknown.status == .usage)
        #expect(unknown.errors.contains("unknown --profile ios (rfc5280, apple)"))
    }

    @Test("In every profile a SHA-1 signature is weakSignatureAlgorithm, not a bad signature")
    func sha1Reason() throws {
        let arguments = ["--host", "example.com", "--roots", "Vectors/apple-profile/root.der", "--at", "2024-06-01T00:00:00Z",
                         "Vectors/apple-profile/leaf-sha1.der", "Vectors/apple-profile/intermediate.der"]
        for profile in ["rfc5280", "apple"] {
            let document = try CLI.json(["verify", "--json", "--profile", profile] + arguments, status: .untrusted, schema: "verify")
            #expect(document["code"] == .string("weak_signature_algorithm"))
            #expect(document["failures"]?[0]?["message"]?.stringValue?.contains("sha1WithRSAEncryption") == true)
        }
    }

    @Test("rotation takes --profile: the README's 10-year chain passes under rfc5280 and is validityTooLong under apple")
    func rotationProfile() throws {
        let arguments = ["rotation", "--json", "--roots", "Vectors/certs/chain-root.pem", "--at", "2026-06-01T00:00:00Z",
                         "--chain", "www.example.com=Vectors/certs/chain-example.pem", "Vectors/policies/example.json"]
        #expect(CLI.run(arguments).status == .success)
        let apple = CLI.run(arguments + ["--profile", "apple"])
        #expect(apple.status == .failure)
        let failure = try #require(try apple.json()["checks"]?[0]?["failure"])
        #expect(failure["code"] == .string("validity_too_long"))
        #expect(failure["message"]?.stringValue?.contains("validity period of 3652 days, over the limit of 825 days") == true)
        #expect(CLI.run(arguments + ["--profile", "ios"]).status == .usage)
    }
}

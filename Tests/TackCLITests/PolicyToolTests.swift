import Foundation
import TackFormats
import TackTrust
import Testing

@testable import tack

@Suite("tack plist, policy convert, rotation")
struct PolicyToolTests {
    static let chain = "Vectors/certs/chain-example.pem"
    static let leaf = "Vectors/certs/chain-leaf.pem"

    /// The NSPinnedDomains rule for `domain` in `tack plist` output.
    static func rule(_ output: String, domain: String) throws -> PropertyListDictionary {
        let body = try #require(output.range(of: "<key>NSAppTransportSecurity</key>")).lowerBound
        let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>" + output[body...] + "</dict></plist>"
        let root = try PropertyList.parse(Array(document.utf8))
        return try #require(root.dictionaryValue?["NSAppTransportSecurity"]?.dictionaryValue?["NSPinnedDomains"]?
            .dictionaryValue?[domain]?.dictionaryValue)
    }

    @Test("plist: the chain's CA identities, read back, and tack lint passes them")
    func plist() throws {
        let run = CLI.run(["plist", PolicyToolTests.chain, "--domain", "example.com", "--include-subdomains"])
        #expect(run.status == .success)
        let rule = try PolicyToolTests.rule(run.output, domain: "example.com")
        #expect(rule["NSIncludesSubdomains"]?.booleanValue == true)
        let pins = rule["NSPinnedCAIdentities"]?.arrayValue?.compactMap { $0.dictionaryValue?["SPKI-SHA256-BASE64"]?.stringValue }
        #expect(pins == [try vectorPin("chain-intermediate"), try vectorPin("chain-root")])
        let directory = try InputTests.temporaryDirectory()
        let body = run.output[try #require(run.output.range(of: "<key>NSAppTransportSecurity</key>")).lowerBound...]
        try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n" + body + "</dict>\n</plist>\n")
            .write(toFile: directory + "/Info.plist", atomically: true, encoding: .utf8)
        let lint = CLI.run(["lint", directory])
        #expect(lint.status == .success)
        #expect(lint.output.isEmpty)
    }

    @Test("plist: a single pin is refused unless waived or backed up; a lone leaf needs --leaf", arguments: [
        (["--leaf"], ExitCode.failure, "single_pin"),
        (["--leaf", "--allow-single-pin"], .success, nil),
        (["--leaf", "--backup-pin", "sha256/ONgpIUVEH2m4p8nAMbENgGUbgmIxnctaN38DI2GqL7g="], .success, nil),
        ([], .failure, "only_a_leaf"),
    ] as [([String], ExitCode, String?)])
    func singlePin(options: [String], status: ExitCode, code: String?) throws {
        let arguments = ["plist", PolicyToolTests.leaf, "--domain", "api.example.com"] + options
        let run = CLI.run(arguments)
        #expect(run.status == status)
        #expect(run.failure?.code == code)
    }

    @Test("policy convert: JSON to plist to JSON, TrustKit both ways, OkHttp, and a refused policy")
    func convert() throws {
        let source = "Vectors/policies/example.json"
        let plist = CLI.run(["policy", "convert", "--from", "json", "--to", "plist", source])
        #expect(plist.status == .success)
        #expect(plist.errors.contains("tack: does not translate: example.com: ATS sends no reports"))
        let root = try PropertyList.parse(Array(plist.output.utf8))
        let rule = root.dictionaryValue?["NSAppTransportSecurity"]?.dictionaryValue?["NSPinnedDomains"]?.dictionaryValue?["example.com"]?.dictionaryValue
        #expect(rule?["NSPinnedCAIdentities"]?.arrayValue?.compactMap { $0.dictionaryValue?["SPKI-SHA256-BASE64"]?.stringValue }
                == ["8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU=", "OhSDq7eqbTdv7vIivt9Wwc5nfvTt1HyGCGQJnrQ4akU="])
        let directory = try InputTests.temporaryDirectory()
        try plist.output.write(toFile: directory + "/Info.plist", atomically: true, encoding: .utf8)
        let back = CLI.run(["policy", "convert", "--from", "plist", "--to", "json", directory + "/Info.plist"])
        #expect(try back.json()["domains"]?["example.com"]?["includeSubdomains"] == .bool(true))

        let trustkit = CLI.run(["policy", "convert", "--from", "json", "--to", "trustkit", source])
        #expect(trustkit.errors.contains("TrustKit subdomains are any depth"))
        try trustkit.output.write(toFile: directory + "/trustkit.plist", atomically: true, encoding: .utf8)
        let fromTrustKit = CLI.run(["policy", "convert", "--from", "trustkit", "--to", "json", directory + "/trustkit.plist"])
        #expect(try fromTrustKit.json()["domains"]?["**.example.com"] != nil)

        let okhttp = CLI.run(["policy", "convert", "--from", "json", "--to", "okhttp", source])
        #expect(okhttp.output.contains(#".add("example.com", "sha256/8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU=""#))
        #expect(okhttp.output.contains(#".add("*.example.com""#))

        let refused = CLI.run(["policy", "convert", "--from", "json", "--to", "plist", "Vectors/policies/malformed.json"])
        #expect(refused.status == .failure)
        #expect(refused.failure?.code == "policy_refused")
    }

    @Test("rotation: each chain checked for its domain; the warnings and failures by code")
    func rotation() throws {
        let arguments = ["rotation", "--json", "--roots", "Vectors/certs/chain-root.pem", "--at", "2026-06-01T00:00:00Z",
                         "Vectors/policies/example.json", "--chain", "www.example.com=" + PolicyToolTests.chain]
        let pass = try CLI.json(arguments, schema: "rotation")
        let check = try #require(pass["checks"]?[0])
        #expect(check["result"] == .string("pass"))
        #expect(check["matches"]?[0]?["list"] == .string("ca_identities"))
        #expect(check["warnings"]?.arrayValue?.map { $0["code"] } == [.string("single_pin_in_use")])
        #expect(pass["rules"]?[0]?["warnings"]?.arrayValue?.map { $0["code"] } == [.string("no_backup_deployed")])
        let fail = try CLI.json(arguments + ["--chain", "p256.example.com=Vectors/certs/p256-leaf.pem"], status: .failure, schema: "rotation")
        #expect(fail["checks"]?[1]?["result"] == .string("fail"))
        #expect(fail["checks"]?[1]?["failure"]?["code"] == .string("unknown_issuer"))
    }

    @Test("rotation: --chain needs DOMAIN=CHAIN with a valid host", arguments: [
        (["--chain", "chain.pem"], "usage"), (["--chain", "=chain.pem"], "usage"), (["--chain", "*.example.com=chain.pem"], "host_wildcard"),
        ([String](), "usage"),
    ])
    func rotationUsage(options: [String], code: String) {
        let run = CLI.run(["rotation", "Vectors/policies/example.json"] + options)
        #expect(run.status == .usage)
        #expect(run.failure?.code == code)
    }
}

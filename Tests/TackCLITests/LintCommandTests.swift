import Foundation
import TackTestSupport
import TackFormats
import Testing

@testable import tack

@Suite("tack lint")
struct LintCommandTests {
    /// (file name, line, rule) for each `expect: RULE` marker in the samples.
    static func expected(in directory: String) throws -> [String] {
        var found: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: CLI.root + "/" + directory).sorted() {
            for (number, line) in try CLI.text(directory + "/" + name).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var rest = Substring(line)
                while let range = rest.range(of: "expect: ") {
                    let rule = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                    found.append("\(name):\(number + 1):\(rule)")
                    rest = rest[range.upperBound...]
                }
            }
        }
        return found.filter { !$0.hasSuffix(":RULE") }.sorted()
    }

    static func findings(_ document: JSONValue) -> [String] {
        (document["findings"]?.arrayValue ?? []).map { finding in
            let path = finding["path"]?.stringValue ?? ""
            return "\(path.split(separator: "/").last ?? ""):\(finding["line"]?.integerValue ?? 0):\(finding["rule"]?.stringValue ?? "")"
        }.sorted()
    }

    @Test("exactly the seeded mistakes, at their lines; deprecated calls are warnings, the rest errors")
    func mistakes() throws {
        let document = try CLI.json(["lint", "--json", "Vectors/lint/mistakes"], status: .failure, schema: "lint")
        #expect(LintCommandTests.findings(document) == (try LintCommandTests.expected(in: "Vectors/lint/mistakes")))
        for finding in document["findings"]?.arrayValue ?? [] {
            let isWarning = ["deprecated-trust-api", "pin-leaf-only"].contains(finding["rule"]?.stringValue ?? "")
            #expect(finding["level"] == .string(isWarning ? "warning" : "error"))
        }
        #expect(document["files_checked"] == .integer(2))
    }

    @Test("nothing in the fixed samples; warnings alone and --disable exit 0")
    func fixedAndDisable() throws {
        let fixed = CLI.run(["lint", "Vectors/lint/fixed"])
        #expect(fixed.status == .success)
        #expect(fixed.output.isEmpty)
        let errorRules = LintRule.allCases.filter { $0.severity == .error }.map(\.rawValue).joined(separator: ",")
        let document = try CLI.json(["lint", "--json", "--disable", errorRules, "Vectors/lint/mistakes"], schema: "lint")
        #expect(document["findings"]?.arrayValue?.map { $0["rule"] }
                == [.string("pin-leaf-only"), .string("pin-leaf-only")] + Array(repeating: .string("deprecated-trust-api"), count: 3))
    }

    @Test("SARIF: the schema's structure, each result's rule index, a notification and status 1 for a file that cannot be checked")
    func sarif() throws {
        let clean = try CLI.json(["lint", "--sarif", "Vectors/lint/mistakes"], status: .failure, schema: "sarif")
        let run = try #require(clean["runs"]?[0])
        let rules = run["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        let results = run["results"]?.arrayValue ?? []
        #expect(results.count == (try LintCommandTests.expected(in: "Vectors/lint/mistakes")).count)
        for result in results {
            let index = Int(result["ruleIndex"]?.integerValue ?? -1)
            #expect(rules.indices.contains(index) && rules[index]["id"] == result["ruleId"])
            #expect(result["locations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue?.hasPrefix("/") == false)
        }
        #expect(run["invocations"]?[0]?["executionSuccessful"] == .bool(true))

        let directory = try InputTests.temporaryDirectory()
        try "<plist><dict><key>x</key>".write(toFile: directory + "/Info.plist", atomically: true, encoding: .utf8)
        let broken = try CLI.json(["lint", "--sarif", directory, "Vectors/lint/fixed"], status: .failure, schema: "sarif")
        let invocation = broken["runs"]?[0]?["invocations"]?[0]
        #expect(invocation?["executionSuccessful"] == .bool(false))
        #expect(invocation?["toolExecutionNotifications"]?[0]?["descriptor"]?["id"] == .string("unreadable_plist"))
        #expect(broken["runs"]?[0]?["results"] == .array([]))
    }

    @Test("a path that cannot be checked: status 1 with the code", arguments: [
        ("README.md", "not_lintable"),
        ("no/such/dir", "unreadable_input"),
        ("Vectors/certs/keys", "nothing_to_check"),
    ])
    func uncheckable(path: String, code: String) throws {
        let document = try CLI.json(["lint", "--json", path], status: .failure, schema: "lint")
        #expect(document["errors"]?[0]?["code"] == .string(code))
    }

    static func rules(_ source: String) -> [String] {
        lintSwift(Array(source.utf8), path: "x.swift").map { "\($0.line):\($0.rule.rawValue)" }
    }

    @Test("credential-without-trust: the async delegate form and a completion handler under another name")
    func credentialForms() {
        let asyncForm = """
            func urlSession(_ s: URLSession, didReceive c: URLAuthenticationChallenge) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
                guard let trust = c.protectionSpace.serverTrust else { return (.performDefaultHandling, nil) }
                return (.useCredential, URLCredential(trust: trust))
            }
            """
        #expect(LintCommandTests.rules(asyncForm) == ["3:credential-without-trust"])
        let otherName = "func f(done: (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n    done(.useCredential, c)\n}"
        #expect(LintCommandTests.rules(otherName) == ["2:credential-without-trust"])
        let evaluated = "func f() async -> X {\n guard SecTrustEvaluateWithError(t, nil) else { return (.cancelAuthenticationChallenge, nil) }\n return (.useCredential, URLCredential(trust: t))\n}"
        #expect(LintCommandTests.rules(evaluated) == [])
        let pattern = "func f(d: D) {\n switch d { case .useCredential: break }\n if d == .useCredential {}\n}"
        #expect(LintCommandTests.rules(pattern) == [])
    }

    @Test("a binary Info.plist: the same rules as its XML twin, at byte offsets, in text, JSON and SARIF")
    func binaryInfoPlist() throws {
        let binary = try RepositoryPaths.vectorBytes("plists/lint-mistakes.bplist")
        let xml = try RepositoryPaths.vectorBytes("lint/mistakes/Info.plist")
        let fromBinary = try lintPlist(binary, path: "Info.plist")
        let fromXML = try lintPlist(xml, path: "Info.plist")
        // The XML's one tack-lint:disable comment has no binary form: its finding returns.
        #expect(fromBinary.map(\.rule.rawValue).sorted() == (fromXML.map(\.rule.rawValue) + ["pin-backup-missing"]).sorted())
        #expect(fromBinary.allSatisfy { $0.byteOffset != nil && $0.line == 0 && $0.column == 0 })
        #expect(fromXML.allSatisfy { $0.byteOffset == nil && $0.line > 0 })
        // Each finding's offset is inside the file, at the marker byte of an object.
        #expect(fromBinary.allSatisfy { ($0.byteOffset ?? -1) >= 8 && ($0.byteOffset ?? Int.max) < binary.count })

        let directory = try InputTests.temporaryDirectory()
        try Data(binary).write(to: URL(fileURLWithPath: directory + "/Info.plist"))
        let document = try CLI.json(["lint", "--json", directory], status: .failure, schema: "lint")
        let findings = document["findings"]?.arrayValue ?? []
        #expect(findings.count == fromBinary.count)
        #expect(findings.allSatisfy { $0["byte_offset"]?.integerValue != nil && $0["line"] == nil })
        let sarif = try CLI.json(["lint", "--sarif", directory], status: .failure, schema: "sarif")
        let regions = (sarif["runs"]?[0]?["results"]?.arrayValue ?? []).map { $0["locations"]?[0]?["physicalLocation"]?["region"] }
        #expect(regions.count == fromBinary.count)
        #expect(regions.allSatisfy { $0?["byteOffset"]?.integerValue != nil && $0?["startLine"] == nil })
        let text = CLI.run(["lint", directory])
        #expect(text.status == .failure)
        let first = try #require(fromBinary.first)
        #expect(text.output.contains("\(directory)/Info.plist: byte \(first.byteOffset ?? -1): error: \(first.message) [\(first.rule.rawValue)]"))
    }

    @Test("bundled-identity: a .p12 or .pfx in the tree is a warning (status 0 alone), in text, JSON and SARIF")
    func bundledIdentity() throws {
        let directory = try InputTests.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/App/Resources", withIntermediateDirectories: true)
        try Data([0x30, 0x82]).write(to: URL(fileURLWithPath: directory + "/App/Resources/client.p12"))
        try Data([0x30, 0x82]).write(to: URL(fileURLWithPath: directory + "/App/Legacy.PFX"))
        try Data([0x30, 0x82]).write(to: URL(fileURLWithPath: directory + "/App/notes.txt"))
        let document = try CLI.json(["lint", "--json", directory], schema: "lint")
        let findings = document["findings"]?.arrayValue ?? []
        #expect(findings.map { $0["rule"] } == [.string("bundled-identity"), .string("bundled-identity")])
        #expect(findings.map { $0["level"] } == [.string("warning"), .string("warning")])
        #expect(findings.compactMap { $0["path"]?.stringValue?.split(separator: "/").last.map(String.init) } == ["Legacy.PFX", "client.p12"])
        #expect(document["files_checked"] == .integer(2))
        let sarif = try CLI.json(["lint", "--sarif", directory], schema: "sarif")
        let run = sarif["runs"]?[0]
        let results = run?["results"]?.arrayValue ?? []
        #expect(results.map { $0["ruleId"] } == [.string("bundled-identity"), .string("bundled-identity")])
        let rules = run?["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        for result in results {
            let index = Int(result["ruleIndex"]?.integerValue ?? -1)
            #expect(rules.indices.contains(index) && rules[index]["id"] == .string("bundled-identity"))
        }
        let text = CLI.run(["lint", directory + "/App/Resources/client.p12"])
        #expect(text.status == .success)
        #expect(text.output.contains("client.p12: byte 0: warning: a PKCS #12 identity"))
        #expect(text.output.contains("[bundled-identity]"))
        let disabled = CLI.run(["lint", "--disable", "bundled-identity", directory])
        #expect(disabled.status == .success && disabled.output.isEmpty)
    }

    @Test("a wildcard key in NSPinnedDomains")
    func wildcardDomain() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
            <key>*.example.com</key><dict><key>NSPinnedCAIdentities</key><array>
            <dict><key>SPKI-SHA256-BASE64</key><string>8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU=</string></dict>
            <dict><key>SPKI-SHA256-BASE64</key><string>ONgpIUVEH2m4p8nAMbENgGUbgmIxnctaN38DI2GqL7g=</string></dict>
            </array></dict></dict></dict></dict></plist>
            """
        let findings = try lintPlist(Array(plist.utf8), path: "Info.plist").map { "\($0.line):\($0.rule.rawValue)" }
        #expect(findings == ["4:pin-wildcard-domain"])
    }
}

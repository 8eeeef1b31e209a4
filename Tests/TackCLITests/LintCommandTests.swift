import Foundation
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
            let isWarning = finding["rule"] == .string("deprecated-trust-api")
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
        #expect(document["findings"]?.arrayValue?.map { $0["rule"] } == Array(repeating: .string("deprecated-trust-api"), count: 3))
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

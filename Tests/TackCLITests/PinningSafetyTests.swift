import Foundation
import TackTrust
import TackX509
import Testing

@testable import tack

/// Issue 31, "Pinning safety": a pin written twice is one pin in every command, lint
/// sees what keeps pinning from taking effect, and lint and `verify --policy` read a
/// policy with one reader.
@Suite("Pinning safety: duplicate pins, misspelt keys, one policy reader")
struct PinningSafetyTests {
    static let chain = "Vectors/certs/chain-example.pem"
    static let root = "Vectors/certs/chain-root.pem"
    /// The chain's intermediate (on its path) and a key on no path.
    static let onPath = "8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU="
    static let offPath = "OhSDq7eqbTdv7vIivt9Wwc5nfvTt1HyGCGQJnrQ4akU="

    /// An Info.plist pinning `domains` (key, CA pins), one key or entry per line.
    static func infoPlist(_ domains: [(String, [String])], ats: String = "NSAppTransportSecurity", pinned: String = "NSPinnedDomains") -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<plist version=\"1.0\">", "<dict>",
                     "<key>\(ats)</key>", "<dict>", "<key>\(pinned)</key>", "<dict>"]
        for (domain, pins) in domains {
            lines += ["<key>\(domain)</key>", "<dict>", "<key>NSIncludesSubdomains</key>", "<true/>", "<key>NSPinnedCAIdentities</key>", "<array>"]
            for pin in pins { lines.append("<dict><key>SPKI-SHA256-BASE64</key><string>\(pin)</string></dict>") }
            lines += ["</array>", "</dict>"]
        }
        return (lines + ["</dict>", "</dict>", "</dict>", "</plist>", ""]).joined(separator: "\n")
    }

    static func write(_ text: String, name: String) throws -> String {
        let path = try InputTests.temporaryDirectory() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `LINE:RULE` of each lint finding.
    static func lint(_ path: String) -> [String] {
        guard let bytes = FileManager.default.contents(atPath: path), let findings = try? lintPlist(Array(bytes), path: path) else { return ["unreadable"] }
        return findings.map { "\($0.line):\($0.rule.rawValue)" }
    }

    @Test("verify --strict-policy: one key listed twice in an Info.plist is no backup (two located warnings, status 1)")
    func strictPolicyDuplicate() throws {
        let path = try PinningSafetyTests.write(PinningSafetyTests.infoPlist([("example.com", [PinningSafetyTests.onPath, PinningSafetyTests.onPath])]), name: "Info.plist")
        let arguments = ["verify", "--json", "--host", "www.example.com", "--roots", PinningSafetyTests.root, "--at", "2026-06-01T00:00:00Z",
                         "--policy", path, PinningSafetyTests.chain]
        let lenient = CLI.run(arguments)
        #expect(lenient.status == .success)
        let warnings = try lenient.json()["policy_warnings"]?.arrayValue ?? []
        #expect(warnings.map { $0["code"] } == [.string("missing_backup_pin"), .string("duplicate_pin")])
        #expect(warnings.map { $0["line"] } == [.int(12), .int(15)])
        #expect(lenient.errors.contains("\(path):15:7: warning: example.com: caIdentities[1]: the same key as caIdentities[0]"))
        let strict = CLI.run(arguments + ["--strict-policy"])
        #expect(strict.status == .failure)
        #expect(strict.errors.contains("--strict-policy: 2 policy warnings"))
    }

    @Test("verify and rotation refuse a JSON policy listing one key twice (Base64 and sha256/, or hex)")
    func jsonDuplicateRefused() throws {
        let pin = try SPKIPin(PinningSafetyTests.onPath)
        for second in ["sha256/" + PinningSafetyTests.onPath, pin.hex] {
            let json = #"{"version": 1, "domains": {"example.com": {"includeSubdomains": true, "caIdentities": ["\#(PinningSafetyTests.onPath)", "\#(second)"]}}}"#
            let path = try PinningSafetyTests.write(json, name: "policy.json")
            let verify = CLI.run(["verify", "--host", "www.example.com", "--roots", PinningSafetyTests.root, "--at", "2026-06-01T00:00:00Z",
                                  "--policy", path, PinningSafetyTests.chain])
            #expect(verify.status == .failure)
            #expect(verify.failure?.code == "policy_refused")
            #expect(verify.failure?.description.contains("error: example.com: caIdentities[1]: the same key as caIdentities[0]") == true)
            #expect(verify.failure?.description.contains("only one pin and no backup") == true)
            let rotation = CLI.run(["rotation", "--roots", PinningSafetyTests.root, "--at", "2026-06-01T00:00:00Z", path,
                                    "--chain", "www.example.com=" + PinningSafetyTests.chain])
            #expect(rotation.failure?.code == "policy_refused")
        }
    }

    @Test("rotation: a chain matching one key listed twice passes on a single pin, and no backup is deployed")
    func rotationDistinctKeys() throws {
        let path = try PinningSafetyTests.write(
            PinningSafetyTests.infoPlist([("example.com", [PinningSafetyTests.onPath, PinningSafetyTests.onPath, PinningSafetyTests.offPath])]), name: "Info.plist")
        let document = try CLI.json(["rotation", "--json", "--roots", PinningSafetyTests.root, "--at", "2026-06-01T00:00:00Z", path,
                                     "--chain", "www.example.com=" + PinningSafetyTests.chain], schema: "rotation")
        #expect(document["checks"]?[0]?["result"] == .string("pass"))
        #expect(document["checks"]?[0]?["warnings"]?.arrayValue?.map { $0["code"] } == [.string("single_pin_in_use")])
        let ruleWarnings = document["rules"]?[0]?["warnings"]?.arrayValue ?? []
        #expect(ruleWarnings.map { $0["code"] } == [.string("no_backup_deployed")])
        #expect(ruleWarnings.first?["message"]?.stringValue?.contains("(caIdentities[2] match none)") == true)
        // Only that key, twice: no backup in the rule at all.
        let twice = try PinningSafetyTests.write(PinningSafetyTests.infoPlist([("example.com", [PinningSafetyTests.onPath, PinningSafetyTests.onPath])]), name: "Info.plist")
        let only = try CLI.json(["rotation", "--json", "--roots", PinningSafetyTests.root, "--at", "2026-06-01T00:00:00Z", twice,
                                 "--chain", "www.example.com=" + PinningSafetyTests.chain], schema: "rotation")
        #expect(only["checks"]?[0]?["warnings"]?.arrayValue?.map { $0["code"] } == [.string("single_pin_in_use")])
        #expect(only["rules"]?[0]?["warnings"]?.arrayValue?.map { $0["code"] } == [.string("missing_backup_pin")])
    }

    @Test("verify: a located policy warning says its line and column once on standard output")
    func locationOnce() throws {
        let path = try PinningSafetyTests.write(PinningSafetyTests.infoPlist([("example.com", [PinningSafetyTests.onPath, PinningSafetyTests.onPath])]), name: "Info.plist")
        let run = CLI.run(["verify", "--host", "www.example.com", "--roots", PinningSafetyTests.root, "--at", "2026-06-01T00:00:00Z",
                           "--policy", path, PinningSafetyTests.chain])
        #expect(run.output.contains("  - 15:7: warning: example.com: caIdentities[1]: the same key as caIdentities[0]"))
        #expect(!run.output.contains("15:7: 15:7:"))
    }

    @Test("lint: one key listed twice is a pin-duplicate warning at the entry, and no backup")
    func lintDuplicate() throws {
        let path = try PinningSafetyTests.write(PinningSafetyTests.infoPlist([("example.com", [PinningSafetyTests.onPath, PinningSafetyTests.onPath])]), name: "Info.plist")
        #expect(PinningSafetyTests.lint(path) == ["12:pin-backup-missing", "15:pin-duplicate"])
        let run = CLI.run(["lint", path])
        #expect(run.status == .failure)
        #expect(run.output.contains("\(path):15:7: warning: example.com: caIdentities[1]: the same key as caIdentities[0]"))
    }

    @Test("lint: a misspelt NSAppTransportSecurity or NSPinnedDomains, and domains differing only in case")
    func lintPinningNeverTakesEffect() throws {
        let two = [PinningSafetyTests.onPath, PinningSafetyTests.offPath]
        for typo in ["NSAppTransportSecurty", "nsAppTransportSecurity", "NSAppTransportSecuirty"] {
            let path = try PinningSafetyTests.write(PinningSafetyTests.infoPlist([("example.com", two)], ats: typo), name: "Info.plist")
            #expect(PinningSafetyTests.lint(path) == ["4:ats-key-misspelt"])
            #expect(CLI.run(["lint", path]).output.contains("did you mean \"NSAppTransportSecurity\"?"))
        }
        for typo in ["NSPinnedDomain", "NSPinnedDomians", "NSPINNEDDOMAINS"] {
            let path = try PinningSafetyTests.write(PinningSafetyTests.infoPlist([("example.com", two)], pinned: typo), name: "Info.plist")
            #expect(PinningSafetyTests.lint(path) == ["6:ats-key-misspelt"])
        }
        let cased = try PinningSafetyTests.write(PinningSafetyTests.infoPlist([("example.com", two), ("Example.COM", two)]), name: "Info.plist")
        #expect(PinningSafetyTests.lint(cased) == ["18:pin-duplicate-domain"])
        // verify refuses the same file, for the same reason.
        let verify = CLI.run(["verify", "--host", "www.example.com", "--roots", PinningSafetyTests.root, "--at", "2026-06-01T00:00:00Z",
                              "--policy", cased, PinningSafetyTests.chain])
        #expect(verify.failure?.code == "policy_refused")
        #expect(verify.failure?.description.contains("18:1: error: Example.COM: covers the same hosts as rule #1") == true)
    }

    @Test("A sha256/ pin in an Info.plist: verify --policy, policy convert and lint say the same, at its line and column")
    func okHttpPrefix() throws {
        let path = try PinningSafetyTests.write(
            PinningSafetyTests.infoPlist([("example.com", ["sha256/" + PinningSafetyTests.onPath, PinningSafetyTests.offPath])]), name: "Info.plist")
        let said = "14:7: error: example.com: caIdentities[0]: the OkHttp prefix sha256/: ATS wants the bare Base64 (remove the prefix)"
        let verify = CLI.run(["verify", "--host", "www.example.com", "--roots", PinningSafetyTests.root, "--policy", path, PinningSafetyTests.chain])
        #expect(verify.failure?.code == "policy_refused")
        #expect(verify.failure?.description.contains(said) == true)
        #expect(verify.failure?.description.contains("character") == false)
        let convert = CLI.run(["policy", "convert", "--from", "plist", "--to", "json", path])
        #expect(convert.failure?.code == "policy_refused")
        #expect(convert.failure?.description.contains(said) == true)
        let lint = CLI.run(["lint", path])
        #expect(lint.output.contains("\(path):14:7: error: example.com: caIdentities[0]: the OkHttp prefix sha256/: ATS wants the bare Base64 (remove the prefix) [pin-malformed]"))
    }

    @Test("lint and verify --policy agree on every Info.plist of the vectors: each issue of the reader is a lint finding at its place")
    func oneReader() throws {
        var files: [String] = []
        for directory in ["Vectors/lint/mistakes", "Vectors/lint/fixed", "Vectors/policies", "Vectors/plists", "Vectors/lint/corpus"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: CLI.root + "/" + directory)) ?? []
            files += names.filter { $0.hasSuffix(".plist") || $0.hasSuffix(".bplist") }.sorted().map { directory + "/" + $0 }
        }
        #expect(files.count >= 15)
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: CLI.root + "/" + file))
            let issues: [PinPolicyIssue]
            do {
                issues = try PinPolicy.load(infoPlist: Array(bytes), at: 0).warnings
            } catch {
                guard case .invalid(let found) = error else { continue }  // not a property list: neither reads it
                issues = found
            }
            let linted = try lintPlist(Array(bytes), path: file)
            let findings = Set(linted.map { "\($0.line):\($0.column):\($0.byteOffset ?? -1): \($0.message)" })
            // An unknown key that turns protection off is said once, as ats-insecure-exception.
            let insecure = Set(linted.filter { $0.rule == .atsInsecureException }.map { "\($0.line):\($0.column):\($0.byteOffset ?? -1)" })
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            /// Whether a `tack-lint:disable` comment on `line` or the line before silences it.
            func silenced(_ line: Int) -> Bool {
                [line - 1, line - 2].contains { lines.indices.contains($0) && lines[$0].contains("tack-lint:disable") }
            }
            for issue in issues {
                if case .format(let error) = issue.kind, case .missingKey(let key) = error.reason, key == .appTransportSecurity || key == .pinnedDomains { continue }
                guard let location = issue.location else {
                    Issue.record("\(file): \(issue) has no place")
                    continue
                }
                let place = "\(location.isBinary ? 0 : location.line):\(location.isBinary ? 0 : location.column):\(location.isBinary ? location.offset : -1): \(issue.message)"
                // A finding silenced by a tack-lint:disable comment is the one exception.
                let at = place.prefix { $0 != " " }.dropLast()
                #expect(findings.contains(place) || (!location.isBinary && silenced(location.line)) || insecure.contains(String(at)),
                        "\(file): lint does not report \(place)")
            }
        }
    }
}

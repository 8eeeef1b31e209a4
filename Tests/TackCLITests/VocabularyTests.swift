import Foundation
import TackFormats
import Testing

@testable import tack

/// Issue 31, "one vocabulary": one time option, the same options where they make
/// sense, the same exit status for the same failure.
@Suite("tack: one vocabulary")
struct VocabularyTests {
    @Test("tack help --help prints the top-level help")
    func helpHelp() {
        for arguments in [["help", "--help"], ["help", "-h"]] {
            let run = CLI.run(arguments)
            #expect(run.status == .success, "\(arguments): \(run.errors)")
            #expect(run.output == topLevelHelp + "\n")
        }
    }

    @Test("every schema with a code field lists the codes (generate-code-catalogue.py)",
          arguments: ["error", "pin", "verify", "identity", "lint", "rotation", "scan-line", "show"])
    func schemaCodes(_ name: String) throws {
        let codes = try #require(Schema.load(name).root["$defs"]?["code"]?["enum"]?.arrayValue)
        for code in ["bad_input", "unreadable_input", "der.truncated", "tls.untrusted.expired", "pin_mismatch"] {
            #expect(codes.contains(.string(code)), "\(name): \(code)")
        }
    }

    @Test("a code the schemas do not list fails the schema check")
    func unknownCodeRefused() throws {
        let schema = try Schema.load("error")
        let known = try JSONReader.parse(#"{"error": {"code": "unreadable_input", "message": "m", "exit_status": 1}}"#)
        let unknown = try JSONReader.parse(#"{"error": {"code": "no_such_code", "message": "m", "exit_status": 1}}"#)
        #expect(schema.problems(known) == [])
        #expect(schema.problems(unknown).count == 1)
    }

    @Test("tack vectors SUITE MISSING_FILE exits 1 like every other unreadable input", arguments: ["wycheproof", "limbo"])
    func vectorsMissingFile(suite: String) {
        let run = CLI.run(["vectors", suite, "Vectors/no/such.json"])
        #expect(run.status == .failure, "\(run.errors)")
        #expect(run.failure?.code == "unreadable_input")
    }

    @Test("--at on show and identity (--now kept as an alias), the same days left either way")
    func atEverywhere() throws {
        for command in [["show"], ["identity", "--allow-no-mac"]] {
            let path = command[0] == "show" ? "Vectors/certs/p256-leaf.pem" : "Vectors/pkcs12/openssl-rsa-plain.p12"
            let at = CLI.run(command + ["--at", "2030-01-01T00:00:00Z", path])
            let now = CLI.run(command + ["--now", "2030-01-01T00:00:00Z", path])
            #expect(at.status == .success, "\(command): \(at.errors)")
            #expect(at.output == now.output)
            #expect(CLI.run(command + ["--at", "2030-01-01T00:00:00Z", "--now", "2030-01-01T00:00:00Z", path]).status == .usage)
        }
    }

    @Test("rotation takes --system-roots, as verify does")
    func rotationSystemRoots() {
        let run = CLI.run(["rotation", "--system-roots", "--at", "2026-06-01T00:00:00Z",
                           "--chain", "www.example.com=Vectors/certs/chain-example.pem", "Vectors/policies/example.json"])
        #expect(run.status != .usage, "\(run.errors)")
        #expect(!run.errors.contains("unknown option"))
    }

    @Test("show: relative times in the largest unit that is not zero, and the validity state beside the seconds in JSON", arguments: [
        ("2024-12-31T16:00:00Z", "not yet valid: starts in 8 hours", "not_yet_valid", Int64(315_561_600)),
        ("2034-12-31T01:00:00Z", "23 hours left", "valid", Int64(82_800)),
        ("2035-01-01T00:02:00Z", "expired 2 minutes ago", "expired", Int64(-120)),
    ])
    func showValidity(at: String, phrase: String, state: String, seconds: Int64) throws {
        let text = CLI.run(["show", "--at", at, "Vectors/certs/p256-leaf.pem"])
        #expect(text.output.contains("(" + phrase + ")"), "\(text.output)")
        let document = try CLI.json(["show", "--json", "--at", at, "Vectors/certs/p256-leaf.pem"], schema: "show")
        #expect(document["certificates"]?[0]?["validity"] == .string(state))
        #expect(document["certificates"]?[0]?["seconds_left"] == .integer(seconds))
    }

    @Test("show prints a CRL: issuer, times, revoked serials, in text and JSON")
    func showCRL() throws {
        let text = CLI.run(["show", "Vectors/ocsp/crls/intermediate.crl"])
        #expect(text.status == .success, "\(text.errors)")
        #expect(text.output.hasPrefix("CRL (Vectors/ocsp/crls/intermediate.crl)"), "\(text.output)")
        #expect(text.output.contains("Issuer:             CN=Tack OCSP Intermediate,O=Tack"))
        let document = try CLI.json(["show", "--json", "Vectors/ocsp/crls/intermediate.crl"], schema: "show")
        #expect(document["crls"]?[0]?["issuer"] == .string("CN=Tack OCSP Intermediate,O=Tack"))
        #expect(document["crls"]?[0]?["revoked"]?.arrayValue?.isEmpty == false)
    }

    @Test("a policy warning about another domain's rule: once on standard error, not in the verdict on standard output")
    func otherDomainWarning() throws {
        let policy = """
            {"version": 1, "domains": {
              "example.com": {"includeSubdomains": true, "caIdentities": [
                "8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU=", "OhSDq7eqbTdv7vIivt9Wwc5nfvTt1HyGCGQJnrQ4akU="]},
              "other.example.org": {"expires": "2026-01-01T00:00:00Z", "caIdentities": [
                "8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU=", "OhSDq7eqbTdv7vIivt9Wwc5nfvTt1HyGCGQJnrQ4akU="]}}}
            """
        let path = try InputTests.temporaryDirectory() + "/policy.json"
        try policy.write(toFile: path, atomically: true, encoding: .utf8)
        let arguments = ["--host", "www.example.com", "--roots", "Vectors/certs/chain-root.pem", "--at", "2026-06-01T00:00:00Z",
                         "--policy", path, "Vectors/certs/chain-example.pem"]
        let text = CLI.run(["verify"] + arguments)
        #expect(text.status == .success)
        #expect(!text.output.contains("other.example.org"), "\(text.output)")
        #expect(text.errors.components(separatedBy: "other.example.org: expired").count == 2, "\(text.errors)")
        let document = try CLI.json(["verify", "--json"] + arguments, schema: "verify")
        #expect(document["policy_warnings"] == .array([]))
    }

    @Test("identity takes several files: each reported, a failure named and the others still read")
    func identitySeveralFiles() throws {
        let run = CLI.run(["identity", "--allow-no-mac", "--json", "Vectors/pkcs12/openssl-rsa-plain.p12", "Vectors/no/such.p12",
                           "Vectors/pkcs12/openssl-p256-plain.p12"])
        #expect(run.status == .failure, "\(run.errors)")
        let document = try run.json()
        #expect(try Schema.load("identity").problems(document) == [])
        let files = try #require(document.arrayValue)
        #expect(files.count == 3)
        #expect(files[0]["identities"]?[0]?["subject"] == .string("CN=client-rsa"))
        #expect(files[1]["error"]?["code"] == .string("unreadable_input"))
        #expect(files[2]["identities"]?[0]?["subject"] == .string("CN=client-p256"))
        let text = CLI.run(["identity", "--allow-no-mac", "Vectors/pkcs12/openssl-rsa-plain.p12", "Vectors/pkcs12/openssl-p256-plain.p12"])
        #expect(text.status == .success)
        #expect(text.output.contains("== Vectors/pkcs12/openssl-p256-plain.p12 =="))
    }

    @Test("completions offer option values (--format, --revocation, --key-type, lint rule ids) and sub-words", arguments: ["bash", "zsh", "fish"])
    func completionValues(shell: String) {
        let script = CLI.run(["completions", shell]).output
        for word in ["base64", "sha256", "none", "soft", "hard", "p256", "ed25519", "deprecated-trust-api", "convert",
                     "wycheproof", "limbo", "bash", "zsh", "fish", "trustkit", "okhttp"] {
            #expect(script.contains(word), "\(shell): \(word)")
        }
        #expect(CompletionsCommand.values("verify", option: "--revocation") == ["none", "soft", "hard"])
        #expect(CompletionsCommand.values("pin", option: "--format") == ["base64", "sha256", "hex", "json"])
        #expect(CompletionsCommand.values("lint", option: "--disable") == LintRule.allCases.map(\.rawValue))
        #expect(CompletionsCommand.subwords("vectors") == ["wycheproof", "limbo"])
        #expect(CompletionsCommand.subwords("policy") == ["convert"])
        #expect(CompletionsCommand.subwords("completions") == ["bash", "zsh", "fish"])
        #expect(CompletionsCommand.subwords("verify") == [])
    }

    /// The `tack …` lines of a help text's EXAMPLES section, `\` continuations joined;
    /// those that are shell pipelines or substitutions are left out (they need a shell).
    static func examples(_ help: String) -> [String] {
        var found: [String] = []
        var inExamples = false
        var pending = ""
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("EXAMPLES") { inExamples = true; continue }
            guard inExamples else { continue }
            guard line.hasPrefix("  ") else { break }
            let text = pending + line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix("\\") { pending = String(text.dropLast()); continue }
            pending = ""
            if text.hasPrefix("tack "), !text.contains("|"), !text.contains("$("), !text.contains("<") { found.append(text) }
        }
        return found
    }

    @Test("every command's --help has an EXAMPLES section with a runnable example, and each runs with status 0")
    func helpExamples() throws {
        for subcommand in Tack.subcommands {
            let examples = Self.examples(subcommand.help)
            #expect(!examples.isEmpty, "tack \(subcommand.name) --help has no runnable example")
            for example in examples {
                let arguments = example.split(separator: " ").dropFirst().map(String.init)
                // A system directory or the shared vectors may be absent outside CI.
                if let path = arguments.last, path.hasPrefix("/") || path.hasPrefix("../"),
                   !FileManager.default.fileExists(atPath: path) { continue }
                let run = CLI.run(arguments)
                #expect(run.status == .success, "\(example): \(run.errors)")
            }
        }
    }

    @Test("the README's vector set-up steps fetch every shared folder the tests read")
    func readmeVectorSetUp() throws {
        var folders: Set<String> = ["wycheproof"]  // RepositoryPaths.wycheproof
        for directory in ["Tests", "Sources/TackTestSupport", "Sources/TackVectorSuites"] {
            let base = CLI.root + "/" + directory
            for file in FileManager.default.enumerator(atPath: base)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: base + "/" + file, encoding: .utf8)
                for part in text.components(separatedBy: "sharedVectors(\"").dropFirst() {
                    folders.insert(String(part.prefix { $0 != "/" && $0 != "\"" }))
                }
            }
        }
        let readme = try CLI.text("README.md")
        let start = try #require(readme.range(of: "### Where the third-party vectors come from"))
        let section = readme[start.upperBound...].prefix { _ in true }.components(separatedBy: "\n## ").first ?? ""
        for folder in folders.sorted() {
            #expect(section.contains("../shared/vectors/\(folder)/"), "README fetches no ../shared/vectors/\(folder)/")
        }
    }

    @Test("tack.1 is tack help --man, made from the same help texts: every command's USAGE is in it")
    func manPage() throws {
        let run = CLI.run(["help", "--man"])
        #expect(run.status == .success)
        #expect(run.output == (try CLI.text("Sources/tack/Documentation/tack.1")), "regenerate: swift run tack help --man > Sources/tack/Documentation/tack.1")
        #expect(run.output.hasPrefix(".\\\" Generated by `tack help --man`"))
        for subcommand in Tack.subcommands {
            #expect(run.output.contains(".SS tack \(subcommand.name)\n.nf\nUSAGE: tack \(subcommand.name)"), "\(subcommand.name)")
        }
        // Only the requests the page uses start a line (a help line starting with a
        // dot would otherwise be read as one).
        let requests = ["TH", "SH", "SS", "nf", "fi", "B ", "I ", "\\\""]
        let stray = run.output.split(separator: "\n").filter { line in
            line.hasPrefix(".") && !requests.contains { line.dropFirst().hasPrefix($0) }
        }
        #expect(stray.isEmpty, "\(stray)")
    }
}


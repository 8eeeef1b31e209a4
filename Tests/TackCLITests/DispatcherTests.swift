import Foundation
import Testing

@testable import tack

/// The dispatcher: exit statuses, usage errors with codes, help, the JSON error object.
@Suite("tack: dispatch, usage and help")
struct DispatcherTests {
    static let commands = ["pin", "show", "verify", "scan", "lint", "plist", "policy", "rotation", "vectors"]

    @Test("bare tack and an unknown command are usage errors with the top-level help on standard error")
    func bare() {
        let bare = CLI.run([])
        #expect(bare.status == .usage)
        #expect(bare.output.isEmpty)
        #expect(bare.errors.hasPrefix(topLevelHelp))
        let unknown = CLI.run(["frobnicate"])
        #expect(unknown.status == .usage)
        #expect(unknown.errors.hasPrefix("tack: unknown command frobnicate\n"))
        #expect(CLI.run(["help", "frobnicate"]).status == .usage)
    }

    @Test("help, version, and every command's --help and `tack help COMMAND`", arguments: commands)
    func help(command: String) throws {
        let subcommand = try #require(Tack.subcommands.first { $0.name == command })
        for arguments in [[command, "--help"], ["help", command]] {
            let run = CLI.run(arguments)
            #expect(run.status == .success)
            #expect(run.output == subcommand.help + "\n")
            #expect(run.errors.isEmpty)
        }
        #expect(subcommand.help.hasPrefix("USAGE: tack \(command)"))
    }

    @Test("tack help lists every exit status, 3 and 4 included")
    func exitStatuses() {
        let run = CLI.run(["help"])
        #expect(run.status == .success)
        for status in [ExitCode.success, .failure, .usage, .untrusted, .pinFailure] {
            #expect(run.output.contains("\n  \(status.rawValue)  "), "status \(status.rawValue)")
        }
        #expect(CLI.run(["version"]).output == "tack \(tackVersion)\n")
    }

    @Test("usage errors: status 2, the code, the command's usage on standard error", arguments: [
        (["pin", "--bogus", "x"], "usage"),
        (["pin"], "usage"),
        (["pin", "--format"], "usage"),
        (["pin", "--format", "yaml", "x"], "usage"),
        (["pin", "--raw-key", "x"], "usage"),
        (["show"], "usage"),
        (["show", "--now", "yesterday", "x"], "usage"),
        (["show", "--format", "xml", "x"], "usage"),
        (["scan", "--jobs", "0"], "usage"),
        (["lint"], "usage"),
        (["lint", "--disable", "no-such-rule", "x"], "usage"),
        (["lint", "--sarif", "--json", "x"], "usage"),
        (["vectors"], "usage"),
        (["plist", "Vectors/certs/chain-example.pem"], "usage"),
        (["plist", "--domain", "*.example.com", "Vectors/certs/chain-example.pem"], "host_wildcard"),
        (["plist", "--domain", "Example.com", "Vectors/certs/chain-example.pem"], "domain_not_a_key"),
        (["policy"], "usage"),
        (["policy", "convert", "--from", "okhttp", "--to", "json", "x"], "usage"),
        (["rotation", "policy.json"], "usage"),
        (["verify", "x.pem"], "usage"),
        (["verify", "--host", "https://example.com/", "x.pem"], "host_url"),
    ])
    func usageErrors(arguments: [String], code: String) throws {
        let run = CLI.run(arguments)
        #expect(run.status == .usage)
        #expect(run.failure?.code == code)
        #expect(run.errors.contains("\nUSAGE: tack \(arguments[0])"))
        if Tack.asksForJSON(arguments) {
            let document = try run.json()
            #expect(try Schema.load("error").problems(document) == [])
            #expect(document["error"]?["code"] == .string(code))
        } else {
            #expect(run.output.isEmpty)
        }
    }

    @Test("with --format json, a usage error is also a JSON error object on standard output", arguments: [
        ["pin", "--bogus", "x", "--json"], ["show", "--format", "json"], ["verify", "--json", "--host", "a..b", "x.pem"],
        ["scan", "--jobs", "0", "--json"], ["lint", "--format=json"],
    ])
    func jsonUsageError(arguments: [String]) throws {
        let run = CLI.run(arguments)
        #expect(run.status == .usage)
        let document = try run.json()
        #expect(try Schema.load("error").problems(document) == [])
        #expect(document["error"]?["code"]?.stringValue == run.failure?.code)
        #expect(document["error"]?["exit_status"] == .integer(2))
    }

    @Test("--json is looked for before parsing, and not after --")
    func asksForJSON() {
        #expect(Tack.asksForJSON(["--json"]))
        #expect(Tack.asksForJSON(["--format", "json"]))
        #expect(Tack.asksForJSON(["--format=json"]))
        #expect(!Tack.asksForJSON(["--format", "text"]))
        #expect(!Tack.asksForJSON(["--", "--json"]))
    }

    /// The commands of an EXAMPLES section (lines starting `tack `, continued with `\`);
    /// those with a pipe, a redirection or a substitution are left to the shell.
    static func examples(_ help: String) -> [[String]] {
        var commands: [[String]] = []
        var inExamples = false
        var pending = ""
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "EXAMPLES:" { inExamples = true; continue }
            guard inExamples else { continue }
            // The section ends at a blank line, or at a line that is not a command.
            if trimmed.isEmpty || (pending.isEmpty && !trimmed.hasPrefix("tack ") && !trimmed.hasPrefix("openssl ")) {
                inExamples = false
                continue
            }
            pending += pending.isEmpty ? trimmed : " " + trimmed
            if pending.hasSuffix("\\") {
                pending = String(pending.dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            if pending.hasPrefix("tack ") { commands.append(pending.split(separator: " ").dropFirst().map(String.init)) }
            pending = ""
        }
        return commands
    }

    @Test("every example of tack help and of each --help runs as printed (status 0 or a verdict)")
    func examplesRun() throws {
        var helps = [topLevelHelp]
        helps += Tack.subcommands.map(\.help)
        var ran = 0
        for help in helps {
            for example in DispatcherTests.examples(help) {
                if example.contains(where: { ["|", ">", "<"].contains($0) || $0.contains("$(") || $0.hasPrefix("\"") }) { continue }
                let run = CLI.run(example)
                #expect(run.status == .success, "tack \(example.joined(separator: " ")): \(run.errors)")
                ran += 1
            }
        }
        #expect(ran >= 15)
    }
}

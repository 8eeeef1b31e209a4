import Foundation
import Testing

@testable import tack

@Suite("tack completions, colour")
struct CompletionsColorTests {
    @Test("every shell's script names every command, and every offered option is one the command accepts",
          arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) {
        let run = CLI.run(["completions", shell])
        #expect(run.status == .success)
        for command in Tack.subcommands.map(\.name) + ["help", "version"] {
            #expect(run.output.contains(command), "\(command) in the \(shell) script")
        }
        #expect(CompletionsCommand.commands.map(\.name).sorted() == (Tack.subcommands.map(\.name) + ["help", "version"]).sorted())
        for subcommand in Tack.subcommands {
            for option in CompletionsCommand.options(subcommand.name) {
                let parsed = CLI.run([subcommand.name, option])
                #expect(parsed.failure.map { !$0.description.hasPrefix("unknown option") } ?? true, "tack \(subcommand.name) \(option)")
            }
        }
        #expect(CLI.run(["completions", "tcsh"]).status == .usage)
    }

    @Test("the bash script is valid bash", .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func bashSyntax() throws {
        let path = try InputTests.temporaryDirectory() + "/tack.bash"
        try CLI.run(["completions", "bash"]).output.write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("colour only on a terminal, off with NO_COLOR or TERM=dumb")
    func colorPolicy() {
        #expect(Console.colorAllowed(environment: [:], outputIsTerminal: true))
        #expect(!Console.colorAllowed(environment: [:], outputIsTerminal: false))
        #expect(!Console.colorAllowed(environment: ["NO_COLOR": "1"], outputIsTerminal: true))
        #expect(Console.colorAllowed(environment: ["NO_COLOR": ""], outputIsTerminal: true))
        #expect(!Console.colorAllowed(environment: ["TERM": "dumb"], outputIsTerminal: true))
    }

    @Test("coloured verdicts and lint severities; none in captured output")
    func colored() {
        let verify = ["verify", "--host", "www.example.com", "--roots", "Vectors/certs/chain-root.pem", "--at", "2026-06-01T00:00:00Z",
                      "Vectors/certs/chain-example.pem"]
        #expect(CLI.run(verify, color: true).output.hasPrefix("verdict: \u{1B}[1;32mtrusted\u{1B}[0m\n"))
        #expect(CLI.run(verify).output.hasPrefix("verdict: trusted\n"))
        let lint = CLI.run(["lint", "Vectors/lint/mistakes"], color: true)
        #expect(lint.output.contains(": \u{1B}[1;31merror\u{1B}[0m: "))
        #expect(lint.output.contains(": \u{1B}[1;33mwarning\u{1B}[0m: "))
        #expect(!CLI.run(["lint", "Vectors/lint/mistakes"]).output.contains("\u{1B}"))
    }
}

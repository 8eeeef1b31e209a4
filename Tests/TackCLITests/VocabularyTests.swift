import Foundation
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
}

import Foundation
import Testing

@testable import tack

/// The README's transcripts run as printed: every `$ tack …` line of a ```console
/// block (with its `\` continuation lines) is run in-process from the repository
/// root, and its standard output must be the lines that follow it, up to the next
/// `$ ` line; a following `$ echo $?` gives the exit status it must have.
@Suite("README examples")
struct ReadmeExampleTests {
    /// One transcript command: its arguments, the output printed under it, and the
    /// status printed by the `echo $?` after it (nil when there is none).
    struct Transcript {
        let line: Int
        let arguments: [String]
        let output: String
        let status: Int32?
    }

    /// The `tack` commands of the README's console blocks.
    static func transcripts(_ readme: String) -> [Transcript] {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [Transcript] = []
        var index = 0
        var inConsole = false
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                index += 1
                continue
            }
            guard inConsole, line.hasPrefix("$ tack ") else {
                index += 1
                continue
            }
            let start = index + 1
            var command = String(line.dropFirst(2))
            while command.hasSuffix("\\"), index + 1 < lines.count {
                index += 1
                command = String(command.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
            }
            index += 1
            var output: [String] = []
            while index < lines.count, !lines[index].hasPrefix("$ "), !lines[index].hasPrefix("```") {
                output.append(lines[index])
                index += 1
            }
            var status: Int32?
            if index + 1 < lines.count, lines[index] == "$ echo $?" {
                status = Int32(lines[index + 1])
                index += 2
            }
            let arguments = command.split(separator: " ").map(String.init).dropFirst()
            found.append(Transcript(
                line: start, arguments: Array(arguments), output: output.map { $0 + "\n" }.joined(), status: status))
        }
        return found
    }

    @Test("every `$ tack` transcript in README.md prints what the README shows, with its exit status")
    func transcriptsRunAsPrinted() throws {
        let readme = try CLI.text("README.md")
        let transcripts = Self.transcripts(readme)
        #expect(!transcripts.isEmpty, "README.md has no console transcript of tack")
        for transcript in transcripts {
            let run = CLI.run(transcript.arguments)
            #expect(run.output == transcript.output, "README.md:\(transcript.line): \(transcript.arguments.joined(separator: " "))")
            if let status = transcript.status {
                #expect(run.status.rawValue == status, "README.md:\(transcript.line): exit status")
            }
        }
    }
}

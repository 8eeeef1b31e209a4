// The command dispatcher: `Tack.run` takes the arguments and a console and returns
// the exit status. main.swift is the only place that exits.

import TackFormats
import TackTrust

let tackVersion = "0.1.0"

/// The exit statuses, as `tack help` and each command's help list them.
let exitStatusHelp = """
    EXIT STATUS (every command):
      0  success
      1  an input failed: unreadable or malformed, or a check found an error;
         fetch and --connect: a network or TLS failure
      2  usage error (unknown option, missing or malformed argument)
      3  verify: not trusted (path validation failed)
      4  verify: trusted, but the enforced pin check failed
    """

let topLevelHelp = """
    tack — certificate pins, chains and trust, in pure Swift

    USAGE: tack <command> [options]

    COMMANDS:
      pin          print the SPKI pin of each certificate or public key
      show         a readable dump of each certificate: names, validity, key, extensions, pins
      verify       validate a served chain to an anchor, then check a pin policy
      fetch        connect with TLS and print the chain the server serves (PEM or JSON)
      identity     open a PKCS #12 file (.p12/.pfx): identities, keys, chain, schemes
      scan         bulk mode: one JSON line per certificate, on every core
      lint         check Info.plist files and Swift sources for pinning and ATS mistakes
      plist        print the NSPinnedDomains entry for a chain, ready for an Info.plist
      policy       convert a pin policy: Tack JSON, NSPinnedDomains, TrustKit, OkHttp
      rotation     would today's and tomorrow's chains pass the pins? (rotation safety)
      vectors      run third-party test vectors through Tack's verifiers
      completions  print a completion script for bash, zsh or fish
      help         show this help (tack help COMMAND, or tack COMMAND --help; --man: tack.1)
      version      print the version

    The commands that print results take --format text|json (--json for short); JSON
    keys are snake_case, and with --format json a failure is also printed on standard
    output as {"error": {"code", "message", "exit_status"}}.

    EXAMPLES:
      tack pin Vectors/certs/chain-example.pem
      tack show --json Vectors/certs/chain-leaf.pem
      tack verify --host www.example.com --roots Vectors/certs/chain-root.pem --at 2026-06-01T00:00:00Z Vectors/certs/chain-example.pem
      tack fetch example.com | tack pin -
      tack scan Vectors/certs/chain-example.pem
      tack lint Vectors/lint/fixed
      tack plist Vectors/certs/chain-example.pem --domain example.com --include-subdomains

    \(exitStatusHelp)
    """

/// A subcommand: its name, its help (printed by --help) and its entry point.
struct Subcommand: Sendable {
    let name: String
    let help: String
    let run: @Sendable ([String], Console) throws(CLIError) -> ExitCode

    /// The help's first paragraph (its USAGE lines), printed after a usage error.
    var usage: String {
        var lines: [Substring] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) { break }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

enum Tack {
    static let subcommands: [Subcommand] = [
        Subcommand(name: "pin", help: PinCommand.help, run: PinCommand.run),
        Subcommand(name: "verify", help: VerifyCommand.help, run: VerifyCommand.run),
        Subcommand(name: "show", help: ShowCommand.help, run: ShowCommand.run),
        Subcommand(name: "fetch", help: FetchCommand.help, run: FetchCommand.run),
        Subcommand(name: "identity", help: IdentityCommand.help, run: IdentityCommand.run),
        Subcommand(name: "scan", help: ScanCommand.help, run: ScanCommand.run),
        Subcommand(name: "lint", help: LintCommand.help, run: LintCommand.run),
        Subcommand(name: "plist", help: PlistCommand.help, run: PlistCommand.run),
        Subcommand(name: "policy", help: PolicyCommand.help, run: PolicyCommand.run),
        Subcommand(name: "rotation", help: RotationCommand.help, run: RotationCommand.run),
        Subcommand(name: "vectors", help: VectorsCommand.help, run: VectorsCommand.run),
        Subcommand(name: "completions", help: CompletionsCommand.help, run: CompletionsCommand.run),
    ]

    /// Runs `tack ARGUMENTS` (without the program name), writing to `io`, and returns
    /// the exit status. A failure is printed as `tack: MESSAGE` on standard error
    /// (after a usage error, the command's usage too), and, when the arguments ask for
    /// JSON, as an error object on standard output.
    static func run(_ arguments: [String], io: Console) -> ExitCode {
        guard let command = arguments.first else {
            io.writeError(topLevelHelp + "\n")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            if rest == ["--man"] {
                io.emit(ManPage.render())
                return .success
            }
            // `tack help --help` asks for help about help: the top-level help.
            guard let name = rest.first, name != "--help", name != "-h" else {
                io.emit(topLevelHelp)
                return .success
            }
            guard let subcommand = subcommands.first(where: { $0.name == name }) else {
                io.warn("unknown command \(name); see tack help")
                return .usage
            }
            io.emit(subcommand.help)
            return .success
        case "version", "--version":
            io.emit("tack \(tackVersion)")
            return .success
        default:
            guard let subcommand = subcommands.first(where: { $0.name == command }) else {
                io.warn("unknown command \(command)")
                io.writeError(topLevelHelp + "\n")
                return .usage
            }
            do {
                return try subcommand.run(rest, io)
            } catch {
                io.failure = error
                io.warn(error.description)
                if error.isUsageError {
                    io.writeError(subcommand.usage + "\nSee tack \(subcommand.name) --help.\n")
                }
                if asksForJSON(rest) { io.emit(error.json.serialized()) }
                return error.status
            }
        }
    }

    /// Whether the arguments ask for JSON output (`--json`, `--format json`,
    /// `--format=json`), looked for before the command parses them so that even a usage
    /// error gets its JSON error object.
    static func asksForJSON(_ arguments: [String]) -> Bool {
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return false }
            if argument == "--json" || argument == "--format=json" { return true }
            if argument == "--format", index + 1 < arguments.count, arguments[index + 1] == "json" { return true }
        }
        return false
    }
}

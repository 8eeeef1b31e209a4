// tack: certificate pins, chains and trust, in pure Swift.

import Foundation

let topLevelHelp = """
    tack — certificate pins, chains and trust, in pure Swift

    USAGE: tack <command> [options]

    COMMANDS:
      pin        print the SPKI pin of each certificate or public key
      show       a readable dump of each certificate: names, validity, key, extensions, pins
      verify     validate a served chain to an anchor, then check a pin policy
      scan       bulk mode: one JSON line per certificate, on every core
      lint       check Info.plist files and Swift sources for pinning and ATS mistakes
      plist      print the NSPinnedDomains entry for a chain, ready for an Info.plist
      policy     convert a pin policy: Tack JSON, NSPinnedDomains, TrustKit, OkHttp
      rotation   would today's and tomorrow's chains pass the pins? (rotation safety)
      vectors    run third-party test vectors through Tack's verifiers
      help       show this help (tack help COMMAND, or tack COMMAND --help)
      version    print the version

    EXAMPLES:
      tack pin Vectors/certs/chain-example.pem
      tack show --json Vectors/certs/chain-leaf.pem
      tack verify --host www.example.com --roots Vectors/certs/chain-root.pem Vectors/certs/chain-example.pem
      tack scan /etc/ssl/certs/ca-certificates.crt > bundle.jsonl
      tack lint MyApp/
      tack plist chain.pem --domain example.com --include-subdomains
      tack vectors wycheproof ../shared/vectors/wycheproof/testvectors_v1/ecdsa_secp256r1_sha256_test.json

    Exit status: 0 on success, 1 when an input fails (or lint finds an error),
    2 on a usage error.
    """

let tackVersion = "0.1.0"

/// A subcommand: its name, its help (printed by --help) and its entry point.
struct Subcommand {
    let name: String
    let help: String
    let run: ([String]) throws(CLIError) -> Void

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

let subcommands: [Subcommand] = [
    Subcommand(name: "pin", help: PinCommand.help, run: PinCommand.run),
    Subcommand(name: "verify", help: VerifyCommand.help, run: VerifyCommand.run),
    Subcommand(name: "show", help: ShowCommand.help, run: ShowCommand.run),
    Subcommand(name: "scan", help: ScanCommand.help, run: ScanCommand.run),
    Subcommand(name: "lint", help: LintCommand.help, run: LintCommand.run),
    Subcommand(name: "plist", help: PlistCommand.help, run: PlistCommand.run),
    Subcommand(name: "policy", help: PolicyCommand.help, run: PolicyCommand.run),
    Subcommand(name: "rotation", help: RotationCommand.help, run: RotationCommand.run),
    Subcommand(name: "vectors", help: VectorsCommand.help, run: VectorsCommand.run),
]

/// Prints `text` to standard error (usage after a usage error goes there, not to
/// standard output, so a pipeline never reads it as data).
func emitError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else {
    emitError(topLevelHelp)
    exit(2)
}
let command = arguments.removeFirst()

switch command {
case "help", "--help", "-h":
    if let name = arguments.first {
        guard let subcommand = subcommands.first(where: { $0.name == name }) else {
            warn("unknown command \(name); see tack help")
            exit(2)
        }
        emit(subcommand.help)
    } else {
        emit(topLevelHelp)
    }
case "version", "--version":
    emit("tack \(tackVersion)")
default:
    guard let subcommand = subcommands.first(where: { $0.name == command }) else {
        warn("unknown command \(command)")
        emitError(topLevelHelp)
        exit(2)
    }
    do {
        try subcommand.run(arguments)
    } catch {
        warn(error.description)
        if error.isUsageError {
            emitError(subcommand.usage + "\nSee tack \(subcommand.name) --help.")
        }
        exit(error.status)
    }
}

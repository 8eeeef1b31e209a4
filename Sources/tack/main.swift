// tack: certificate pins, chains and trust, in pure Swift.

import Foundation

let topLevelHelp = """
    tack — certificate pins, chains and trust, in pure Swift

    USAGE: tack <command> [options]

    COMMANDS:
      pin        print the SPKI pin of each certificate or public key (tack pin --help)
      verify     validate a served chain to an anchor, then check a pin policy (tack verify --help)
      vectors    run third-party test vectors through Tack's verifiers (tack vectors --help)
      help       show this help
      version    print the version

    TEST VECTORS:
      tack vectors wycheproof FILE...
                 runs Wycheproof signature-verification files (ECDSA, Ed25519, RSA PKCS#1
                 v1.5, RSASSA-PSS; any curve, key size or hash) and compares each verdict
                 with the file's; prints per-file counts, skipped groups with the reason,
                 the tcIds of disagreements, and ends with `N passed, N failed`

    More commands (show, plist, rotation, lint, scan) are on the way.
    """

let tackVersion = "0.1.0"

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()

do throws(CLIError) {
    switch command {
    case "pin":
        try PinCommand.run(arguments)
    case "vectors":
        try VectorsCommand.run(arguments)
    case "verify":
        try VerifyCommand.run(arguments)
    case "help", "--help", "-h":
        emit(topLevelHelp)
    case "version", "--version":
        emit("tack \(tackVersion)")
    default:
        throw CLIError.usage("unknown command \(command); see tack help")
    }
} catch {
    warn(error.description)
    exit(error.status)
}

// `tack vectors wycheproof`: runs Wycheproof files (github.com/C2SP/wycheproof,
// `testvectors_v1`: signature verification, AES-CBC, HMAC, PBKDF2, PBES2, AES-GCM,
// P-256/P-384 ECDH) through
// Tack and compares every outcome with the file's. The runner, its one reading of
// `acceptable` and the per-file report are TackVectorSuites' (WycheproofRunner,
// WycheproofReport), shared with the test suites; this file prints and totals.

import TackVectorSuites

enum WycheproofCommand {
    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: [], switches: ["--help", "-h", "--verbose"])
        if args.isSet("--help") || args.isSet("-h") {
            io.emit(VectorsCommand.help)
            return .success
        }
        guard !args.operands.isEmpty else { throw .usage("tack vectors wycheproof needs at least one FILE") }
        let totals = runFiles(args.operands, verbose: args.isSet("--verbose"), io: io)
        emitTotals(totals, io: io)
        try check(totals)
        return .success
    }

    /// What the files added up to.
    struct Totals {
        var tally = WycheproofTally()
        var files = 0
        var unreadable = 0
    }

    /// Runs each file and prints its report; a file that cannot be run is reported
    /// and counted, and the others still run.
    static func runFiles(_ paths: [String], verbose: Bool, io: Console) -> Totals {
        var totals = Totals()
        for path in paths {
            do throws(WycheproofFileError) {
                let report = try WycheproofRunner.run(path: path)
                totals.files += 1
                totals.tally.add(report.tally)
                for line in report.lines(verbose: verbose) { io.emit(line) }
            } catch {
                totals.unreadable += 1
                io.emit(path)
                io.emit("  not run: \(error.description)")
                io.warn(error.description)
            }
        }
        return totals
    }

    /// The summary line and the last line, always `N passed, N failed`.
    static func emitTotals(_ totals: Totals, io: Console) {
        var line = "total: \(counted(totals.files, "file")) run"
        if totals.unreadable > 0 { line += ", \(totals.unreadable) not run" }
        line += "; \(totals.tally.acceptable.count) acceptable, \(counted(totals.tally.skippedVectors, "vector")) skipped"
        io.emit(line)
        io.emit("\(totals.tally.agreed) passed, \(totals.tally.disagreements.count) failed")
    }

    /// Status 1 for files not run (unreadable, as for every command) and for disagreements.
    static func check(_ totals: Totals) throws(CLIError) {
        if totals.unreadable > 0 {
            throw CLIError("\(counted(totals.unreadable, "file")) could not be run", code: "unreadable_input")
        }
        let count = totals.tally.disagreements.count
        if count > 0 {
            throw CLIError("\(count) vector\(count == 1 ? "" : "s") disagree\(count == 1 ? "s" : "") with Wycheproof")
        }
    }
}


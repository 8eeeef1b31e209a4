// `tack vectors limbo`: runs an x509-limbo suite (github.com/C2SP/x509-limbo) through
// TackTrust and writes the suite's `LimboResult` JSON. The case-to-evaluation mapping
// is TackVectorSuites' LimboHarness, which the conformance test uses too.

import TackFormats
import Foundation
import TackVectorSuites

enum LimboCommand {
    static let help = """
        USAGE: tack vectors limbo [--include GLOB]... [--exclude GLOB]... [--time-limit SECONDS]
                                  [--exceptions FILE] [FILE|-]

        Validates every case of an x509-limbo suite (default: standard input) with TackTrust,
        under the case's validation time, peer name, extended key usage, key usage, maximum
        chain depth, CRLs and validation kind (SERVER or CLIENT), and writes the harness
        contract's result document to standard output:
          {"version": 1, "harness": "tack-VERSION",
           "results": [{"id", "actual_result": "SUCCESS"|"FAILURE"|"SKIPPED", "context"}]}

        A case is SKIPPED only when it needs a limbo feature Tack deliberately does not
        implement (or an unknown one); `context` gives the reason. A case with no verdict
        within the time limit is a FAILURE with context `TIMEOUT`.

        Standard error: agreement with `expected_result` by id prefix, every disagreeing id
        (with Tack's reason), the cases listed as deliberate divergences in the exceptions
        file, and the plain last line `N passed, N failed, N skipped`.

        OPTIONS:
          --include GLOB       run only ids matching GLOB (`*`, `?`; repeatable, comma-separated)
          --exclude GLOB       skip ids matching GLOB (not reported at all)
          --time-limit S       seconds per case before TIMEOUT (default 10)
          --exceptions FILE    deliberate divergences (Vectors/limbo/exceptions.json) to mark
                               in the statistics

        Exit status: 0 if every evaluated case agrees (or is a listed divergence), 1 otherwise
        or when the suite cannot be read, 2 on a usage error.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--time-limit", "--exceptions", "--include", "--exclude"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        guard args.operands.count <= 1 else { throw .usage("tack vectors limbo takes one FILE (or - for standard input)") }
        let timeLimit = try self.timeLimit(args)
        var exceptions = LimboExceptions()
        if let path = try args.value("--exceptions") {
            exceptions = try read(path, what: "an exceptions file", io: io) { (bytes) throws(JSONShapeError) in
                try LimboExceptions(jsonBytes: bytes)
            }
        }
        let suite = try read(args.operands.first ?? "-", what: "a limbo suite", io: io) { (bytes) throws(JSONShapeError) in
            try LimboSuite(jsonBytes: bytes)
        }

        let selected = suite.testcases.filter { isSelected($0.id, args) }
        let now = Int64(Date().timeIntervalSince1970)
        var results: [LimboResult] = []
        var tally = LimboTally()
        for testCase in selected {
            let result = LimboHarness.evaluate(testCase, now: now, timeLimit: timeLimit)
            results.append(result)
            tally.record(result, expected: testCase.expected_result, exceptions: exceptions)
        }
        write(results, io: io)
        for line in tally.reportLines { io.writeError(line + "\n") }
        // The last line of standard error stays the plain count line.
        return tally.disagreements.isEmpty ? .success : .failure
    }

    /// `--time-limit` in seconds (default 10).
    static func timeLimit(_ args: Arguments) throws(CLIError) -> Double {
        guard let text = try args.value("--time-limit") else { return 10 }
        guard let value = Double(text), value > 0 else { throw .usage("--time-limit needs a positive number of seconds") }
        return value
    }

    /// Whether `id` passes `--include` and `--exclude` (each repeatable, each value
    /// a comma-separated list of globs).
    static func isSelected(_ id: String, _ args: Arguments) -> Bool {
        let includes = args.values("--include").flatMap { $0.split(separator: ",").map(String.init) }
        let excludes = args.values("--exclude").flatMap { $0.split(separator: ",").map(String.init) }
        if !includes.isEmpty, !includes.contains(where: { LimboHarness.glob($0, matches: id) }) { return false }
        return !excludes.contains(where: { LimboHarness.glob($0, matches: id) })
    }

    /// The JSON document at `path` (`-`: standard input) read by `reader`; status 1 when
    /// it cannot be read or is not `what`.
    static func read<Document>(
        _ path: String, what: String, io: Console, _ reader: ([UInt8]) throws(JSONShapeError) -> Document
    ) throws(CLIError) -> Document {
        let bytes = try readInput(path, io: io)
        do {
            return try reader(bytes)
        } catch {
            throw CLIError("\(path): not \(what): \(error)", code: "not_json")
        }
    }

    /// The result document, on standard output: x509-limbo's `LimboResult` schema,
    /// members in sorted order, `context` only where there is one.
    static func write(_ results: [LimboResult], io: Console) {
        let entries: [JSONValue] = results.map { result in
            var fields: [(String, JSONValue)] = [("actual_result", .string(result.actual_result.rawValue))]
            if let context = result.context { fields.append(("context", .string(context))) }
            fields.append(("id", .string(result.id)))
            return .object(fields)
        }
        let document = JSONValue.object([
            ("harness", .string("tack-\(tackVersion)")), ("results", .array(entries)), ("version", .int(1)),
        ])
        io.writeOutput(document.serialized() + "\n")
    }
}

// Certificate Transparency on the command line: `--ct-log-list`, `--ct-policy` and
// `--sct-list` of `tack verify`, and the SCT lines of `tack verify` and `tack show`.

import TackFormats
import TackDER
import TackTrust
import TackX509

enum CTOptions {
    /// The valued options `verify` and `show` take for CT.
    static let valued = ["--ct-log-list", "--ct-policy", "--sct-list"]

    /// Reads a log list file (status 1 when unreadable or malformed).
    static func readLogList(_ path: String, io: Console) throws(CLIError) -> CTLogList {
        let json = try readInput(path, io: io)
        do {
            return try CTLogList(json: json)
        } catch {
            throw CLIError("\(path): \(error) [\(error.code)]", code: error.code)
        }
    }

    /// The requirement `--ct-log-list FILE [--ct-policy apple|chrome] [--sct-list FILE]…
    /// [--ct-enforce-stale]` asks for, or `nil` without `--ct-log-list`.
    static func requirement(_ args: Arguments, io: Console) throws(CLIError) -> CTRequirement? {
        let policyText = try args.value("--ct-policy")
        guard let path = try args.value("--ct-log-list") else {
            if policyText != nil || !args.values("--sct-list").isEmpty || args.isSet("--ct-enforce-stale") {
                throw .usage("--ct-policy, --sct-list and --ct-enforce-stale need --ct-log-list FILE")
            }
            return nil
        }
        var policy = CTPolicy.apple
        if let policyText {
            guard let named = CTPolicy.allCases.first(where: { $0.description == policyText }) else {
                throw .usage("--ct-policy takes apple or chrome, not \(policyText)")
            }
            policy = named
        }
        var lists: [[UInt8]] = []
        for listPath in args.values("--sct-list") { lists.append(try readInput(listPath, io: io)) }
        return CTRequirement(
            logList: try readLogList(path, io: io), policy: policy, tlsSCTLists: lists,
            enforcesStaleList: args.isSet("--ct-enforce-stale"))
    }

    /// The `ct` object of `verify --format json`.
    static func json(_ evaluation: CTEvaluation?) -> JSONValue {
        guard let evaluation else { return .null }
        return .object([
            ("policy", .string(evaluation.policy.description)),
            ("compliant", .bool(evaluation.isCompliant)),
            ("failure", evaluation.failure.map { .object([("code", .string($0.code)), ("message", .string($0.description))]) } ?? .null),
            ("log_list_timestamp", .optional(evaluation.logListTimestamp.map(RFC3339.format))),
            ("stale", .bool(evaluation.isStale)),
            ("scts", .array(evaluation.scts.map(sctJSON))),
        ])
    }

    static func sctJSON(_ report: SCTReport) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("log_id", .optional(report.sct.map { Base64.encode($0.logID) })),
            ("log_description", .optional(report.log?.description)),
            ("operator", .optional(report.log?.operatorName)),
            ("source", .string(report.source.rawValue)),
            ("timestamp", .optional(report.sct.map { RFC3339.format($0.timestampSeconds) })),
            ("status", .string(report.status.rawValue)),
        ]
        if let error = report.decodingError {
            fields.append(("reason", .object([("code", .string(error.code)), ("message", .string(error.description))])))
        }
        return .object(fields)
    }

    /// The text lines of `verify`: the verdict, the list's date, and one line per SCT.
    static func text(_ evaluation: CTEvaluation, io: Console) -> [String] {
        let verdict = evaluation.failure.map { io.colored("NOT COMPLIANT", .red) + ": \($0) [\($0.code)]" } ?? io.colored("compliant", .green)
        let listDate = evaluation.logListTimestamp.map(RFC3339.format) ?? "no timestamp"
        var lines = [
            "certificate transparency (\(evaluation.policy) policy, \(evaluation.lifetimeDays)-day certificate): " + verdict,
            "  log list of \(listDate)" + (evaluation.isStale ? ", " + io.colored("stale", .yellow) + " (over 70 days old)" : ""),
        ]
        for report in evaluation.scts { lines.append("  - " + sctLine(report)) }
        return lines
    }

    /// `SOURCE STATUS log DESCRIPTION (OPERATOR) ID at TIME`, or the decoding error.
    static func sctLine(_ report: SCTReport) -> String {
        guard let sct = report.sct else {
            return "\(report.source) \(report.status): \(report.decodingError.map { "\($0) [\($0.code)]" } ?? "")"
        }
        let log = report.log.map { "\($0.description) (\($0.operatorName)) " } ?? ""
        return "\(report.source) \(report.status): log \(log)\(Base64.encode(sct.logID)) at \(RFC3339.format(sct.timestampSeconds))"
    }

    /// The embedded SCT lines of `show`: log ID, timestamp and signature algorithm, and
    /// with a log list each SCT's log and status (checked against `issuer` when given,
    /// else only the log is looked up).
    static func showLines(_ certificate: Certificate, issuer: Certificate?, logList: CTLogList?, time: Int64) -> [String] {
        let list: SignedCertificateTimestampList
        do {
            guard let found = try certificate.signedCertificateTimestamps else { return [] }
            list = found
        } catch {
            return ["  malformed SCT list: \(error) [\(error.code)]"]
        }
        if let logList, let issuer {
            let requirement = CTRequirement(logList: logList)
            let evaluation = CTEvaluation(leaf: certificate, issuer: issuer, stapledResponses: [], requirement: requirement, at: time)
            return evaluation.scts.map { "  " + sctLine($0) }
        }
        return list.entries.map { entry in
            switch entry {
            case .failure(let error): return "  malformed: \(error) [\(error.code)]"
            case .success(let sct):
                var line = "  log \(Base64.encode(sct.logID)) at \(RFC3339.format(sct.timestampSeconds)), \(sct.signatureAlgorithm)"
                if let logList {
                    line += logList.log(id: sct.logID).map { " — \($0.description) (\($0.operatorName)), state \($0.state?.description ?? "none")" }
                        ?? " — unknown_log"
                    line += " (not verified: the issuer is not among the FILEs)"
                }
                return line
            }
        }
    }
}

// `tack lint`'s outputs besides the compiler-style lines: the SARIF 2.1.0 log and the
// JSON document, both built as JSONValue.

import TackFormats
import Foundation

/// A SARIF 2.1.0 log (OASIS SARIF v2.1.0, §3.13 sarifLog, §3.14 run, §3.27 result):
/// one run, the tool's rules with their default levels, one result per finding with
/// ruleId, ruleIndex, level, message and a physical location, and one invocation
/// (§3.20) whose tool execution notifications (§3.20.21, §3.58) name each input that
/// could not be checked; `executionSuccessful` is false when there is one.
func sarifLog(_ report: LintReport) -> JSONValue {
    let rules = LintRule.allCases
    let ruleObjects: [JSONValue] = rules.map { rule in
        .object([
            ("id", .string(rule.rawValue)),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("defaultConfiguration", .object([("level", .string(rule.severity.rawValue))])),
        ])
    }
    let results: [JSONValue] = report.findings.map { finding in
        .object([
            ("ruleId", .string(finding.rule.rawValue)),
            ("ruleIndex", .int(rules.firstIndex(of: finding.rule) ?? 0)),
            ("level", .string(finding.rule.severity.rawValue)),
            ("message", .object([("text", .string(finding.message))])),
            ("locations", .array([.object([
                ("physicalLocation", .object([
                    ("artifactLocation", .object([("uri", .string(sarifURI(finding.path)))])),
                    // SARIF 2.1.0 §3.30: a binary file's region is a byte offset.
                    ("region", .object(finding.byteOffset.map { [("byteOffset", .int($0))] }
                        ?? [("startLine", .int(finding.line)), ("startColumn", .int(finding.column))])),
                ])),
            ])])),
        ])
    }
    let notifications: [JSONValue] = report.problems.map { problem in
        .object([
            ("level", .string("error")),
            ("message", .object([("text", .string(problem.description))])),
            ("descriptor", .object([("id", .string(problem.code))])),
        ])
    }
    let invocation = JSONValue.object([
        ("executionSuccessful", .bool(report.problems.isEmpty)),
        ("toolExecutionNotifications", .array(notifications)),
    ])
    // SARIF's own property names are camelCase (the standard's, not Tack's keys).
    return .object([
        ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
        ("version", .string("2.1.0")),
        ("runs", .array([.object([
            ("tool", .object([("driver", .object([
                ("name", .string("tack")), ("version", .string(tackVersion)), ("rules", .array(ruleObjects)),
            ]))])),
            ("invocations", .array([invocation])),
            ("results", .array(results)),
        ])])),
    ])
}

/// A relative URI reference for a path (RFC 3986: spaces and `%` escaped).
private func sarifURI(_ path: String) -> String {
    var trimmed = path
    while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
    return trimmed.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? trimmed
}

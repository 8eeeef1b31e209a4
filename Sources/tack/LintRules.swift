// `tack lint`'s rules, findings and `tack-lint:disable` suppressions, shared by the
// property-list rules (LintPlistRules.swift), the Swift rules (LintSwiftRules.swift)
// and the outputs (LintOutput.swift).

import TackFormats

enum LintSeverity: String {
    case error
    case warning
}

enum LintRule: String, CaseIterable {
    case atsArbitraryLoads = "ats-arbitrary-loads"
    case pinBackupMissing = "pin-backup-missing"
    case pinMalformed = "pin-malformed"
    case pinUnknownKey = "pin-unknown-key"
    case pinWildcardDomain = "pin-wildcard-domain"
    case pinDuplicate = "pin-duplicate"
    case pinDuplicateDomain = "pin-duplicate-domain"
    case pinLeafOnly = "pin-leaf-only"
    case atsKeyMisspelt = "ats-key-misspelt"
    case atsUnknownKey = "ats-unknown-key"
    case atsInsecureException = "ats-insecure-exception"
    case deprecatedTrustAPI = "deprecated-trust-api"
    case sslPolicyNilHost = "ssl-policy-nil-host"
    case systemAnchorsDisabled = "system-anchors-disabled"
    case spkiHeaderMissing = "spki-header-missing"
    case credentialWithoutTrust = "credential-without-trust"
    case trustResultIgnored = "trust-result-ignored"
    case trustEvaluatorDisabled = "trust-evaluator-disabled"
    case pkcs12PassphraseLiteral = "pkcs12-passphrase-literal"
    case bundledIdentity = "bundled-identity"

    var severity: LintSeverity {
        switch self {
        case .deprecatedTrustAPI, .bundledIdentity, .pinDuplicate, .pinLeafOnly, .atsUnknownKey: .warning
        default: .error
        }
    }

    /// One line for SARIF's rule metadata.
    var summary: String {
        switch self {
        case .atsArbitraryLoads: "App Transport Security disabled by NSAllowsArbitraryLoads (or …ForMedia, …InWebContent)"
        case .pinBackupMissing: "An NSPinnedDomains rule without a backup pin"
        case .pinMalformed: "An SPKI-SHA256-BASE64 pin that is not 32 bytes of Base64"
        case .pinUnknownKey: "A key that App Transport Security does not know in NSPinnedDomains"
        case .pinWildcardDomain: "A wildcard domain key in NSPinnedDomains, which ATS does not support"
        case .pinDuplicate: "A pin listed twice in an NSPinnedDomains list (compared by digest): one key, no backup"
        case .pinDuplicateDomain: "Two NSPinnedDomains keys for one domain (they differ only in case)"
        case .pinLeafOnly: "An NSPinnedDomains rule with leaf pins only: every leaf key rotation needs an app update"
        case .atsKeyMisspelt: "A near-miss spelling of an App Transport Security key (NSAppTransportSecurity, NSPinnedDomains, …), which ATS ignores"
        case .atsUnknownKey: "A key App Transport Security does not define where it stands"
        case .atsInsecureException: "An NSExceptionDomains entry allowing plain HTTP, arbitrary loads or TLS below 1.2"
        case .deprecatedTrustAPI: "A deprecated SecTrust call"
        case .sslPolicyNilHost: "SecPolicyCreateSSL with a nil host name"
        case .systemAnchorsDisabled: "Custom anchors that silently disable the system anchors"
        case .spkiHeaderMissing: "A pin hashed from a raw key without its SubjectPublicKeyInfo header"
        case .credentialWithoutTrust: "A server-trust challenge answered with a credential before the trust is evaluated"
        case .trustResultIgnored: "A trust evaluation whose result is ignored before the challenge is answered with a credential"
        case .trustEvaluatorDisabled: "Alamofire's DisabledTrustEvaluator, which accepts any certificate"
        case .pkcs12PassphraseLiteral: "A PKCS #12 passphrase as a string literal"
        case .bundledIdentity: "A PKCS #12 identity (.p12, .pfx) in the source tree, where it ships in the app"
        }
    }
}

struct LintFinding {
    var rule: LintRule
    var path: String
    var line: Int
    var column: Int
    /// In a binary plist, which has no lines, where the finding is (`line` and
    /// `column` are then 0); `nil` in text files.
    var byteOffset: Int? = nil
    var message: String

    var compilerStyle: String { compilerStyle(io: nil) }

    /// `path:line:column: error|warning: message [rule]` (`path: byte N: ...` in a
    /// binary plist), the severity coloured when `io` uses colour.
    func compilerStyle(io: Console?) -> String {
        let severity = io?.colored(rule.severity.rawValue, rule.severity == .error ? .red : .yellow) ?? rule.severity.rawValue
        let place = byteOffset.map { " byte \($0)" } ?? "\(line):\(column)"
        return "\(path):\(place): \(severity): \(message) [\(rule.rawValue)]"
    }
}

/// `tack-lint:disable` directives found in comments.
struct LintSuppressions {
    /// Rule ids silenced in the whole file.
    var file = Set<String>()
    /// Rule ids silenced per line.
    var lines: [Int: Set<String>] = [:]

    /// Reads a directive from a comment spanning `line...endLine`: it silences its
    /// rules on those lines and the next.
    mutating func read(comment: Substring, line: Int, endLine: Int) {
        for (marker, wholeFile) in [("tack-lint:disable-file", true), ("tack-lint:disable", false)] {
            guard let range = comment.range(of: marker) else { continue }
            let rest = comment[range.upperBound...]
            guard rest.first == " " || rest.first == "\t" else { continue }
            let ids = rest.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" })
                .map(String.init).filter { LintRule(rawValue: $0) != nil }
            if wholeFile {
                file.formUnion(ids)
            } else {
                for silenced in line...(endLine + 1) { lines[silenced, default: []].formUnion(ids) }
            }
            return
        }
    }

    func allows(_ finding: LintFinding) -> Bool {
        !file.contains(finding.rule.rawValue) && !(lines[finding.line]?.contains(finding.rule.rawValue) ?? false)
    }
}


func suppress(_ findings: [LintFinding], _ suppressions: LintSuppressions) -> [LintFinding] {
    findings.filter(suppressions.allows)
}

/// What one `tack lint` run found: the findings, the files checked, and each input
/// that could not be checked.
struct LintReport {
    var findings: [LintFinding] = []
    var fileCount = 0
    var problems: [CLIError] = []

    var errorCount: Int { findings.filter { $0.rule.severity == .error }.count }

    /// `--format json`: findings and problems, snake_case keys.
    var json: JSONValue {
        .object([
            ("findings", .array(findings.map { finding in
                .object([("rule", .string(finding.rule.rawValue)), ("level", .string(finding.rule.severity.rawValue)),
                         ("path", .string(finding.path))]
                        + (finding.byteOffset.map { [("byte_offset", .int($0))] }
                            ?? [("line", .int(finding.line)), ("column", .int(finding.column))])
                        + [("message", .string(finding.message))])
            })),
            ("files_checked", .int(fileCount)),
            ("errors", .array(problems.map(PinCommand.errorRecord))),
        ])
    }
}

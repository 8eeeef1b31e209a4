// `tack lint`: CI guardrails for App Transport Security settings in Info.plist files
// and for trust-evaluation mistakes in Swift sources.

import Foundation
import TackDER
import TackTrust

enum LintCommand {
    static let help = """
        USAGE: tack lint [--sarif] [--disable RULE]... PATH...

        Checks the Info.plist files (any *.plist named on the command line, and files named
        Info.plist or *-Info.plist found under directories) and the Swift sources (*.swift)
        for pinning and App Transport Security mistakes. Prints each finding as compilers do:
          path:line:column: error|warning: message [rule-id]

        RULES (error unless marked):
          ats-arbitrary-loads       NSAllowsArbitraryLoads, …ForMedia or …InWebContent set to true
          pin-backup-missing        an NSPinnedDomains rule with fewer than two pins in a list
          pin-malformed             an SPKI-SHA256-BASE64 value that is not 32 bytes of Base64
          pin-unknown-key           an NSPinnedDomains key ATS does not know (a typo disables it)
          deprecated-trust-api      warning: SecTrustEvaluate(, SecTrustGetCertificateAtIndex(,
                                    SecTrustCopyPublicKey(
          ssl-policy-nil-host       SecPolicyCreateSSL( with a nil host: no host name check
          system-anchors-disabled   SecTrustSetAnchorCertificates( with no
                                    SecTrustSetAnchorCertificatesOnly( in the same file
          spki-header-missing       a pin hashed from SecKeyCopyExternalRepresentation output in
                                    a function that never prepends an SPKI header
          credential-without-trust  completionHandler(.useCredential …) in a function that never
                                    evaluates the trust (SecTrustEvaluateWithError or a call
                                    whose name contains "evaluate")
          pkcs12-passphrase-literal a string literal as the SecPKCS12Import passphrase

        The Swift checks are lexical: they never fire inside comments or string literals
        (except pkcs12-passphrase-literal, which is about literals).

        OPTIONS:
          --sarif          print a SARIF 2.1.0 log instead (for code-scanning annotations)
          --disable RULE   skip a rule (repeatable)

        In a source, a comment `tack-lint:disable RULE` (Swift: // …, plist: <!-- … -->)
        silences RULE on its own line and the next; `tack-lint:disable-file RULE` in the
        whole file. Several rules may be separated by commas.

        EXAMPLES:
          tack lint MyApp/
          tack lint --sarif MyApp/ > tack.sarif
          tack lint --disable deprecated-trust-api Sources/Networking/PinningDelegate.swift

        Exit status: 0 when no error is found (warnings allowed), 1 when one is (or a path
        cannot be read), 2 on a usage error.
        """

    static func run(_ arguments: [String]) throws(CLIError) {
        let args = try Arguments(arguments, valued: ["--disable"], switches: ["--sarif"])
        if args.wantsHelp {
            emit(help)
            return
        }
        guard !args.operands.isEmpty else { throw .usage("tack lint needs at least one PATH") }
        var disabled = Set<String>()
        for value in args.values("--disable") {
            for name in value.split(separator: ",").map(String.init) {
                guard LintRule(rawValue: name) != nil else {
                    throw .usage("unknown rule \(name) (\(LintRule.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                disabled.insert(name)
            }
        }
        var findings: [LintFinding] = []
        var unreadable = 0
        var fileCount = 0
        for path in args.operands {
            let files: [String]
            do {
                files = try lintFiles(under: path)
            } catch {
                warn(error.description)
                unreadable += 1
                continue
            }
            for file in files {
                guard let bytes = readInputOrWarn(file) else {
                    unreadable += 1
                    continue
                }
                fileCount += 1
                let found = file.hasSuffix(".swift") ? lintSwift(bytes, path: file) : lintPlist(bytes, path: file)
                findings += found.filter { !disabled.contains($0.rule.rawValue) }
            }
        }
        if args.isSet("--sarif") {
            emit(sarifLog(findings))
        } else {
            for finding in findings { emit(finding.compilerStyle) }
        }
        let errors = findings.filter { $0.rule.severity == .error }.count
        let warnings = findings.count - errors
        if !args.isSet("--sarif"), !findings.isEmpty {
            warn("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s") in \(fileCount) file\(fileCount == 1 ? "" : "s")")
        }
        if unreadable > 0 { throw CLIError("\(unreadable) path\(unreadable == 1 ? "" : "s") could not be read") }
        if errors > 0 { exit(1) }
    }

    /// The files to lint for one operand: the file itself, or the Info.plist and Swift
    /// files under a directory (hidden directories and `.build` skipped), sorted.
    static func lintFiles(under path: String) throws(CLIError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("\(path): \(systemReason(ENOENT))")
        }
        guard isDirectory.boolValue else {
            guard path.hasSuffix(".swift") || path.hasSuffix(".plist") else {
                throw CLIError("\(path): not a Swift source or property list (.swift, .plist)")
            }
            return [path]
        }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw CLIError("\(path): cannot list the directory")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name == ".build" || name == "DerivedData" {
                enumerator.skipDescendants()
                continue
            }
            if name.hasSuffix(".swift") || name == "Info.plist" || name.hasSuffix("-Info.plist") {
                files.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
            }
        }
        return files.sorted()
    }
}

// MARK: - Rules and findings

enum LintSeverity: String {
    case error
    case warning
}

enum LintRule: String, CaseIterable {
    case atsArbitraryLoads = "ats-arbitrary-loads"
    case pinBackupMissing = "pin-backup-missing"
    case pinMalformed = "pin-malformed"
    case pinUnknownKey = "pin-unknown-key"
    case deprecatedTrustAPI = "deprecated-trust-api"
    case sslPolicyNilHost = "ssl-policy-nil-host"
    case systemAnchorsDisabled = "system-anchors-disabled"
    case spkiHeaderMissing = "spki-header-missing"
    case credentialWithoutTrust = "credential-without-trust"
    case pkcs12PassphraseLiteral = "pkcs12-passphrase-literal"

    var severity: LintSeverity {
        switch self {
        case .deprecatedTrustAPI: .warning
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
        case .deprecatedTrustAPI: "A deprecated SecTrust call"
        case .sslPolicyNilHost: "SecPolicyCreateSSL with a nil host name"
        case .systemAnchorsDisabled: "Custom anchors that silently disable the system anchors"
        case .spkiHeaderMissing: "A pin hashed from a raw key without its SubjectPublicKeyInfo header"
        case .credentialWithoutTrust: "A server-trust challenge answered with a credential before the trust is evaluated"
        case .pkcs12PassphraseLiteral: "A PKCS #12 passphrase as a string literal"
        }
    }
}

struct LintFinding {
    var rule: LintRule
    var path: String
    var line: Int
    var column: Int
    var message: String

    var compilerStyle: String {
        "\(path):\(line):\(column): \(rule.severity.rawValue): \(message) [\(rule.rawValue)]"
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

// MARK: - Info.plist

/// The keys ATS reads in an NSPinnedDomains rule and in a pin (Apple's Information
/// Property List reference, NSPinnedDomains).
private let pinnedDomainKeys: Set<String> = ["NSIncludesSubdomains", "NSPinnedCAIdentities", "NSPinnedLeafIdentities"]
private let pinKeys: Set<String> = ["SPKI-SHA256-BASE64"]

func lintPlist(_ bytes: [UInt8], path: String) -> [LintFinding] {
    var findings: [LintFinding] = []
    let root: PropertyListValue
    do {
        root = try PropertyList.parse(bytes)
    } catch {
        // Not a finding of a rule: the file cannot be checked at all.
        warn("\(path):\(error.location.line):\(error.location.column): not a readable XML property list: \(error)")
        return []
    }
    func add(_ rule: LintRule, _ location: TextLocation, _ message: String) {
        findings.append(LintFinding(rule: rule, path: path, line: location.line, column: location.column, message: message))
    }
    guard let ats = root.dictionaryValue?.entry(for: "NSAppTransportSecurity"), let settings = ats.value.dictionaryValue else {
        return suppress(findings, plistComments(bytes))
    }
    for key in ["NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent"] {
        if let entry = settings.entry(for: key), entry.value.booleanValue == true {
            add(.atsArbitraryLoads, entry.location, "\(key) is true: App Transport Security is off for \(key == "NSAllowsArbitraryLoads" ? "every connection" : key == "NSAllowsArbitraryLoadsForMedia" ? "media" : "web views")")
        }
    }
    if let pinned = settings.entry(for: "NSPinnedDomains") {
        guard let domains = pinned.value.dictionaryValue else {
            add(.pinMalformed, pinned.location, "NSPinnedDomains is a \(pinned.value.typeName), not a dict")
            return suppress(findings, plistComments(bytes))
        }
        for domain in domains.entries {
            guard let rule = domain.value.dictionaryValue else {
                add(.pinMalformed, domain.location, "the rule for \(domain.key) is a \(domain.value.typeName), not a dict")
                continue
            }
            for entry in rule.entries where !pinnedDomainKeys.contains(entry.key) {
                add(.pinUnknownKey, entry.location, "unknown key \(entry.key) in the rule for \(domain.key) (ATS ignores it)")
            }
            if let flag = rule.entry(for: "NSIncludesSubdomains"), flag.value.booleanValue == nil {
                add(.pinMalformed, flag.location, "NSIncludesSubdomains is a \(flag.value.typeName), not a Boolean")
            }
            let lists = ["NSPinnedCAIdentities", "NSPinnedLeafIdentities"].compactMap { rule.entry(for: $0) }
            if lists.isEmpty {
                add(.pinBackupMissing, domain.location, "the rule for \(domain.key) has no NSPinnedCAIdentities or NSPinnedLeafIdentities")
            }
            for list in lists {
                guard let pins = list.value.arrayValue else {
                    add(.pinMalformed, list.location, "\(list.key) is a \(list.value.typeName), not an array")
                    continue
                }
                if pins.count < 2 {
                    add(.pinBackupMissing, list.location,
                        "\(list.key) for \(domain.key) has \(pins.count) pin\(pins.count == 1 ? "" : "s"): add a backup pin (a key not yet in use) so a key rotation does not lock users out")
                }
                for (index, pin) in pins.enumerated() {
                    guard let pinDictionary = pin.dictionaryValue else {
                        add(.pinMalformed, list.location, "pin #\(index + 1) of \(list.key) for \(domain.key) is a \(pin.typeName), not a dict with SPKI-SHA256-BASE64")
                        continue
                    }
                    for entry in pinDictionary.entries where !pinKeys.contains(entry.key) {
                        add(.pinUnknownKey, entry.location, "unknown key \(entry.key) in a pin for \(domain.key) (ATS knows only SPKI-SHA256-BASE64)")
                    }
                    guard let value = pinDictionary.entry(for: "SPKI-SHA256-BASE64") else {
                        add(.pinMalformed, list.location, "pin #\(index + 1) of \(list.key) for \(domain.key) has no SPKI-SHA256-BASE64")
                        continue
                    }
                    if let problem = pinProblem(value.value) {
                        add(.pinMalformed, value.location, "SPKI-SHA256-BASE64 for \(domain.key) \(problem)")
                    }
                }
            }
        }
    }
    return suppress(findings, plistComments(bytes))
}

/// Why a pin value is not 32 bytes of Base64, or `nil` if it is.
private func pinProblem(_ value: PropertyListValue) -> String? {
    guard let text = value.stringValue else { return "is a \(value.typeName), not a string" }
    guard let bytes = try? Base64.decode(text) else {
        if text.hasPrefix("sha256/") { return "has the OkHttp prefix sha256/: ATS wants the bare Base64" }
        return "is not Base64: \(text)"
    }
    guard bytes.count == 32 else { return "decodes to \(bytes.count) bytes, not the 32 of a SHA-256 digest" }
    return nil
}

/// The suppressions in a property list's `<!-- … -->` comments.
private func plistComments(_ bytes: [UInt8]) -> LintSuppressions {
    var suppressions = LintSuppressions()
    let text = String(decoding: bytes, as: UTF8.self)
    var line = 1
    var searchFrom = text.startIndex
    while let open = text.range(of: "<!--", range: searchFrom..<text.endIndex) {
        line += text[searchFrom..<open.lowerBound].filter { $0 == "\n" }.count
        guard let close = text.range(of: "-->", range: open.upperBound..<text.endIndex) else { break }
        let body = text[open.upperBound..<close.lowerBound]
        let endLine = line + body.filter { $0 == "\n" }.count
        suppressions.read(comment: body, line: line, endLine: endLine)
        line = endLine
        searchFrom = close.upperBound
    }
    return suppressions
}

private func suppress(_ findings: [LintFinding], _ suppressions: LintSuppressions) -> [LintFinding] {
    findings.filter(suppressions.allows)
}

// MARK: - Swift

func lintSwift(_ bytes: [UInt8], path: String) -> [LintFinding] {
    let lexer = SwiftLexer(String(decoding: bytes, as: UTF8.self))
    let tokens = lexer.tokens
    var findings: [LintFinding] = []
    func add(_ rule: LintRule, _ token: SwiftToken, _ message: String) {
        findings.append(LintFinding(rule: rule, path: path, line: token.line, column: token.column, message: message))
    }
    func isCall(_ index: Int, _ name: String) -> Bool {
        tokens[index].kind == .identifier && tokens[index].text == name
            && index + 1 < tokens.count && tokens[index + 1].text == "("
    }
    /// The index of the parenthesis that closes the one at `open`.
    func closing(_ open: Int) -> Int {
        var depth = 0
        var index = open
        while index < tokens.count {
            if tokens[index].text == "(" || tokens[index].text == "[" { depth += 1 }
            if tokens[index].text == ")" || tokens[index].text == "]" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return tokens.count - 1
    }

    let bodies = functionBodies(tokens)
    func body(containing index: Int) -> Range<Int> {
        bodies.filter { $0.contains(index) }.min { $0.count < $1.count } ?? 0..<tokens.count
    }
    let hasAnchorsOnly = tokens.indices.contains { isCall($0, "SecTrustSetAnchorCertificatesOnly") }
    let hasPKCS12Import = tokens.contains { $0.kind == .identifier && $0.text == "SecPKCS12Import" }

    for index in tokens.indices where tokens[index].kind == .identifier {
        let token = tokens[index]
        switch token.text {
        case "SecTrustEvaluate", "SecTrustGetCertificateAtIndex", "SecTrustCopyPublicKey":
            guard isCall(index, String(token.text)) else { break }
            let replacement = switch token.text {
            case "SecTrustEvaluate": "SecTrustEvaluateWithError"
            case "SecTrustGetCertificateAtIndex": "SecTrustCopyCertificateChain"
            default: "SecTrustCopyKey"
            }
            add(.deprecatedTrustAPI, token, "\(token.text) is deprecated: use \(replacement)")
        case "SecPolicyCreateSSL":
            guard isCall(index, "SecPolicyCreateSSL") else { break }
            let end = closing(index + 1)
            // The second argument: after the first top-level comma.
            var depth = 0
            var position = index + 2
            while position < end {
                let text = tokens[position].text
                if text == "(" || text == "[" { depth += 1 }
                if text == ")" || text == "]" { depth -= 1 }
                if text == ",", depth == 0 { break }
                position += 1
            }
            if position + 1 < end, tokens[position + 1].text == "nil" {
                add(.sslPolicyNilHost, tokens[position + 1],
                    "SecPolicyCreateSSL with a nil host name checks no name: any certificate for any host passes; pass the host")
            }
        case "SecTrustSetAnchorCertificates":
            if isCall(index, "SecTrustSetAnchorCertificates"), !hasAnchorsOnly {
                add(.systemAnchorsDisabled, token,
                    "SecTrustSetAnchorCertificates without SecTrustSetAnchorCertificatesOnly in this file: the system anchors are silently disabled; call SecTrustSetAnchorCertificatesOnly(trust, false) to keep them (or true to say you mean it)")
            }
        case "SecKeyCopyExternalRepresentation":
            guard isCall(index, "SecKeyCopyExternalRepresentation") else { break }
            let scope = body(containing: index)
            let hashes = tokens[scope].contains { candidate in
                candidate.kind == .identifier
                    && ["SHA256", "CC_SHA256", "sha256", "SHA256Digest", "Insecure"].contains(String(candidate.text))
            }
            let hasHeader = tokens[scope].contains { candidate in
                guard candidate.kind == .identifier else { return false }
                let lowered = candidate.text.lowercased()
                return lowered.contains("header") || lowered.contains("spki") || lowered.contains("asn1")
                    || lowered.contains("prefix") || lowered.contains("subjectpublickeyinfo")
            }
            if hashes && !hasHeader {
                add(.spkiHeaderMissing, token,
                    "a pin hashed from SecKeyCopyExternalRepresentation output without an SPKI header never matches an SPKI pin: prepend the header for the key type (tack pin --raw-key prints it)")
            }
        case "completionHandler":
            // completionHandler(.useCredential, …)
            guard isCall(index, "completionHandler"), index + 3 < tokens.count, tokens[index + 2].text == ".",
                  tokens[index + 3].text == "useCredential" else { break }
            let scope = body(containing: index)
            let evaluated = tokens[scope.lowerBound..<index].contains { candidate in
                candidate.kind == .identifier && candidate.text.lowercased().contains("evaluate")
            }
            if !evaluated {
                add(.credentialWithoutTrust, token,
                    "completionHandler(.useCredential, …) before the server trust is evaluated accepts any certificate: call SecTrustEvaluateWithError (and check pins) first")
            }
        case "SecPKCS12Import":
            guard isCall(index, "SecPKCS12Import") else { break }
            let end = closing(index + 1)
            for position in (index + 2)..<max(index + 2, end) where tokens[position].kind == .string {
                add(.pkcs12PassphraseLiteral, tokens[position],
                    "a PKCS #12 passphrase as a string literal is in the binary for anyone to read: load it from the keychain or configuration")
            }
        case "kSecImportExportPassphrase":
            guard hasPKCS12Import else { break }
            // kSecImportExportPassphrase [as String] : "literal"
            var position = index + 1
            if position + 1 < tokens.count, tokens[position].text == "as" { position += 2 }
            if position + 1 < tokens.count, tokens[position].text == ":", tokens[position + 1].kind == .string {
                add(.pkcs12PassphraseLiteral, tokens[position + 1],
                    "a PKCS #12 passphrase as a string literal is in the binary for anyone to read: load it from the keychain or configuration")
            }
        default:
            break
        }
    }
    var suppressions = LintSuppressions()
    for comment in lexer.comments { suppressions.read(comment: comment.text, line: comment.line, endLine: comment.endLine) }
    // A literal passed inline and through kSecImportExportPassphrase can be reported
    // twice at the same place: once is enough.
    var seen = Set<String>()
    return suppress(findings, suppressions).filter { seen.insert("\($0.line):\($0.column):\($0.rule.rawValue)").inserted }
}

/// The token ranges of function, initializer and closure-free accessor bodies: from
/// the `{` after `func`/`init` to its matching `}`.
private func functionBodies(_ tokens: [SwiftToken]) -> [Range<Int>] {
    var bodies: [Range<Int>] = []
    var index = 0
    while index < tokens.count {
        let text = tokens[index].text
        guard tokens[index].kind == .identifier, text == "func" || text == "init" || text == "deinit" else {
            index += 1
            continue
        }
        // The body is the first `{` at parenthesis depth zero after the signature.
        var depth = 0
        var open = index + 1
        while open < tokens.count {
            let current = tokens[open].text
            if current == "(" || current == "[" || current == "<" { depth += 1 }
            if current == ")" || current == "]" || (current == ">" && tokens[open - 1].text != "-") { depth = max(0, depth - 1) }
            if current == "{", depth == 0 { break }
            if current == "}" || (tokens[open].kind == .identifier && current == "func") { open = tokens.count }
            open += 1
        }
        guard open < tokens.count else {
            index += 1
            continue
        }
        var braces = 0
        var close = open
        while close < tokens.count {
            if tokens[close].text == "{" { braces += 1 }
            if tokens[close].text == "}" {
                braces -= 1
                if braces == 0 { break }
            }
            close += 1
        }
        bodies.append(open..<min(close + 1, tokens.count))
        index += 1
    }
    return bodies
}

// MARK: - SARIF 2.1.0

/// A SARIF 2.1.0 log (OASIS SARIF v2.1.0, §3.13 sarifLog, §3.14 run, §3.27 result):
/// one run, the tool's rules with their default levels, and one result per finding
/// with ruleId, ruleIndex, level, message and a physical location.
func sarifLog(_ findings: [LintFinding]) -> String {
    let rules = LintRule.allCases
    let ruleObjects = rules.map { rule in
        jsonObject([
            ("id", JSONText.string(rule.rawValue)),
            ("shortDescription", jsonObject([("text", JSONText.string(rule.summary))])),
            ("defaultConfiguration", jsonObject([("level", JSONText.string(rule.severity.rawValue))])),
        ])
    }
    let results = findings.map { finding in
        jsonObject([
            ("ruleId", JSONText.string(finding.rule.rawValue)),
            ("ruleIndex", String(rules.firstIndex(of: finding.rule) ?? 0)),
            ("level", JSONText.string(finding.rule.severity.rawValue)),
            ("message", jsonObject([("text", JSONText.string(finding.message))])),
            ("locations", "[" + jsonObject([
                ("physicalLocation", jsonObject([
                    ("artifactLocation", jsonObject([("uri", JSONText.string(sarifURI(finding.path)))])),
                    ("region", jsonObject([("startLine", String(finding.line)), ("startColumn", String(finding.column))])),
                ])),
            ]) + "]"),
        ])
    }
    let driver = jsonObject([
        ("name", JSONText.string("tack")),
        ("version", JSONText.string(tackVersion)),
        ("rules", "[\n        " + ruleObjects.joined(separator: ",\n        ") + "\n      ]"),
    ])
    return """
        {
          "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
          "version": "2.1.0",
          "runs": [
            {
              "tool": {"driver": \(driver)},
              "results": [\(results.isEmpty ? "" : "\n        " + results.joined(separator: ",\n        ") + "\n      ")]
            }
          ]
        }
        """
}

/// A relative URI reference for a path (RFC 3986: spaces and `%` escaped).
private func sarifURI(_ path: String) -> String {
    var trimmed = path
    while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
    return trimmed.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? trimmed
}

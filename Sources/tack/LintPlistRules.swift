// `tack lint`'s checks of Info.plist files: App Transport Security settings and the
// NSPinnedDomains rules.

import TackFormats
import TackTrust

/// The findings in one property list: the pinning issues of the one policy reader
/// `tack verify --policy` uses (``PinPolicy/load(infoPlist:at:)``), each under its lint
/// rule, and the App Transport Security settings that turn protection off.
/// - Throws: `unreadable_plist` when the file is not a property list Tack reads: not a
///   finding of a rule, but a file that could not be checked at all.
func lintPlist(_ bytes: [UInt8], path: String) throws(CLIError) -> [LintFinding] {
    let root: PropertyListValue
    do {
        root = try PropertyList.parse(bytes)
    } catch {
        throw CLIError("\(path):\(error.location.isBinary ? " " : "")\(error): not a readable property list",
                       code: "unreadable_plist")
    }
    var findings: [LintFinding] = []
    func add(_ rule: LintRule, _ location: TextLocation, _ message: String) {
        findings.append(LintFinding(rule: rule, path: path, line: location.line, column: location.column,
                                    byteOffset: location.isBinary ? location.offset : nil, message: message))
    }
    let issues: [PinPolicyIssue]
    do {
        // Pins have no time in an Info.plist: no rule expires.
        issues = try PinPolicy.load(infoPlist: bytes, at: 0).warnings
    } catch {
        guard case .invalid(let found) = error else { return [] }
        issues = found
    }
    for issue in issues {
        guard let rule = lintRule(for: issue) else { continue }
        add(rule, issue.location ?? TextLocation(line: 1, column: 1, offset: 0), issue.message)
    }
    if let settings = root.dictionaryValue?.entry(for: "NSAppTransportSecurity")?.value.dictionaryValue {
        for key in ["NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent"] {
            if let entry = settings.entry(for: key), entry.value.booleanValue == true {
                add(.atsArbitraryLoads, entry.location, "\(key) is true: App Transport Security is off for \(key == "NSAllowsArbitraryLoads" ? "every connection" : key == "NSAllowsArbitraryLoadsForMedia" ? "media" : "web views")")
            }
        }
        for domain in settings.entry(for: "NSExceptionDomains")?.value.dictionaryValue?.entries ?? [] {
            for entry in domain.value.dictionaryValue?.entries ?? [] {
                if let problem = insecureException(entry) {
                    add(.atsInsecureException, entry.location, "\(domain.key): \(problem)")
                }
            }
        }
    }
    // One finding per place: an insecure exception key ATS does not define there is
    // said once, as insecure.
    let insecure = Set(findings.filter { $0.rule == .atsInsecureException }.map { "\($0.line):\($0.column):\($0.byteOffset ?? -1)" })
    findings.removeAll { $0.rule == .atsUnknownKey && insecure.contains("\($0.line):\($0.column):\($0.byteOffset ?? -1)") }
    // In document order (by byte offset in a binary plist, which has no lines).
    findings.sort { ($0.byteOffset ?? 0, $0.line, $0.column) < ($1.byteOffset ?? 0, $1.line, $1.column) }
    return suppress(findings, plistComments(bytes))
}

/// The lint rule of a policy reader's issue, or `nil` for those lint does not report
/// (a plist without `NSAppTransportSecurity` or `NSPinnedDomains` pins nothing, which
/// is no mistake; expiration and whole-certificate pins do not exist in an Info.plist).
private func lintRule(for issue: PinPolicyIssue) -> LintRule? {
    switch issue.kind {
    case .format(let error):
        if case .missingKey(let key) = error.reason, key == .appTransportSecurity || key == .pinnedDomains { return nil }
        return .pinMalformed
    case .invalidPin, .invalidDomain: return .pinMalformed
    case .missingBackupPin, .emptyRule: return .pinBackupMissing
    case .duplicateDomain: return .pinDuplicateDomain
    case .duplicatePin: return .pinDuplicate
    case .wildcardDomain: return .pinWildcardDomain
    case .onlyLeafPins: return .pinLeafOnly
    case .misplacedKey: return .pinUnknownKey
    case .unknownKey: return issue.rule == nil ? .atsUnknownKey : .pinUnknownKey
    case .misspeltKey: return issue.rule == nil ? .atsKeyMisspelt : .pinUnknownKey
    case .expired, .wholeCertificatePins: return nil
    }
}

/// What makes an `NSExceptionDomains` entry insecure, or `nil`: plain HTTP allowed,
/// a minimum TLS version below 1.2, or `NSAllowsArbitraryLoads` (a top-level key)
/// written there to turn ATS off for the domain.
private func insecureException(_ entry: PropertyListDictionary.Entry) -> String? {
    switch entry.key {
    case "NSExceptionAllowsInsecureHTTPLoads", "NSThirdPartyExceptionAllowsInsecureHTTPLoads":
        guard entry.value.booleanValue == true else { return nil }
        return "\(entry.key) is true: plain HTTP (no TLS at all) is allowed for this domain; serve it over HTTPS"
    case "NSAllowsArbitraryLoads":
        guard entry.value.booleanValue == true else { return nil }
        return "NSAllowsArbitraryLoads set to true in an exception domain means to turn App Transport Security off for it (ATS reads the key only at the top level); serve the domain over HTTPS instead"
    case "NSExceptionMinimumTLSVersion", "NSThirdPartyExceptionMinimumTLSVersion":
        guard let version = entry.value.stringValue, ["TLSv1.0", "TLSv1.1"].contains(version) else { return nil }
        return "\(entry.key) is \(version): TLS below 1.2 is deprecated (RFC 8996) and weak; use TLSv1.2 or TLSv1.3"
    default:
        return nil
    }
}

/// The suppressions in a property list's `<!-- … -->` comments.
private func plistComments(_ bytes: [UInt8]) -> LintSuppressions {
    var suppressions = LintSuppressions()
    // A binary plist has no comments (and its strings are not comments).
    guard !PropertyList.isBinary(bytes) else { return suppressions }
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

// `tack lint`'s checks of Info.plist files: App Transport Security settings and the
// NSPinnedDomains rules.

import TackDER
import TackFormats
import TackTrust

/// The keys ATS reads in an NSPinnedDomains rule and in a pin (Apple's Information
/// Property List reference, NSPinnedDomains).
private let pinnedDomainKeys: Set<String> = ["NSIncludesSubdomains", "NSPinnedCAIdentities", "NSPinnedLeafIdentities"]
private let pinKeys: Set<String> = ["SPKI-SHA256-BASE64"]

/// The findings in one property list.
/// - Throws: `unreadable_plist` when the file is not a property list Tack reads: not a
///   finding of a rule, but a file that could not be checked at all.
func lintPlist(_ bytes: [UInt8], path: String) throws(CLIError) -> [LintFinding] {
    var findings: [LintFinding] = []
    let root: PropertyListValue
    do {
        root = try PropertyList.parse(bytes)
    } catch {
        throw CLIError("\(path):\(error.location.isBinary ? " " : "")\(error): not a readable property list",
                       code: "unreadable_plist")
    }
    func add(_ rule: LintRule, _ location: TextLocation, _ message: String) {
        findings.append(LintFinding(rule: rule, path: path, line: location.line, column: location.column,
                                    byteOffset: location.isBinary ? location.offset : nil, message: message))
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
            if domain.key.contains("*") {
                add(.pinWildcardDomain, domain.location,
                    "\(domain.key): ATS does not support wildcard keys in NSPinnedDomains (the rule never applies); key the rule by the parent domain with NSIncludesSubdomains")
            }
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

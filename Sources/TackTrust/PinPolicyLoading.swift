internal import TackX509

/// The value types of the two policy documents (JSON and property list), for
/// ``PinPolicyFormatError``.
public enum PolicyValueType: Sendable, Hashable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// JSON `true`/`false`; plist `<true/>`/`<false/>`.
    case boolean
    /// A JSON number; a plist `<integer>` or `<real>`.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// A JSON object; a plist `<dict>`.
    case dictionary
    /// A plist `<date>`.
    case date
    /// A plist `<data>`.
    case data

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .number: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .dictionary
        }
    }

    init(_ value: PropertyListValue) {
        switch value {
        case .boolean: self = .boolean
        case .integer, .real: self = .number
        case .string: self = .string
        case .array: self = .array
        case .dictionary: self = .dictionary
        case .date: self = .date
        case .data: self = .data
        }
    }

    /// The type's name, with an article (`a dictionary`).
    public var description: String {
        switch self {
        case .null: return "null"
        case .boolean: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .dictionary: return "an object (dictionary)"
        case .date: return "a date"
        case .data: return "data"
        }
    }
}

/// A structural problem of a policy document: a value of the wrong type, a missing
/// or unknown key, an unsupported version, a malformed date.
public struct PinPolicyFormatError: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The value at ``PinPolicyFormatError/offset`` has the wrong type.
        case wrongType(expected: PolicyValueType, found: PolicyValueType)
        /// A key the schema does not define (the key as written: the offending data).
        /// Tack's JSON refuses unknown keys so that a misspelt `"includeSubdomian"` is
        /// not silently ignored.
        case unknownKey(String)
        /// A required key is absent.
        case missingKey(PolicyKey)
        /// `"version"` is not 1.
        case unsupportedVersion
        /// `"expires"` is neither RFC 3339 text nor an integer of seconds since 1970.
        case invalidDate
        /// `"mode"` is neither `"enforce"` nor `"report-only"`.
        case invalidMode
        /// `"includeSubdomains"` is given with a `*.` or `**.` domain, whose prefix
        /// already says which subdomains are covered.
        case conflictingSubdomains
    }

    /// The keys of the two schemas, for ``Reason/missingKey(_:)``.
    public enum PolicyKey: Sendable, Hashable, CustomStringConvertible {
        /// Tack JSON `"version"`.
        case version
        /// Tack JSON `"domains"`.
        case domains
        /// `Info.plist` `NSAppTransportSecurity`.
        case appTransportSecurity
        /// `Info.plist` `NSPinnedDomains`.
        case pinnedDomains
        /// `Info.plist` `SPKI-SHA256-BASE64` in an identity dictionary.
        case spkiSHA256Base64

        /// The key as written in the document.
        public var description: String {
            switch self {
            case .version: return "version"
            case .domains: return "domains"
            case .appTransportSecurity: return "NSAppTransportSecurity"
            case .pinnedDomains: return "NSPinnedDomains"
            case .spkiSHA256Base64: return "SPKI-SHA256-BASE64"
            }
        }
    }

    /// What is wrong.
    public var reason: Reason
    /// The byte offset of the member concerned in the document (the key of a JSON
    /// member, the `<key>` of a plist entry), or `nil` when it concerns the whole
    /// document.
    public var offset: Int?

    /// Creates an error.
    public init(_ reason: Reason, offset: Int?) {
        self.reason = reason
        self.offset = offset
    }

    /// One line naming the problem.
    public var description: String {
        let at = offset.map { " (byte \($0))" } ?? ""
        switch reason {
        case .wrongType(let expected, let found): return "expected \(expected), found \(found)\(at)"
        case .unknownKey(let key): return "unknown key \"\(key)\"\(at)"
        case .missingKey(let key): return "missing key \"\(key)\"\(at)"
        case .unsupportedVersion: return "unsupported policy version (expected 1)\(at)"
        case .invalidDate: return "\"expires\" is neither an RFC 3339 time nor seconds since 1970\(at)"
        case .invalidMode: return "\"mode\" is neither \"enforce\" nor \"report-only\"\(at)"
        case .conflictingSubdomains: return "\"includeSubdomains\" with a *. or **. domain, which already names its subdomains\(at)"
        }
    }
}

/// Why a policy could not be loaded.
public enum PinPolicyLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is not JSON.
    case json(JSONError)
    /// The document is not an XML property list.
    case propertyList(PropertyListError)
    /// The document has errors: every issue found, errors and warnings, in order.
    case invalid([PinPolicyIssue])

    /// Every problem, one per line.
    public var description: String {
        switch self {
        case .json(let error): return "JSON: \(error)"
        case .propertyList(let error): return "property list: \(error)"
        case .invalid(let issues): return issues.map { $0.description }.joined(separator: "\n")
        }
    }
}

/// A policy that loaded, with the warnings found while loading it.
public struct LoadedPinPolicy: Sendable {
    /// The policy.
    public let policy: PinPolicy
    /// Problems that do not refuse the policy (single pins in an `Info.plist`, expired
    /// rules, whole-certificate and leaf-only pins).
    public let warnings: [PinPolicyIssue]
}

extension PinPolicy {
    /// Loads Tack's JSON policy (README, "Pin policies").
    ///
    /// ```json
    /// {
    ///   "version": 1,
    ///   "domains": {
    ///     "example.com": {
    ///       "includeSubdomains": true,
    ///       "caIdentities": ["BASE64=", "BACKUP="],
    ///       "leafIdentities": [],
    ///       "caCertificates": [], "leafCertificates": [],
    ///       "mode": "enforce",
    ///       "expires": "2027-06-01T00:00:00Z",
    ///       "reportURIs": ["https://example.com/pin-report"],
    ///       "allowSinglePin": false
    ///     },
    ///     "**.example.net": { "caIdentities": ["…", "…"] }
    ///   }
    /// }
    /// ```
    ///
    /// Domain keys compare case-insensitively. `includeSubdomains` extends a rule one
    /// label deeper (App Transport Security); a `**.` prefix covers the domain and every
    /// subdomain (TrustKit, OkHttp `**.`), a `*.` prefix names one label deeper only
    /// (OkHttp `*.`). Unknown keys are errors. A list with a single pin is an error
    /// unless `allowSinglePin` is true.
    ///
    /// - Parameters:
    ///   - json: The document.
    ///   - time: The check time for expired rules, in seconds since 1970.
    /// - Returns: The policy and its warnings.
    /// - Throws: ``PinPolicyLoadError``: the JSON error, or every issue found.
    public static func load(json: [UInt8], at time: Int64) throws(PinPolicyLoadError) -> LoadedPinPolicy {
        let document: JSONValue
        do {
            document = try JSONReader.parse(json)
        } catch {
            throw .json(error)
        }
        var loader = PolicyLoader()
        let rules = loader.tackRules(document)
        return try loader.finish(rules: rules, at: time, singlePin: .error)
    }

    /// Loads the `NSPinnedDomains` of an `Info.plist` (XML property list) with App
    /// Transport Security's semantics.
    ///
    /// Reads `NSAppTransportSecurity` → `NSPinnedDomains` → domain →
    /// `NSIncludesSubdomains`, `NSPinnedCAIdentities`, `NSPinnedLeafIdentities` →
    /// arrays of `{SPKI-SHA256-BASE64: …}`; every other key is ignored, as Apple does.
    /// A single pin is a warning (Apple accepts it); the other checks are those of
    /// ``validate(at:singlePin:)``.
    ///
    /// - Parameters:
    ///   - infoPlist: The document.
    ///   - time: The check time, in seconds since 1970.
    /// - Returns: The policy and its warnings.
    /// - Throws: ``PinPolicyLoadError``: the property-list error, or every issue found.
    public static func load(infoPlist: [UInt8], at time: Int64) throws(PinPolicyLoadError) -> LoadedPinPolicy {
        let root: PropertyListValue
        do {
            root = try PropertyList.parse(infoPlist)
        } catch {
            throw .propertyList(error)
        }
        return try load(infoPlist: root, at: time)
    }

    /// Loads the `NSPinnedDomains` of a parsed `Info.plist`; see ``load(infoPlist:at:)-(([UInt8],_))``.
    ///
    /// - Parameters:
    ///   - root: The plist's root dictionary.
    ///   - time: The check time, in seconds since 1970.
    /// - Returns: The policy and its warnings.
    /// - Throws: ``PinPolicyLoadError/invalid(_:)`` with every issue found.
    public static func load(infoPlist root: PropertyListValue, at time: Int64) throws(PinPolicyLoadError) -> LoadedPinPolicy {
        var loader = PolicyLoader()
        let rules = loader.appTransportSecurityRules(root)
        return try loader.finish(rules: rules, at: time, singlePin: .warning)
    }
}

/// Maps a document to rules, collecting every issue instead of stopping at the first.
private struct PolicyLoader {
    var issues: [PinPolicyIssue] = []
    /// The domain of each rule as written, parallel to the rules.
    var writtenDomains: [String] = []

    mutating func format(_ reason: PinPolicyFormatError.Reason, offset: Int?, rule: Int? = nil, domain: String? = nil, list: PinList? = nil, entry: Int? = nil) {
        issues.append(PinPolicyIssue(.format(PinPolicyFormatError(reason, offset: offset)), severity: .error, rule: rule, domain: domain, list: list, entry: entry))
    }

    /// Whether a value of type `found` is of `type`; records a wrong-type error if not.
    mutating func expect(_ found: PolicyValueType, _ type: PolicyValueType, offset: Int?, rule: Int? = nil, domain: String? = nil, list: PinList? = nil, entry: Int? = nil) -> Bool {
        guard found == type else {
            format(.wrongType(expected: type, found: found), offset: offset, rule: rule, domain: domain, list: list, entry: entry)
            return false
        }
        return true
    }

    mutating func finish(rules: [PinRule], at time: Int64, singlePin: PinPolicyIssue.Severity) throws(PinPolicyLoadError) -> LoadedPinPolicy {
        let policy = PinPolicy(rules: rules)
        // Validation names the normalised domain; report the domain as written.
        let invalidEntries = issues.filter { if case .invalidPin = $0.kind { return true } else { return false } }
        for var issue in policy.validate(at: time, singlePin: singlePin) {
            // A side whose other entries did not parse already has its errors; the
            // missing backup would only repeat them.
            if issue.kind == .missingBackupPin,
                invalidEntries.contains(where: { $0.rule == issue.rule && $0.list?.isLeafList == issue.list?.isLeafList })
            {
                continue
            }
            if let rule = issue.rule, rule < writtenDomains.count { issue.domain = writtenDomains[rule] }
            issues.append(issue)
        }
        issues.sort { ($0.rule ?? -1) < ($1.rule ?? -1) }
        if issues.contains(where: { $0.severity == .error }) { throw .invalid(issues) }
        return LoadedPinPolicy(policy: policy, warnings: issues)
    }

    // MARK: Tack JSON

    mutating func tackRules(_ document: JSONValue) -> [PinRule] {
        guard expect(PolicyValueType(document), .dictionary, offset: 0), case .object(let members) = document else { return [] }
        var rules: [PinRule] = []
        var sawVersion = false
        var sawDomains = false
        for member in members {
            switch member.key {
            case "version":
                sawVersion = true
                if case .number(let number) = member.value, number.integer == 1 { continue }
                format(.unsupportedVersion, offset: member.location.offset)
            case "domains":
                sawDomains = true
                guard expect(PolicyValueType(member.value), .dictionary, offset: member.location.offset), case .object(let domains) = member.value else { continue }
                for domain in domains { rules.append(tackRule(domain, index: rules.count)) }
            default:
                format(.unknownKey(member.key), offset: member.location.offset)
            }
        }
        if !sawVersion { format(.missingKey(.version), offset: 0) }
        if !sawDomains { format(.missingKey(.domains), offset: 0) }
        return rules
    }

    mutating func tackRule(_ member: JSONMember, index: Int) -> PinRule {
        let written = member.key
        writtenDomains.append(written)
        var domain = written
        var scope = HostScope.exact
        if domain.hasPrefix("**.") {
            domain = String(domain.dropFirst(3))
            scope = .anyDepth
        } else if domain.hasPrefix("*.") {
            domain = String(domain.dropFirst(2))
            scope = .subdomainsOneLabel
        }
        var rule = PinRule(domain: domain, scope: scope)
        guard expect(PolicyValueType(member.value), .dictionary, offset: member.location.offset, rule: index, domain: written), case .object(let fields) = member.value else { return rule }
        for field in fields {
            let offset = field.location.offset
            switch field.key {
            case "includeSubdomains":
                guard expect(PolicyValueType(field.value), .boolean, offset: offset, rule: index, domain: written), case .bool(let include) = field.value else { continue }
                if scope != .exact {
                    format(.conflictingSubdomains, offset: offset, rule: index, domain: written)
                } else if include {
                    rule.scope = .oneLabelDeeper
                }
            case "caIdentities", "leafIdentities", "caCertificates", "leafCertificates":
                let list: PinList = field.key == "caIdentities" ? .caIdentities : field.key == "leafIdentities" ? .leafIdentities : field.key == "caCertificates" ? .caCertificates : .leafCertificates
                guard expect(PolicyValueType(field.value), .array, offset: offset, rule: index, domain: written, list: list), case .array(let entries) = field.value else { continue }
                for (entry, value) in entries.enumerated() {
                    guard expect(PolicyValueType(value), .string, offset: offset, rule: index, domain: written, list: list, entry: entry), case .string(let text) = value else { continue }
                    addPin(text, to: &rule, list: list, rule: index, domain: written, entry: entry)
                }
            case "mode":
                switch field.value {
                case .string("enforce"): rule.enforcement = .enforce
                case .string("report-only"): rule.enforcement = .reportOnly
                default: format(.invalidMode, offset: offset, rule: index, domain: written)
                }
            case "expires":
                switch field.value {
                case .string(let text):
                    if let time = RFC3339.parse(text) { rule.expiration = time } else { format(.invalidDate, offset: offset, rule: index, domain: written) }
                case .number(let number):
                    if let time = number.integer { rule.expiration = time } else { format(.invalidDate, offset: offset, rule: index, domain: written) }
                default:
                    format(.invalidDate, offset: offset, rule: index, domain: written)
                }
            case "reportURIs":
                guard expect(PolicyValueType(field.value), .array, offset: offset, rule: index, domain: written), case .array(let entries) = field.value else { continue }
                for value in entries {
                    guard expect(PolicyValueType(value), .string, offset: offset, rule: index, domain: written), case .string(let uri) = value else { continue }
                    rule.reportURIs.append(uri)
                }
            case "allowSinglePin":
                guard expect(PolicyValueType(field.value), .boolean, offset: offset, rule: index, domain: written), case .bool(let allow) = field.value else { continue }
                rule.waivesBackupPin = allow
            default:
                format(.unknownKey(field.key), offset: offset, rule: index, domain: written)
            }
        }
        return rule
    }

    mutating func addPin(_ text: String, to rule: inout PinRule, list: PinList, rule index: Int, domain: String, entry: Int, format pinFormat: PinFormat? = nil) {
        do throws(PinParseError) {
            func spkiPin() throws(PinParseError) -> SPKIPin {
                if let pinFormat { return try SPKIPin(text, format: pinFormat) }
                return try SPKIPin(text)
            }
            switch list {
            case .caIdentities: rule.caIdentities.append(try spkiPin())
            case .leafIdentities: rule.leafIdentities.append(try spkiPin())
            case .caCertificates: rule.caCertificates.append(try CertificateFingerprint(text))
            case .leafCertificates: rule.leafCertificates.append(try CertificateFingerprint(text))
            }
        } catch {
            issues.append(PinPolicyIssue(.invalidPin(error), severity: .error, rule: index, domain: domain, list: list, entry: entry))
        }
    }

    // MARK: Info.plist (App Transport Security)

    mutating func appTransportSecurityRules(_ root: PropertyListValue) -> [PinRule] {
        guard expect(PolicyValueType(root), .dictionary, offset: 0), let top = root.dictionaryValue else { return [] }
        guard let ats = top.entry(for: "NSAppTransportSecurity") else {
            format(.missingKey(.appTransportSecurity), offset: nil)
            return []
        }
        guard expect(PolicyValueType(ats.value), .dictionary, offset: ats.location.offset), let atsDictionary = ats.value.dictionaryValue else { return [] }
        guard let pinned = atsDictionary.entry(for: "NSPinnedDomains") else {
            format(.missingKey(.pinnedDomains), offset: ats.location.offset)
            return []
        }
        guard expect(PolicyValueType(pinned.value), .dictionary, offset: pinned.location.offset), let domains = pinned.value.dictionaryValue else { return [] }
        var rules: [PinRule] = []
        for member in domains.entries {
            let index = rules.count
            let written = member.key
            writtenDomains.append(written)
            var rule = PinRule(domain: written)
            defer { rules.append(rule) }
            guard expect(PolicyValueType(member.value), .dictionary, offset: member.location.offset, rule: index, domain: written), let fields = member.value.dictionaryValue else { continue }
            for field in fields.entries {
                let offset = field.location.offset
                switch field.key {
                case "NSIncludesSubdomains":
                    guard expect(PolicyValueType(field.value), .boolean, offset: offset, rule: index, domain: written), let include = field.value.booleanValue else { continue }
                    rule.scope = include ? .oneLabelDeeper : .exact
                case "NSPinnedCAIdentities", "NSPinnedLeafIdentities":
                    let list: PinList = field.key == "NSPinnedCAIdentities" ? .caIdentities : .leafIdentities
                    guard expect(PolicyValueType(field.value), .array, offset: offset, rule: index, domain: written, list: list), let entries = field.value.arrayValue else { continue }
                    for (entry, value) in entries.enumerated() {
                        guard expect(PolicyValueType(value), .dictionary, offset: offset, rule: index, domain: written, list: list, entry: entry), let identity = value.dictionaryValue else { continue }
                        guard let pin = identity.entry(for: "SPKI-SHA256-BASE64") else {
                            format(.missingKey(.spkiSHA256Base64), offset: offset, rule: index, domain: written, list: list, entry: entry)
                            continue
                        }
                        guard expect(PolicyValueType(pin.value), .string, offset: pin.location.offset, rule: index, domain: written, list: list, entry: entry), let text = pin.value.stringValue else { continue }
                        // Apple takes exactly the Base64 of the digest here.
                        addPin(text, to: &rule, list: list, rule: index, domain: written, entry: entry, format: .base64)
                    }
                default:
                    continue  // other ATS keys (NSExceptionMinimumTLSVersion, …) are not about pins
                }
            }
        }
        return rules
    }
}

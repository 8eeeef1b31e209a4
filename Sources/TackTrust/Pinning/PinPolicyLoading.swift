public import TackFormats
internal import TackX509

/// A policy that loaded, with the warnings found while loading it.
public struct LoadedPinPolicy: Sendable {
    /// The policy.
    public let policy: PinPolicy
    /// Problems that do not refuse the policy (single pins in an `Info.plist`, expired
    /// rules, whole-certificate and leaf-only pins, and the unknown or misplaced keys
    /// and wildcard domains of an `Info.plist`, each with its line and column, or its
    /// byte offset in a binary property list).
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
        loader.document = json
        let rules = loader.tackRules(document)
        return try loader.finish(rules: rules, at: time, singlePin: .error)
    }

    /// Loads the `NSPinnedDomains` of an `Info.plist` (an XML or binary property list,
    /// told by its `bplist00` header) with App Transport Security's semantics.
    ///
    /// Reads `NSAppTransportSecurity` → `NSPinnedDomains` → domain →
    /// `NSIncludesSubdomains`, `NSPinnedCAIdentities`, `NSPinnedLeafIdentities` →
    /// arrays of `{SPKI-SHA256-BASE64: …}`. Apple ignores every other key; Tack
    /// ignores them too but returns a warning with its line and column (its byte
    /// offset in a binary property list) for each key
    /// on the pinning path that App Transport Security does not define there
    /// (``PinPolicyIssue/Kind/unknownKey(_:)``, ``PinPolicyIssue/Kind/misplacedKey(_:expectedIn:)``)
    /// and for each wildcard domain key (``PinPolicyIssue/Kind/wildcardDomain``, whose
    /// rule is left out), so that a typo does not disable pinning in silence. A single
    /// pin is a warning (Apple accepts it); the other checks are those of
    /// ``validate(at:singlePin:)``.
    ///
    /// - Parameters:
    ///   - infoPlist: The document, XML or binary.
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
        var loader = PolicyLoader()
        loader.document = infoPlist
        let rules = loader.appTransportSecurityRules(root)
        return try loader.finish(rules: rules, at: time, singlePin: .warning)
    }

    /// Loads the `NSPinnedDomains` of a parsed `Info.plist`; see ``load(infoPlist:at:)-([UInt8],_)``.
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
struct PolicyLoader {
    var issues: [PinPolicyIssue] = []
    /// The domain of each rule as written, parallel to the rules.
    var writtenDomains: [String] = []

    /// The document's bytes, for the line and column of an offset (or the offset
    /// alone in a binary property list).
    var document: [UInt8] = []
    /// Where an `Info.plist` writes each rule (its domain key), list (the list's key)
    /// and entry (its `SPKI-SHA256-BASE64` key): the place of an issue validation finds.
    var places: [PinPlace: TextLocation] = [:]

    /// A rule, one of its lists, or one entry of a list.
    struct PinPlace: Hashable {
        var rule: Int
        var list: PinList?
        var entry: Int?
    }

    /// The place recorded for what `issue` concerns, or the nearest enclosing one.
    func place(of issue: PinPolicyIssue) -> TextLocation? {
        guard let rule = issue.rule else { return nil }
        return places[PinPlace(rule: rule, list: issue.list, entry: issue.entry)]
            ?? places[PinPlace(rule: rule, list: issue.list, entry: nil)]
            ?? places[PinPlace(rule: rule, list: nil, entry: nil)]
    }

    mutating func format(_ reason: PinPolicyFormatError.Reason, offset: Int?, rule: Int? = nil, domain: String? = nil, list: PinList? = nil, entry: Int? = nil) {
        var issue = PinPolicyIssue(.format(PinPolicyFormatError(reason, offset: offset)), severity: .error, rule: rule, domain: domain, list: list, entry: entry)
        if let offset, offset < document.count { issue.location = TextLocation(offset: offset, in: document) }
        issues.append(issue)
    }

    /// A warning about a key read at `location`.
    mutating func warn(_ kind: PinPolicyIssue.Kind, at location: TextLocation, rule: Int? = nil, domain: String? = nil) {
        var issue = PinPolicyIssue(kind, severity: .warning, rule: rule, domain: domain)
        issue.location = location
        issues.append(issue)
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
        for index in issues.indices where issues[index].location == nil {
            issues[index].location = place(of: issues[index])
        }
        // By rule, and within a rule in document order where the place is known.
        issues.sort { ($0.rule ?? -1, $0.location?.offset ?? Int.max) < ($1.rule ?? -1, $1.location?.offset ?? Int.max) }
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
}

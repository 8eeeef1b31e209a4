public import TackFormats
public import TackX509
internal import TackDER
internal import TackDigest

/// One problem found in a pin policy, naming the rule (by index and domain) and the
/// entry it concerns, so a person can fix it.
public struct PinPolicyIssue: Error, Sendable, Equatable, CustomStringConvertible {
    /// How serious the problem is.
    public enum Severity: Sendable, Hashable {
        /// The policy is refused.
        case error
        /// The policy loads; the problem is reported.
        case warning
    }

    /// What is wrong.
    public enum Kind: Sendable, Equatable {
        /// An entry of a list is not 32 bytes of Base64 (or hex, for fingerprints).
        case invalidPin(PinParseError)
        /// A list has one entry: the rule has no backup pin, and a key rotation or a
        /// lost key locks every client out. An error in Tack's JSON unless the rule
        /// sets `"allowSinglePin": true`; a warning for an `Info.plist` (Apple accepts it).
        case missingBackupPin
        /// The rule covers a host another rule (`firstRule`, a 0-based index) covers
        /// too, with the same domain: which one applies would depend on document order.
        case duplicateDomain(firstRule: Int)
        /// The rule's expiration (seconds since 1970) is not after the check time: it
        /// will not be enforced. A warning, since expiring is what the date is for; an
        /// app shipping it should be updated.
        case expired(expiration: Int64)
        /// The rule has no pins at all.
        case emptyRule
        /// The domain is not an ASCII DNS name (letters, digits, `-`, `.`; IDNs as
        /// A-labels; 253 octets at most, labels of 63).
        case invalidDomain
        /// The rule pins whole certificates: it breaks at every renewal of the pinned
        /// certificate, even when the key stays.
        case wholeCertificatePins
        /// The rule has only leaf pins: every leaf key rotation needs an app update first.
        case onlyLeafPins
        /// A structural problem of the document (wrong type, missing or unknown key).
        case format(PinPolicyFormatError)
        /// An `Info.plist` key that App Transport Security does not define where it
        /// stands (the key as written): Apple ignores it, so a misspelt
        /// `NSIncludesSubdomain` or `NSPinnedCAIdentity` silently disables what it was
        /// meant to do. A warning (``PinPolicyIssue/location`` says where).
        case unknownKey(String)
        /// An `Info.plist` key that App Transport Security defines, but in another
        /// dictionary (`expectedIn`): a pin list directly under `NSAppTransportSecurity`
        /// or in an `NSExceptionDomains` entry, an `NSException…` key in a pinned
        /// domain. Apple ignores it there. A warning.
        case misplacedKey(String, expectedIn: String)
        /// An `NSPinnedDomains` key with a wildcard (`*.example.com`): App Transport
        /// Security matches domain keys literally, so the rule pins nothing. A warning;
        /// the rule is left out (use the domain with `NSIncludesSubdomains`).
        case wildcardDomain
        /// The entry pins the same key (or certificate) as entry `firstEntry` of the same
        /// list: pins compare by their digest, so one key written twice, or once as Base64
        /// and once as `sha256/…` or hex, is one pin and no backup. An error in Tack's
        /// JSON; a warning for an `Info.plist` (Apple accepts it).
        case duplicatePin(firstEntry: Int)
        /// An `Info.plist` key App Transport Security does not define, within two edits
        /// (ASCII case ignored) of the key `intended` that it defines there: a misspelt
        /// `NSAppTransportSecurity` or `NSPinnedDomains` disables all pinning in silence.
        /// A warning (``PinPolicyIssue/location`` says where).
        case misspeltKey(String, intended: String)
    }

    /// What is wrong.
    public var kind: Kind
    /// Error or warning.
    public var severity: Severity
    /// The 0-based index of the rule in the document, or `nil` for the whole document.
    public var rule: Int?
    /// The rule's domain as written in the document (the offending user data itself).
    public var domain: String?
    /// The list concerned, if any.
    public var list: PinList?
    /// The 0-based index of the entry in ``list``, if one entry is concerned.
    public var entry: Int?
    /// Where in the document the problem is (the key concerned), when it was read from
    /// one and the problem concerns one place.
    public var location: TextLocation?

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - kind: What is wrong.
    ///   - severity: Error or warning.
    ///   - rule: The rule's index, or `nil` for the whole document.
    ///   - domain: The rule's domain as written.
    ///   - list: The list concerned.
    ///   - entry: The entry concerned.
    public init(_ kind: Kind, severity: Severity, rule: Int?, domain: String?, list: PinList? = nil, entry: Int? = nil) {
        self.kind = kind
        self.severity = severity
        self.rule = rule
        self.domain = domain
        self.list = list
        self.entry = entry
    }

    /// A stable identifier of the kind (the case's name in snake_case; a ``Kind/format(_:)`` issue
    /// gives its format reason's code), for tools, logs and test manifests.
    public var code: String {
        switch kind {
        case .invalidPin: "invalid_pin"
        case .missingBackupPin: "missing_backup_pin"
        case .duplicateDomain: "duplicate_domain"
        case .expired: "expired"
        case .emptyRule: "empty_rule"
        case .invalidDomain: "invalid_domain"
        case .wholeCertificatePins: "whole_certificate_pins"
        case .onlyLeafPins: "only_leaf_pins"
        case .format(let error): error.code
        case .unknownKey: "unknown_key"
        case .misplacedKey: "misplaced_key"
        case .wildcardDomain: "wildcard_domain"
        case .duplicatePin: "duplicate_pin"
        case .misspeltKey: "misspelt_key"
        }
    }

    /// `error: example.com: caIdentities[1]: pin is 20 bytes, not the 32 of SHA-256`,
    /// after the ``location`` when there is one (`3:7: error: …`).
    public var description: String {
        let at = location.map { "\($0): " } ?? ""
        return at + (severity == .error ? "error: " : "warning: ") + message
    }

    /// The problem without its place in the document or its severity:
    /// `example.com: caIdentities[1]: pin is 20 bytes, not the 32 of SHA-256`, for tools
    /// that say those themselves (`tack lint`).
    public var message: String {
        var where_ = ""
        if let domain { where_ += domain }
        else if let rule { where_ += "rule #\(rule + 1)" }
        if let list {
            where_ += (where_.isEmpty ? "" : ": ") + list.description
            if let entry { where_ += "[\(entry)]" }
        }
        let what: String
        switch kind {
        case .invalidPin(let error): what = error.description
        case .missingBackupPin:
            what = "only one pin and no backup: a key rotation or a lost key locks every client out; add a backup pin"
                + (severity == .error ? " (or set \"allowSinglePin\": true to accept the risk)" : "")
        case .duplicateDomain(let first): what = "covers the same hosts as rule #\(first + 1); remove one"
        case .expired(let expiration):
            what = "expired at \(RFC3339.format(expiration)): the rule is not enforced; renew its pins and expiration"
        case .emptyRule: what = "no pins: add CA identities (preferred) or leaf identities, with a backup"
        case .invalidDomain: what = "not a DNS name (ASCII letters, digits, '-', '.'; write IDNs as A-labels)"
        case .wholeCertificatePins: what = "whole-certificate pins break at every renewal of the certificate; prefer SPKI pins"
        case .onlyLeafPins: what = "only leaf pins: every leaf key rotation needs an app update first; add a CA identity"
        case .format(let error): what = error.description
        case .unknownKey(let key):
            what = "unknown key \"\(key)\", ignored by App Transport Security: check its spelling"
        case .misplacedKey(let key, let expected):
            what = "\"\(key)\" belongs in \(expected); App Transport Security ignores it here"
        case .wildcardDomain:
            what = "App Transport Security does not support wildcard domains; the rule pins nothing (pin the domain with NSIncludesSubdomains)"
        case .duplicatePin(let first):
            what = "the same key as \(list.map { "\($0)" } ?? "")[\(first)] (pins compare by their digest, whatever their form): remove one"
        case .misspeltKey(let key, let intended):
            what = "unknown key \"\(key)\", ignored by App Transport Security: did you mean \"\(intended)\"?"
        }
        return (where_.isEmpty ? "" : where_ + ": ") + what
    }
}

extension PinPolicy {
    /// Checks the policy and returns every issue found: duplicate domains, duplicate
    /// pins, empty rules, missing backup pins, expired rules (relative to `time`),
    /// invalid domains, and the warnings for whole-certificate and leaf-only pins.
    ///
    /// Pins compare by their digest: a key listed twice counts once towards the backup
    /// rule, and the second entry is a ``PinPolicyIssue/Kind/duplicatePin(firstEntry:)``.
    ///
    /// - Parameters:
    ///   - time: The check time, in seconds since 1970.
    ///   - singlePin: The severity of a side with a single distinct pin when the rule
    ///     does not waive it, and of a pin listed twice: ``PinPolicyIssue/Severity/error``
    ///     for Tack's JSON, `warning` for an `Info.plist` (Apple accepts both).
    /// - Returns: The issues, in rule order.
    public func validate(at time: Int64, singlePin: PinPolicyIssue.Severity = .error) -> [PinPolicyIssue] {
        var issues: [PinPolicyIssue] = []
        for (index, rule) in rules.enumerated() {
            let domain = rule.domain
            func add(_ kind: PinPolicyIssue.Kind, _ severity: PinPolicyIssue.Severity, list: PinList? = nil, entry: Int? = nil) {
                issues.append(PinPolicyIssue(kind, severity: severity, rule: index, domain: domain, list: list, entry: entry))
            }
            if (try? DNSNameSyntax.checkHostName(Array(domain.utf8)[...], trailingDot: false)) == nil { add(.invalidDomain, .error) }
            if let first = rules[..<index].firstIndex(where: { other in
                other.domain == domain
                    && ((other.scope.coversDomain && rule.scope.coversDomain)
                        || (other.scope.coversOneLabel && rule.scope.coversOneLabel))
            }) {
                add(.duplicateDomain(firstRule: first), .error)
            }
            if !rule.hasCAPins && !rule.hasLeafPins {
                add(.emptyRule, .error)
                continue
            }
            // A key listed twice is one pin: each entry equal to an earlier one of its
            // list is said, and only distinct digests count towards the backup.
            for list in PinList.allCases {
                // Hashed, not compared pairwise: a hostile policy's long list stays linear.
                var firstEntries: [SHA256Digest: Int] = [:]
                for (entry, digest) in rule.digests(of: list).enumerated() {
                    if let first = firstEntries[digest] {
                        add(.duplicatePin(firstEntry: first), singlePin, list: list, entry: entry)
                    } else {
                        firstEntries[digest] = entry
                    }
                }
            }
            // A side (CA or leaf) with a single distinct pin has no backup. The two lists
            // of a side are one OR-list, so they are counted together (an SPKI digest and
            // a certificate fingerprint never name the same thing).
            for (side, lists) in [(PinList.caIdentities, [PinList.caIdentities, .caCertificates]), (.leafIdentities, [.leafIdentities, .leafCertificates])] {
                let distinct = lists.reduce(0) { $0 + rule.distinctCount(of: $1) }
                if distinct == 1 && !rule.waivesBackupPin { add(.missingBackupPin, singlePin, list: side) }
            }
            if let expiration = rule.expiration, time >= expiration { add(.expired(expiration: expiration), .warning) }
            if !rule.caCertificates.isEmpty { add(.wholeCertificatePins, .warning, list: .caCertificates) }
            if !rule.leafCertificates.isEmpty { add(.wholeCertificatePins, .warning, list: .leafCertificates) }
            if !rule.hasCAPins { add(.onlyLeafPins, .warning) }
        }
        return issues
    }
}

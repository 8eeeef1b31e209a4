public import TackX509
internal import TackDER

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

    /// Creates an issue.
    public init(_ kind: Kind, severity: Severity, rule: Int?, domain: String?, list: PinList? = nil, entry: Int? = nil) {
        self.kind = kind
        self.severity = severity
        self.rule = rule
        self.domain = domain
        self.list = list
        self.entry = entry
    }

    /// `error: example.com: caIdentities[1]: pin is 20 bytes, not the 32 of SHA-256`.
    public var description: String {
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
        }
        return (severity == .error ? "error: " : "warning: ") + (where_.isEmpty ? "" : where_ + ": ") + what
    }
}

extension PinPolicy {
    /// Checks the policy and returns every issue found: duplicate domains, empty rules,
    /// missing backup pins, expired rules (relative to `time`), invalid domains, and
    /// the warnings for whole-certificate and leaf-only pins.
    ///
    /// - Parameters:
    ///   - time: The check time, in seconds since 1970.
    ///   - singlePin: The severity of a list with a single pin when the rule does not
    ///     waive it: ``PinPolicyIssue/Severity/error`` for Tack's JSON, `warning` for
    ///     an `Info.plist`.
    /// - Returns: The issues, in rule order.
    public func validate(at time: Int64, singlePin: PinPolicyIssue.Severity = .error) -> [PinPolicyIssue] {
        var issues: [PinPolicyIssue] = []
        for (index, rule) in rules.enumerated() {
            let domain = rule.domain
            func add(_ kind: PinPolicyIssue.Kind, _ severity: PinPolicyIssue.Severity, list: PinList? = nil) {
                issues.append(PinPolicyIssue(kind, severity: severity, rule: index, domain: domain, list: list))
            }
            if !HostName.isValid(domain) { add(.invalidDomain, .error) }
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
            // A side (CA or leaf) with a single pin has no backup. The two lists of a
            // side are one OR-list, so they are counted together.
            for (side, lists) in [(PinList.caIdentities, [PinList.caIdentities, .caCertificates]), (.leafIdentities, [.leafIdentities, .leafCertificates])] {
                let total = lists.reduce(0) { $0 + rule.count(of: $1) }
                if total == 1 && !rule.waivesBackupPin { add(.missingBackupPin, singlePin, list: side) }
            }
            if let expiration = rule.expiration, time >= expiration { add(.expired(expiration: expiration), .warning) }
            if !rule.caCertificates.isEmpty { add(.wholeCertificatePins, .warning, list: .caCertificates) }
            if !rule.leafCertificates.isEmpty { add(.wholeCertificatePins, .warning, list: .leafCertificates) }
            if !rule.hasCAPins { add(.onlyLeafPins, .warning) }
        }
        return issues
    }
}

/// RFC 3339 timestamps (UTC) for policies, reports and messages, through TackDER's
/// ``DERTime`` (years 0...9999).
public enum RFC3339 {
    /// `2026-12-01T12:00:00Z`, or the number of seconds when outside years 0...9999.
    public static func format(_ seconds: Int64) -> String {
        guard let time = try? DERTime(secondsSince1970: seconds) else { return "\(seconds) s since 1970" }
        return time.description
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS`, an optional fraction (ignored: the core counts
    /// whole seconds), and `Z` or a `+HH:MM`/`-HH:MM` offset (RFC 3339 §5.6), into
    /// seconds since 1970. Leap second 60 is refused (RFC 5280 has none either).
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for byte in b[start..<(start + count)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let time = try? DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var index = 19
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 { index += 1 }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        if b[index] == UInt8(ascii: "Z") || b[index] == UInt8(ascii: "z") {
            index += 1
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            guard index + 6 == b.count, b[index + 3] == UInt8(ascii: ":"),
                let offsetHours = number(index + 1, 2), let offsetMinutes = number(index + 4, 2), offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = (offsetHours * 60 + offsetMinutes) * 60 * (b[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == b.count else { return nil }
        return time.secondsSince1970 - Int64(offset)
    }
}

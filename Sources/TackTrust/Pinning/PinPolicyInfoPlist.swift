internal import TackFormats
internal import TackX509

// The Info.plist (App Transport Security) half of the policy loader.

extension PolicyLoader {
    mutating func appTransportSecurityRules(_ root: PropertyListValue) -> [PinRule] {
        guard expect(PolicyValueType(root), .dictionary, offset: 0), let top = root.dictionaryValue else { return [] }
        guard let ats = top.entry(for: "NSAppTransportSecurity") else {
            // A near miss is why pinning never takes effect: said where it is written.
            for entry in top.entries {
                if let intended = ATSKeys.nearMiss(entry.key, among: ["NSAppTransportSecurity"]) {
                    warn(.misspeltKey(entry.key, intended: intended), at: entry.location)
                }
            }
            format(.missingKey(.appTransportSecurity), offset: nil)
            return []
        }
        guard expect(PolicyValueType(ats.value), .dictionary, offset: ats.location.offset), let atsDictionary = ats.value.dictionaryValue else { return [] }
        checkATSKeys(atsDictionary)
        guard let pinned = atsDictionary.entry(for: "NSPinnedDomains") else {
            format(.missingKey(.pinnedDomains), offset: ats.location.offset)
            return []
        }
        guard expect(PolicyValueType(pinned.value), .dictionary, offset: pinned.location.offset), let domains = pinned.value.dictionaryValue else { return [] }
        var rules: [PinRule] = []
        for member in domains.entries {
            let index = rules.count
            let written = member.key
            if written.utf8.contains(UInt8(ascii: "*")) {
                // ATS compares domain keys literally: the rule would pin nothing.
                warn(.wildcardDomain, at: member.location, domain: written)
                continue
            }
            writtenDomains.append(written)
            places[PinPlace(rule: index, list: nil, entry: nil)] = member.location
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
                    places[PinPlace(rule: index, list: list, entry: nil)] = field.location
                    guard expect(PolicyValueType(field.value), .array, offset: offset, rule: index, domain: written, list: list), let entries = field.value.arrayValue else { continue }
                    for (entry, value) in entries.enumerated() {
                        guard expect(PolicyValueType(value), .dictionary, offset: offset, rule: index, domain: written, list: list, entry: entry), let identity = value.dictionaryValue else { continue }
                        for other in identity.entries where other.key != "SPKI-SHA256-BASE64" {
                            warn(ATSKeys.unknown(other.key, among: ["SPKI-SHA256-BASE64"]), at: other.location, rule: index, domain: written)
                        }
                        guard let pin = identity.entry(for: "SPKI-SHA256-BASE64") else {
                            format(.missingKey(.spkiSHA256Base64), offset: offset, rule: index, domain: written, list: list, entry: entry)
                            continue
                        }
                        places[PinPlace(rule: index, list: list, entry: entry)] = pin.location
                        guard expect(PolicyValueType(pin.value), .string, offset: pin.location.offset, rule: index, domain: written, list: list, entry: entry), let text = pin.value.stringValue else { continue }
                        // Apple takes exactly the Base64 of the digest here.
                        addPin(text, to: &rule, list: list, rule: index, domain: written, entry: entry, format: .base64)
                    }
                default:
                    if ATSKeys.exceptionDomain.contains(field.key) {
                        warn(.misplacedKey(field.key, expectedIn: "an NSExceptionDomains entry"), at: field.location, rule: index, domain: written)
                    } else {
                        warn(ATSKeys.unknown(field.key, among: ATSKeys.pinnedDomain), at: field.location, rule: index, domain: written)
                    }
                }
            }
        }
        return rules
    }

    /// The keys of `NSAppTransportSecurity` and of its `NSExceptionDomains` entries:
    /// unknown ones, and pin lists where ATS does not read them, are warnings.
    mutating func checkATSKeys(_ ats: PropertyListDictionary) {
        for entry in ats.entries {
            if ATSKeys.topLevel.contains(entry.key) {
                if entry.key == "NSExceptionDomains", let domains = entry.value.dictionaryValue {
                    for domain in domains.entries {
                        guard let fields = domain.value.dictionaryValue else { continue }
                        for field in fields.entries where !ATSKeys.exceptionDomain.contains(field.key) {
                            let expected = ATSKeys.pinnedDomain.contains(field.key) ? "an NSPinnedDomains entry" : nil
                            warn(expected.map { .misplacedKey(field.key, expectedIn: $0) } ?? ATSKeys.unknown(field.key, among: ATSKeys.exceptionDomain),
                                 at: field.location, domain: domain.key)
                        }
                    }
                }
            } else if ATSKeys.pinnedDomain.contains(entry.key) {
                warn(.misplacedKey(entry.key, expectedIn: "an NSPinnedDomains entry"), at: entry.location)
            } else if ATSKeys.exceptionDomain.contains(entry.key) {
                warn(.misplacedKey(entry.key, expectedIn: "an NSExceptionDomains entry"), at: entry.location)
            } else {
                warn(ATSKeys.unknown(entry.key, among: ATSKeys.topLevel), at: entry.location)
            }
        }
    }
}

/// The keys App Transport Security defines (Apple's Information Property List
/// reference, `NSAppTransportSecurity`).
enum ATSKeys {
    /// Keys of `NSAppTransportSecurity` itself.
    static let topLevel: Set<String> = [
        "NSAllowsArbitraryLoads", "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent",
        "NSAllowsLocalNetworking", "NSExceptionDomains", "NSPinnedDomains",
    ]
    /// Keys of an `NSPinnedDomains` entry.
    static let pinnedDomain: Set<String> = ["NSIncludesSubdomains", "NSPinnedCAIdentities", "NSPinnedLeafIdentities"]
    /// Keys of an `NSExceptionDomains` entry.
    static let exceptionDomain: Set<String> = [
        "NSIncludesSubdomains", "NSExceptionAllowsInsecureHTTPLoads", "NSExceptionMinimumTLSVersion",
        "NSExceptionRequiresForwardSecrecy", "NSRequiresCertificateTransparency",
        "NSThirdPartyExceptionAllowsInsecureHTTPLoads", "NSThirdPartyExceptionMinimumTLSVersion",
        "NSThirdPartyExceptionRequiresForwardSecrecy",
    ]

    /// The issue for a key ATS does not define where it stands: a near miss of one of
    /// `known` (``PinPolicyIssue/Kind/misspeltKey(_:intended:)``), or an unknown key.
    static func unknown(_ key: String, among known: Set<String>) -> PinPolicyIssue.Kind {
        nearMiss(key, among: known).map { .misspeltKey(key, intended: $0) } ?? .unknownKey(key)
    }

    /// The key of `known` within two edits of `key`, ASCII case ignored, or `nil`: the
    /// nearest, a tie going to the first in byte order (a stable answer whatever the
    /// set's order; bytes, so that no Unicode tables are linked into firmware).
    static func nearMiss(_ key: String, among known: Set<String>) -> String? {
        var best: (key: String, distance: Int)?
        for candidate in known {
            guard let distance = editDistance(key, candidate, atMost: 2) else { continue }
            if let current = best, distance > current.distance
                || (distance == current.distance && !candidate.utf8.lexicographicallyPrecedes(current.key.utf8)) { continue }
            best = (candidate, distance)
        }
        return best?.key
    }

    /// The Levenshtein distance of `a` and `b` (UTF-8 bytes, ASCII case ignored) when it
    /// is at most `limit`, or `nil`. Strings whose lengths differ by more are not
    /// compared, so a long hostile key costs one length check.
    static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int? {
        guard abs(a.utf8.count - b.utf8.count) <= limit else { return nil }
        let lower = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte }
        let x = a.utf8.map(lower), y = b.utf8.map(lower)
        var previous = Array(0...y.count)
        for i in x.indices {
            var current = [i + 1] + Array(repeating: 0, count: y.count)
            for j in y.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x[i] == y[j] ? 0 : 1))
            }
            guard current.min() ?? 0 <= limit else { return nil }
            previous = current
        }
        return previous[y.count] <= limit ? previous[y.count] : nil
    }
}

internal import TackFormats
internal import TackX509

// The Info.plist (App Transport Security) half of the policy loader.

extension PolicyLoader {
    mutating func appTransportSecurityRules(_ root: PropertyListValue) -> [PinRule] {
        guard expect(PolicyValueType(root), .dictionary, offset: 0), let top = root.dictionaryValue else { return [] }
        guard let ats = top.entry(for: "NSAppTransportSecurity") else {
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
                        for other in identity.entries where other.key != "SPKI-SHA256-BASE64" {
                            warn(.unknownKey(other.key), at: other.location, rule: index, domain: written)
                        }
                        guard let pin = identity.entry(for: "SPKI-SHA256-BASE64") else {
                            format(.missingKey(.spkiSHA256Base64), offset: offset, rule: index, domain: written, list: list, entry: entry)
                            continue
                        }
                        guard expect(PolicyValueType(pin.value), .string, offset: pin.location.offset, rule: index, domain: written, list: list, entry: entry), let text = pin.value.stringValue else { continue }
                        // Apple takes exactly the Base64 of the digest here.
                        addPin(text, to: &rule, list: list, rule: index, domain: written, entry: entry, format: .base64)
                    }
                default:
                    if ATSKeys.exceptionDomain.contains(field.key) {
                        warn(.misplacedKey(field.key, expectedIn: "an NSExceptionDomains entry"), at: field.location, rule: index, domain: written)
                    } else {
                        warn(.unknownKey(field.key), at: field.location, rule: index, domain: written)
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
                            warn(expected.map { .misplacedKey(field.key, expectedIn: $0) } ?? .unknownKey(field.key), at: field.location, domain: domain.key)
                        }
                    }
                }
            } else if ATSKeys.pinnedDomain.contains(entry.key) {
                warn(.misplacedKey(entry.key, expectedIn: "an NSPinnedDomains entry"), at: entry.location)
            } else if ATSKeys.exceptionDomain.contains(entry.key) {
                warn(.misplacedKey(entry.key, expectedIn: "an NSExceptionDomains entry"), at: entry.location)
            } else {
                warn(.unknownKey(entry.key), at: entry.location)
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
}

import Foundation
import Testing
import TackDER
import TackFormats
import TackTestSupport
@testable import TackTrust
import TackX509

extension PinPolicy {
    /// The pin check alone (internal), for a host given as text.
    func evaluate(host: String, trust: TrustResult, servedChain: [Certificate], at time: Int64) -> PinEvaluation {
        let peer = try? PeerHost(host)
        let index = peer?.dnsName.flatMap { ruleIndex(forNormalized: $0) }
        return evaluate(host: peer, ruleIndex: index, trust: trust, servedChain: servedChain, at: time)
    }

    /// The path preference (internal) for a host given as text.
    func pathPreference(host: String, at time: Int64) -> ((VerifiedPath) -> Bool)? {
        pathPreference(ruleIndex: ruleIndex(for: host), at: time)
    }
}

/// Distinct well-formed pins for policies that need no certificate.
func testPin(_ seed: UInt8) -> SPKIPin {
    SPKIPin(spkiDER: [seed, 0x30, 0x00])
}

let time2026: Int64 = 1_796_126_400  // 2026-12-01T12:00:00Z

@Suite("Pin policy: host matching")
struct PinHostMatchingTests {
    let policy = PinPolicy(rules: [
        PinRule(domain: "example.com", scope: .oneLabelDeeper, caIdentities: [testPin(1), testPin(2)]),
        PinRule(domain: "API.example.COM.", caIdentities: [testPin(3), testPin(4)]),
        PinRule(domain: "exact.org", caIdentities: [testPin(5), testPin(6)]),
        PinRule(domain: "deep.net", scope: .anyDepth, caIdentities: [testPin(7), testPin(8)]),
        PinRule(domain: "okhttp.net", scope: .subdomainsOneLabel, caIdentities: [testPin(9), testPin(10)]),
    ])

    @Test("ATS: NSIncludesSubdomains covers the domain and one label deeper, not two")
    func oneLabel() {
        #expect(policy.ruleIndex(for: "example.com") == 0)
        #expect(policy.ruleIndex(for: "www.example.com") == 0)
        #expect(policy.ruleIndex(for: "v1.www.example.com") == nil)
        #expect(policy.ruleIndex(for: "notexample.com") == nil)
        #expect(policy.ruleIndex(for: "com") == nil)
    }

    @Test("The most specific rule wins; case and a trailing dot do not matter")
    func mostSpecific() {
        #expect(policy.ruleIndex(for: "api.example.com") == 1)
        #expect(policy.ruleIndex(for: "API.Example.Com.") == 1)
        #expect(policy.rules[1].domain == "api.example.com")
        // The exact rule does not extend to its own subdomains.
        #expect(policy.ruleIndex(for: "v1.api.example.com") == nil)
    }

    @Test("Exact rules, TrustKit any-depth, OkHttp *. (subdomains only)")
    func scopes() {
        #expect(policy.ruleIndex(for: "exact.org") == 2)
        #expect(policy.ruleIndex(for: "www.exact.org") == nil)
        #expect(policy.ruleIndex(for: "deep.net") == 3)
        #expect(policy.ruleIndex(for: "a.b.c.deep.net") == 3)
        #expect(policy.ruleIndex(for: "okhttp.net") == nil)
        #expect(policy.ruleIndex(for: "www.okhttp.net") == 4)
        #expect(policy.ruleIndex(for: "a.www.okhttp.net") == nil)
        #expect(policy.ruleIndex(for: "unrelated.example") == nil)
    }

    @Test("Specificity compares bytes: exact, one label, any depth, and the near misses", arguments: [
        ("example.com", HostScope.exact, "example.com", Int.max),
        ("example.com", .subdomainsOneLabel, "example.com", nil),
        ("example.com", .exact, "example.org", nil),  // same length, other bytes
        ("example.com", .anyDepth, "a.b.example.com", 11),
        ("example.com", .oneLabelDeeper, "a.b.example.com", nil),
        ("example.com", .oneLabelDeeper, "aexample.com", nil),  // no dot before the domain
        ("example.com", .anyDepth, ".example.com", nil),  // an empty label before it
        ("example.com", .oneLabelDeeper, "b\u{FC}cher.example.com", 11),  // bytes above 0x7F are a label's like any other
        ("example.com", .anyDepth, "com", nil),
        ("", .anyDepth, "a.b", nil),
        ("", .exact, "", Int.max),
    ] as [(String, HostScope, String, Int?)])
    func specificity(domain: String, scope: HostScope, host: String, expected: Int?) {
        #expect(PinRule.specificity(domain: domain, scope: scope, for: host) == expected)
    }

    @Test("A longer subdomain rule beats a shorter one at any depth")
    func longerDomain() {
        let nested = PinPolicy(rules: [
            PinRule(domain: "example.com", scope: .anyDepth, caIdentities: [testPin(1), testPin(2)]),
            PinRule(domain: "api.example.com", scope: .anyDepth, caIdentities: [testPin(3), testPin(4)]),
        ])
        #expect(nested.ruleIndex(for: "v1.api.example.com") == 1)
        #expect(nested.ruleIndex(for: "www.example.com") == 0)
    }
}

@Suite("Pin policy: validation and loading")
struct PinPolicyLoadingTests {
    let pinA = testPin(1).base64
    let pinB = testPin(2).base64

    func issues(_ json: String, at time: Int64 = time2026) -> [PinPolicyIssue] {
        do {
            return try PinPolicy.load(json: Array(json.utf8), at: time).warnings
        } catch {
            guard case .invalid(let issues) = error else { Issue.record("JSON error \(error)"); return [] }
            return issues
        }
    }

    @Test("A valid Tack JSON policy loads with every field")
    func loads() throws {
        let json = """
            {"version": 1, "domains": {
              "Example.com": {"includeSubdomains": true, "caIdentities": ["\(pinA)", "sha256/\(pinB)"],
                              "leafIdentities": ["\(testPin(3).hex)", "\(pinA)"], "mode": "report-only",
                              "expires": "2027-06-01T00:00:00Z", "reportURIs": ["https://example.com/r"]},
              "**.example.net": {"caIdentities": ["\(pinA)", "\(pinB)"], "expires": 1900000000},
              "*.example.org": {"caIdentities": ["\(pinA)"], "allowSinglePin": true}
            }}
            """
        let loaded = try PinPolicy.load(json: Array(json.utf8), at: time2026)
        let rules = loaded.policy.rules
        #expect(rules.count == 3)
        #expect(rules[0].domain == "example.com")
        #expect(rules[0].scope == .oneLabelDeeper)
        #expect(rules[0].caIdentities == [testPin(1), testPin(2)])
        #expect(rules[0].leafIdentities == [testPin(3), testPin(1)])
        #expect(rules[0].enforcement == .reportOnly)
        #expect(rules[0].expiration == 1_811_808_000)
        #expect(rules[0].reportURIs == ["https://example.com/r"])
        #expect(rules[1].scope == .anyDepth && rules[1].domain == "example.net" && rules[1].expiration == 1_900_000_000)
        #expect(rules[2].scope == .subdomainsOneLabel && rules[2].waivesBackupPin)
        #expect(loaded.warnings.isEmpty)
    }

    @Test("A pin that is not 32 bytes of Base64 names domain, list and entry")
    func invalidPin() {
        let found = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "AAAA", "not base64!"]}}}"#)
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.severity == .error && $0.domain == "example.com" && $0.list == .caIdentities })
        #expect(found.map(\.entry) == [1, 2])
        #expect(found.first?.kind == .invalidPin(.wrongLength(byteCount: 3)))
        #expect(found.first?.description == "error: example.com: caIdentities[1]: pin is 3 bytes, not the 32 of SHA-256")
    }

    @Test("One pin: an error in JSON unless waived, a warning in an Info.plist")
    func backupPin() throws {
        let single = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)"]}}}"#)
        #expect(single.map(\.kind) == [.missingBackupPin])
        #expect(single.first?.severity == .error && single.first?.list == .caIdentities)
        let waived = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)"], "allowSinglePin": true}}}"#)
        #expect(waived.isEmpty)
        // With both lists, each side is its own single point of failure.
        let bothSides = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"], "leafIdentities": ["\#(pinA)"]}}}"#)
        #expect(bothSides.map(\.list) == [.leafIdentities])

        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>CFBundleIdentifier</key><string>com.example</string>
              <key>NSAppTransportSecurity</key><dict>
                <key>NSPinnedDomains</key><dict>
                  <key>example.com</key><dict>
                    <key>NSIncludesSubdomains</key><true/>
                    <key>NSPinnedCAIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>\(pinA)</string></dict></array>
                    <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string>
                  </dict>
                </dict>
              </dict>
            </dict></plist>
            """
        let loaded = try PinPolicy.load(infoPlist: Array(plist.utf8), at: time2026)
        #expect(loaded.policy.rules.count == 1)
        #expect(loaded.policy.rules[0].scope == .oneLabelDeeper)
        #expect(loaded.policy.rules[0].caIdentities == [testPin(1)])
        // The TLS key belongs in NSExceptionDomains: ATS ignores it here, and so is it
        // said (line 10, column 9 of the document), after the single pin's list (line 9).
        #expect(loaded.warnings.map(\.kind) == [.missingBackupPin, .misplacedKey("NSExceptionMinimumTLSVersion", expectedIn: "an NSExceptionDomains entry")])
        #expect(loaded.warnings.map(\.code) == ["missing_backup_pin", "misplaced_key"])
        #expect(loaded.warnings.map { $0.location.map { [$0.line, $0.column] } } == [[9, 9], [10, 9]])
        #expect(loaded.warnings.allSatisfy { $0.severity == .warning })
    }

    @Test("Info.plist: unknown and misplaced keys and wildcard domains are warnings with line and column")
    func infoPlistKeyWarnings() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>NSAppTransportSecurity</key><dict>
                <key>NSPinnedCAIdentities</key><array/>
                <key>NSPinnedDomains</key><dict>
                  <key>example.com</key><dict>
                    <key>NSIncludesSubdomain</key><true/>
                    <key>NSPinnedCAIdentities</key><array>
                      <dict><key>SPKI-SHA256-BASE64</key><string>\(pinA)</string><key>SPKI-SHA256</key><string>x</string></dict>
                      <dict><key>SPKI-SHA256-BASE64</key><string>\(pinB)</string></dict>
                    </array>
                  </dict>
                  <key>*.example.org</key><dict>
                    <key>NSPinnedCAIdentities</key><array/>
                  </dict>
                </dict>
                <key>NSAllowsArbitraryLoadz</key><false/>
              </dict>
            </dict></plist>
            """
        let loaded = try PinPolicy.load(infoPlist: Array(plist.utf8), at: time2026)
        // The wildcard rule is left out; the typo'd subdomain key covers nothing.
        #expect(loaded.policy.rules.map(\.domain) == ["example.com"])
        #expect(loaded.policy.rules[0].scope == .exact)
        let found = loaded.warnings.map { ($0.code, $0.location?.line ?? 0, $0.location?.column ?? 0) }
        let expected: [(String, Int, Int)] = [
            ("misplaced_key", 4, 5), ("wildcard_domain", 13, 7), ("misspelt_key", 17, 5),
            ("misspelt_key", 7, 9), ("unknown_key", 9, 107),
        ]
        #expect(found.map(\.0) == expected.map(\.0))
        #expect(found.map(\.1) == expected.map(\.1))
        #expect(found.map(\.2) == expected.map(\.2))
        #expect(loaded.warnings.map(\.kind) == [
            .misplacedKey("NSPinnedCAIdentities", expectedIn: "an NSPinnedDomains entry"), .wildcardDomain,
            .misspeltKey("NSAllowsArbitraryLoadz", intended: "NSAllowsArbitraryLoads"),
            .misspeltKey("NSIncludesSubdomain", intended: "NSIncludesSubdomains"), .unknownKey("SPKI-SHA256"),
        ])
        #expect(loaded.warnings.allSatisfy { $0.severity == .warning })
        #expect(loaded.warnings[3].description == "7:9: warning: example.com: unknown key \"NSIncludesSubdomain\", ignored by App Transport Security: did you mean \"NSIncludesSubdomains\"?")
    }

    @Test("A binary Info.plist loads to the same policy as its XML twin")
    func binaryInfoPlist() throws {
        let binary = try RepositoryPaths.vectorBytes("plists/example-policy.bplist")
        let xml = try RepositoryPaths.vectorBytes("policies/example.plist")
        let fromBinary = try PinPolicy.load(infoPlist: binary, at: time2026)
        let fromXML = try PinPolicy.load(infoPlist: xml, at: time2026)
        #expect(fromBinary.policy == fromXML.policy)
        #expect(fromBinary.policy.rules.map(\.domain) == ["example.com"])
        #expect(fromBinary.warnings.map(\.kind) == fromXML.warnings.map(\.kind))
    }

    @Test("A binary Info.plist's format error says the byte offset of its key")
    func binaryInfoPlistFormatError() throws {
        // {"NSAppTransportSecurity": {"NSPinnedDomains": "x"}}, laid out from offset 8:
        // the root dict (8), its key (11, 25 bytes), the inner dict (36), "NSPinnedDomains" (39), "x" (57).
        var bytes = Array("bplist00".utf8)
        let objects: [[UInt8]] = [
            [0xD1, 1, 2], [0x5F, 0x10, 22] + Array("NSAppTransportSecurity".utf8), [0xD1, 3, 4],
            [0x5F, 0x10, 15] + Array("NSPinnedDomains".utf8), [0x51, 0x78],
        ]
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 5] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(offsets == [8, 11, 36, 39, 57])
        var expected = PinPolicyIssue(.format(PinPolicyFormatError(.wrongType(expected: .dictionary, found: .string), offset: 39)),
                                      severity: .error, rule: nil, domain: nil)
        expected.location = TextLocation(byteOffset: 39)
        #expect(throws: PinPolicyLoadError.invalid([expected])) {
            try PinPolicy.load(infoPlist: bytes, at: time2026)
        }
    }

    @Test("A binary Info.plist's key warnings say the byte offset of their key")
    func binaryInfoPlistWarnings() throws {
        let binary = try RepositoryPaths.vectorBytes("plists/policy-warnings.bplist")
        let xml = try RepositoryPaths.vectorBytes("plists/policy-warnings.plist")
        let fromBinary = try PinPolicy.load(infoPlist: binary, at: time2026)
        let fromXML = try PinPolicy.load(infoPlist: xml, at: time2026)
        #expect(fromBinary.policy == fromXML.policy)
        // The same warnings (the order within a rule follows each file's layout).
        let kinds = { (loaded: LoadedPinPolicy) in Set(loaded.warnings.map { "\($0.kind)" }) }
        #expect(kinds(fromBinary) == kinds(fromXML))
        #expect(fromBinary.warnings.count == 5)
        for warning in fromBinary.warnings {
            let location = try #require(warning.location)
            #expect(location.isBinary && location.line == 0 && location.column == 0)
            #expect(warning.description.hasPrefix("byte \(location.offset): warning: "))
            // The offset is the key's string object: an ASCII string marker, then the key.
            let key: String
            switch warning.kind {
            case .unknownKey(let name), .misplacedKey(let name, _), .misspeltKey(let name, _): key = name
            case .wildcardDomain: key = try #require(warning.domain)
            default: Issue.record("unexpected warning \(warning)"); continue
            }
            // (Counts of 15 and more follow the marker as a one-byte integer, 0x10 N.)
            let marker = binary[location.offset]
            let short = Int(marker & 0x0F) < 15
            #expect(marker >> 4 == 0x5)
            #expect(short ? Int(marker & 0x0F) == key.utf8.count : binary[location.offset + 1] == 0x10 && Int(binary[location.offset + 2]) == key.utf8.count)
            #expect(Array(binary[(location.offset + (short ? 1 : 3))...].prefix(key.utf8.count)) == Array(key.utf8))
        }
    }

    @Test("A pin written twice (as text, or once Base64 and once sha256/ or hex) is one key: an error in JSON, and no backup")
    func duplicatePinsJSON() {
        let key = testPin(1)
        for (first, second) in [(key.base64, key.base64), (key.base64, key.sha256Base64), (key.hex, key.base64)] {
            let found = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(first)", "\#(second)"]}}}"#)
            #expect(found.map(\.kind) == [.duplicatePin(firstEntry: 0), .missingBackupPin])
            #expect(found.map(\.code) == ["duplicate_pin", "missing_backup_pin"])
            #expect(found.allSatisfy { $0.severity == .error && $0.list == .caIdentities })
            #expect(found.first?.entry == 1)
            #expect(found.first?.description == "error: example.com: caIdentities[1]: the same key as caIdentities[0] (pins compare by their digest, whatever their form): remove one")
        }
        // A waiver accepts one key, not the same key twice.
        let waived = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(key.base64)", "\#(key.hex)"], "allowSinglePin": true}}}"#)
        #expect(waived.map(\.kind) == [.duplicatePin(firstEntry: 0)])
        // Two distinct keys and a third written twice: the backup rule holds; the duplicate is still said.
        let three = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)", "sha256/\#(pinB)"]}}}"#)
        #expect(three.map(\.kind) == [.duplicatePin(firstEntry: 1)])
        #expect(three.first?.entry == 2)
    }

    @Test("Info.plist: a pin written twice is a warning at its line and column; the backup rule counts distinct keys")
    func duplicatePinsPlist() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>NSAppTransportSecurity</key><dict>
                <key>NSPinnedDomains</key><dict>
                  <key>example.com</key><dict>
                    <key>NSPinnedCAIdentities</key><array>
                      <dict><key>SPKI-SHA256-BASE64</key><string>\(pinA)</string></dict>
                      <dict><key>SPKI-SHA256-BASE64</key><string>\(pinA)</string></dict>
                    </array>
                  </dict>
                </dict>
              </dict>
            </dict></plist>
            """
        let loaded = try PinPolicy.load(infoPlist: Array(plist.utf8), at: time2026)
        #expect(loaded.warnings.map(\.kind) == [.missingBackupPin, .duplicatePin(firstEntry: 0)])
        #expect(loaded.warnings.allSatisfy { $0.severity == .warning })
        #expect(loaded.warnings.map { $0.location.map { [$0.line, $0.column] } } == [[6, 9], [8, 17]])
        #expect(loaded.warnings[1].description.hasPrefix("8:17: warning: example.com: caIdentities[1]: the same key as caIdentities[0]"))
    }

    @Test("Info.plist: a sha256/ pin is named as OkHttp's prefix, at its line and column")
    func okHttpPrefixInPlist() {
        let plist = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
            <key>example.com</key><dict><key>NSPinnedCAIdentities</key><array>
            <dict><key>SPKI-SHA256-BASE64</key><string>sha256/\(pinA)</string></dict>
            <dict><key>SPKI-SHA256-BASE64</key><string>\(pinB)</string></dict>
            </array></dict></dict></dict></dict></plist>
            """
        #expect(throws: PinParseError.unexpectedPrefix) { try SPKIPin("sha256/\(pinA)", format: .base64) }
        do {
            _ = try PinPolicy.load(infoPlist: Array(plist.utf8), at: time2026)
            Issue.record("accepted")
        } catch {
            guard case .invalid(let found) = error else { Issue.record("\(error)"); return }
            #expect(found.map(\.kind) == [.invalidPin(.unexpectedPrefix)])
            #expect(found.first?.description == "3:7: error: example.com: caIdentities[0]: the OkHttp prefix sha256/: ATS wants the bare Base64 (remove the prefix)")
        }
    }

    @Test("Info.plist: near-miss spellings of the keys on the pinning path, and domains differing only in case, at their places")
    func misspeltKeysAndCaseDuplicates() throws {
        func plist(ats: String = "NSAppTransportSecurity", pinned: String = "NSPinnedDomains", second: String = "other.example") -> [UInt8] {
            Array("""
                <plist version="1.0"><dict>
                <key>\(ats)</key><dict><key>\(pinned)</key><dict>
                <key>example.com</key><dict><key>NSPinnedCAIdentities</key><array>
                <dict><key>SPKI-SHA256-BASE64</key><string>\(pinA)</string></dict><dict><key>SPKI-SHA256-BASE64</key><string>\(pinB)</string></dict>
                </array></dict>
                <key>\(second)</key><dict><key>NSPinnedCAIdentities</key><array>
                <dict><key>SPKI-SHA256-BASE64</key><string>\(pinA)</string></dict><dict><key>SPKI-SHA256-BASE64</key><string>\(pinB)</string></dict>
                </array></dict>
                </dict></dict></dict></plist>
                """.utf8)
        }
        func found(_ bytes: [UInt8]) -> [String] {
            let all: [PinPolicyIssue]
            do { all = try PinPolicy.load(infoPlist: bytes, at: time2026).warnings } catch {
                guard case .invalid(let issues) = error else { return ["\(error)"] }
                all = issues
            }
            return all.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.severity == .error ? "error" : "warning") \($0.kind)" }
        }
        #expect(found(plist()) == [])
        for typo in ["NSAppTransportSecurty", "nsapptransportsecurity", "NSAppTransportSecuirty"] {
            #expect(found(plist(ats: typo)) == [
                "2:1 warning \(PinPolicyIssue.Kind.misspeltKey(typo, intended: "NSAppTransportSecurity"))",
                "- error \(PinPolicyIssue.Kind.format(PinPolicyFormatError(.missingKey(.appTransportSecurity), offset: nil)))",
            ])
        }
        for typo in ["NSPinnedDomain", "NSPinnedDomians", "NSpinnedDomains"] {
            let issues = found(plist(pinned: typo))
            #expect(issues.contains("2:40 warning \(PinPolicyIssue.Kind.misspeltKey(typo, intended: "NSPinnedDomains"))"))
            #expect(issues.contains { $0.contains("error") && $0.contains("missing key \"NSPinnedDomains\"") })
        }
        // Too far from every key: unknown, not a near miss.
        #expect(found(plist(pinned: "NSPinnedHosts")).contains { $0.contains("unknownKey(\"NSPinnedHosts\")") })
        #expect(found(plist(second: "Example.COM")) == ["6:1 error \(PinPolicyIssue.Kind.duplicateDomain(firstRule: 0))"])
    }

    @Test("Duplicate domains (case-insensitive, overlapping scopes), empty rules, expired rules")
    func structural() {
        let duplicate = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"]}, "EXAMPLE.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"]}}}"#)
        #expect(duplicate.map(\.kind) == [.duplicateDomain(firstRule: 0)])
        #expect(duplicate.first?.domain == "EXAMPLE.com")
        // An exact rule and an OkHttp subdomains-only rule for one domain do not overlap.
        let disjoint = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"]}, "*.example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"]}}}"#)
        #expect(disjoint.isEmpty)
        let empty = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": []}}}"#)
        #expect(empty.map(\.kind) == [.emptyRule])
        let expired = issues(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"], "expires": "2026-06-01T00:00:00Z"}}}"#)
        #expect(expired.map(\.kind) == [.expired(expiration: 1_780_272_000)])
        #expect(expired.first?.severity == .warning)
        let badDomain = issues(#"{"version": 1, "domains": {"exa mple.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"]}}}"#)
        #expect(badDomain.map(\.kind) == [.invalidDomain])
    }

    @Test("Format errors: unknown keys, wrong types, missing keys, version, dates, modes")
    func format() {
        func reasons(_ json: String) -> [PinPolicyFormatError.Reason] {
            issues(json).compactMap { if case .format(let error) = $0.kind { return error.reason } else { return nil } }
        }
        #expect(reasons(#"{"version": 1, "domains": {"example.com": {"includeSubdomian": true, "caIdentities": ["\#(pinA)", "\#(pinB)"]}}}"#) == [.unknownKey("includeSubdomian")])
        #expect(reasons(#"{"version": 2, "domains": {}}"#) == [.unsupportedVersion])
        #expect(reasons(#"{"domains": {}}"#) == [.missingKey(.version)])
        #expect(reasons(#"[]"#) == [.wrongType(expected: .dictionary, found: .array)])
        #expect(reasons(#"{"version": 1, "domains": {"example.com": {"caIdentities": "\#(pinA)"}}}"#).first == .wrongType(expected: .array, found: .string))
        #expect(reasons(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"], "expires": "tomorrow"}}}"#) == [.invalidDate])
        #expect(reasons(#"{"version": 1, "domains": {"example.com": {"caIdentities": ["\#(pinA)", "\#(pinB)"], "mode": "audit"}}}"#) == [.invalidMode])
        #expect(reasons(#"{"version": 1, "domains": {"*.example.com": {"includeSubdomains": true, "caIdentities": ["\#(pinA)", "\#(pinB)"]}}}"#) == [.conflictingSubdomains])
        let offset = issues(#"{"version": 1, "bogus": 1, "domains": {}}"#).first
        #expect(offset?.description == "1:16: error: unknown key \"bogus\" (byte 15)")
        #expect(offset?.code == "unknown_key")
    }

    @Test("JSON syntax errors surface as such")
    func syntax() {
        #expect(throws: PinPolicyLoadError.json(JSONError(.unexpectedByte(UInt8(ascii: "}")), at: TextLocation(line: 1, column: 27, offset: 26)))) {
            try PinPolicy.load(json: Array(#"{"version": 1, "domains": }"#.utf8), at: 0)
        }
    }

    @Test("Info.plist errors name the domain, list, entry and the key's byte offset")
    func plistErrors() {
        let plist = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
            <key>example.com</key><dict><key>NSIncludesSubdomains</key><string>YES</string>
            <key>NSPinnedCAIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>sha256/\(pinA)</string></dict><dict/></array></dict>
            </dict></dict></dict></plist>
            """
        do {
            _ = try PinPolicy.load(infoPlist: Array(plist.utf8), at: time2026)
            Issue.record("accepted")
        } catch {
            guard case .invalid(let issues) = error else { Issue.record("\(error)"); return }
            func offset(of text: String) -> Int? {
                let bytes = Array(plist.utf8), needle = Array(text.utf8)
                return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
            }
            // The bad boolean, the bad pin, the identity without its key, and (no pin left) the empty rule.
            #expect(issues.count == 4)
            #expect(issues.allSatisfy { $0.domain == "example.com" && $0.severity == .error })
            #expect(issues.contains { $0.kind == .emptyRule })
            let kinds = issues.map(\.kind)
            #expect(kinds.contains(.format(PinPolicyFormatError(.wrongType(expected: .boolean, found: .string), offset: offset(of: "<key>NSIncludesSubdomains")))))
            // NSPinnedDomains wants the bare Base64, not OkHttp's sha256/ form.
            #expect(issues.contains { $0.list == .caIdentities && $0.entry == 0 && { if case .invalidPin = $0.kind { true } else { false } }($0) })
            #expect(issues.contains { $0.entry == 1 && $0.kind == .format(PinPolicyFormatError(.missingKey(.spkiSHA256Base64), offset: offset(of: "<key>NSPinnedCAIdentities"))) })
        }
        #expect(throws: PinPolicyLoadError.propertyList(PropertyListError(.unexpectedEnd, at: TextLocation(line: 1, column: 14, offset: 13)))) {
            try PinPolicy.load(infoPlist: Array("<plist><dict>".utf8), at: 0)
        }
        #expect(throws: PinPolicyLoadError.invalid([PinPolicyIssue(.format(PinPolicyFormatError(.missingKey(.appTransportSecurity), offset: nil)), severity: .error, rule: nil, domain: nil)])) {
            try PinPolicy.load(infoPlist: Array("<plist version=\"1.0\"><dict/></plist>".utf8), at: 0)
        }
    }

    @Test("Every Info.plist vector loads to the same rules as its JSON twin", .enabled(if: PolicyVectors.available, "Vectors/policies/certs is missing"))
    func plistJSONTwins() throws {
        let directory = RepositoryPaths.vectors("policies")
        let plists = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".plist") }.sorted()
        #expect(plists.count >= 10)
        for name in plists where name != "single-pin.plist" {
            let stem = String(name.dropLast(".plist".count))
            let plist = try PinPolicy.load(infoPlist: RepositoryPaths.vectorBytes("policies/\(name)"), at: time2026)
            let json = try PinPolicy.load(json: RepositoryPaths.vectorBytes("policies/\(stem).json"), at: time2026)
            // Compare as sets of rules (document order may differ), without the report
            // URIs, which an Info.plist cannot carry.
            func withoutReports(_ rules: [PinRule]) -> Set<PinRule> {
                Set(rules.map { rule in var rule = rule; rule.reportURIs = []; return rule })
            }
            #expect(withoutReports(plist.policy.rules) == withoutReports(json.policy.rules), "\(stem)")
        }
    }

    @Test("RFC 3339 times")
    func times() {
        #expect(RFC3339.parse("2026-12-01T12:00:00Z") == time2026)
        #expect(RFC3339.parse("2026-12-01T13:30:00.25+01:30") == time2026)
        #expect(RFC3339.parse("2026-12-01t12:00:00z") == time2026)
        #expect(RFC3339.parse("2026-02-29T00:00:00Z") == nil)
        #expect(RFC3339.parse("2026-12-01T12:00:00") == nil)
        #expect(RFC3339.parse("2026-12-01 12:00:00Z") == nil)
        #expect(RFC3339.parse("2026-1-01T00:00:00Z") == nil)
        #expect(RFC3339.parse("1970-01-01T00:00:00Z") == 0)
        #expect(RFC3339.format(time2026) == "2026-12-01T12:00:00Z")
    }
}

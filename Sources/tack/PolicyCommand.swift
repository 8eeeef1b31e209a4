// `tack policy convert`: translate a pin policy between Tack's JSON, NSPinnedDomains,
// TrustKit's configuration dictionary and OkHttp's CertificatePinner, saying on
// standard error what does not translate.

import Foundation
import TackFormats
import TackTrust
import TackX509

enum PolicyCommand {
    static let help = """
        USAGE: tack policy convert --from json|plist|trustkit --to json|plist|trustkit|okhttp FILE

        Translates a pin policy between Tack's JSON policy, an Info.plist's
        NSAppTransportSecurity → NSPinnedDomains, TrustKit's configuration dictionary (an
        Info.plist with TSKConfiguration → TSKPinnedDomains, or that dictionary alone) and
        OkHttp's CertificatePinner.Builder() as Kotlin code. The result goes to standard
        output; what the target cannot express goes to standard error, one line each:
          ATS       no report-only mode (such rules would be enforced), no expiry, no report
                    URIs, subdomains one label deep only, SPKI pins only
          TrustKit  subdomains at any depth (ATS's one label widens), pins match any
                    certificate of the chain (no leaf/CA sides), SPKI pins only
          OkHttp    no expiry, no report-only, pins match any certificate of the chain,
                    SPKI pins only
        The input is checked as `tack verify --policy` checks it (a JSON policy with a
        single pin is refused unless allowSinglePin).

        EXAMPLES:
          tack policy convert --from plist --to okhttp Vectors/lint/fixed/Info.plist
          tack policy convert --from json --to plist Vectors/policies/example.json

        Exit status: 0 on success (even with losses reported), 1 if the input cannot be
        read or is not a valid policy, 2 on a usage error.
        """

    enum Format: String, CaseIterable {
        case json, plist, trustkit, okhttp
    }

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        var arguments = arguments
        if arguments.first == "convert" { arguments.removeFirst() } else if !(arguments.first?.hasPrefix("-") ?? false) {
            throw .usage(arguments.isEmpty ? "tack policy needs a subcommand: convert" : "unknown policy subcommand \(arguments[0]) (convert)")
        }
        let args = try Arguments(arguments, valued: ["--from", "--to"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        guard let fromText = try args.value("--from"), let from = Format(rawValue: fromText), from != .okhttp else {
            throw .usage("--from needs json, plist or trustkit")
        }
        guard let toText = try args.value("--to"), let to = Format(rawValue: toText) else {
            throw .usage("--to needs json, plist, trustkit or okhttp")
        }
        guard args.operands.count == 1, let path = args.operands.first else { throw .usage("tack policy convert needs one FILE") }
        let now = Int64(Date().timeIntervalSince1970)
        let bytes = try readInput(path, io: io)
        let name = inputName(path)
        let policy: PinPolicy
        switch from {
        case .json:
            do {
                policy = try PinPolicy.load(json: bytes, at: now).policy
            } catch {
                throw CLIError("\(name): the policy was refused:\n" + error.description, code: "policy_refused")
            }
        case .plist:
            policy = try loadPlist(bytes, name: name, at: now, io: io)
        case .trustkit:
            policy = try loadTrustKit(bytes, name: name, io: io)
        case .okhttp:
            throw .usage("--from okhttp is not supported")
        }
        var losses: [String] = []
        switch to {
        case .json: io.emit(writeJSON(policy))
        case .plist: io.emit(writePlist(policy, losses: &losses))
        case .trustkit: io.emit(writeTrustKit(policy, losses: &losses))
        case .okhttp: io.emit(writeOkHttp(policy, losses: &losses))
        }
        for loss in losses { io.warn("does not translate: " + loss) }
        return .success
    }

    // MARK: Readers

    static func parsePlist(_ bytes: [UInt8], name: String) throws(CLIError) -> PropertyListValue {
        do {
            return try PropertyList.parse(bytes)
        } catch {
            throw CLIError("\(name):\(error.location.isBinary ? " " : "")\(error): not a readable property list")
        }
    }

    static func loadPlist(_ bytes: [UInt8], name: String, at now: Int64, io: Console) throws(CLIError) -> PinPolicy {
        _ = try parsePlist(bytes, name: name)
        do {
            // From the bytes, as `verify --policy` reads it: the same issues at the same
            // lines and columns.
            let loaded = try PinPolicy.load(infoPlist: bytes, at: now)
            for warning in loaded.warnings { io.warn("\(name): \(warning)") }
            return loaded.policy
        } catch {
            throw CLIError("\(name): the policy was refused:\n" + error.description, code: "policy_refused")
        }
    }

    /// TrustKit's configuration (TrustKit's README, "Configuration"): TSKPinnedDomains →
    /// domain → TSKPublicKeyHashes (Base64 SPKI SHA-256), TSKIncludeSubdomains (any
    /// depth), TSKEnforcePinning (false: report only), TSKReportUris, TSKExpirationDate
    /// (yyyy-MM-dd, UTC). TrustKit matches a pin against any certificate of the
    /// verified chain; Tack's closest list is caIdentities (above the leaf), and the
    /// leaf side loses that reach, which is reported.
    static func loadTrustKit(_ bytes: [UInt8], name: String, io: Console) throws(CLIError) -> PinPolicy {
        let root = try parsePlist(bytes, name: name)
        guard var configuration = root.dictionaryValue else { throw CLIError("\(name): the root is not a dict") }
        if let nested = configuration["TSKConfiguration"]?.dictionaryValue { configuration = nested }
        guard let domains = configuration["TSKPinnedDomains"]?.dictionaryValue else {
            throw CLIError("\(name): no TSKPinnedDomains (at the root or in TSKConfiguration)")
        }
        var rules: [PinRule] = []
        for domain in domains.entries {
            let at = domain.location.isBinary ? "\(name): \(domain.location)" : "\(name):\(domain.location.line)"
            guard let settings = domain.value.dictionaryValue else { throw CLIError("\(at): \(domain.key) is not a dict") }
            var pins: [SPKIPin] = []
            for (index, item) in (settings["TSKPublicKeyHashes"]?.arrayValue ?? []).enumerated() {
                guard let text = item.stringValue, let pin = try? SPKIPin(text, format: .base64) else {
                    throw CLIError("\(at): \(domain.key): TSKPublicKeyHashes[\(index)] is not a Base64 SHA-256 pin")
                }
                pins.append(pin)
            }
            var expiration: Int64?
            if let text = settings["TSKExpirationDate"]?.stringValue {
                guard let seconds = RFC3339.parse(text + "T00:00:00Z") else {
                    throw CLIError("\(at): \(domain.key): TSKExpirationDate \(text) is not yyyy-MM-dd")
                }
                expiration = seconds
            }
            rules.append(PinRule(
                domain: domain.key,
                scope: settings["TSKIncludeSubdomains"]?.booleanValue == true ? .anyDepth : .exact,
                caIdentities: pins,
                enforcement: settings["TSKEnforcePinning"]?.booleanValue == false ? .reportOnly : .enforce,
                expiration: expiration,
                reportURIs: (settings["TSKReportUris"]?.arrayValue ?? []).compactMap(\.stringValue)
            ))
        }
        io.warn("\(name): TrustKit pins match any certificate of the chain; read as CA identities (certificates above the leaf)")
        return PinPolicy(rules: rules)
    }

    // MARK: Writers

    static func domainKey(_ rule: PinRule) -> String {
        switch rule.scope {
        case .anyDepth: "**." + rule.domain
        case .subdomainsOneLabel: "*." + rule.domain
        case .exact, .oneLabelDeeper: rule.domain
        }
    }

    /// Tack's JSON policy format (README, "Pin policies"; its keys are that format's).
    static func writeJSON(_ policy: PinPolicy) -> String {
        var domains: [(String, JSONValue)] = []
        for rule in policy.rules {
            var fields: [(String, JSONValue)] = []
            if rule.scope == .oneLabelDeeper { fields.append(("includeSubdomains", .bool(true))) }
            if !rule.caIdentities.isEmpty { fields.append(("caIdentities", .strings(rule.caIdentities.map(\.base64)))) }
            if !rule.leafIdentities.isEmpty { fields.append(("leafIdentities", .strings(rule.leafIdentities.map(\.base64)))) }
            if !rule.caCertificates.isEmpty { fields.append(("caCertificates", .strings(rule.caCertificates.map(\.hex)))) }
            if !rule.leafCertificates.isEmpty { fields.append(("leafCertificates", .strings(rule.leafCertificates.map(\.hex)))) }
            if rule.enforcement == .reportOnly { fields.append(("mode", .string("report-only"))) }
            if let expiration = rule.expiration { fields.append(("expires", .string(RFC3339.format(expiration)))) }
            if !rule.reportURIs.isEmpty { fields.append(("reportURIs", .strings(rule.reportURIs))) }
            if rule.waivesBackupPin || [rule.caIdentities.count + rule.caCertificates.count,
                                        rule.leafIdentities.count + rule.leafCertificates.count].contains(1) {
                fields.append(("allowSinglePin", .bool(true)))
            }
            domains.append((domainKey(rule), .object(fields)))
        }
        return JSONValue.object([("version", .int(1)), ("domains", .object(domains))]).serialized()
    }

    static func writePlist(_ policy: PinPolicy, losses: inout [String]) -> String {
        var pinned = PropertyListDictionary()
        for rule in policy.rules {
            var entry = PropertyListDictionary()
            switch rule.scope {
            case .exact: break
            case .oneLabelDeeper: entry["NSIncludesSubdomains"] = .boolean(true)
            case .anyDepth:
                entry["NSIncludesSubdomains"] = .boolean(true)
                losses.append("\(rule.domain): ATS subdomains are one label deep; names deeper than one label are not pinned")
            case .subdomainsOneLabel:
                entry["NSIncludesSubdomains"] = .boolean(true)
                losses.append("\(rule.domain): ATS cannot pin only the subdomains; the domain itself is pinned too")
            }
            func identities(_ pins: [SPKIPin]) -> PropertyListValue {
                .array(pins.map { pin in
                    var item = PropertyListDictionary()
                    item["SPKI-SHA256-BASE64"] = .string(pin.base64)
                    return .dictionary(item)
                })
            }
            if !rule.caIdentities.isEmpty { entry["NSPinnedCAIdentities"] = identities(rule.caIdentities) }
            if !rule.leafIdentities.isEmpty { entry["NSPinnedLeafIdentities"] = identities(rule.leafIdentities) }
            reportCommonLosses(rule, target: "ATS", losses: &losses, hasExpiry: false, hasReportOnly: false)
            pinned[rule.domain] = .dictionary(entry)
        }
        var ats = PropertyListDictionary()
        ats["NSPinnedDomains"] = .dictionary(pinned)
        var root = PropertyListDictionary()
        root["NSAppTransportSecurity"] = .dictionary(ats)
        return String(PropertyList.xmlDocument(.dictionary(root)).dropLast())
    }

    static func writeTrustKit(_ policy: PinPolicy, losses: inout [String]) -> String {
        var pinned = PropertyListDictionary()
        for rule in policy.rules {
            var entry = PropertyListDictionary()
            switch rule.scope {
            case .exact: break
            case .anyDepth: entry["TSKIncludeSubdomains"] = .boolean(true)
            case .oneLabelDeeper:
                entry["TSKIncludeSubdomains"] = .boolean(true)
                losses.append("\(rule.domain): TrustKit subdomains are any depth; the ATS rule covered one label only")
            case .subdomainsOneLabel:
                entry["TSKIncludeSubdomains"] = .boolean(true)
                losses.append("\(rule.domain): TrustKit cannot pin only the subdomains one label deep; the domain and every subdomain are pinned")
            }
            entry["TSKPublicKeyHashes"] = .array((rule.caIdentities + rule.leafIdentities).map { .string($0.base64) })
            if !rule.caIdentities.isEmpty && !rule.leafIdentities.isEmpty {
                losses.append("\(rule.domain): TrustKit has one pin list matched against any certificate; the CA and leaf lists (each needed) become one list (any one suffices)")
            } else if !rule.leafIdentities.isEmpty {
                losses.append("\(rule.domain): TrustKit matches pins against any certificate of the chain, not only the leaf")
            }
            entry["TSKEnforcePinning"] = .boolean(rule.enforcement == .enforce)
            if let expiration = rule.expiration { entry["TSKExpirationDate"] = .string(String(RFC3339.format(expiration).prefix(10))) }
            if !rule.reportURIs.isEmpty { entry["TSKReportUris"] = .array(rule.reportURIs.map { .string($0) }) }
            reportCommonLosses(rule, target: "TrustKit", losses: &losses, hasExpiry: true, hasReportOnly: true)
            pinned[rule.domain] = .dictionary(entry)
        }
        var configuration = PropertyListDictionary()
        configuration["TSKSwizzleNetworkDelegates"] = .boolean(false)
        configuration["TSKPinnedDomains"] = .dictionary(pinned)
        var root = PropertyListDictionary()
        root["TSKConfiguration"] = .dictionary(configuration)
        return String(PropertyList.xmlDocument(.dictionary(root)).dropLast())
    }

    static func writeOkHttp(_ policy: PinPolicy, losses: inout [String]) -> String {
        var lines = ["import okhttp3.CertificatePinner", "", "val certificatePinner = CertificatePinner.Builder()"]
        for rule in policy.rules {
            let patterns: [String]
            switch rule.scope {
            case .exact: patterns = [rule.domain]
            case .oneLabelDeeper: patterns = [rule.domain, "*." + rule.domain]
            case .anyDepth: patterns = ["**." + rule.domain]
            case .subdomainsOneLabel: patterns = ["*." + rule.domain]
            }
            let pins = (rule.caIdentities + rule.leafIdentities).map { "\"\($0.sha256Base64)\"" }
            for pattern in patterns {
                lines.append("    .add(\"\(pattern)\", " + pins.joined(separator: ", ") + ")")
            }
            if !rule.caIdentities.isEmpty && !rule.leafIdentities.isEmpty {
                losses.append("\(rule.domain): OkHttp pins are one list matched against any certificate; the CA and leaf lists (each needed) become one list (any one suffices)")
            } else if !rule.leafIdentities.isEmpty {
                losses.append("\(rule.domain): OkHttp matches pins against any certificate of the chain, not only the leaf")
            }
            reportCommonLosses(rule, target: "OkHttp", losses: &losses, hasExpiry: false, hasReportOnly: false)
        }
        lines.append("    .build()")
        return lines.joined(separator: "\n")
    }

    static func reportCommonLosses(_ rule: PinRule, target: String, losses: inout [String], hasExpiry: Bool, hasReportOnly: Bool) {
        if !hasExpiry, let expiration = rule.expiration {
            losses.append("\(rule.domain): \(target) has no expiry; the rule's expiration \(RFC3339.format(expiration)) is dropped and it never lapses")
        }
        if !hasReportOnly, rule.enforcement == .reportOnly {
            losses.append("\(rule.domain): \(target) has no report-only mode; the rule is enforced")
        }
        if target != "TrustKit", !rule.reportURIs.isEmpty {
            losses.append("\(rule.domain): \(target) sends no reports; report URIs dropped")
        }
        let fingerprints = rule.caCertificates.count + rule.leafCertificates.count
        if fingerprints > 0 {
            losses.append("\(rule.domain): \(target) pins keys only; \(fingerprints) whole-certificate fingerprint\(fingerprints == 1 ? "" : "s") dropped")
        }
    }
}

// `tack verify`: path validation to an anchor, then the pin policy against the
// verified path.

import Foundation
import TackDER
import TackTrust
import TackX509

enum VerifyCommand {
    static let help = """
        USAGE: tack verify CHAIN... --host NAME [--roots FILE]... [--system-roots]
                           [--at TIME] [--policy FILE] [--json]

        Validates the chain a server sent (leaf first: PEM with any number of blocks, DER,
        or the whole output of `openssl s_client -showcerts`; several files are
        concatenated) to a trust anchor for NAME, then checks the pin policy's rule for
        NAME against the VERIFIED path, never against what was merely sent.

        OPTIONS:
          --host NAME        the server name (checked against the leaf; the pin rule key)
          --roots FILE       trust only the anchors in FILE (PEM; repeatable), like
                             SecTrustSetAnchorCertificates
          --system-roots     with --roots: trust the system bundle too
                             (default anchors: \(systemBundle))
          --at TIME          validation time: RFC 3339 (2026-12-01T12:00:00Z) or seconds
                             since 1970; default now
          --policy FILE      a Tack JSON pin policy or an Info.plist (NSPinnedDomains),
                             told apart by content
          --json             one JSON object: verdict, failures, path, pin check, policy
                             warnings, and the failure report when there is one

        Prints the verdict, the verified path (each certificate's subject and SPKI pin),
        every failure reason, and with a policy the rule that applied, which pins matched
        which certificate, the expected, served and verified pins, and the classic
        causes of a mismatch.

        EXIT STATUS:
          0  trusted, and the pins hold, or no rule applies, or the rule is report-only
             or expired
          3  not trusted: path validation failed
          4  trusted, but the pin check failed (enforced rule)
          1  bad input: unreadable or malformed chain, roots or policy
          2  usage error
        """

    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    static func run(_ arguments: [String]) throws(CLIError) {
        let args = try Arguments(arguments, valued: ["--host", "--roots", "--at", "--policy"], switches: ["--system-roots", "--json"])
        if args.wantsHelp {
            emit(help)
            return
        }
        let rootPaths = args.values("--roots")
        guard !args.operands.isEmpty else { throw .usage("tack verify needs a CHAIN file (or - for standard input); see tack verify --help") }
        guard let host = try args.value("--host"), !host.isEmpty else { throw .usage("tack verify needs --host NAME") }
        if args.isSet("--system-roots") && rootPaths.isEmpty { throw .usage("--system-roots goes with --roots (the system bundle is the default)") }
        let time = try args.time("--at")
        let peer: PeerHost
        do { peer = try PeerHost(host) } catch { throw .usage("--host \(host): \(error)") }

        // Inputs (status 1 on any problem).
        var served: [Certificate] = []
        for path in args.operands {
            let name = path == "-" ? "<stdin>" : path
            for object in try readObjectsStrictly(try readInput(path), name: name) {
                guard case .certificate(let certificate) = object else { throw CLIError("\(name): a chain holds certificates, not bare public keys") }
                served.append(certificate)
            }
        }
        var anchors = AnchorStore()
        for path in rootPaths { anchors = anchors.merging(try readRoots(path)) }
        if rootPaths.isEmpty || args.isSet("--system-roots") { anchors = anchors.merging(try readRoots(systemBundle)) }
        var policy = PinPolicy(rules: [])
        var warnings: [PinPolicyIssue] = []
        if let path = try args.value("--policy") {
            let loaded = try loadPolicy(path, at: time)
            policy = loaded.policy
            warnings = loaded.warnings
        }

        let result = TrustEvaluator(anchors: anchors).evaluate(servedChain: served, host: peer, at: time, pinning: policy)
        let status: Int32 = switch result { case .trusted: 0; case .untrusted: 3; case .pinMismatch: 4 }
        let report = result.details.pins.outcome.needsReport ? PinFailureReport(decision: result, port: 443) : nil
        if args.isSet("--json") {
            emit(json(result, served: served, warnings: warnings, report: report, host: host, time: time, hasPolicy: try args.value("--policy") != nil))
        } else {
            emit(text(result, served: served, warnings: warnings, report: report, hasPolicy: try args.value("--policy") != nil))
        }
        if status != 0 { exit(status) }
    }

    // MARK: Inputs

    static func readRoots(_ path: String) throws(CLIError) -> AnchorStore {
        var store = AnchorStore()
        for object in try readObjectsStrictly(try readInput(path), name: path) {
            if case .certificate(let certificate) = object { store.add(certificate) }
        }
        return store
    }

    /// A Tack JSON policy if the first non-whitespace byte is `{`, an XML property list
    /// (`Info.plist`) otherwise; both read by the core.
    static func loadPolicy(_ path: String, at time: Int64) throws(CLIError) -> LoadedPinPolicy {
        let bytes = try readInput(path)
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        do throws(PinPolicyLoadError) {
            if first == UInt8(ascii: "{") { return try PinPolicy.load(json: bytes, at: time) }
            return try PinPolicy.load(infoPlist: bytes, at: time)
        } catch {
            throw CLIError("\(path): the policy was refused:\n" + error.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
    }

    // MARK: Output

    static func subject(_ certificate: Certificate) -> String {
        guard let name = try? DistinguishedName(derEncoded: certificate.derEncoded, range: certificate.subjectRange) else {
            return "(undecodable subject)"
        }
        return name.isEmpty ? "(empty subject)" : name.rfc4514String
    }

    static func outcomeName(_ outcome: PinOutcome) -> String {
        switch outcome {
        case .notEvaluated: return "not-evaluated"
        case .notPinned: return "not-pinned"
        case .satisfied: return "satisfied"
        case .failed: return "failed"
        case .failedReportOnly: return "failed-report-only"
        case .ruleExpired: return "rule-expired"
        }
    }

    static func scopeText(_ scope: HostScope) -> String {
        switch scope {
        case .exact: return "this host only"
        case .oneLabelDeeper: return "and subdomains one label deeper"
        case .anyDepth: return "and subdomains at any depth"
        case .subdomainsOneLabel: return "subdomains one label deeper only"
        }
    }

    static func ruleLists(_ rule: PinRule) -> [(PinList, [String])] {
        [
            (.caIdentities, rule.caIdentities.map(\.base64)), (.leafIdentities, rule.leafIdentities.map(\.base64)),
            (.caCertificates, rule.caCertificates.map(\.base64)), (.leafCertificates, rule.leafCertificates.map(\.base64)),
        ].filter { !$0.1.isEmpty }
    }

    static func text(_ result: TrustDecision, served: [Certificate], warnings: [PinPolicyIssue], report: PinFailureReport?, hasPolicy: Bool) -> String {
        var lines: [String] = []
        let path: VerifiedPath?
        switch result {
        case .trusted(let verified, _), .pinMismatch(let verified, _):
            lines.append("verdict: trusted")
            path = verified
        case .untrusted(let failure, _):
            lines.append("verdict: NOT TRUSTED (\(failure.isFatal ? "fatal" : "recoverable")): \(failure)")
            path = nil
        }
        let failures = result.details.failures
        if let path {
            lines.append("verified path:")
            for (position, certificate) in path.certificates.enumerated() {
                lines.append("  \(position + 1). \(subject(certificate))")
                lines.append("     pin \(certificate.spkiPin.base64)  (\(path.references[position]))")
            }
        } else {
            lines.append("served chain:")
            for (position, certificate) in served.enumerated() {
                lines.append("  \(position + 1). \(subject(certificate))  pin \(certificate.spkiPin.base64)")
            }
        }
        if !failures.isEmpty && path == nil {
            lines.append("reasons:")
            for failure in failures { lines.append("  - \(failure)") }
        }
        if hasPolicy {
            let pins = result.details.pins
            lines.append("pins: \(pins.outcome)")
            if let rule = pins.rule {
                var ruleLine = "  rule: \(rule.domain) (\(scopeText(rule.scope))), " + (rule.enforcement == .enforce ? "enforced" : "report-only")
                if let expiration = rule.expiration { ruleLine += ", expires \(RFC3339.format(expiration))" }
                lines.append(ruleLine)
                for match in pins.matches { lines.append("  matched: \(match)") }
                for (list, pinTexts) in ruleLists(rule) {
                    lines.append("  expected \(list): " + pinTexts.joined(separator: ", "))
                }
                lines.append("  served pins: " + pins.servedPins.map(\.base64).joined(separator: ", "))
                if !pins.verifiedPins.isEmpty { lines.append("  verified pins: " + pins.verifiedPins.map(\.base64).joined(separator: ", ")) }
            }
            if !pins.diagnostics.isEmpty {
                lines.append("diagnostics:")
                for diagnostic in pins.diagnostics { lines.append("  - \(diagnostic)") }
            }
        }
        if !warnings.isEmpty {
            lines.append("policy warnings:")
            for warning in warnings { lines.append("  - \(warning)") }
        }
        if report != nil { lines.append("a failure report would be sent (see --json)") }
        return lines.joined(separator: "\n")
    }

    static func json(_ result: TrustDecision, served: [Certificate], warnings: [PinPolicyIssue], report: PinFailureReport?, host: String, time: Int64, hasPolicy: Bool) -> String {
        let verdict: String
        let verifiedPath: VerifiedPath?
        switch result {
        case .trusted(let path, _), .pinMismatch(let path, _): (verdict, verifiedPath) = ("trusted", path)
        case .untrusted(let failure, _): (verdict, verifiedPath) = (failure.isFatal ? "fatal-failure" : "recoverable-failure", nil)
        }
        let path = (verifiedPath.map { path in
            path.certificates.enumerated().map { position, certificate in
                "{\"subject\": \(JSONText.string(subject(certificate))), \"pin\": \(JSONText.string(certificate.spkiPin.base64)), \"source\": \(JSONText.string(path.references[position].description))}"
            }
        } ?? []).joined(separator: ", ")
        var fields: [(String, String)] = [
            ("host", JSONText.string(host)),
            ("time", JSONText.string(RFC3339.format(time))),
            ("verdict", JSONText.string(verdict)),
            ("decision", JSONText.string(result.code)),
            ("trusted", result.isTrusted ? "true" : "false"),
            ("failures", JSONText.strings(verifiedPath != nil ? [] : result.details.failures.map(\.description))),
            ("path", "[" + path + "]"),
            ("served-pins", JSONText.strings(result.details.pins.servedPins.map(\.base64))),
        ]
        if hasPolicy {
            let pins = result.details.pins
            var pinFields: [(String, String)] = [("outcome", JSONText.string(outcomeName(pins.outcome))), ("code", JSONText.string(pins.outcome.code)), ("description", JSONText.string(pins.outcome.description))]
            if let rule = pins.rule {
                var ruleFields: [(String, String)] = [
                    ("domain", JSONText.string(rule.domain)), ("scope", JSONText.string(rule.scope.description)),
                    ("mode", JSONText.string(rule.enforcement == .enforce ? "enforce" : "report-only")),
                    ("expires", rule.expiration.map { JSONText.string(RFC3339.format($0)) } ?? "null"),
                ]
                for (list, pinTexts) in ruleLists(rule) { ruleFields.append((list.description, JSONText.strings(pinTexts))) }
                pinFields.append(("rule", "{" + ruleFields.map { "\(JSONText.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"))
            } else {
                pinFields.append(("rule", "null"))
            }
            pinFields.append(("matches", "[" + pins.matches.map { "{\"list\": \(JSONText.string($0.list.description)), \"entry\": \($0.entry), \"path-index\": \($0.pathIndex)}" }.joined(separator: ", ") + "]"))
            pinFields.append(("verified-pins", JSONText.strings(pins.verifiedPins.map(\.base64))))
            pinFields.append(("diagnostics", JSONText.strings(pins.diagnostics.map(\.description))))
            pinFields.append(("diagnostic-codes", JSONText.strings(pins.diagnostics.map(\.code))))
            fields.append(("pins", "{" + pinFields.map { "\(JSONText.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"))
        }
        fields.append(("policy-warnings", JSONText.strings(warnings.map(\.description))))
        fields.append(("policy-warning-codes", JSONText.strings(warnings.map(\.code))))
        fields.append(("report", report.map { $0.json.split(separator: "\n").joined(separator: "\n  ") } ?? "null"))
        return "{\n" + fields.map { "  \(JSONText.string($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}"
    }
}


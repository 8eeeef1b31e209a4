// `tack verify`: path validation to an anchor, then the pin policy against the
// verified path.

import TackFormats
import Foundation
import TackDER
import TackTrust
import TackX509

enum VerifyCommand {
    static let help = """
        USAGE: tack verify (CHAIN... --host NAME | --connect HOST[:PORT] [--host NAME]) [--roots FILE]... [--system-roots]
                           [--profile rfc5280|apple] [--at TIME] [--ocsp FILE]... [--crl FILE]... [--revocation none|soft|hard]
                           [--policy FILE] [--strict-policy] [--format text|json] [--json]
                           [--ct-log-list FILE [--ct-policy apple|chrome] [--sct-list FILE]...
                            [--ct-enforce-stale]]

        Validates the chain a server sent (leaf first: PEM with any number of blocks, DER,
        or the whole output of `openssl s_client -showcerts`; several files are
        concatenated) to a trust anchor for NAME, then checks the pin policy's rule for
        NAME against the VERIFIED path, never against what was merely sent.

        OPTIONS:
          --connect HOST[:PORT]
                             verify the server itself: Tack's TLS client connects, and
                             the chain, the stapled OCSP response and the SCTs of the
                             handshake are judged inside it, before the client's
                             Finished (a failed decision aborts the handshake); --host
                             defaults to the server name
        \(Connection.optionsHelp)
          --host NAME        the server: a DNS name in A-label form (xn--… for IDNs; one
                             trailing dot allowed), or an IP address (10.0.0.1,
                             2001:db8::1 or [2001:db8::1]), checked against the leaf's
                             subject alternative names; the pin rule's key
          --roots FILE|DIR   trust only the anchors in FILE (PEM or DER; repeatable), or in
                             every certificate file of DIR (such as /etc/ssl/certs; each
                             file once), like SecTrustSetAnchorCertificates
          --system-roots     trust the system bundle (the default without --roots; with
                             --roots, as well as them): \(systemBundle)
          --profile NAME     rfc5280 (the default: RFC 5280 with the Web PKI profile) or
                             apple (also Apple's TLS server rules, support.apple.com/103769
                             and /102028: RSA keys of 2048 bits or more on the leaf and
                             every CA, id-kp-serverAuth and at most 825 days for leaves
                             from 2019-07-01, at most 398 days for leaves from 2020-09-01
                             under a system anchor); in every profile a SHA-1 signature
                             is weakSignatureAlgorithm and a short key weakKey
          --at TIME          validation time: RFC 3339 (2026-12-01T12:00:00Z) or seconds
                             since 1970; default now
          --ocsp FILE        an OCSP response (DER, or PEM "OCSP RESPONSE" blocks;
                             repeatable): what the server stapled for the leaf or, RFC
                             6961, for an intermediate; matched to certificates by CertID
          --crl FILE         a CRL (DER, or PEM "X509 CRL" blocks; repeatable)
          --revocation MODE  none (nothing checked), soft (the default: a valid "revoked"
                             fails, missing or unusable data is a note) or hard (every
                             certificate but the anchor needs fresh status); Must-Staple
                             certificates need a valid response except with none
          --ct-log-list FILE check Certificate Transparency against this log list (the v3
                             JSON of Chrome's log_list.json or Apple's
                             current_log_list.json): every SCT of the leaf (embedded, in
                             --ocsp responses, in --sct-list) is verified and the policy
                             must hold, else the chain is not trusted (exit 3, code ct)
          --ct-policy NAME   apple (the default; support.apple.com/103214) or chrome
          --sct-list FILE    the TLS signed_certificate_timestamp extension's data
                             (binary SignedCertificateTimestampList; repeatable)
          --ct-enforce-stale enforce the policy even when the log list is over 70 days
                             old (it is reported as stale either way)
          --policy FILE      a Tack JSON pin policy or an Info.plist (NSPinnedDomains),
                             told apart by content
          --strict-policy    a policy warning (printed on standard error and in the JSON)
                             is an error: exit status 1
          --format json      (or --json) one JSON object: the profile, verdict (trusted,
                             untrusted, pinMismatch) and code, failures (code, message), path, pin
                             check with diagnostics (code, message), policy warnings (code,
                             message, line, column), the revocation policy, each path
                             certificate's status source and the revocation notes, and
                             the RFC 7469 failure report when there is one, and
                             with --ct-log-list the ct object (policy, compliant,
                             log_list_timestamp, stale, each SCT's log_id, log,
                             operator, source, timestamp and status)

        Prints the verdict, the verified path (each certificate's subject and SPKI pin),
        every failure reason, where each certificate's revocation status came from (an
        OCSP response, a CRL, or none), and with a policy the rule that applied, which pins matched
        which certificate, the expected, served and verified pins, and the classic
        causes of a mismatch.

        EXAMPLES:
          tack verify --host www.example.com --roots Vectors/certs/chain-root.pem --at 2026-06-01T00:00:00Z Vectors/certs/chain-example.pem
          tack verify --host example.com --roots Vectors/ocsp/certs/root.der --at 2025-06-01T00:00:00Z --ocsp Vectors/ocsp/responses/good-by-name-sha1.der --ocsp Vectors/ocsp/responses/intermediate-good.der --revocation hard Vectors/ocsp/certs/leaf.der Vectors/ocsp/certs/intermediate.der
          tack verify --json --host api.example.com --roots Vectors/policies/certs/root.pem --at 2026-12-01T12:00:00Z --policy Vectors/policies/ca-intermediate.json Vectors/policies/certs/chain.pem

        EXIT STATUS:
          0  trusted, and the pins hold, or no rule applies, or the rule is report-only
             or expired
          3  not trusted: path validation failed, or the CT policy is not met
          4  trusted, but the pin check failed (enforced rule)
          1  bad input: unreadable or malformed chain, roots or policy
          2  usage error
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: Set(["--host", "--roots", "--at", "--policy", "--format", "--ocsp", "--crl", "--revocation", "--profile", "--connect"]
                                                        + CTOptions.valued + Connection.valued),
                                 switches: ["--system-roots", "--json", "--strict-policy", "--ct-enforce-stale"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        let format = try args.outputFormat()
        let connection = try Connection.option(args)
        if connection != nil, !args.operands.isEmpty { throw .usage("tack verify takes CHAIN files or --connect, not both") }
        guard !args.operands.isEmpty || connection != nil else { throw .usage("tack verify needs a CHAIN file (or - for standard input); see tack verify --help") }
        // With --connect, the host defaults to the server's name (or address).
        let hostText = try args.value("--host") ?? connection.map { $0.serverName ?? $0.address.host.description }
        guard let hostText else { throw .usage("tack verify needs --host NAME") }
        let peer = try parsePeer(hostText)
        let time = try args.time("--at")
        let revocationPolicy = try parseRevocationPolicy(try args.value("--revocation"))
        let profile = try parseProfile(try args.value("--profile"))

        // Inputs (status 1 on any problem).
        var served: [Certificate] = []
        for source in InputSource.files(connection == nil ? args.operands : []) {
            for object in try readObjects(try source.read(io: io), name: source.name).strictly() {
                guard case .certificate(let certificate) = object else {
                    throw CLIError("\(source.name): a chain holds certificates, not bare public keys", code: "not_a_certificate")
                }
                served.append(certificate)
            }
        }
        let anchors = try readAnchors(args.values("--roots"), systemRoots: args.isSet("--system-roots"), io: io)
        var options = TrustOptions(profile: profile, revocationPolicy: revocationPolicy)
        for path in args.values("--ocsp") { options.stapledResponses += try readOCSPResponses(path, io: io) }
        for path in args.values("--crl") { options.revocationLists += try readRevocationLists(path, io: io) }
        options.certificateTransparency = try CTOptions.requirement(args, io: io)
        var policy = PinPolicy(rules: [])
        var warnings: [PinPolicyIssue] = []
        let policyPath = try args.value("--policy")
        if let policyPath {
            let loaded = try loadPolicy(policyPath, at: time, io: io)
            policy = loaded.policy
            warnings = loaded.warnings
        }

        // `FILE:LINE:COLUMN: warning: …` (`FILE: byte N: …` in a binary plist): the
        // warning's description starts with its location already.
        for warning in warnings {
            let separator = warning.location.map { $0.isBinary ? ": " : ":" } ?? ": "
            io.warn("\(policyPath ?? "")\(separator)\(warning) [\(warning.code)]")
        }

        let decision: TrustDecision
        if let connection {
            // The decision is made inside the handshake, before the client's Finished,
            // over the served chain with its stapled OCSP responses and SCTs.
            let handshake = try connection.verify(TrustEvaluator(anchors: anchors, options: options), host: peer, policy: policy, time: time)
            decision = handshake.decision
            served = handshake.served
        } else {
            decision = evaluatePinned(served: served, anchors: anchors, host: peer, time: time, policy: policy, options: options)
        }
        let report = decision.details.pins.outcome.needsReport ? PinFailureReport(decision: decision, port: 443) : nil
        // The verdict carries the warnings that concern the host: about no rule, about
        // the rule that applied, or about a rule for the host or a parent domain of it
        // (a misspelt key may be why that rule did not apply). The others concern other
        // hosts, and were printed once on standard error above.
        let ruleDomain = decision.details.pins.rule?.domain.lowercased()
        let host = peer.description.lowercased()
        let hostWarnings = warnings.filter { warning in
            guard let domain = warning.domain?.lowercased() else { return true }
            return domain == ruleDomain || host == domain || host.hasSuffix("." + domain)
        }
        let outcome = Outcome(
            decision: decision, served: served, warnings: hostWarnings, report: report, hasPolicy: policyPath != nil,
            revocationPolicy: revocationPolicy, profile: profile, checksTransparency: options.certificateTransparency != nil,
            unmatched: unmatchedRevocationNotes(options, certificates: served + (verifiedPath(decision)?.certificates ?? [])))
        switch format {
        case .json: io.emit(outcome.json.serialized())
        case .text: io.emit(outcome.text(io: io))
        }
        if args.isSet("--strict-policy"), !warnings.isEmpty {
            io.warn("--strict-policy: \(warnings.count) policy warning\(warnings.count == 1 ? "" : "s")")
            return .failure
        }
        return exitStatus(decision)
    }

    /// What `verify` reports, in either form.
    struct Outcome {
        let decision: TrustDecision
        let served: [Certificate]
        let warnings: [PinPolicyIssue]
        let report: PinFailureReport?
        let hasPolicy: Bool
        let revocationPolicy: RevocationPolicy
        let profile: TrustProfile
        /// Whether `--ct-log-list` asked for Certificate Transparency.
        let checksTransparency: Bool
        /// The OCSP responses and CRLs given that concern no certificate of the path.
        let unmatched: [(code: String, message: String)]

        /// Every failure of an untrusted decision (the verdict's first), with its code.
        var failureMessages: [(code: String, message: String)] {
            guard case .untrusted = decision else { return [] }
            return decision.details.failures.map { ($0.code, $0.description) }
        }

        func text(io: Console) -> String {
            var lines: [String] = []
            switch decision {
            case .trusted: lines.append("verdict: " + io.colored("trusted", .green))
            case .untrusted: lines.append("verdict: " + io.colored("NOT TRUSTED", .red))
            case .pinMismatch: lines.append("verdict: " + io.colored("PIN MISMATCH", .red) + " (the path is valid; the pins fail)")
            }
            lines.append("profile: \(profile)")
            if let path = verifiedPath(decision) {
                lines.append("verified path:")
                for (position, certificate) in path.certificates.enumerated() {
                    lines.append("  \(position + 1). \(subjectLine(certificate))")
                    lines.append("     pin \(certificate.spkiPin.base64)  (\(path.references[position]))")
                    if position < path.revocation.count {
                        lines.append("     revocation: \(path.revocation[position])")
                    }
                }
                lines.append("revocation policy: \(revocationPolicy)")
                if !path.revocationNotes.isEmpty {
                    lines.append("revocation notes (ignored under soft-fail):")
                    for note in path.revocationNotes { lines.append("  - \(note) [\(note.code)]") }
                }
            } else {
                lines.append("served chain:")
                for (position, certificate) in served.enumerated() {
                    lines.append("  \(position + 1). \(subjectLine(certificate))  pin \(certificate.spkiPin.base64)")
                }
            }
            if !unmatched.isEmpty {
                lines.append("notes:")
                for note in unmatched { lines.append("  - \(note.message) [\(note.code)]") }
            }
            if !failureMessages.isEmpty {
                lines.append("reasons:")
                for failure in failureMessages { lines.append("  - \(failure.message) [\(failure.code)]") }
            }
            if hasPolicy {
                let pins = decision.details.pins
                let outcome = "\(pins.outcome)"
                lines.append("pins: " + (pins.outcome.isFailure ? io.colored(outcome, .red) : outcome))
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
                    for diagnostic in pins.diagnostics { lines.append("  - \(diagnostic) [\(diagnostic.code)]") }
                }
            }
            if !warnings.isEmpty {
                lines.append("policy warnings:")
                // The description starts with the location, when there is one.
                for warning in warnings { lines.append("  - \(warning) [\(warning.code)]") }
            }
            if let evaluation = decision.details.certificateTransparency { lines += CTOptions.text(evaluation, io: io) }
            if report != nil { lines.append("a failure report would be sent (see --format json)") }
            return lines.joined(separator: "\n")
        }

        /// The decision's case: `trusted`, `untrusted` or `pin_mismatch`.
        var verdictName: String {
            switch decision {
            case .trusted: "trusted"
            case .untrusted: "untrusted"
            case .pinMismatch: "pin_mismatch"
            }
        }

        var json: JSONValue {
            let path: [JSONValue] = verifiedPath(decision).map { path in
                path.certificates.enumerated().map { position, certificate in
                    .object([("subject", .string(subjectLine(certificate))), ("pin", .string(certificate.spkiPin.base64)),
                             ("source", .string(path.references[position].description)),
                             ("revocation", position < path.revocation.count ? revocationJSON(path.revocation[position]) : .null)])
                }
            } ?? []
            var fields: [(String, JSONValue)] = [
                ("host", .string(decision.details.host?.description ?? "")),
                ("time", .string(RFC3339.format(decision.details.time))),
                ("profile", .string(profile.description)),
                ("verdict", .string(verdictName)),
                ("code", .string(decision.code)),
                ("trusted", .bool(decision.isTrusted)),
                ("failures", .array(failureMessages.map { .object([("code", .string($0.code)), ("message", .string($0.message))]) })),
                ("path", .array(path)),
                ("served_pins", .strings(decision.details.pins.servedPins.map(\.base64))),
                ("revocation_policy", .string(revocationPolicy.description)),
                ("revocation_notes", .array((verifiedPath(decision)?.revocationNotes ?? []).map {
                    .object([("code", .string($0.code)), ("message", .string($0.description))])
                } + unmatched.map { .object([("code", .string($0.code)), ("message", .string($0.message))]) })),
            ]
            if hasPolicy {
                let pins = decision.details.pins
                var ruleValue = JSONValue.null
                if let rule = pins.rule {
                    var ruleFields: [(String, JSONValue)] = [
                        ("domain", .string(rule.domain)), ("scope", .string(rule.scope.description)),
                        ("mode", .string(rule.enforcement == .enforce ? "enforce" : "report-only")),
                        ("expires", .optional(rule.expiration.map(RFC3339.format))),
                    ]
                    for (list, pinTexts) in ruleLists(rule) { ruleFields.append((listKey(list), .strings(pinTexts))) }
                    ruleValue = .object(ruleFields)
                }
                fields.append(("pins", .object([
                    ("outcome", .string(pins.outcome.code)),
                    ("description", .string(pins.outcome.description)),
                    ("rule", ruleValue),
                    ("matches", .array(pins.matches.map {
                        .object([("list", .string(listKey($0.list))), ("entry", .int($0.entry)), ("path_index", .int($0.pathIndex))])
                    })),
                    ("verified_pins", .strings(pins.verifiedPins.map(\.base64))),
                    ("diagnostics", .array(pins.diagnostics.map {
                        .object([("code", .string($0.code)), ("message", .string($0.description))])
                    })),
                ])))
            } else {
                fields.append(("pins", .null))
            }
            fields.append(("policy_warnings", .array(warnings.map(policyWarningJSON))))
            // The report is RFC 7469 §3's document as TackTrust builds it (its keys are
            // that format's, hyphenated), embedded as the value it is.
            fields.append(("report", report?.json ?? .null))
            if checksTransparency { fields.append(("ct", CTOptions.json(decision.details.certificateTransparency))) }
            return .object(fields)
        }
    }

    // MARK: Output

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
}

/// Notes for the revocation data of `options` that concerns none of `certificates`
/// (the served chain and the verified path): an OCSP response none of whose single
/// responses names one of them (`ocsp_response_unmatched`, with the serials it
/// names), a CRL whose issuer issued none of them (`crl_unmatched`). Such data was
/// probably meant for another chain, and is otherwise silently unused.
func unmatchedRevocationNotes(_ options: TrustOptions, certificates: [Certificate]) -> [(code: String, message: String)] {
    var notes: [(code: String, message: String)] = []
    for (index, response) in options.stapledResponses.enumerated() {
        guard let basic = response.basicResponse,
              basic.responses.allSatisfy({ OCSPShow.namedCertificate($0, known: certificates) == nil }) else { continue }
        let serials = basic.responses.map { Hex.encode($0.certID.serialNumber, separator: ":") }.joined(separator: ", ")
        notes.append(("ocsp_response_unmatched", "OCSP response #\(index + 1) names no certificate of the path (serial \(serials))"))
    }
    for (index, list) in options.revocationLists.enumerated() {
        // The issuer decoded when the CRL was read, so this does not fail.
        guard let issuer = try? list.issuer,
              !certificates.contains(where: { $0.derEncoded[$0.issuerRange].elementsEqual(issuer.derEncoded) }) else { continue }
        notes.append(("crl_unmatched", "CRL #\(index + 1) is issued by \(issuer.rfc4514String), the issuer of no certificate of the path"))
    }
    return notes
}

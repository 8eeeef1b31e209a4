// `tack rotation`: the rotation safety check. Would each candidate chain (today's and
// the one about to be deployed), served for its domain, pass the policy's rule for
// that domain, and on which pins?

import TackFormats
import Foundation
import TackTrust
import TackX509

enum RotationCommand {
    static let help = """
        USAGE: tack rotation [--roots FILE]... [--system-roots] [--profile rfc5280|apple] [--at TIME] [--format text|json] [--json]
                             --chain DOMAIN=CHAIN... POLICY

        For each --chain DOMAIN=CHAIN (repeatable: today's chain and the one about to be
        deployed, for each domain; CHAIN is PEM, leaf first), validates CHAIN as tack
        verify does for the host DOMAIN (to the --roots anchors, or the system bundle, at
        --at or now), then checks the pins of POLICY's rule for DOMAIN (a Tack JSON policy
        or an Info.plist; the rule found as for a connection to DOMAIN, so a subdomain
        rule is checked for the very host given) against the verified path. Prints, per
        chain, whether it would pass and on which pin(s), then warns when:
          - a chain passes on a single pin (no margin if that key changes);
          - no pin other than the one(s) in use matches any candidate of the rule (no
            backup deployed);
          - a rule expires before the certificates it protects (the pins lapse while the
            chain is still served);
          - only leaf keys are pinned (every certificate renewal needs an app update).
        A chain for a DOMAIN no rule of POLICY covers fails: there is nothing to check.

        OPTIONS:
          --chain D=FILE   a candidate chain FILE served for host D (repeatable)
          --roots FILE     trust anchors (PEM; repeatable; default: the system CA bundle)
          --system-roots   the system CA bundle (the default; also with --roots)
          --profile NAME   rfc5280 (the default) or apple: the trust profile the chains
                           are validated under, as for tack verify
          --at TIME        the check time, RFC 3339 or seconds since 1970 (default: now)
          --format json    (or --json) one JSON object: "checks" (domain, file, result,
                           matches, warnings) and "rules" (domain, warnings); each warning
                           and failure has its code

        EXAMPLES:
          tack rotation --roots Vectors/certs/chain-root.pem --at 2026-06-01T00:00:00Z \\
            --chain www.example.com=Vectors/certs/chain-example.pem Vectors/policies/example.json

        Exit status: 0 if every candidate passes its rule (warnings allowed), 1 if any
        would fail (or an input cannot be read), 2 on a usage error.
        """

    /// One candidate: a chain served for a domain.
    struct Candidate {
        let peer: PeerHost
        let file: String
        let certificates: [Certificate]
    }

    /// A warning or failure with its stable code.
    struct Note {
        let code: String
        let message: String

        var json: JSONValue { .object([("code", .string(code)), ("message", .string(message))]) }
    }

    /// The verdict on one candidate.
    struct Check {
        let candidate: Candidate
        var passed: Bool
        var failure: Note?
        var matches: [PinMatch]
        var ruleIndex: Int?
        var warnings: [Note]
    }

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--roots", "--at", "--chain", "--format", "--profile"], switches: ["--json", "--system-roots"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        let format = try args.outputFormat()
        guard args.operands.count == 1, let policyPath = args.operands.first else {
            throw .usage(args.operands.count > 1 ? "tack rotation takes one POLICY; give each chain as --chain DOMAIN=CHAIN"
                                                 : "tack rotation needs a POLICY")
        }
        guard !args.values("--chain").isEmpty else { throw .usage("tack rotation needs at least one --chain DOMAIN=CHAIN") }
        var candidates: [Candidate] = []
        for value in args.values("--chain") {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex, value.index(after: equals) != value.endIndex else {
                throw .usage("--chain \(value): expected DOMAIN=CHAIN (www.example.com=chain.pem)")
            }
            let peer = try parsePeer(String(value[..<equals]), option: "--chain")
            let path = String(value[value.index(after: equals)...])
            let name = inputName(path)
            var certificates: [Certificate] = []
            for object in try readObjects(try readInput(path, io: io), name: name).strictly() {
                guard case .certificate(let certificate) = object else {
                    throw CLIError("\(name): a chain holds certificates, not bare public keys", code: "not_a_certificate")
                }
                certificates.append(certificate)
            }
            candidates.append(Candidate(peer: peer, file: name, certificates: certificates))
        }
        let time = try args.time("--at")
        let options = TrustOptions(profile: try parseProfile(try args.value("--profile")))
        let loaded = try loadPolicy(policyPath, at: time, io: io)
        let anchors = try readAnchors(args.values("--roots"), systemRoots: args.isSet("--system-roots"), io: io)

        let checks = candidates.map { evaluate($0, policy: loaded.policy, anchors: anchors, time: time, options: options) }
        let ruleWarnings = ruleNotes(checks, policy: loaded.policy)
        switch format {
        case .json:
            let document = JSONValue.object([
                ("checks", .array(checks.map { check in
                    .object([
                        ("domain", .string(check.candidate.peer.description)), ("file", .string(check.candidate.file)),
                        ("result", .string(check.passed ? "pass" : "fail")),
                        ("failure", check.failure?.json ?? .null),
                        ("rule", .optional(check.ruleIndex.map { loaded.policy.rules[$0].domain })),
                        ("matches", .array(check.matches.map {
                            .object([("list", .string(listKey($0.list))), ("entry", .int($0.entry)), ("path_index", .int($0.pathIndex))])
                        })),
                        ("warnings", .array(check.warnings.map(\.json))),
                    ])
                })),
                ("rules", .array(ruleWarnings.map { .object([("domain", .string($0.domain)), ("warnings", .array($0.notes.map(\.json)))]) })),
            ])
            io.emit(document.serialized())
        case .text:
            for check in checks {
                let host = check.candidate.peer.description
                if check.passed {
                    let pins = check.matches.map { "\($0.list)[\($0.entry)] on path certificate #\($0.pathIndex + 1)" }
                    io.emit("pass  \(host)  \(check.candidate.file): on " + pins.joined(separator: ", "))
                } else {
                    io.emit("FAIL  \(host)  \(check.candidate.file): \(check.failure?.message ?? "")")
                }
                for warning in check.warnings { io.emit("      warning: \(warning.message) [\(warning.code)]") }
            }
            for rule in ruleWarnings {
                for warning in rule.notes { io.emit("rule \(rule.domain): warning: \(warning.message) [\(warning.code)]") }
            }
        }
        let failures = checks.filter { !$0.passed }.count
        let warnings = checks.map(\.warnings.count).reduce(0, +) + ruleWarnings.map(\.notes.count).reduce(0, +)
        io.warn("\(checks.count) chain\(checks.count == 1 ? "" : "s"): \(failures) failing, \(warnings) warning\(warnings == 1 ? "" : "s")")
        return failures > 0 ? .failure : .success
    }

    static func evaluate(_ candidate: Candidate, policy: PinPolicy, anchors: AnchorStore, time: Int64, options: TrustOptions) -> Check {
        let decision = evaluatePinned(
            served: candidate.certificates, anchors: anchors, host: candidate.peer, time: time, policy: policy, options: options)
        let pins = decision.details.pins
        var check = Check(candidate: candidate, passed: false, failure: nil, matches: pins.matches, ruleIndex: pins.ruleIndex, warnings: [])
        if case .untrusted(let failure, _) = decision {
            check.failure = Note(code: failure.code, message: "not trusted: \(failure)")
            return check
        }
        guard let rule = pins.rule else {
            check.failure = Note(code: pins.outcome.code, message: "no rule of the policy covers \(candidate.peer): nothing to check")
            return check
        }
        guard !pins.outcome.isFailure else {
            let diagnostics = pins.diagnostics.map { "; \($0)" }.joined()
            check.failure = Note(code: pins.outcome.code, message: "trusted, but no pin of the rule for \(rule.domain) matches its verified path" + diagnostics)
            return check
        }
        check.passed = true
        // By digest: one key listed twice (in one form or two) is one pin.
        let used = Set(pins.matches.map { rule.digests(of: $0.list)[$0.entry] })
        if used.count == 1, let only = pins.matches.first.map({ "\($0.list)[\($0.entry)]" }) {
            check.warnings.append(Note(code: "single_pin_in_use", message: "passes on a single pin, \(only): if that key changes, the chain fails"))
        }
        if let expiration = rule.expiration, let leaf = candidate.certificates.first, expiration < leaf.validity.notAfter.secondsSince1970 {
            check.warnings.append(Note(code: "rule_expires_first",
                                       message: "the rule expires at \(RFC3339.format(expiration)), before the leaf (valid until \(leaf.validity.notAfter.description)): the pins lapse while it is served"))
        }
        return check
    }

    /// The warnings about each rule some candidate reached: no backup among the
    /// candidates, leaf keys only.
    static func ruleNotes(_ checks: [Check], policy: PinPolicy) -> [(domain: String, notes: [Note])] {
        var result: [(domain: String, notes: [Note])] = []
        for (index, rule) in policy.rules.enumerated() {
            let reaching = checks.filter { $0.ruleIndex == index }
            guard !reaching.isEmpty else { continue }
            var notes: [Note] = []
            // Pins compare by digest: a key listed twice is one pin, and its second
            // entry is no backup.
            let matched = Set(reaching.flatMap { $0.matches.map { rule.digests(of: $0.list)[$0.entry] } })
            let entries = PinList.allCases.flatMap { list in rule.digests(of: list).enumerated().map { (name: "\(list)[\($0.offset)]", digest: $0.element) } }
            let distinct = Set(entries.map(\.digest)).count
            if matched.count <= 1, distinct > 1 {
                let unused = entries.filter { !matched.contains($0.digest) }.map(\.name)
                notes.append(Note(code: "no_backup_deployed",
                                  message: "no backup pin matches any candidate (\(unused.joined(separator: ", ")) match none): deploy a chain that carries a backup key before relying on it"))
            } else if distinct == 1, entries.count > 1 {
                notes.append(Note(code: "missing_backup_pin",
                                  message: "\(entries.map(\.name).joined(separator: ", ")) are one key written \(entries.count) times: the rule has no backup pin; add a key not yet in use"))
            }
            if !rule.hasCAPins && rule.hasLeafPins {
                notes.append(Note(code: "only_leaf_pins", message: "only leaf keys are pinned: every leaf key change needs an app update first; add a CA identity"))
            }
            result.append((rule.domain, notes))
        }
        return result
    }
}

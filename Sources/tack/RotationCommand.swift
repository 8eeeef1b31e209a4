// `tack rotation`: the rotation safety check. Would each candidate chain (today's and
// the one about to be deployed) pass each rule of the policy, and on which pins?

import Foundation
import TackTrust
import TackX509

enum RotationCommand {
    static let help = """
        USAGE: tack rotation [--roots FILE]... [--at TIME] POLICY CHAIN...

        For each domain of POLICY (a Tack JSON policy or an Info.plist) and each candidate
        CHAIN (PEM, leaf first: today's chain and the one about to be deployed), validates
        the chain as tack verify does (to the --roots anchors, or the system bundle, at
        --at or now, for the domain's host name) and checks the domain's pins against the
        verified path. Prints, per domain and chain, whether it would pass and on which
        pin(s), then warns when:
          - a chain passes on a single pin (no margin if that key changes);
          - no pin other than the one(s) in use matches any candidate (no backup deployed);
          - a rule expires before the certificates it protects (the pins lapse while the
            chain is still served);
          - only leaf keys are pinned (every certificate renewal needs an app update).
        A subdomain rule is checked for the host one label below it (www.DOMAIN).

        OPTIONS:
          --roots FILE   trust anchors (PEM; repeatable; default: the system CA bundle)
          --at TIME      the check time, RFC 3339 or seconds since 1970 (default: now)

        EXAMPLES:
          tack rotation --roots Vectors/certs/chain-root.pem --at 2026-06-01T00:00:00Z \\
            Vectors/policies/example.json Vectors/certs/chain-example.pem

        Exit status: 0 if every candidate passes every rule (warnings allowed), 1 if any
        candidate would fail (or an input cannot be read), 2 on a usage error.
        """

    static func run(_ arguments: [String]) throws(CLIError) {
        let args = try Arguments(arguments, valued: ["--roots", "--at"])
        if args.wantsHelp {
            emit(help)
            return
        }
        guard args.operands.count >= 2, let policyPath = args.operands.first else {
            throw .usage("tack rotation needs a POLICY and at least one CHAIN")
        }
        let time = try args.time("--at")
        let loaded = try VerifyCommand.loadPolicy(policyPath, at: time)
        var anchors = AnchorStore()
        let rootPaths = args.values("--roots")
        for path in rootPaths { anchors = anchors.merging(try VerifyCommand.readRoots(path)) }
        if rootPaths.isEmpty { anchors = anchors.merging(try VerifyCommand.readRoots(VerifyCommand.systemBundle)) }
        var chains: [(name: String, certificates: [Certificate])] = []
        for path in args.operands.dropFirst() {
            let name = inputName(path)
            var certificates: [Certificate] = []
            for object in try readObjectsStrictly(try readInput(path), name: name) {
                guard case .certificate(let certificate) = object else { throw CLIError("\(name): a chain holds certificates, not bare public keys") }
                certificates.append(certificate)
            }
            chains.append((name, certificates))
        }

        var failures = 0
        var warnings = 0
        for rule in loaded.policy.rules {
            let host = switch rule.scope {
            case .exact, .oneLabelDeeper, .anyDepth: rule.domain
            case .subdomainsOneLabel: "www." + rule.domain
            }
            emit("\(rule.domain) (checked as \(host)):")
            var matchedEntries = Set<String>()
            for chain in chains {
                guard let peer = try? PeerHost(host) else { throw CLIError("\(rule.domain): not a host name") }
                let result = TrustEvaluator(anchors: anchors).evaluate(servedChain: chain.certificates, host: peer, at: time, pinning: loaded.policy)
                let pinCheck = result.details.pins
                let used = Set(pinCheck.matches.map { "\($0.list)[\($0.entry)]" })
                matchedEntries.formUnion(used)
                let pins = pinCheck.matches.map { match in "\(match.list)[\(match.entry)] on path certificate #\(match.pathIndex + 1)" }
                switch result {
                case .untrusted(let failure, _):
                    failures += 1
                    emit("  FAIL  \(chain.name): not trusted: \(failure)")
                case .pinMismatch:
                    failures += 1
                    emit("  FAIL  \(chain.name): trusted, but no pin of the rule matches its verified path")
                    for diagnostic in pinCheck.diagnostics { emit("        \(diagnostic)") }
                case .trusted:
                    emit("  pass  \(chain.name): on " + (pins.isEmpty ? "(\(pinCheck.outcome))" : pins.joined(separator: ", ")))
                    if used.count == 1 {
                        warnings += 1
                        emit("  warning: \(chain.name) passes on a single pin, \(used.first ?? ""): if that key changes, the chain fails")
                    }
                }
                if let expiration = rule.expiration, let leaf = chain.certificates.first,
                   expiration < leaf.validity.notAfter.secondsSince1970 {
                    warnings += 1
                    emit("  warning: the rule expires at \(RFC3339.format(expiration)), before \(chain.name)'s leaf (valid until \(leaf.validity.notAfter)): the pins lapse while it is served")
                }
            }
            let entries = (0..<rule.caIdentities.count).map { "caIdentities[\($0)]" } + (0..<rule.leafIdentities.count).map { "leafIdentities[\($0)]" }
                + (0..<rule.caCertificates.count).map { "caCertificates[\($0)]" } + (0..<rule.leafCertificates.count).map { "leafCertificates[\($0)]" }
            if matchedEntries.count <= 1, entries.count > 1 {
                warnings += 1
                let unused = entries.filter { !matchedEntries.contains($0) }
                emit("  warning: no backup pin matches any candidate (\(unused.joined(separator: ", ")) match none): deploy a chain that carries a backup key before relying on it")
            }
            if !rule.hasCAPins && rule.hasLeafPins {
                warnings += 1
                emit("  warning: only leaf keys are pinned: every leaf key change needs an app update first; add a CA identity")
            }
        }
        warn("\(chains.count) chain\(chains.count == 1 ? "" : "s") × \(loaded.policy.rules.count) rule\(loaded.policy.rules.count == 1 ? "" : "s"): \(failures) failing, \(warnings) warning\(warnings == 1 ? "" : "s")")
        if failures > 0 { exit(1) }
    }
}

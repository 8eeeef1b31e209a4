// Every call the command line makes into TackTrust's pinned flow, in one place: the
// evaluation, the policy and anchor loading, and the stable codes and RFC 3339 text
// of its results. When TackTrust's API changes, this file is what changes.

import Foundation
import TackDER
import TackTrust
import TackX509

/// The system's CA bundle: the default anchors of `verify` and `rotation`.
let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

/// The chain validated to `anchors` for `peer` at `time`, then `policy`'s rule for the
/// peer checked against the verified path.
func evaluatePinned(served: [Certificate], anchors: AnchorStore, peer: PeerName, time: Int64, policy: PinPolicy) -> PinnedTrustResult {
    let evaluator = TrustEvaluator(anchors: anchors, options: TrustOptions(validationTime: time, peerName: peer))
    return evaluator.evaluate(servedChain: served, pinning: policy, host: ruleHost(peer))
}

/// The exit status of a pinned evaluation: 0 trusted and pins hold (or no rule, or
/// not enforced), 3 not trusted, 4 an enforced pin failure.
func exitStatus(_ result: PinnedTrustResult) -> ExitCode {
    if !result.trust.verdict.isTrusted { return .untrusted }
    return result.pins.outcome.isFailure ? .pinFailure : .success
}

/// The anchors in a PEM or DER file.
func readRoots(_ path: String, io: Console) throws(CLIError) -> AnchorStore {
    var store = AnchorStore()
    for object in try readObjectsStrictly(try readInput(path, io: io), name: path) {
        if case .certificate(let certificate) = object { store.add(certificate) }
    }
    return store
}

/// The anchors of `--roots` (each repeatable), plus the system bundle when no
/// `--roots` is given or `--system-roots` asks for it.
func readAnchors(_ paths: [String], systemRoots: Bool, io: Console) throws(CLIError) -> AnchorStore {
    var anchors = AnchorStore()
    // A directory (`--roots /etc/ssl/certs`) gives every certificate file in it; a file
    // there that holds no certificate (a README, a CRL) is skipped, and said so.
    for path in paths {
        guard let files = try directoryFiles(path) else {
            anchors = anchors.merging(try readRoots(path, io: io))
            continue
        }
        var found = 0
        for file in files {
            do {
                let store = try readRoots(file, io: io)
                found += store.certificates.count
                anchors = anchors.merging(store)
            } catch {
                io.warn("\(error.description): skipped")
            }
        }
        guard found > 0 else { throw CLIError("\(path): no certificate in the directory", code: "nothing_found") }
    }
    if paths.isEmpty || systemRoots { anchors = anchors.merging(try readRoots(systemBundle, io: io)) }
    return anchors
}

/// A Tack JSON policy if the first non-whitespace byte is `{`, an XML property list
/// (`Info.plist`) otherwise; both read by the core.
func loadPolicy(_ path: String, at time: Int64, io: Console) throws(CLIError) -> LoadedPinPolicy {
    let bytes = try readInput(path, io: io)
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    do throws(PinPolicyLoadError) {
        if first == UInt8(ascii: "{") { return try PinPolicy.load(json: bytes, at: time) }
        return try PinPolicy.load(infoPlist: bytes, at: time)
    } catch {
        throw CLIError("\(path): the policy was refused:\n" + error.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"),
                       code: "policy_refused")
    }
}

// MARK: Codes

/// The verdict's code.
func verdictCode(_ verdict: TrustVerdict) -> String {
    switch verdict {
    case .trusted: "trusted"
    case .recoverableFailure: "recoverableFailure"
    case .fatalFailure: "fatalFailure"
    }
}

/// The pin outcome's stable code (the case name, as ``TrustFailure/code`` is).
func outcomeCode(_ outcome: PinOutcome) -> String {
    switch outcome {
    case .notEvaluated: "notEvaluated"
    case .notPinned: "notPinned"
    case .satisfied: "satisfied"
    case .failed: "failed"
    case .failedReportOnly: "failedReportOnly"
    case .ruleExpired: "ruleExpired"
    }
}

/// The diagnostic's stable code (the case name).
func diagnosticCode(_ diagnostic: PinDiagnostic) -> String {
    switch diagnostic {
    case .pinnedCertificateNotOnPath: "pinnedCertificateNotOnPath"
    case .pinMatchesExpiredCertificate: "pinMatchesExpiredCertificate"
    case .rawKeyHash: "rawKeyHash"
    case .caPinMatchesLeaf: "caPinMatchesLeaf"
    case .leafPinMatchesCA: "leafPinMatchesCA"
    case .onlyLeafPins: "onlyLeafPins"
    case .wholeCertificatePins: "wholeCertificatePins"
    }
}

/// The policy issue's stable code (the kind's case name).
func policyIssueCode(_ issue: PinPolicyIssue) -> String {
    switch issue.kind {
    case .invalidPin: "invalidPin"
    case .missingBackupPin: "missingBackupPin"
    case .duplicateDomain: "duplicateDomain"
    case .expired: "expired"
    case .emptyRule: "emptyRule"
    case .invalidDomain: "invalidDomain"
    case .wholeCertificatePins: "wholeCertificatePins"
    case .onlyLeafPins: "onlyLeafPins"
    case .format: "format"
    }
}

/// A pin list's name as a JSON key (snake_case).
func listKey(_ list: PinList) -> String {
    switch list {
    case .caIdentities: "ca_identities"
    case .leafIdentities: "leaf_identities"
    case .caCertificates: "ca_certificates"
    case .leafCertificates: "leaf_certificates"
    }
}

// MARK: Messages

/// "N days" between two times, for messages.
func daysText(_ seconds: Int64) -> String {
    let days = seconds.magnitude / 86_400
    return "\(days) day\(days == 1 ? "" : "s")"
}

/// One line a person can act on for a trust failure: times in RFC 3339 with their
/// distance from the check time, the leaf's names beside the peer on a mismatch, the
/// issuer looked for when none is trusted.
func failureMessage(_ failure: TrustFailure, served: [Certificate], peer: PeerName, time: Int64) -> String {
    let concerned: Certificate? = if case .served(let index)? = failure.certificate, served.indices.contains(index) { served[index] } else { nil }
    let about = failure.certificate.map { " (\($0)\(concerned.map { ": " + subjectLine($0) } ?? ""))" } ?? ""
    switch failure.reason {
    case .expired(let notAfter):
        return "certificate expired at \(RFC3339.format(notAfter)), \(daysText(time - notAfter)) before the check time \(RFC3339.format(time))\(about)"
    case .notYetValid(let notBefore):
        return "certificate not valid before \(RFC3339.format(notBefore)), \(daysText(notBefore - time)) after the check time \(RFC3339.format(time))\(about)"
    case .revoked(let revokedAt):
        return "certificate revoked at \(RFC3339.format(revokedAt))\(about)"
    case .peerNameMismatch:
        let names = concerned.flatMap { (try? $0.subjectAlternativeNames) ?? nil }?.names
        let dns = names?.dnsNames ?? []
        let addresses = names?.ipAddresses.map(\.description) ?? []
        let listed = (dns.map { "DNS:" + $0 } + addresses.map { "IP:" + $0 })
        return "the leaf's names do not include \(peer): it has " + (listed.isEmpty ? "no DNS or IP subject alternative name" : listed.joined(separator: ", ")) + about
    case .unknownIssuer:
        guard let certificate = concerned else { return failure.description }
        var text = "no trusted issuer found for \(issuerLine(certificate))"
        if let keyID = ((try? certificate.authorityKeyIdentifier) ?? nil)?.keyIdentifier {
            text += " (key identifier \(Hex.encode(keyID, separator: ":")))"
        }
        return text + about
    default:
        return failure.description
    }
}

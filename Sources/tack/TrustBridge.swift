// Every call the command line makes into TackTrust's pinned flow, in one place: the
// evaluation, the policy and anchor loading, and the stable codes and RFC 3339 text
// of its results. When TackTrust's API changes, this file is what changes.

import TackFormats
import Foundation
import TackDER
import TackTrust
import TackX509

/// The system's CA bundle: the default anchors of `verify` and `rotation`.
let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

/// The decision on the chain for `host` at `time` under `policy`: path validation to
/// `anchors` (with `options`' revocation data and policy), then the host's pin rule
/// checked against the verified path.
func evaluatePinned(
    served: [Certificate], anchors: AnchorStore, host: PeerHost, time: Int64, policy: PinPolicy,
    options: TrustOptions = TrustOptions()
) -> TrustDecision {
    TrustEvaluator(anchors: anchors, options: options).evaluate(servedChain: served, host: host, at: time, pinning: policy)
}

/// `--profile rfc5280|apple` (default `rfc5280`).
func parseProfile(_ text: String?) throws(CLIError) -> TrustProfile {
    guard let text else { return .rfc5280 }
    guard let profile = TrustProfile(named: text) else {
        throw .usage("unknown --profile \(text) (" + TrustProfile.allCases.map(\.description).joined(separator: ", ") + ")")
    }
    return profile
}

/// `--revocation none|soft|hard`.
func parseRevocationPolicy(_ text: String?) throws(CLIError) -> RevocationPolicy {
    switch text {
    case nil, "soft": return .softFail
    case "hard": return .hardFail
    case "none": return RevocationPolicy.none
    case let other?: throw .usage("unknown --revocation \(other) (none, soft, hard)")
    }
}

/// The DER objects of a file: every PEM block labelled `label` (any other block is an
/// error), or the whole file as one DER object.
private func derObjects(_ bytes: [UInt8], label: String, name: String, code: String) throws(CLIError) -> [(der: [UInt8], what: String)] {
    guard bytes.contains(text: "-----BEGIN ") else {
        guard !bytes.isEmpty else { throw CLIError("\(name): empty input", code: "empty_input") }
        return [(bytes, name)]
    }
    let blocks: [PEMBlock]
    do {
        blocks = try PEM.parse(bytes)
    } catch {
        throw CLIError("\(name): \(error)", code: code)
    }
    var objects: [(der: [UInt8], what: String)] = []
    for block in blocks {
        guard block.label == label else {
            let what = "\(name) (PEM block at byte \(block.offset))"
            let expected = label == "X509 CRL" ? "a CRL" : "an OCSP response"
            switch block.label {
            case "CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE": throw InputKind.certificate.failure(what, expected: expected)
            case "X509 CRL": throw InputKind.crl.failure(what, expected: expected)
            case "OCSP RESPONSE": throw InputKind.ocspResponse.failure(what, expected: expected)
            default: throw CLIError("\(name): a \(block.label) PEM block at byte \(block.offset), expected \(label)", code: code)
            }
        }
        objects.append((block.bytes, "\(name) (PEM block at byte \(block.offset))"))
    }
    guard !objects.isEmpty else { throw CLIError("\(name): no \(label) block", code: code) }
    return objects
}

/// The OCSP responses of `--ocsp FILE` (DER, or PEM blocks labelled `OCSP RESPONSE`).
func readOCSPResponses(_ path: String, io: Console) throws(CLIError) -> [OCSPResponse] {
    var responses: [OCSPResponse] = []
    for object in try derObjects(try readInput(path, io: io), label: "OCSP RESPONSE", name: path, code: "malformed_ocsp_response") {
        do {
            responses.append(try OCSPResponse(derEncoded: object.der))
        } catch {
            if let kind = InputKind.recognise(object.der), kind != .ocspResponse { throw kind.failure(object.what, expected: "an OCSP response") }
            throw CLIError("\(object.what): \(error) [\(error.code)]", code: "malformed_ocsp_response")
        }
    }
    return responses
}

/// The CRLs of `--crl FILE` (DER, or PEM blocks labelled `X509 CRL`).
func readRevocationLists(_ path: String, io: Console) throws(CLIError) -> [CertificateRevocationList] {
    try revocationLists(try readInput(path, io: io), name: path)
}

/// The CRLs in the bytes of one input named `name` (DER, or PEM blocks labelled `X509 CRL`).
func revocationLists(_ bytes: [UInt8], name: String) throws(CLIError) -> [CertificateRevocationList] {
    var lists: [CertificateRevocationList] = []
    for object in try derObjects(bytes, label: "X509 CRL", name: name, code: "malformed_crl") {
        do {
            lists.append(try CertificateRevocationList(derEncoded: object.der))
        } catch {
            if let kind = InputKind.recognise(object.der), kind != .crl { throw kind.failure(object.what, expected: "a CRL") }
            throw CLIError("\(object.what): \(error) [\(error.code)]", code: "malformed_crl")
        }
    }
    return lists
}

/// A certificate's revocation status as JSON: its source (`ocsp`, `crl`, `none`,
/// `anchor`) and the 1-based index of the response or CRL among those given.
func revocationJSON(_ status: RevocationStatus) -> JSONValue {
    let index: Int?
    switch status {
    case .goodByResponse(let response): index = response + 1
    case .goodByRevocationList(let list): index = list + 1
    case .notChecked, .anchor: index = nil
    }
    return .object([("source", .string(status.source)), ("index", index.map { .int($0) } ?? .null)])
}

/// The exit status of a decision: 0 trusted (pins hold, or no rule, or not enforced),
/// 3 not trusted, 4 an enforced pin failure.
func exitStatus(_ decision: TrustDecision) -> ExitCode {
    switch decision {
    case .trusted: .success
    case .untrusted: .untrusted
    case .pinMismatch: .pinFailure
    }
}

/// The verified path of a decision, when path validation succeeded.
func verifiedPath(_ decision: TrustDecision) -> VerifiedPath? {
    switch decision {
    case .trusted(let path, _), .pinMismatch(let path, _): path
    case .untrusted: nil
    }
}

/// The anchors in a PEM or DER file, of `origin` (user-added unless said).
func readRoots(_ path: String, origin: AnchorStore.Origin = .user, io: Console) throws(CLIError) -> AnchorStore {
    var store = AnchorStore()
    for object in try readObjects(try readInput(path, io: io), name: path).strictly() {
        if case .certificate(let certificate) = object { store.add(certificate, origin: origin) }
    }
    return store
}

/// The anchors of `--roots` (each repeatable), plus the system bundle when no
/// `--roots` is given or `--system-roots` asks for it (its anchors marked
/// ``AnchorStore/Origin/system``, `--roots` anchors user-added).
func readAnchors(_ paths: [String], systemRoots: Bool, io: Console) throws(CLIError) -> AnchorStore {
    var anchors = AnchorStore()
    // A directory (`--roots /etc/ssl/certs`) gives every certificate file in it; a file
    // there that holds no certificate (a README, a CRL) is skipped, and said so.
    for path in paths {
        guard let files = try InputDirectory.files(path) else {
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
    if paths.isEmpty || systemRoots { anchors = anchors.merging(try readRoots(systemBundle, origin: .system, io: io)) }
    return anchors
}

/// A Tack JSON policy if the first non-whitespace byte is `{`, a property list
/// (`Info.plist`, XML or binary) otherwise; both read by the core.
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

/// A policy warning as JSON: its code, message, and line and column (`null` when the
/// document gives no location, or is a binary plist, whose warnings carry
/// `byte_offset` instead).
func policyWarningJSON(_ issue: PinPolicyIssue) -> JSONValue {
    let text = issue.location.flatMap { $0.isBinary ? nil : $0 }
    var fields: [(String, JSONValue)] = [
        ("code", .string(issue.code)), ("message", .string(issue.description)),
        ("line", text.map { .int($0.line) } ?? .null),
        ("column", text.map { .int($0.column) } ?? .null),
    ]
    if let location = issue.location, location.isBinary { fields.append(("byte_offset", .int(location.offset))) }
    return .object(fields)
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

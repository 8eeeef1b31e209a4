import Foundation
import TackDER
import TackSignature
import TackTrust
import TackX509

// TackVectorSuites: the one mapping from an x509-limbo test case to a TackTrust evaluation, shared by
// `tack vectors limbo` (Sources/tack/LimboCommand.swift) and the conformance test
// (Tests/TackTrustTests/LimboConformanceTests.swift), so both judge a case the same way. A tools-level module (Foundation
// allowed), so that the command line does not link the test-support module.
//
// Suite format: C2SP/x509-limbo's `limbo.schema.json` (version 1); see
// /work/shared/vectors/x509-limbo/README.md and Vectors/limbo/README.md.

/// Runs limbo cases through TackTrust.
public enum LimboHarness {
    /// Limbo features Tack deliberately does not implement, with the reason a case
    /// that needs one is SKIPPED. Feature names not listed here and not in
    /// ``implementedFeatures`` are unknown, and their cases are skipped too (the
    /// suite's rule for unknown features).
    public static let unimplementedFeatures: [String: String] = [
        "pedantic-public-suffix-wildcard":
            "wildcards over public suffixes beyond one label (*.co.uk) need the Public Suffix List, which the core does not carry",
        "pedantic-webpki-eku":
            "webpki's CA/B Forum EKU pedantry (EKU required on leaves, refused on roots, anyEKU refused) is not applied; Tack follows RFC 5280 §4.2.1.12",
        "pedantic-webpki-subscriber-key":
            "the leaf's own key is not held to the signature policy: it signs nothing on the path",
        "pedantic-rfc5280":
            "RFC 5280 pedantry with no security effect (AKI on cross-signed roots) is not enforced",
        "rfc5280-incompatible-with-webpki":
            "Tack follows webpki where RFC 5280 and webpki conflict (non-critical name constraints are honoured)",
        "has-policy-constraints":
            "certificate policy processing (RFC 5280 §6.1.3 (d)-(f), policy constraints) is not implemented",
        "pedantic-serial-number":
            "serial number profile rules (zero, negative, over 20 octets) are not enforced on the path",
    ]

    /// Limbo features Tack implements.
    public static let implementedFeatures: Set<String> = [
        "has-crl", "denial-of-service", "max-chain-depth", "name-constraint-dn",
    ]

    /// The reason `testCase` is skipped, or `nil` if Tack evaluates it.
    public static func skipReason(_ testCase: LimboTestCase) -> String? {
        for feature in testCase.features ?? [] {
            if let reason = unimplementedFeatures[feature] { return "feature \(feature): \(reason)" }
            if !implementedFeatures.contains(feature) { return "unknown feature \(feature)" }
        }
        return nil
    }

    /// Evaluates one case: SKIPPED with a reason, or SUCCESS/FAILURE with context.
    ///
    /// - Parameters:
    ///   - testCase: The case.
    ///   - now: The time used when the case has no validation time (seconds since 1970).
    public static func evaluate(_ testCase: LimboTestCase, now: Int64) -> LimboResult {
        func result(_ actual: LimboActual, _ context: String?) -> LimboResult {
            LimboResult(id: testCase.id, actual_result: actual, context: context)
        }
        if let reason = skipReason(testCase) { return result(.skipped, reason) }

        // The leaf must parse; anchors and intermediates that do not are left out
        // (an anchor Tack cannot read is not an anchor).
        guard let leafDER = derCertificates(inPEM: testCase.peer_certificate).first else {
            return result(.failure, "peer certificate is not PEM")
        }
        var anchors = AnchorStore()
        for pem in testCase.trusted_certs {
            for der in derCertificates(inPEM: pem) {
                if let certificate = try? Certificate(derEncoded: der) { anchors.add(certificate) }
            }
        }
        let intermediates = testCase.untrusted_intermediates.flatMap { derCertificates(inPEM: $0) }

        // Time: RFC 3339, or now.
        let time: Int64
        if let text = testCase.validation_time {
            guard let seconds = RFC3339.parse(text) else { return result(.failure, "unreadable validation_time \(text)") }
            time = seconds
        } else {
            time = now
        }

        // Purpose: the case's EKU names, or the usual one for the validation kind.
        let isClient = testCase.validation_kind == "CLIENT"
        var purpose: KeyPurpose = isClient ? .clientAuthentication : .serverAuthentication
        let ekus = testCase.extended_key_usage ?? []
        if ekus.count > 1 { return result(.skipped, "unknown feature: several required extended key usages") }
        switch ekus.first {
        case nil: break
        case "serverAuth"?: purpose = .serverAuthentication
        case "clientAuth"?: purpose = .clientAuthentication
        case let other?: return result(.skipped, "unknown feature: extended key usage \(other)")
        }

        // Peer name: SERVER checks one DNS or IP name in the evaluation; CLIENT names
        // are e-mail addresses, checked against the verified leaf below.
        var host: PeerHost? = nil
        if !isClient, let expected = testCase.expected_peer_name {
            switch expected.kind {
            case "DNS":
                do { host = try PeerHost(expected.value) } catch { return result(.failure, "DNS peer name \(expected.value): \(error)") }
                if case .ipAddress = host?.kind { return result(.failure, "DNS peer name \(expected.value) is an IP address") }
            case "IP":
                guard let bytes = parseIPAddress(expected.value), let address = try? PeerHost(ipAddress: bytes) else {
                    return result(.failure, "unreadable IP peer name \(expected.value)")
                }
                host = address
            default: return result(.skipped, "unknown feature: peer name kind \(expected.kind)")
            }
        }

        // CRLs: a CRL that does not parse cannot be used, and a verifier asked to
        // check revocation with it fails closed.
        var crls: [CertificateRevocationList] = []
        for (index, pem) in (testCase.crls ?? []).enumerated() {
            guard let block = try? PEM.parse(pem).first else { return result(.failure, "CRL \(index + 1) is not PEM") }
            do {
                crls.append(try CertificateRevocationList(derEncoded: block.bytes))
            } catch {
                return result(.failure, "CRL \(index + 1) unusable: \(error)")
            }
        }

        // limbo's max_chain_depth counts intermediates; TrustOptions counts the leaf and anchor too.
        let options = TrustOptions(
            purpose: purpose,
            maximumDepth: testCase.max_chain_depth.map { $0 + 2 },
            revocationLists: crls
        )
        let evaluator = TrustEvaluator(anchors: anchors, options: options)
        let decision = evaluator.evaluate(servedChain: [leafDER] + intermediates, host: host, at: time)
        let path: VerifiedPath
        switch decision {
        case .untrusted(let failure, _): return result(.failure, failure.description)
        case .pinMismatch: return result(.failure, "pin mismatch without pins")
        case .trusted(let verified, _): path = verified
        }
        guard let leaf = path.leaf else { return result(.failure, "trusted verdict without a path") }

        // Key usage the case requires of the leaf (when it has the extension).
        for usage in testCase.key_usage ?? [] {
            guard usage == "digitalSignature" else { return result(.skipped, "unknown feature: key usage \(usage)") }
            guard let keyUsage = try? leaf.keyUsage else { continue }
            if !keyUsage.contains(.digitalSignature) { return result(.failure, "leaf key usage lacks digitalSignature") }
        }

        if isClient, let expected = testCase.expected_peer_names, !expected.isEmpty {
            let matched = expected.contains { name in
                name.kind == "RFC822" && ((try? leaf.matches(email: name.value)) ?? false)
            }
            if !matched { return result(.failure, "the leaf carries none of the expected e-mail names") }
        }
        return result(.success, "trusted path of \(path.certificates.count) certificates")
    }

    /// Evaluates `testCase` on a worker thread and gives up waiting after
    /// `timeLimit` seconds, reporting a FAILURE that says so. The worker cannot be
    /// cancelled; it finishes (or not) in the background.
    public static func evaluate(_ testCase: LimboTestCase, now: Int64, timeLimit: Double) -> LimboResult {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.set(evaluate(testCase, now: now))
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        if done.wait(timeout: .now() + timeLimit) == .timedOut {
            return LimboResult(id: testCase.id, actual_result: .failure,
                               context: "TIMEOUT: no verdict within \(timeLimit) s")
        }
        return box.get() ?? LimboResult(id: testCase.id, actual_result: .failure, context: "worker ended without a verdict")
    }

    /// Whether `id` matches the shell-style `glob` (`*` any run, `?` one character).
    public static func glob(_ glob: String, matches id: String) -> Bool {
        let pattern = Array(glob.utf8)
        let text = Array(id.utf8)
        var p = 0, t = 0, star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    /// The id prefix used for statistics: the part before the first `::`.
    public static func prefix(of id: String) -> String {
        id.components(separatedBy: "::").first ?? id
    }

    /// Parses a textual IPv4 or IPv6 address to its 4 or 16 octets.
    public static func parseIPAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}

/// A result handed from the worker thread.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: LimboResult?
    func set(_ result: LimboResult) { lock.lock(); value = result; lock.unlock() }
    func get() -> LimboResult? { lock.lock(); defer { lock.unlock() }; return value }
}

/// The DER bodies of the `CERTIFICATE` blocks of a case's PEM text (RFC 7468 §5),
/// through TackDER's `PEM.parse`; none when the PEM does not parse.
private func derCertificates(inPEM text: String) -> [[UInt8]] {
    guard let blocks = try? PEM.parse(text) else { return [] }
    return blocks.filter { $0.label == "CERTIFICATE" }.map(\.bytes)
}

// The pinning hot path end to end (issue 12), in verdicts per second: from the DER
// bytes of the chain a server sent to a verdict with pins, as a TLS client does after
// each handshake.
//
// e2e-rsa2048             leaf + intermediate + root of Vectors/chains/rsa (RSA-2048,
//                         SHA-256): parse the three certificates, build the path against
//                         the system anchor store, verify the signatures, check the host
//                         (example.com) and the time, match the pins of a policy of 36
//                         domains (`TrustEvaluator.evaluate(servedChain:host:at:pinning:)`,
//                         the host parsed from text in the loop)
// e2e-p256                the same with Vectors/chains/ecdsa (P-256, ECDSA with SHA-256)
// e2e-*-preparsed         the same from certificates parsed before the loop
// e2e-*-cached            the same DER through a warm `VerificationCache`: a hit re-checks
//                         the time and the pins and skips parsing, path building and
//                         signatures
// e2e-*-stapled           e2e-* plus a stapled OCSP response for the leaf under soft-fail
//                         (the platform's TLS default): the response's DER is parsed in the
//                         loop and checked (CertID, issuer's signature, times, status) as
//                         the path is built. The chain is Vectors/ocsp/certs/bench (same
//                         shape and algorithms as Vectors/chains/rsa and ecdsa, whose keys
//                         are not kept, so no response can be made for them): compare a
//                         -stapled figure with OpenSSL's in the same run, not with e2e-*.
//
// The anchors are the system CA bundle plus the chain's test root (the root of a
// generated chain is in no system bundle), loaded once, outside the timed loop; both
// sides use the same anchors, the same served DER and the same validation time
// (2025-06-01T00:00:00Z, the chain manifest's).
//
// The OpenSSL figure is Benchmarks/peers/openssl-verify.c in the same run: d2i_X509 of
// each certificate, X509_STORE_CTX + X509_verify_cert (purpose sslserver, the same
// time) + X509_check_host, and the same pin check (the host's rule among 36 domains,
// SHA-256 of each verified CA's SPKI). The -preparsed figures compare with its
// `preparsed` mode; the -cached ones with its `der` mode (OpenSSL has no such cache);
// the -stapled ones with its `stapled` mode (`der` plus d2i_OCSP_RESPONSE,
// OCSP_basic_verify, OCSP_resp_find_status and the same time check).
// Allocations per verification: openssl-verify prints OpenSSL's on standard error;
// Tack's come from `Benchmarks/count-instructions.sh --allocations e2e-rsa2048`.

import Foundation
import TackDER
import TackDigest
import TackTrust
import TackX509

func endToEndBenchmarks() -> [Benchmark] {
    let chains = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/chains")
    func path(_ file: String) -> String { chains.appendingPathComponent(file).path }
    guard !systemBundle.isEmpty else { return [] }
    let system = AnchorStore(systemBundle.compactMap { try? Certificate(derEncoded: $0) })
    let time: Int64 = 1_748_736_000
    let host = "example.com"

    func family(_ label: String, folder: String) -> [Benchmark] {
        family(label, files: ["\(folder)/leaf.der", "\(folder)/intermediate.der", "\(folder)/root.der"].map(path), staple: nil)
    }
    /// e2e-`label` and its variants over `files` (leaf, intermediate, root); with
    /// `staple` (a response's path), only e2e-`label`-stapled.
    func family(_ label: String, files: [String], staple: String?) -> [Benchmark] {
        let served = files.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        let stapleDER = staple.flatMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        guard served.count == 3, staple == nil || stapleDER != nil,
              let parsed = try? served.map({ try Certificate(derEncoded: $0) }) else {
            FileHandle.standardError.write(Data("tack-bench: \(files[0]) or its chain missing; e2e-\(label) skipped\n".utf8))
            return []
        }
        let evaluator = TrustEvaluator(anchors: system.merging(AnchorStore([parsed[2]])))
        // A policy of 36 domains: 35 others (two made-up pins each), then the host,
        // pinned to its intermediate with the root as backup (ATS NSPinnedCAIdentities).
        var rules = (0..<35).map { index in
            PinRule(
                domain: String(format: "service-%02d.example.net", index), scope: .oneLabelDeeper,
                caIdentities: [UInt8(index), UInt8(index + 100)].map { SPKIPin(digest: SHA256.hash([$0])) })
        }
        let pins = [SPKIPin(parsed[1]), SPKIPin(parsed[2])]
        rules.append(PinRule(domain: host, scope: .oneLabelDeeper, caIdentities: pins))
        let policy = PinPolicy(rules: rules)

        // Refuse to time a chain that does not verify: the figure would mean nothing.
        let check = evaluator.evaluate(servedChain: served, host: try? PeerHost(host), at: time, pinning: policy)
        guard check.isTrusted, check.details.pins.outcome == .satisfied else {
            FileHandle.standardError.write(Data("tack-bench: e2e-\(label) does not verify; skipped\n".utf8))
            return []
        }
        var cache = VerificationCache(capacity: 64)
        _ = evaluator.evaluate(servedChain: served, host: try? PeerHost(host), at: time, pinning: policy, cache: &cache)

        if let stapleDER, let staple {
            /// One verdict with the staple: parse the response, then evaluate under soft-fail.
            func stapledVerdict() -> TrustDecision? {
                guard let response = try? OCSPResponse(derEncoded: stapleDER) else { return nil }
                var stapled = evaluator
                stapled.options.stapledResponses = [response]
                return stapled.evaluate(servedChain: served, host: try? PeerHost(host), at: time, pinning: policy)
            }
            // Refuse to time a staple that does not give the leaf its status.
            guard let verdict = stapledVerdict(), case .trusted(let path, _) = verdict, path.revocation.first?.source == "ocsp" else {
                FileHandle.standardError.write(Data("tack-bench: e2e-\(label)'s staple does not give the leaf a status; skipped\n".utf8))
                return []
            }
            let arguments = [systemBundlePath, files[2], host, String(time), pins.map(\.base64).joined(separator: ","), staple] + files
            return [
                Benchmark(
                    name: "e2e-\(label)", unit: .operationsPerSecond,
                    openssl: OpenSSLReference { CorpusPeers.shared.openSSLVerify("stapled", arguments) }
                ) { iterations in
                    for _ in 0..<iterations { blackHole(stapledVerdict()?.isTrusted ?? false) }
                }
            ]
        }
        let peerArguments = [systemBundlePath, files[2], host, String(time), pins.map(\.base64).joined(separator: ",")] + files
        let openSSLDER = OpenSSLReference { CorpusPeers.shared.openSSLVerify("der", peerArguments) }
        let openSSLPreparsed = OpenSSLReference { CorpusPeers.shared.openSSLVerify("preparsed", peerArguments) }
        return [
            Benchmark(name: "e2e-\(label)", unit: .operationsPerSecond, openssl: openSSLDER) { iterations in
                for _ in 0..<iterations {
                    blackHole(evaluator.evaluate(servedChain: served, host: try? PeerHost(host), at: time, pinning: policy).isTrusted)
                }
            },
            Benchmark(name: "e2e-\(label)-preparsed", unit: .operationsPerSecond, openssl: openSSLPreparsed) { iterations in
                for _ in 0..<iterations {
                    blackHole(evaluator.evaluate(servedChain: parsed, host: try? PeerHost(host), at: time, pinning: policy).isTrusted)
                }
            },
            Benchmark(name: "e2e-\(label)-cached", unit: .operationsPerSecond, openssl: openSSLDER) { iterations in
                for _ in 0..<iterations {
                    blackHole(evaluator.evaluate(servedChain: served, host: try? PeerHost(host), at: time, pinning: policy, cache: &cache).isTrusted)
                }
            },
        ]
    }
    let bench = chains.deletingLastPathComponent().appendingPathComponent("ocsp")
    func stapled(_ label: String) -> [Benchmark] {
        let files = ["root", "intermediate", "leaf", "leaf-good"].map { name in
            bench.appendingPathComponent(name == "leaf-good" ? "responses/bench/\(label)-\(name).der" : "certs/bench/\(label)-\(name).der").path
        }
        return family("\(label)-stapled", files: [files[2], files[1], files[0]], staple: files[3])
    }
    return family("rsa2048", folder: "rsa") + family("p256", folder: "ecdsa") + stapled("rsa2048") + stapled("p256")
}

// Chain building and path validation (issue 9), in verdicts per second, over the
// committed chains of Vectors/chains (made by its generate.py). The anchors are
// the system CA bundle plus the test root, loaded once outside the timed loop; each
// iteration parses the served chain from DER and evaluates it, as a TLS client would.
//
// trust-rsa2048-chain  leaf + intermediate + root (RSA-2048, SHA-256), host example.com
// trust-p256-chain     the same with P-256 keys (ECDSA with SHA-256)
// trust-decoys         leaf + 500 intermediates sharing the real intermediate's name
//                      (other keys) + the real one: the key identifier finds it
//
// There is no OpenSSL figure: `openssl verify` is a process per chain, not a
// comparable in-process call.

import Foundation
import TackDER
import TackTrust
import TackX509

func trustBenchmarks() -> [Benchmark] {
    let chains = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/chains")
    func der(_ file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: chains.appendingPathComponent(file).path).map { [UInt8]($0) }
    }
    let system = AnchorStore(systemBundle.compactMap { try? Certificate(derEncoded: $0) })
    // 2025-06-01T00:00:00Z, the manifest's validation time.
    let time: Int64 = 1_748_736_000

    func chainBenchmark(_ name: String, root: String, files: [String]) -> Benchmark? {
        guard let rootDER = der(root), let rootCertificate = try? Certificate(derEncoded: rootDER) else {
            FileHandle.standardError.write(Data("tack-bench: \(root) missing; \(name) skipped\n".utf8))
            return nil
        }
        let served = files.compactMap(der)
        guard served.count == files.count else { return nil }
        let evaluator = TrustEvaluator(anchors: system.merging(AnchorStore([rootCertificate])))
        // Refuse to time a chain that does not verify: the figure would mean nothing.
        guard evaluator.evaluate(servedChain: served, host: try? PeerHost("example.com"), at: time).isTrusted else {
            FileHandle.standardError.write(Data("tack-bench: \(name) does not verify; skipped\n".utf8))
            return nil
        }
        return Benchmark(name: name, unit: .operationsPerSecond, openssl: nil) { iterations in
            for _ in 0..<iterations {
                blackHole(evaluator.evaluate(servedChain: served, host: try? PeerHost("example.com"), at: time).isTrusted)
            }
        }
    }

    let decoys = (0..<500).map { String(format: "decoys/decoy-%03d.der", $0) }
    return [
        chainBenchmark("trust-rsa2048-chain", root: "rsa/root.der",
                       files: ["rsa/leaf.der", "rsa/intermediate.der", "rsa/root.der"]),
        chainBenchmark("trust-p256-chain", root: "ecdsa/root.der",
                       files: ["ecdsa/leaf.der", "ecdsa/intermediate.der", "ecdsa/root.der"]),
        chainBenchmark("trust-decoys", root: "decoys/root.der",
                       files: ["decoys/leaf.der"] + decoys + ["decoys/real-ica.der"]),
    ].compactMap { $0 }
}

// Chain building and path validation (issue 9), in verdicts per second, over the
// committed chains of Vectors/chains (made by its generate.py). The anchors are
// the system CA bundle plus the test root, loaded once outside the timed loop; each
// iteration parses the served chain from DER and evaluates it, as a TLS client would.
//
// trust-rsa2048-chain  leaf + intermediate + root (RSA-2048, SHA-256), host example.com
// trust-p256-chain     the same with P-256 keys (ECDSA with SHA-256)
// trust-rsa2048-signature, trust-p256-signature
//                      one link of those chains alone (leaf under intermediate): the
//                      issuer's key from its SPKI, the tbsCertificate hashed, the
//                      signature verified; peer: webpki's verify_signature (ring) only
// trust-decoys         leaf + 500 intermediates sharing the real intermediate's name
//                      (other keys) + the real one: the key identifier finds it
// trust-rsa2048-newleaf
//                      Vectors/newleaf (its generate.py): 1,000 distinct RSA-2048 leaves
//                      under one intermediate and root; verdict i serves leaf i (cycling)
//                      + intermediate + root, as a client meeting a fleet of servers
//                      behind one CA. Cold: nothing kept between verdicts.
// trust-rsa2048-newleaf-sigcache
//                      the same through a warm `SignatureCache` of 64 entries: the
//                      intermediate-under-root signature is a hit (used by every verdict,
//                      it stays the most recent), each leaf's is verified (1,000 leaves
//                      cycle through 64 entries: a leaf's is evicted before it comes round)
//
// Peers (issue 23), in the same run, same chains, anchors, host, time and purpose, from
// DER to a verdict: rustls's webpki 0.22 (Benchmarks/peers/webpki-verify) and Go's
// crypto/x509 (Benchmarks/peers/go-x509), built by Benchmarks/peers/build.sh; a peer
// that is not built is listed as "peer not built". There is no OpenSSL figure here
// (e2e-* has OpenSSL's figure for the same work with pins).

import Foundation
import TackDER
import TackSignature
import TackTrust
import TackX509

/// The webpki and Go peers for a trust benchmark (`mode` and `arguments` as
/// ``CorpusPeers/trustPeer(_:_:_:)`` takes them); one that is not built is named so.
func trustPeers(_ mode: String, _ arguments: [String]) -> [(name: String, reference: OpenSSLReference)] {
    [("webpki", "webpki-verify"), ("go", "go-x509")].map { label, binary in
        guard CorpusPeers.shared.trustPeerPath(binary) != nil else {
            return ("\(label): peer not built (sh Benchmarks/peers/build.sh)", OpenSSLReference { nil })
        }
        return (label, OpenSSLReference { CorpusPeers.shared.trustPeer(binary, mode, arguments) })
    }
}

func trustBenchmarks() -> [Benchmark] {
    let chains = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/chains")
    func der(_ file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: chains.appendingPathComponent(file).path).map { [UInt8]($0) }
    }
    let system = AnchorStore(systemBundle.compactMap { try? Certificate(derEncoded: $0) })
    // 2025-06-01T00:00:00Z, the manifest's validation time.
    let time: Int64 = 1_748_736_000
    // Parsed once, outside the timed loops.
    guard let host = try? PeerHost("example.com") else { return [] }

    func chainBenchmark(_ name: String, root: String, files: [String], withPeers: Bool = true) -> Benchmark? {
        guard let rootDER = der(root), let rootCertificate = try? Certificate(derEncoded: rootDER) else {
            FileHandle.standardError.write(Data("tack-bench: \(root) missing; \(name) skipped\n".utf8))
            return nil
        }
        let served = files.compactMap(der)
        guard served.count == files.count else { return nil }
        let evaluator = TrustEvaluator(anchors: system.merging(AnchorStore([rootCertificate])))
        // Refuse to time a chain that does not verify: the figure would mean nothing.
        guard evaluator.evaluate(servedChain: served, host: host, at: time).isTrusted else {
            FileHandle.standardError.write(Data("tack-bench: \(name) does not verify; skipped\n".utf8))
            return nil
        }
        let peerArguments = [systemBundlePath, chains.appendingPathComponent(root).path, "example.com", String(time)]
            + files.map { chains.appendingPathComponent($0).path }
        return Benchmark(
            name: name, unit: .operationsPerSecond, openssl: nil,
            peers: withPeers ? trustPeers("chain", peerArguments) : []
        ) { iterations in
            for _ in 0..<iterations {
                blackHole(evaluator.evaluate(servedChain: served, host: host, at: time).isTrusted)
            }
        }
    }

    /// Tack against 1,000 new leaves under one intermediate and root, with and
    /// without a signature cache.
    func newLeafBenchmarks() -> [Benchmark] {
        let folder = chains.deletingLastPathComponent().appendingPathComponent("newleaf")
        func file(_ name: String) -> [UInt8]? {
            FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { [UInt8]($0) }
        }
        guard let rootDER = file("root.der"), let intermediate = file("intermediate.der"), let leavesDER = file("leaves.der"),
              let rootCertificate = try? Certificate(derEncoded: rootDER) else {
            FileHandle.standardError.write(Data("tack-bench: Vectors/newleaf missing (python3 Vectors/newleaf/generate.py); trust-rsa2048-newleaf skipped\n".utf8))
            return []
        }
        // The leaves file is DER certificates back to back: cut it at each top-level element.
        let ranges = (try? DER.read(leavesDER, limits: Certificate.defaultLimits) { (reader) throws(DERError) -> [Range<Int>] in
            var ranges: [Range<Int>] = []
            while !reader.isAtEnd {
                let element = try reader.readElement()
                ranges.append(element.offset..<element.contentRange.upperBound)
            }
            return ranges
        }) ?? []
        let leaves = ranges.map { Array(leavesDER[$0]) }
        let chainsServed = leaves.map { [$0, intermediate, rootDER] }
        let evaluator = TrustEvaluator(anchors: system.merging(AnchorStore([rootCertificate])))
        guard leaves.count >= 1000, chainsServed.allSatisfy({ evaluator.evaluate(servedChain: $0, host: host, at: time).isTrusted }) else {
            FileHandle.standardError.write(Data("tack-bench: Vectors/newleaf does not verify; trust-rsa2048-newleaf skipped\n".utf8))
            return []
        }
        var cache = SignatureCache(capacity: 64)
        for served in chainsServed { _ = evaluator.evaluate(servedChain: served, host: host, at: time, signatureCache: &cache) }
        let peerArguments = [systemBundlePath, folder.appendingPathComponent("root.der").path, "example.com", String(time)]
            + ["leaves.der", "intermediate.der", "root.der"].map { folder.appendingPathComponent($0).path }
        let peers = trustPeers("newleaf", peerArguments)
        var next = 0
        var nextCached = 0
        return [
            Benchmark(name: "trust-rsa2048-newleaf", unit: .operationsPerSecond, openssl: nil, peers: peers) { iterations in
                for _ in 0..<iterations {
                    blackHole(evaluator.evaluate(servedChain: chainsServed[next], host: host, at: time).isTrusted)
                    next = next + 1 == chainsServed.count ? 0 : next + 1
                }
            },
            Benchmark(name: "trust-rsa2048-newleaf-sigcache", unit: .operationsPerSecond, openssl: nil, peers: peers) { iterations in
                for _ in 0..<iterations {
                    blackHole(evaluator.evaluate(servedChain: chainsServed[nextCached], host: host, at: time, signatureCache: &cache).isTrusted)
                    nextCached = nextCached + 1 == chainsServed.count ? 0 : nextCached + 1
                }
            },
        ]
    }

    /// One certificate signature check, as a verdict makes it per link: the issuer's
    /// key built from its SubjectPublicKeyInfo, the child's tbsCertificate hashed and
    /// its signature verified (both certificates parsed once, outside the loop). The
    /// peer is webpki's `EndEntityCert::verify_signature` (ring), which does the same
    /// work from the same bytes; with the chain figures of the same run this splits each
    /// library's verdict into signature arithmetic and the rest (Benchmarks/README.md,
    /// issue 35).
    func signatureBenchmark(_ name: String, child: String, issuer: String) -> Benchmark? {
        guard let childDER = der(child), let issuerDER = der(issuer),
              let childCertificate = try? Certificate(derEncoded: childDER),
              let issuerCertificate = try? Certificate(derEncoded: issuerDER),
              (try? childCertificate.verifySignature(issuedBy: issuerCertificate)) != nil else {
            FileHandle.standardError.write(Data("tack-bench: \(child) under \(issuer) missing or not verifying; \(name) skipped\n".utf8))
            return nil
        }
        let publicKeyInfo = issuerCertificate.publicKeyInfo
        let peerArguments = ["-", "-", "-", "0", chains.appendingPathComponent(child).path, chains.appendingPathComponent(issuer).path]
        return Benchmark(
            name: name, unit: .operationsPerSecond, openssl: nil,
            peers: trustPeers("signature", peerArguments).filter { $0.name.hasPrefix("webpki") }
        ) { iterations in
            for _ in 0..<iterations {
                do {
                    let key = try SignatureVerificationKey(publicKeyInfo)
                    try childCertificate.verifySignature(with: key)
                    blackHole(key)
                } catch {
                    fatalError("\(name): the signature stopped verifying: \(error)")
                }
            }
        }
    }

    let decoys = (0..<500).map { String(format: "decoys/decoy-%03d.der", $0) }
    return [
        chainBenchmark("trust-rsa2048-chain", root: "rsa/root.der",
                       files: ["rsa/leaf.der", "rsa/intermediate.der", "rsa/root.der"]),
        chainBenchmark("trust-p256-chain", root: "ecdsa/root.der",
                       files: ["ecdsa/leaf.der", "ecdsa/intermediate.der", "ecdsa/root.der"]),
        signatureBenchmark("trust-rsa2048-signature", child: "rsa/leaf.der", issuer: "rsa/intermediate.der"),
        signatureBenchmark("trust-p256-signature", child: "ecdsa/leaf.der", issuer: "ecdsa/intermediate.der"),
        chainBenchmark("trust-decoys", root: "decoys/root.der",
                       files: ["decoys/leaf.der"] + decoys + ["decoys/real-ica.der"], withPeers: false),
    ].compactMap { $0 } + newLeafBenchmarks()
}

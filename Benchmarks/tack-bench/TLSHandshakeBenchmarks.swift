// `tls13-handshake` (issue 34): the client's CPU for one full TLS 1.3 handshake, replayed
// from the recorded flight `1.3 AES-128-GCM` of Vectors/tls/recordings (X25519,
// TLS_AES_128_GCM_SHA256, the RSA-2048 leaf and intermediate of Vectors/tls/pki), with
// Tack's trust decision inside it (to the test root, host localhost, at the recording's
// time): ClientHello and key shares from the seeded source the flight was recorded with,
// then the whole server flight, then the client's Finished. OpenSSL's figure is
// SSL_connect's share of in-process handshakes over a memory BIO pair, verification on,
// the server's time measured apart and left out (Benchmarks/peers/openssl-tls.c).

import Foundation
import TackDER
import TackTLS
import TackTestSupport
import TackTrust
import TackX509

func tlsHandshakeBenchmarks() -> [Benchmark] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let tls = root.appendingPathComponent("Vectors/tls")
    func note(_ message: String) { FileHandle.standardError.write(Data("tack-bench: \(message); tls13-handshake skipped\n".utf8)) }
    guard let entry = VectorManifestCase.read("tls/recordings/manifest.txt").first(where: { $0.name == "1-3-aes-128-gcm" }),
          let seedText = entry.fields["seed"], let seed = UInt64(seedText, radix: 16),
          let flight = FileManager.default.contents(atPath: tls.appendingPathComponent("recordings/\(entry.name).server.bin").path).map({ [UInt8]($0) })
    else {
        note("Vectors/tls/recordings (made by Vectors/tls/generate.sh) missing")
        return []
    }
    guard let rootPEM = FileManager.default.contents(atPath: tls.appendingPathComponent("pki/root.pem").path).map({ [UInt8]($0) }),
          let block = try? PEM.parse(rootPEM).first, let anchor = try? Certificate(derEncoded: block.bytes) else {
        note("Vectors/tls/pki/root.pem unreadable")
        return []
    }
    let evaluator = TrustEvaluator(anchors: AnchorStore([anchor]))
    let host = try? PeerHost("localhost")
    // 2030-01-01T00:00:00Z, the recordings' replay time.
    let time: Int64 = 1_893_456_000
    let configuration = TLSClientConfiguration(serverName: "localhost",
                                               verification: .decision(evaluator, host: host, pinning: PinPolicy(rules: []), time: time))

    /// One handshake; `true` when it completed with a trusted decision.
    func handshake() -> Bool {
        var client = TLSClient(configuration: configuration)
        var random = DeterministicStream(state: seed)
        guard (try? client.start(random: &random)) != nil, let output = try? client.receive(flight) else { return false }
        blackHole(output.bytesToSend)
        return output.handshakeCompleted && client.session?.decision?.isTrusted == true
    }
    guard handshake() else {
        note("the recorded flight does not complete a trusted handshake with this TackTLS")
        return []
    }
    let pki = tls.appendingPathComponent("pki").path
    return [
        Benchmark(name: "tls13-handshake", unit: .operationsPerSecond,
                  openssl: OpenSSLReference { CorpusPeers.shared.openSSLTLSHandshake(pki: pki) }) { iterations in
            for _ in 0..<iterations { blackHole(handshake()) }
        },
    ]
}

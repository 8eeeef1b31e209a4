// Stapled OCSP responses (issue 22), in checks per second, over Vectors/ocsp (made by
// its generate.py): a P-256 leaf, its intermediate, and the intermediate's response
// about the leaf (responder by name, SHA-1 CertID, ecdsa-with-SHA256).
//
// ocsp-verify  one check as a TLS client makes it when the handshake delivers a staple
//              for a chain it has already parsed: parse the response's DER, find the
//              single response whose CertID names the leaf (issuer name and key hashed),
//              verify the response's signature under the issuer's key, and check
//              thisUpdate <= time <= nextUpdate (300 s allowance) and the status. The
//              responder ID must name the issuer. The issuer's key is prepared once,
//              with the chain, as the path builder keeps it per issuer and as OpenSSL's
//              X509 keeps its decoded key from d2i_X509 on.
//
// OpenSSL's figure is Benchmarks/peers/openssl-ocsp.c in the same run: d2i_OCSP_RESPONSE,
// OCSP_basic_verify against the issuer, OCSP_cert_to_id + OCSP_resp_find_status, the same
// time check (see its header).

import Foundation
import TackSignature
import TackTrust
import TackX509

func ocspBenchmarks() -> [Benchmark] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/ocsp")
    let files = ["responses/good-by-name-sha1.der", "certs/leaf.der", "certs/intermediate.der"].map { folder.appendingPathComponent($0).path }
    guard let response = FileManager.default.contents(atPath: files[0]).map({ [UInt8]($0) }),
          let leafDER = FileManager.default.contents(atPath: files[1]).map({ [UInt8]($0) }),
          let issuerDER = FileManager.default.contents(atPath: files[2]).map({ [UInt8]($0) }),
          let leaf = try? Certificate(derEncoded: leafDER), let issuer = try? Certificate(derEncoded: issuerDER),
          let key = try? SignatureVerificationKey(issuer.publicKeyInfo) else {
        FileHandle.standardError.write(Data("tack-bench: Vectors/ocsp missing; ocsp-verify skipped\n".utf8))
        return []
    }
    // 2025-06-01T00:00:00Z, the manifest's validation time.
    let time: Int64 = 1_748_736_000

    /// One check; `true` when the response validly says the leaf is good.
    func check() -> Bool {
        guard let parsed = try? OCSPResponse(derEncoded: response), let basic = parsed.basicResponse,
              basic.responderIDMatches(issuer),
              let single = basic.responses(for: leaf, issuedBy: issuer).first,
              (try? basic.verifySignature(with: key, policy: .webPKI)) != nil,
              single.currency(at: time, clockSkew: 300, maximumAge: 10 * 86_400) == .current else { return false }
        return single.status == .good
    }
    guard check() else {
        FileHandle.standardError.write(Data("tack-bench: the ocsp-verify response is not good for its leaf; skipped\n".utf8))
        return []
    }
    let peerArguments = files + [String(time)]
    return [
        Benchmark(
            name: "ocsp-verify", unit: .operationsPerSecond,
            openssl: OpenSSLReference { CorpusPeers.shared.openSSLOCSP(peerArguments) }
        ) { iterations in
            for _ in 0..<iterations { blackHole(check()) }
        }
    ]
}

// Certificate Transparency (issue 33), in checks per second, over Vectors/ct (made by its
// generate.py): `lifetime-181-three-scts.der`, a P-256 leaf with three embedded SCTs
// from three P-256 logs, and its issuer `ca.der`.
//
// ct-verify  one check of the leaf's embedded SCTs for a chain already parsed: decode
//            the SCT list from the certificate extension, look each log up by its ID
//            among the logs' keys (prepared once, as a client loads its log list),
//            rebuild the precertificate TBS without the SCT extension and hash the
//            issuer's key (once per leaf), and verify the three ECDSA P-256 signatures.
//
// OpenSSL's figure is Benchmarks/peers/openssl-ct.c in the same run: X509_get_ext_d2i of
// the SCT list and SCT_LIST_validate under a CT_POLICY_EVAL_CTX with the leaf, issuer
// and a CTLOG_STORE of the same three keys (see its header).

import Foundation
import TackDER
import TackSignature
import TackTrust
import TackX509

func ctBenchmarks() -> [Benchmark] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/ct")
    let files = ["certs/lifetime-181-three-scts.der", "ca.der"].map { folder.appendingPathComponent($0).path }
    guard let leafDER = FileManager.default.contents(atPath: files[0]).map({ [UInt8]($0) }),
          let issuerDER = FileManager.default.contents(atPath: files[1]).map({ [UInt8]($0) }),
          let listJSON = FileManager.default.contents(atPath: folder.appendingPathComponent("loglist.json").path).map({ [UInt8]($0) }),
          let leaf = try? Certificate(derEncoded: leafDER), let issuer = try? Certificate(derEncoded: issuerDER),
          let logList = try? CTLogList(json: listJSON),
          let scts = ((try? leaf.signedCertificateTimestamps) ?? nil)?.entries.compactMap({ try? $0.get() }) else {
        FileHandle.standardError.write(Data("tack-bench: Vectors/ct missing; ct-verify skipped\n".utf8))
        return []
    }
    // The logs of the leaf's SCTs, with their keys prepared once.
    let logs = scts.compactMap { logList.log(id: $0.logID) }
    let keys = logs.compactMap { log in
        (try? SubjectPublicKeyInfo(derEncoded: log.key)).flatMap { try? SignatureVerificationKey($0) }.map { (log.logID, $0) }
    }
    // 2026-06-01T00:00:00Z, the manifest's check time, in seconds.
    let time: Int64 = 1_780_272_000

    /// One check; `true` when every embedded SCT verifies with a known log's key.
    func check() -> Bool {
        guard let list = (try? leaf.signedCertificateTimestamps) ?? nil,
              let entry = try? leaf.precertificateLogEntry(issuerPublicKeyInfo: issuer.spkiBytes) else { return false }
        var valid = 0
        for item in list.entries {
            guard case .success(let sct) = item, sct.timestampSeconds <= time,
                  let key = keys.first(where: { $0.0.elementsEqual(sct.logID) })?.1,
                  (try? sct.verifySignature(over: entry, with: key)) != nil else { return false }
            valid += 1
        }
        return valid > 0
    }
    guard scts.count == 3, keys.count == 3, check() else {
        FileHandle.standardError.write(Data("tack-bench: the ct-verify leaf's SCTs do not all verify; skipped\n".utf8))
        return []
    }
    let peerArguments = files + [String(time * 1000)] + logs.map { Base64.encode($0.key) }
    return [
        Benchmark(
            name: "ct-verify", unit: .operationsPerSecond,
            openssl: OpenSSLReference { CorpusPeers.shared.openSSLCT(peerArguments) }
        ) { iterations in
            for _ in 0..<iterations { blackHole(check()) }
        }
    ]
}

// Importing a PKCS #12 file (issue 21): `pkcs12-import`, `PKCS12File(berEncoded:
// passphrase:)` of Vectors/pkcs12/openssl-rsa-default.p12 (OpenSSL 3's defaults: an
// HMAC-SHA-256 MAC and PBES2 AES-256-CBC for the certificates and the key, 2,048
// iterations each; an RSA-2048 client certificate, its key, the P-384 test CA), imports
// per second, against OpenSSL's PKCS12_parse (Benchmarks/peers/openssl-pkcs12.c) with
// Python cryptography's load_pkcs12 (Benchmarks/peers/pyca-pkcs12.py) as a peer, in the
// same run. Tack does more than either: it checks the RSA key's CRT fields against each
// other and the certificate's public key, and builds the identity's chain (the leaf's
// P-384 signature under the CA's key is verified).

import Foundation
import TackPKCS12

func pkcs12Benchmarks() -> [Benchmark] {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/pkcs12/openssl-rsa-default.p12").path
    let passphrase = "correct horse"
    guard let data = FileManager.default.contents(atPath: path),
        (try? PKCS12File(berEncoded: Array(data), passphrase: passphrase))?.identities.count == 1
    else {
        FileHandle.standardError.write(Data("tack-bench: \(path) does not read; pkcs12-import skipped\n".utf8))
        return []
    }
    let bytes = Array(data)
    return [
        Benchmark(
            name: "pkcs12-import",
            unit: .operationsPerSecond,
            openssl: OpenSSLReference { CorpusPeers.shared.openSSLPKCS12(path: path, passphrase: passphrase) },
            peers: [("cryptography", OpenSSLReference { CorpusPeers.shared.pycaPKCS12(path: path, passphrase: passphrase) })]
        ) { count in
            for _ in 0..<count {
                blackHole(try? PKCS12File(berEncoded: bytes, passphrase: passphrase))
            }
        }
    ]
}

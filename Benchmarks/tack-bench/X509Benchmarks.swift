// Certificate parsing and pinning over the system CA bundle (issue 4), in
// certificates per second, against OpenSSL (d2i_X509, and d2i_X509 + i2d_X509_PUBKEY
// + SHA-256) and pyca/cryptography (load_der_x509_certificate), each measured in
// the same run by Benchmarks/peers/.
//
// x509-parse        Certificate(derEncoded:) + subject and issuer names + every
//                   extension decoded to its typed value (decodeAllExtensions)
// x509-parse-pin    Certificate(derEncoded:) + SPKI pin (SHA-256 of the SPKI)
// spki-rebuild-pin  SubjectPublicKeyInfo.encode(rawKey:type:) from the bytes
//                   SecKeyCopyExternalRepresentation returns + SHA-256

import TackDER
import TackX509

func x509Benchmarks() -> [Benchmark] {
    let corpus = systemBundle
    guard !corpus.isEmpty else { return [] }
    // Raw keys for the rebuild benchmark: every key whose type Tack can rebuild.
    let rawKeys: [([UInt8], PublicKeyType)] = corpus.compactMap { der in
        guard let certificate = try? Certificate(derEncoded: der),
              let type = certificate.publicKeyInfo.keyType else { return nil }
        return (Array(certificate.publicKeyInfo.rawKey), type)
    }
    let count = corpus.count
    return [
        Benchmark(
            name: "x509-parse", unit: .itemsPerSecond(itemsPerOperation: count, label: "cert"),
            openssl: .corpusOpenSSL("parse"), peers: [("pyca", .corpusPyca("parse"))]
        ) { iterations in
            for _ in 0..<iterations {
                for der in corpus {
                    guard let certificate = try? Certificate(derEncoded: der) else { continue }
                    blackHole(try? certificate.subject)
                    blackHole(try? certificate.issuer)
                    blackHole(try? certificate.decodeAllExtensions())
                }
            }
        },
        Benchmark(
            name: "x509-parse-pin", unit: .itemsPerSecond(itemsPerOperation: count, label: "cert"),
            openssl: .corpusOpenSSL("parse-pin"),
            // Issue 4's target compares with pyca's lazy load; its own pin path is listed too.
            peers: [("pyca", .corpusPyca("parse")), ("pyca-parse-pin", .corpusPyca("parse-pin"))]
        ) { iterations in
            for _ in 0..<iterations {
                for der in corpus {
                    guard let certificate = try? Certificate(derEncoded: der) else { continue }
                    blackHole(SPKIPin(certificate))
                }
            }
        },
        Benchmark(
            name: "spki-rebuild-pin", unit: .itemsPerSecond(itemsPerOperation: rawKeys.count, label: "key"),
            openssl: .corpusOpenSSL("spki-rebuild-pin"), peers: [("pyca", .corpusPyca("spki-rebuild-pin"))]
        ) { iterations in
            for _ in 0..<iterations {
                for (raw, type) in rawKeys {
                    blackHole(try? SPKIPin(rawKey: raw, type: type))
                }
            }
        },
    ]
}

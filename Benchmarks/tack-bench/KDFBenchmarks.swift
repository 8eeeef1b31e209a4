// Password-based key derivation against OpenSSL (issue 21): `pbkdf2-sha256-N`,
// one PBKDF2-HMAC-SHA-256 derivation of a 32-byte key with N iterations (600,000 is
// OWASP's recommended count), against OpenSSL's PKCS5_PBKDF2_HMAC timed by the C peer
// Benchmarks/peers/openssl-pbkdf2.c in the same run. SHA-256 runs on the best
// implementation this CPU has (SHA-NI where present).

import TackDigest

func kdfBenchmarks() -> [Benchmark] {
    let iterations = 600_000
    let password = Array("correct horse battery staple".utf8)
    let salt: [UInt8] = Array(1...16)
    return [
        Benchmark(
            name: "pbkdf2-sha256-\(iterations)",
            unit: .operationsPerSecond,
            openssl: OpenSSLReference { CorpusPeers.shared.openSSLPBKDF2(iterations: iterations) }
        ) { count in
            for _ in 0..<count {
                blackHole(
                    try? PBKDF2.deriveKey(
                        password: password, salt: salt, iterationCount: iterations, keyByteCount: 32, hash: .sha256))
            }
        }
    ]
}

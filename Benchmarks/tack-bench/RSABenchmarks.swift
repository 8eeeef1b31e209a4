// RSA signature verification against `openssl speed rsaN` (issue 5):
//
// - `verify-rsa2048`, `verify-rsa3072`, `verify-rsa4096`: PKCS #1 v1.5 with
//   SHA-256, key prepared once, verifying a digest, as `openssl speed` does
//   (it verifies a fixed short input with a prepared key and hashes nothing).
// - `verify-rsa2048-pss`: RSASSA-PSS, SHA-256, MGF1-SHA-256, 32-byte salt;
//   `openssl speed` has no PSS figure, so the reference is its PKCS #1 v1.5
//   RSA-2048 verify.
// - `verify-rsa2048-with-key`: what a chain builder pays per certificate:
//   parse the PKCS #1 key DER, prepare it, hash the fixture's message with
//   SHA-256 (64 bytes in the committed file), verify. Same OpenSSL reference (which does none of the extra work).
//
// Keys and signatures come from the committed Vectors/signatures/rsa/
// signatures.json (made once by generate.py there); nothing is generated
// while benchmarking.

import Foundation
import TackDER
import TackSignature

func rsaBenchmarks() -> [Benchmark] {
    let fixtures = RSABenchmarkFixtures.load()
    var benchmarks: [Benchmark] = []
    for bits in [2048, 3072, 4096] {
        guard let fixture = fixtures.first(where: { $0.key == "rsa\(bits)" && $0.scheme == "pkcs1v15" && $0.hash == "sha256" })
        else { continue }
        let key = fixture.makeKey()
        let signature = fixture.signature
        let digest = fixture.digest
        benchmarks.append(
            Benchmark(name: "verify-rsa\(bits)", unit: .operationsPerSecond, openssl: .publicKey("rsa\(bits)", .verify)) {
                iterations in
                for _ in 0..<iterations {
                    blackHole(try? key.verifyPKCS1v15Signature(signature, forDigest: digest, hash: .sha256))
                }
            })
    }
    if let fixture = fixtures.first(where: {
        $0.key == "rsa2048" && $0.scheme == "pss" && $0.hash == "sha256" && $0.saltLength == 32
    }) {
        let key = fixture.makeKey()
        let signature = fixture.signature
        let digest = fixture.digest
        let parameters = PSSParameters(hash: .sha256)
        benchmarks.append(
            Benchmark(name: "verify-rsa2048-pss", unit: .operationsPerSecond, openssl: .publicKey("rsa2048", .verify)) {
                iterations in
                for _ in 0..<iterations {
                    blackHole(try? key.verifyPSSSignature(signature, forDigest: digest, parameters: parameters))
                }
            })
    }
    if let fixture = fixtures.first(where: { $0.key == "rsa2048" && $0.scheme == "pkcs1v15" && $0.hash == "sha256" }) {
        let der = fixture.keyDER
        let signature = fixture.signature
        let message = fixture.message
        _ = fixture.makeKey()
        benchmarks.append(
            Benchmark(name: "verify-rsa2048-with-key", unit: .operationsPerSecond, openssl: .publicKey("rsa2048", .verify)) {
                iterations in
                for _ in 0..<iterations {
                    do {
                        let key = try RSAPublicKey(pkcs1DER: der)
                        try key.verifyPKCS1v15Signature(signature, for: message, hash: .sha256)
                        blackHole(key)
                    } catch {
                        fatalError("verify-rsa2048-with-key: fixture does not verify: \(error)")
                    }
                }
            })
    }
    return benchmarks
}

/// One valid signature from Vectors/signatures/rsa/signatures.json.
struct RSABenchmarkFixtures {
    let key: String
    let scheme: String
    let hash: String
    let saltLength: Int
    let modulus: [UInt8]
    let exponent: UInt64
    let keyDER: [UInt8]
    let message: [UInt8]
    let digest: [UInt8]
    let signature: [UInt8]

    /// The prepared key; checks once that the fixture verifies, so that a
    /// broken fixture cannot benchmark the failure path.
    func makeKey() -> RSAPublicKey {
        do {
            let key = try RSAPublicKey(modulus: modulus, exponent: exponent)
            if scheme == "pss" {
                let parameters = try PSSParameters(hash: .sha256, mgf1Hash: .sha256, saltLength: saltLength)
                try key.verifyPSSSignature(signature, for: message, parameters: parameters)
            } else {
                try key.verifyPKCS1v15Signature(signature, for: message, hash: .sha256)
            }
            return key
        } catch {
            fatalError("tack-bench: RSA fixture \(self.key) \(scheme) does not verify: \(error)")
        }
    }

    static func load() -> [RSABenchmarkFixtures] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/signatures/rsa/signatures.json")
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let keys = root["keys"] as? [String: [String: Any]],
            let cases = root["cases"] as? [[String: Any]]
        else {
            FileHandle.standardError.write(Data("tack-bench: cannot read \(url.path); RSA benchmarks skipped\n".utf8))
            return []
        }
        return cases.compactMap { c in
            guard c["valid"] as? Bool == true,
                let name = c["key"] as? String, let key = keys[name],
                let n = key["n"] as? String, let e = key["e"] as? Int, let der = key["pkcs1Der"] as? String,
                let scheme = c["scheme"] as? String, let hash = c["hash"] as? String,
                let message = c["msg"] as? String, let digest = c["digest"] as? String,
                let signature = c["sig"] as? String
            else { return nil }
            return RSABenchmarkFixtures(
                key: name, scheme: scheme, hash: hash, saltLength: c["saltLength"] as? Int ?? 0,
                modulus: bytes(hex: n), exponent: UInt64(e), keyDER: bytes(hex: der),
                message: bytes(hex: message), digest: bytes(hex: digest), signature: bytes(hex: signature))
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        // Python's hex() drops a leading zero digit; the vectors are trusted.
        (try? Hex.decode(hex.utf8.count % 2 == 1 ? "0" + hex : hex)) ?? []
    }
}

// AES-GCM sealing and P-256/P-384 ECDH (issue 32) against OpenSSL's EVP in the
// same run: `aes128gcm-16k` and `aes256gcm-16k` (one `AESGCM.seal` of 16 KiB
// with a 12-byte nonce and no associated data, key expansion excluded, as
// `openssl speed -evp aes-128-gcm -bytes 16384` keeps its context), and
// `ecdh-p256`, `ecdh-p384` (one shared secret from a validated peer key, the
// constant-time ladder and the Fermat inversion included, as
// `openssl speed ecdhp256` derives one).

import TackCipher
import TackDER
import TackSignature
import TackX509

func aesGCMAndECDHBenchmarks() -> [Benchmark] {
    var benchmarks: [Benchmark] = []
    let size = 16384
    let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let nonce = (0..<12).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    for (name, cipher, keyLength) in [("aes128gcm-16k", "aes-128-gcm", 16), ("aes256gcm-16k", "aes-256-gcm", 32)] {
        let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        guard let gcm = try? AESGCM(key: key) else { continue }
        benchmarks.append(
            Benchmark(
                name: name, unit: .megabytesPerSecond(bytesPerOperation: size),
                openssl: .evpCipher(cipher, bytes: size, decrypt: false, withoutAESNI: false)
            ) { iterations in
                for _ in 0..<iterations {
                    blackHole(try? gcm.seal(plaintext, nonce: nonce, authenticating: [UInt8]()))
                }
            })
    }
    // RFC 5903 §8.1 and §8.2: i, g^r and the shared x, which the optimised
    // build must reproduce before it is timed.
    let ecdhCases: [(name: String, curve: ECCurve, openssl: String, scalar: String, peer: String, shared: String)] = [
        (
            "ecdh-p256", .p256, "ecdhp256",
            "c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433",
            "04d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63"
                + "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab",
            "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de"
        ),
        (
            "ecdh-p384", .p384, "ecdhp384",
            "099f3c7034d4a2c699884d73a375a67f7624ef7c6b3c0f160647b67414dce655e35b538041e649ee3faef896783ab194",
            "04e558dbef53eecde3d3fccfc1aea08a89a987475d12fd950d83cfa41732bc509d0d1ac43a0336def96fda41d0774a3571"
                + "dcfbec7aacf3196472169e838430367f66eebe3c6e70c416dd5f0c68759dd1fff83fa40142209dff5eaad96db9e6386c",
            "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4d603135569b9e9d09cf5d4a270f59746"
        ),
    ]
    for testCase in ecdhCases {
        guard let scalar = try? Hex.decode(testCase.scalar), let peerBytes = try? Hex.decode(testCase.peer),
            let key = try? ECDHPrivateKey(curve: testCase.curve, rawRepresentation: scalar),
            let peer = try? ECDHPublicKey(curve: testCase.curve, x963Representation: peerBytes),
            (try? key.sharedSecret(with: peer)) == (try? Hex.decode(testCase.shared))
        else {
            fatalError("\(testCase.name): RFC 5903's shared secret not reproduced")
        }
        benchmarks.append(
            Benchmark(name: testCase.name, unit: .operationsPerSecond, openssl: .keyAgreement(testCase.openssl)) { iterations in
                for _ in 0..<iterations {
                    blackHole(try? key.sharedSecret(with: peer))
                }
            })
    }
    return benchmarks
}

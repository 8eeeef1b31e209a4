// AES-256-CBC decryption of 16 KiB (issue 21), both implementations, against
// OpenSSL's EVP in the same run: `aes-256-cbc-decrypt-16k-portable` (the
// bitsliced constant-time path) vs OpenSSL without AES-NI (its own code for
// such CPUs) with OpenSSL's default as a peer, and `aes-256-cbc-decrypt-16k-hw`
// (AES-NI) vs OpenSSL's default. Both include the key schedule and the padding
// check of one `AES.decryptCBC` call per 16 KiB.

import TackCipher

func aesBenchmarks() -> [Benchmark] {
    var benchmarks: [Benchmark] = []
    let size = 16384
    let key = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    let iv = (0..<16).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    // 16 KiB of plaintext less one byte, so that the ciphertext is exactly 16 KiB.
    let plaintext = (0..<(size - 1)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    for (label, implementation) in [("portable", AESImplementation.portable), ("hw", .hardware)] {
        // Without AES instructions the hw figures would silently be the portable ones.
        guard implementation.isAvailable,
            let ciphertext = try? AES.encryptCBC(plaintext, key: key, iv: iv, implementation: implementation)
        else { continue }
        let portable = implementation == .portable
        benchmarks.append(
            Benchmark(
                name: "aes-256-cbc-decrypt-16k-\(label)",
                unit: .megabytesPerSecond(bytesPerOperation: size),
                openssl: .evpCipher("aes-256-cbc", bytes: size, decrypt: true, withoutAESNI: portable),
                peers: portable ? [("openssl-default", .evpCipher("aes-256-cbc", bytes: size, decrypt: true, withoutAESNI: false))] : []
            ) { iterations in
                for _ in 0..<iterations {
                    blackHole(try? AES.decryptCBC(ciphertext, key: key, iv: iv, implementation: implementation))
                }
            })
    }
    return benchmarks
}

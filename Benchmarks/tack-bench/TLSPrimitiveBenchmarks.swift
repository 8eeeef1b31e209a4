// The TLS 1.3 primitives of issue 32 (part A) against OpenSSL in the same run:
// `x25519`, one X25519 shared secret (the ladder and the inversion) vs `openssl
// speed ecdhx25519`; `chacha20poly1305-16k`, one ChaCha20-Poly1305 seal of
// 16 KiB (encryption and tag) vs `openssl speed -evp chacha20-poly1305`;
// `hkdf-sha256`, one HKDF-SHA-256 extract and expand of 32 bytes (the size
// of a TLS 1.3 secret), reported without an OpenSSL figure (`openssl speed`
// has no KDF mode).

import TackCipher
import TackDigest
import TackSignature

func x25519ChaChaHKDFBenchmarks() -> [Benchmark] {
    let scalar = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
    let peerScalar = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ 11) }
    guard let key = try? X25519PrivateKey(rawRepresentation: scalar),
        let peer = try? X25519PrivateKey(rawRepresentation: peerScalar)
    else { return [] }
    let peerKey = peer.publicKey

    let size = 16384
    let aeadKey = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    let nonce = (0..<12).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let aad = [UInt8](repeating: 0x17, count: 13)
    guard let aead = try? ChaCha20Poly1305(key: aeadKey) else { return [] }

    let ikm = [UInt8](repeating: 0x0b, count: 32)
    let salt = [UInt8](repeating: 0x5a, count: 32)
    let info = Array("tls13 c hs traffic".utf8)
    return [
        Benchmark(name: "x25519", unit: .operationsPerSecond, openssl: .keyAgreement("ecdhx25519")) { iterations in
            for _ in 0..<iterations {
                blackHole(try? key.sharedSecret(with: peerKey))
            }
        },
        Benchmark(
            name: "chacha20poly1305-16k",
            unit: .megabytesPerSecond(bytesPerOperation: size),
            openssl: .evpCipher("chacha20-poly1305", bytes: size, decrypt: false, withoutAESNI: false)
        ) { iterations in
            for _ in 0..<iterations {
                blackHole(try? aead.seal(plaintext, nonce: nonce, authenticating: aad))
            }
        },
        Benchmark(name: "hkdf-sha256", unit: .operationsPerSecond, openssl: nil) { iterations in
            for _ in 0..<iterations {
                blackHole(try? HKDF.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: 32, hash: .sha256))
            }
        },
    ]
}

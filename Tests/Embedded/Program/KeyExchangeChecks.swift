// Key-exchange and record-protection known answers (issue 32): X25519 (RFC 7748
// §5.2 and §6.1, and the all-zero secret of a small-order key refused), HKDF
// (RFC 5869 A.1), the TLS 1.3 key schedule's first steps (RFC 8448 §3), and
// ChaCha20-Poly1305 (RFC 8439 §2.8.2: seal, open, and a flipped tag bit
// refused). Not in CORE_ONLY builds, nor where TackCipher is not built.

#if !CORE_ONLY && canImport(TackCipher)
import TackCipher
import TackDigest
import TackSignature

func checkKeyExchange(_ tally: inout Tally) {
    do {
        let scalar = try X25519PrivateKey(rawRepresentation: bytes("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"))
        let u = try X25519PublicKey(rawRepresentation: bytes("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"))
        tally.check(try scalar.sharedSecret(with: u) == bytes("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
                    "X25519 RFC 7748 §5.2 vector 1")
        let alice = try X25519PrivateKey(rawRepresentation: bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try X25519PrivateKey(rawRepresentation: bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        tally.check(alice.publicKey.rawRepresentation == bytes("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"),
                    "X25519 RFC 7748 §6.1 Alice's public key")
        let shared = bytes("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        tally.check(try alice.sharedSecret(with: bob.publicKey) == shared, "X25519 RFC 7748 §6.1 shared secret (Alice)")
        tally.check(try bob.sharedSecret(with: alice.publicKey) == shared, "X25519 RFC 7748 §6.1 shared secret (Bob)")
    } catch {
        tally.check(false, "X25519 known answers: \(error.description)")
    }
    do {
        let key = try X25519PrivateKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))
        _ = try key.sharedSecret(with: X25519PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 32)))
        tally.check(false, "X25519 accepted the all-zero shared secret")
    } catch {
        tally.check(error == .zeroSharedSecret, "X25519 zero shared secret: \(error.description)")
    }

    do {
        let okm = try HKDF.deriveKey(
            inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22), salt: bytes("000102030405060708090a0b0c"),
            info: bytes("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42, hash: .sha256)
        tally.check(okm == bytes("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
                    "HKDF-SHA-256 RFC 5869 A.1")
        let early = try HKDF.extract(salt: [], inputKeyMaterial: [UInt8](repeating: 0, count: 32), hash: .sha256)
        let emptyHash = try DigestAlgorithm.sha256.hash([])
        let derived = try HKDF.deriveSecret(secret: early, label: utf8("derived"), transcriptHash: emptyHash, hash: .sha256)
        tally.check(derived == bytes("6f2615a108c702c5678f54fc9dbab69716c076189c48250cebeac3576c3611ba"), "TLS 1.3 RFC 8448 derived secret")
        let handshake = try HKDF.extract(
            salt: derived, inputKeyMaterial: bytes("8bd4054fb55b9d63fdfbacf9f04b9f0d35e6d63f537563efd46272900f89492d"), hash: .sha256)
        let server = try HKDF.deriveSecret(
            secret: handshake, label: utf8("s hs traffic"),
            transcriptHash: bytes("860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8"), hash: .sha256)
        let key = try HKDF.expandLabel(secret: server, label: utf8("key"), context: [], outputByteCount: 16, hash: .sha256)
        tally.check(key == bytes("3fce516009c21727d0f2e4e86ee403bc"), "TLS 1.3 RFC 8448 server handshake key")
    } catch {
        tally.check(false, "HKDF known answers: \(error.description)")
    }

    do {
        let aead = try ChaCha20Poly1305(key: bytes("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"))
        let nonce = bytes("070000004041424344454647")
        let aad = bytes("50515253c0c1c2c3c4c5c6c7")
        let plaintext = utf8(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
        let expected = bytes(
            "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b61161ae10b594f09e26a7e902ecbd0600691")
        let sealed = try aead.seal(plaintext, nonce: nonce, authenticating: aad)
        tally.check(sealed == expected, "ChaCha20-Poly1305 RFC 8439 §2.8.2 seal")
        tally.check(try aead.open(expected, nonce: nonce, authenticating: aad) == plaintext, "ChaCha20-Poly1305 RFC 8439 §2.8.2 open")
        var forged = expected
        forged[forged.count - 1] ^= 1
        do {
            _ = try aead.open(forged, nonce: nonce, authenticating: aad)
            tally.check(false, "ChaCha20-Poly1305 opened a record with a flipped tag bit")
        } catch {
            tally.check(error == .authenticationFailed, "ChaCha20-Poly1305 flipped tag bit: \(error.description)")
        }
    } catch {
        tally.check(false, "ChaCha20-Poly1305 known answers: \(error.description)")
    }
}
#endif

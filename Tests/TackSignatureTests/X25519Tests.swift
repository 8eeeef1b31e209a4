import TackTestSupport
import Testing

import TackSignature

/// A `RandomSource` over the seeded test stream, so that generated keys reproduce.
private struct SeededSource: RandomSource {
    var stream: DeterministicStream
    mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError) {
        bytes = stream.bytes(bytes.count)
    }
}

/// A `RandomSource` whose generator has failed.
private struct FailingSource: RandomSource {
    mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError) {
        throw .sourceFailed
    }
}

@Suite("X25519 (RFC 7748)")
struct X25519Tests {
    /// X25519(k, u) through the public API.
    static func x25519(_ k: [UInt8], _ u: [UInt8]) throws -> [UInt8] {
        try X25519PrivateKey(rawRepresentation: k).sharedSecret(with: X25519PublicKey(rawRepresentation: u))
    }

    @Test("RFC 7748 §5.2: the two scalar-multiplication vectors (the second u has its top bit set, which is ignored)",
          arguments: [
            ("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
             "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
             "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
            ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
             "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
             "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
          ])
    func scalarMultiplication(scalar: String, u: String, output: String) throws {
        #expect(try Self.x25519(hexBytes(scalar), hexBytes(u)) == hexBytes(output))
    }

    @Test("RFC 7748 §5.2: k = u = 9, then (k, u) = (X25519(k, u), k), after 1 and after 1,000 iterations")
    func iterations() throws {
        var k = [UInt8](repeating: 0, count: 32)
        k[0] = 9
        var u = k
        for iteration in 1...1000 {
            (k, u) = (try Self.x25519(k, u), k)
            if iteration == 1 {
                #expect(k == hexBytes("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"))
            }
        }
        #expect(k == hexBytes("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"))
    }

    @Test("RFC 7748 §6.1: Alice's and Bob's public keys and their shared secret")
    func diffieHellman() throws {
        let alice = try X25519PrivateKey(rawRepresentation: hexBytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try X25519PrivateKey(rawRepresentation: hexBytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(alice.publicKey.rawRepresentation == hexBytes("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        #expect(bob.publicKey.rawRepresentation == hexBytes("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
        let shared = hexBytes("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        #expect(try alice.sharedSecret(with: bob.publicKey) == shared)
        #expect(try bob.sharedSecret(with: alice.publicKey) == shared)
    }

    @Test("A public key of small order gives the all-zero secret, which is refused (RFC 8446 §7.4.2)",
          arguments: [
            "0000000000000000000000000000000000000000000000000000000000000000",  // u = 0
            "0100000000000000000000000000000000000000000000000000000000000000",  // u = 1
            "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",  // order 8
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p − 1
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  // p, non-canonical 0
          ])
    func smallOrderRefused(publicKey: String) throws {
        let key = try X25519PrivateKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))
        #expect(throws: KeyAgreementError.zeroSharedSecret) {
            try key.sharedSecret(with: X25519PublicKey(rawRepresentation: hexBytes(publicKey)))
        }
    }

    @Test("Seeded key generation: two generated keys agree on one secret; a failing source is reported")
    func generatedKeysAgree() throws {
        var source = SeededSource(stream: DeterministicStream(state: 7748))
        for _ in 0..<4 {
            let a = try X25519PrivateKey(using: &source)
            let b = try X25519PrivateKey(using: &source)
            let secret = try a.sharedSecret(with: b.publicKey)
            #expect(secret == (try b.sharedSecret(with: a.publicKey)))
            #expect(secret != [UInt8](repeating: 0, count: 32))
        }
        var failing = FailingSource()
        #expect(throws: KeyAgreementError.randomSourceFailed(.sourceFailed)) { try X25519PrivateKey(using: &failing) }
    }

    @Test("Lengths are checked; neither the description nor an error shows key bytes")
    func lengthsAndRedaction() throws {
        #expect(throws: KeyAgreementError.invalidPrivateKeyLength(expected: 32, found: 31)) { try X25519PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: KeyAgreementError.invalidPublicKeyLength(expected: 32, found: 33)) { try X25519PublicKey(rawRepresentation: [UInt8](repeating: 1, count: 33)) }
        let key = try X25519PrivateKey(rawRepresentation: [UInt8](repeating: 0xab, count: 32))
        #expect(String(describing: key) == "X25519PrivateKey")
        #expect(!String(describing: key).lowercased().contains("abab"))
        #expect(KeyAgreementError.zeroSharedSecret.code == "key_agreement_zero_shared_secret")
    }
}

// The Wycheproof runner's schemas for the TLS 1.3 primitives: authenticated
// encryption (`aead_test_schema_v1`: ChaCha20-Poly1305), X25519
// (`xdh_comp_schema_v1`) and HKDF (`hkdf_test_schema_v1`, every hash TackDigest
// computes). Algorithms of these schemas that Tack lacks (X448, say) are
// skipped with their reason, counted, and never passed.

import TackCipher
import TackDigest
import TackSignature

extension WycheproofRunner {
    static func tlsPrimitivePlan(
        schema: WycheproofSchema, algorithm: String, group: WycheproofPrimitiveFile.Group, path: String
    ) throws(WycheproofFileError) -> PrimitivePlan {
        switch schema {
        case .aead:
            guard algorithm == "CHACHA20-POLY1305" else { return .skip("algorithm \(algorithm) not run") }
            guard group.tagSize == 8 * ChaCha20Poly1305.tagByteCount else {
                return .skip("tag size \(group.tagSize.map { String($0) } ?? "?") bits not offered (128 only)")
            }
            return .run { vector throws(WycheproofFileError) in
                let fields = Fields(vector, path: path)
                return chaChaPolyOutcome(
                    key: try fields.hex(\.key, "key"), nonce: try fields.hex(\.iv, "iv"), aad: try fields.hex(\.aad, "aad"),
                    message: try fields.hex(\.msg, "msg"), ciphertext: try fields.hex(\.ct, "ct"), tag: try fields.hex(\.tag, "tag"),
                    isValid: vector.result == "valid")
            }
        case .xdhComp:
            guard algorithm == "XDH" else { return .skip("algorithm \(algorithm) not run") }
            guard let curve = group.curve else { throw WycheproofFileError("\(path): an XDH group has no curve") }
            guard curve == "curve25519" else { return .skip("curve \(curve) not supported") }
            return .run { vector throws(WycheproofFileError) in
                let fields = Fields(vector, path: path)
                let privateKey = try fields.hex(\.privateKey, "private")
                let publicKey = try fields.hex(\.publicKey, "public")
                let expected = try fields.hex(\.shared, "shared")
                do throws(KeyAgreementError) {
                    let key = try X25519PrivateKey(rawRepresentation: privateKey)
                    let shared = try key.sharedSecret(with: X25519PublicKey(rawRepresentation: publicKey))
                    return shared == expected ? .accepted : .wrongOutput("shared secret differs")
                } catch {
                    return .rejected(error.description)
                }
            }
        case .hkdf:
            // HKDF-<Hash>, for example HKDF-SHA-256.
            guard algorithm.hasPrefix("HKDF-") else { return .skip("algorithm \(algorithm) not run") }
            let name = String(algorithm.dropFirst(5))
            guard let hash = DigestAlgorithm(wycheproofName: name), hash.isComputable else {
                return .skip("HKDF hash \(name) not in TackDigest")
            }
            return .run { vector throws(WycheproofFileError) in
                let fields = Fields(vector, path: path)
                let ikm = try fields.hex(\.ikm, "ikm")
                let salt = try fields.hex(\.salt, "salt")
                let info = try fields.hex(\.info, "info")
                let expected = try fields.hex(\.okm, "okm")
                guard let size = vector.size else { throw WycheproofFileError("\(path): tcId \(vector.tcId): size missing") }
                do throws(HashError) {
                    let derived = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: size, hash: hash)
                    return derived == expected ? .accepted : .wrongOutput("derived key differs")
                } catch {
                    return .rejected(error.description)
                }
            }
        case .indCPA, .mac, .pbkdf, .pbe, .ecdhPoint, .ecdsaDER, .ecdsaP1363, .eddsa, .rsaPKCS1, .rsaPSS:
            throw WycheproofFileError("\(path): \(schema.rawValue) is not a TLS primitive schema")
        }
    }

    /// Opening `ciphertext ‖ tag` must give `message`; a `valid` vector's seal
    /// must also give `ciphertext ‖ tag` back.
    private static func chaChaPolyOutcome(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], message: [UInt8], ciphertext: [UInt8], tag: [UInt8], isValid: Bool
    ) -> WycheproofOutcome {
        let aead: ChaCha20Poly1305
        do throws(AEADError) { aead = try ChaCha20Poly1305(key: key) } catch { return .rejected(error.description) }
        let sealed = ciphertext + tag
        return roundTripOutcome(message: message, encrypted: sealed, isValid: isValid, encryptedName: "ciphertext or tag") {
            () throws(AEADError) in try aead.open(sealed, nonce: nonce, authenticating: aad)
        } encrypt: { () throws(AEADError) in
            try aead.seal(message, nonce: nonce, authenticating: aad)
        }
    }
}

// The seam between the PKCS #12 structure and the primitives it needs.
//
// Everything cryptographic goes through the three closures of
// `PKCS12Cryptography`, and `.standard` is the one place that names the
// implementations: SHA-1, HMAC, PBKDF2 and the PKCS #12 KDF from TackDigest, the
// CBC ciphers from TackCipher. Tests may substitute closures (to count calls,
// or to stand for a primitive a build lacks); an absent primitive is refused
// (`mac_algorithm_unavailable`, `encryption_unavailable`, key ID `nil`), never
// reported as checked.
//
// - `computeMAC`: for `.pkcs12KDF(hash)`, the MAC key is the PKCS #12 KDF
//   (RFC 7292 B.2, ID = 3) over `hash` of the password as a BMPString with its
//   two-zero trailer (an absent password: the empty string, no trailer), salt
//   and iterations, of the hash's output length; the MAC is HMAC-`hash` of
//   `content`. For PBMAC1 (RFC 9579), PBKDF2 over the UTF-8 password with the
//   parameters' salt, count and key length, then HMAC.
// - `decrypt`: PBES2 derives the key with PBKDF2 over the UTF-8 password; the
//   PKCS #12 PBEs derive key (ID = 1) and IV (ID = 2) with the PKCS #12 KDF over
//   SHA-1 of the BMPString password. CBC with PKCS #7 padding, checked strictly;
//   bad padding returns `.badPadding`.
// - `sha1`: SHA-1 of the bytes (the key ID, as `kSecImportItemKeyID`).
//
// Iteration counts were checked against `PKCS12Options.maximumIterations`
// when the scheme was parsed, before any of this runs; the derivations here
// get that count as their own cap, so the caller's limit is the only one.

import TackCipher
import TackDigest

/// A passphrase candidate: the caller's, or the empty and absent passphrases
/// that OpenSSL also tries.
enum PKCS12Passphrase: Sendable, Hashable {
    /// No passphrase: the PKCS #12 KDF gets an empty byte string.
    case absent
    /// A passphrase (perhaps empty): BMPString for the PKCS #12 KDF, UTF-8 for PBKDF2.
    case text(String)
}

/// The outcome of one decryption attempt.
enum PKCS12Decryption: Sendable {
    /// The plaintext, its padding checked and removed.
    case plaintext([UInt8])
    /// The padding is wrong: a wrong key, or a corrupted ciphertext.
    case badPadding
    /// The ciphertext is not a non-zero whole number of blocks: corrupted,
    /// whatever the passphrase.
    case malformedCiphertext
    /// The scheme is not implemented in this build.
    case unavailable
}

/// The primitives the reader calls (see the comment at the top of this file).
struct PKCS12Cryptography: Sendable {
    /// The MAC of `content` under `scheme` with `passphrase`, or `nil` when the
    /// scheme is not implemented.
    var computeMAC: @Sendable (_ scheme: PKCS12MACScheme, _ passphrase: PKCS12Passphrase, _ content: [UInt8]) -> [UInt8]?
    /// Decrypts `ciphertext`.
    var decrypt: @Sendable (_ scheme: PKCS12EncryptionScheme, _ passphrase: PKCS12Passphrase, _ ciphertext: [UInt8]) -> PKCS12Decryption
    /// SHA-1 of the bytes, or `nil` when SHA-1 is not available.
    var sha1: @Sendable (_ bytes: [UInt8]) -> [UInt8]?

    /// What this build of Tack implements: every scheme ``PKCS12MACScheme``
    /// and ``PKCS12EncryptionScheme`` name.
    static let standard = PKCS12Cryptography(
        computeMAC: { scheme, passphrase, content in PKCS12Cryptography.standardMAC(scheme, passphrase, content) },
        decrypt: { scheme, passphrase, ciphertext in
            PKCS12Cryptography.standardDecrypt(scheme, passphrase, ciphertext)
        },
        sha1: { bytes in try? DigestAlgorithm.sha1.hash(bytes) }
    )
}

extension PKCS12Passphrase {
    /// The password bytes for the PKCS #12 KDF: BMPString with its two-zero
    /// trailer; nothing at all when absent (RFC 7292 B.1).
    var bmpBytes: [UInt8] {
        switch self {
        case .absent: PKCS12KeyDerivation.passwordBytes(nil)
        case .text(let text): PKCS12KeyDerivation.passwordBytes(text)
        }
    }

    /// The password bytes for PBKDF2: UTF-8, as OpenSSL and `cryptography`
    /// write PBES2 and PBMAC1 (an absent password is empty too).
    var utf8Bytes: [UInt8] {
        switch self {
        case .absent: []
        case .text(let text): Array(text.utf8)
        }
    }
}

extension PKCS12Cryptography {
    /// HMAC under a derived key; `nil` only if a primitive refuses its input,
    /// which the parsed schemes rule out (the caller reports it as unavailable
    /// rather than as a verified or failed MAC).
    static func standardMAC(
        _ scheme: PKCS12MACScheme, _ passphrase: PKCS12Passphrase, _ content: [UInt8]
    ) -> [UInt8]? {
        do throws(HashError) {
            switch scheme.kind {
            case .pkcs12KDF(let hash):
                let algorithm = hash
                let key = try PKCS12KeyDerivation.deriveKey(
                    password: passphrase.bmpBytes, salt: scheme.salt, purpose: .mac,
                    iterationCount: scheme.iterations, keyByteCount: algorithm.byteCount, hash: algorithm,
                    maximumIterationCount: scheme.iterations)
                return try algorithm.authenticationCode(for: content, key: key)
            case .pbmac1(let prf, let mac, let keyLength):
                let key = try PBKDF2.deriveKey(
                    password: passphrase.utf8Bytes, salt: scheme.salt, iterationCount: scheme.iterations,
                    keyByteCount: keyLength, hash: prf, maximumIterationCount: scheme.iterations)
                return try mac.authenticationCode(for: content, key: key)
            }
        } catch {
            return nil
        }
    }

    /// Derives key and IV as the scheme says, then decrypts CBC with PKCS #7 padding.
    static func standardDecrypt(
        _ scheme: PKCS12EncryptionScheme, _ passphrase: PKCS12Passphrase, _ ciphertext: [UInt8]
    ) -> PKCS12Decryption {
        let cipher = scheme.cipher
        let key: [UInt8]
        let iv: [UInt8]
        do throws(HashError) {
            switch scheme.keyDerivation {
            case .pkcs12KDF:
                // RFC 7292 appendix C: the PBEs of PKCS #12 all use SHA-1.
                let password = passphrase.bmpBytes
                key = try PKCS12KeyDerivation.deriveKey(
                    password: password, salt: scheme.salt, purpose: .key, iterationCount: scheme.iterations,
                    keyByteCount: cipher.keyByteCount, hash: .sha1, maximumIterationCount: scheme.iterations)
                iv = try PKCS12KeyDerivation.deriveKey(
                    password: password, salt: scheme.salt, purpose: .initializationVector,
                    iterationCount: scheme.iterations, keyByteCount: cipher.blockByteCount, hash: .sha1,
                    maximumIterationCount: scheme.iterations)
            case .pbkdf2(let prf, _):
                guard let schemeIV = scheme.initializationVector else { return .unavailable }
                key = try PBKDF2.deriveKey(
                    password: passphrase.utf8Bytes, salt: scheme.salt, iterationCount: scheme.iterations,
                    keyByteCount: cipher.keyByteCount, hash: prf,
                    maximumIterationCount: scheme.iterations)
                iv = schemeIV
            }
        } catch {
            return .unavailable
        }
        do throws(CipherError) {
            let plaintext: [UInt8]
            switch cipher {
            case .aes128CBC, .aes192CBC, .aes256CBC:
                plaintext = try AES.decryptCBC(ciphertext, key: key, iv: iv)
            case .desEDE3CBC, .desEDE2CBC:
                plaintext = try TripleDES.decryptCBC(ciphertext, key: key, iv: iv)
            case .rc2CBC(let bits):
                plaintext = try RC2.decryptCBC(ciphertext, key: key, effectiveKeyBits: bits, iv: iv)
            }
            return .plaintext(plaintext)
        } catch {
            switch error {
            case .badPadding: return .badPadding
            case .ciphertextLengthNotBlockMultiple: return .malformedCiphertext
            case .invalidKeyLength, .invalidIVLength, .invalidEffectiveKeyBits: return .unavailable
            }
        }
    }
}

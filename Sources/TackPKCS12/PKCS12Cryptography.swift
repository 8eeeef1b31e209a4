// The seam between the PKCS #12 structure and the primitives it needs.
//
// The structure (this module) was written before SHA-1, the PKCS #12 KDF,
// PBKDF2 (TackSHA2, branch `hash`) and the ciphers (TackCipher, branch `cipher`)
// were merged. Everything that needs them goes through the three closures
// below, and `PKCS12Cryptography.standard` is the one place that names the
// implementations. Until they land, it has none: a file with a MAC is refused
// with `macAlgorithmUnavailable`, an encrypted layer with
// `encryptionUnavailable`, and key IDs are `nil`; nothing reports a check it
// could not run.
//
// Wiring them in, when those branches land:
// - `computeMAC`: for `.pkcs12KDF(hash)`, the MAC key is the PKCS #12 KDF
//   (RFC 7292 B.2, ID = 3) over `hash` of the password as a BMPString with its
//   two-zero trailer (an absent password: the empty string, no trailer), salt
//   and iterations, of the hash's output length; the MAC is HMAC-`hash` of
//   `content`. For PBMAC1 (RFC 9579), PBKDF2 with the UTF-8 password as its
//   parameters say, then HMAC.
// - `decrypt`: PBES2 derives the key with PBKDF2 over the UTF-8 password; the
//   PKCS #12 PBEs derive key (ID = 1) and IV (ID = 2) with the PKCS #12 KDF over
//   SHA-1 of the BMPString password. CBC with PKCS #7 padding, checked strictly;
//   bad padding returns `.badPadding`.
// - `sha1`: SHA-1 of the bytes (the key ID, as `kSecImportItemKeyID`).

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

    /// What this build of Tack implements.
    static let standard = PKCS12Cryptography(
        computeMAC: { _, _, _ in nil },
        decrypt: { _, _, _ in .unavailable },
        sha1: { _ in nil }
    )
}

/// Why an authenticated encryption (``AESGCM``, ``ChaCha20Poly1305``) refused a key, a
/// nonce or a record.
///
/// Every case is an enumerated reason with the numbers that make it precise;
/// the text is only in ``description`` and ``code`` is a stable identifier for
/// tools and logs. No case carries key, nonce, plaintext or tag bytes.
public enum AEADError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The tag does not match: the ciphertext, the nonce, the associated data
    /// or the key is not the one sealed with. Nothing was decrypted.
    case authenticationFailed
    /// The nonce has a length the algorithm does not take (its byte count).
    case invalidNonceLength(Int)
    /// The key has a length the algorithm does not take (its byte count).
    case invalidKeyLength(Int)
    /// The sealed input is shorter than the tag (its byte count).
    case ciphertextTooShort(Int)
    /// The plaintext or the associated data exceeds what one nonce may protect
    /// (AES-GCM: 2³⁶ − 32 bytes of plaintext, NIST SP 800-38D §5.2.1.1).
    case inputTooLong

    /// The stable snake_case code of the failure, `aead_<case>`.
    public var code: String {
        switch self {
        case .authenticationFailed: "aead_authentication_failed"
        case .invalidNonceLength: "aead_invalid_nonce_length"
        case .invalidKeyLength: "aead_invalid_key_length"
        case .ciphertextTooShort: "aead_ciphertext_too_short"
        case .inputTooLong: "aead_input_too_long"
        }
    }

    /// A one-line description for diagnostics (never any key or data bytes).
    public var description: String {
        switch self {
        case .authenticationFailed:
            "authentication failed (wrong key, nonce or associated data, or modified ciphertext)"
        case .invalidNonceLength(let count):
            "the nonce length \(count) bytes is not one the algorithm takes"
        case .invalidKeyLength(let count):
            "the key length \(count) bytes is not one the algorithm takes"
        case .ciphertextTooShort(let count):
            "the sealed input is \(count) bytes, shorter than its tag"
        case .inputTooLong:
            "the input is longer than one nonce may protect"
        }
    }
}

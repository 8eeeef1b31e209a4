/// Why an authenticated encryption (``ChaCha20Poly1305``) refused a key, a
/// nonce or a record.
///
/// No case carries key, nonce, plaintext or tag bytes: only lengths. A
/// record that fails authentication says nothing more than
/// ``authenticationFailed``, whatever part of it was altered.
public enum AEADError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The tag did not verify: the ciphertext, the tag, the associated data,
    /// the nonce or the key differ from those of the seal. Nothing was
    /// decrypted for the caller.
    case authenticationFailed
    /// The nonce has a length the algorithm does not take (its byte count).
    case invalidNonceLength(Int)
    /// The key has a length the algorithm does not take (its byte count).
    case invalidKeyLength(Int)
    /// The record is shorter than its tag (its byte count).
    case ciphertextTooShort(Int)
    /// The plaintext or ciphertext is longer than the algorithm can process
    /// under one nonce (RFC 8439 §2.8: 2³²−1 blocks of 64 bytes after the
    /// Poly1305 key block).
    case inputTooLong

    /// A stable snake_case identifier of the case.
    public var code: String {
        switch self {
        case .authenticationFailed: "authentication_failed"
        case .invalidNonceLength: "invalid_nonce_length"
        case .invalidKeyLength: "invalid_key_length"
        case .ciphertextTooShort: "ciphertext_too_short"
        case .inputTooLong: "input_too_long"
        }
    }

    /// A one-line description for diagnostics (never any key or data bytes).
    public var description: String {
        switch self {
        case .authenticationFailed: "the record did not authenticate (wrong key, nonce, data or tag)"
        case .invalidNonceLength(let count): "the nonce is \(count) bytes, a length the algorithm does not take"
        case .invalidKeyLength(let count): "the key is \(count) bytes, a length the algorithm does not take"
        case .ciphertextTooShort(let count): "the record is \(count) bytes, shorter than its tag"
        case .inputTooLong: "the input is longer than one nonce may protect"
        }
    }
}

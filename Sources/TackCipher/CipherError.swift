/// Why an encryption or decryption was refused.
///
/// Every case is an enumerated reason with the numbers that make it precise;
/// the text is only in ``description`` and ``code`` is a stable identifier for
/// tools and logs. No case carries key, IV or plaintext bytes.
public enum CipherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key has a length the cipher does not take.
    ///
    /// - `algorithm`: the cipher.
    /// - `byteCount`: the key's length in bytes.
    case invalidKeyLength(algorithm: CipherAlgorithm, byteCount: Int)
    /// The initialization vector is not exactly one block long.
    case invalidIVLength(expected: Int, found: Int)
    /// The ciphertext is empty or not a whole number of blocks (CBC with
    /// PKCS #7 padding always yields at least one block).
    case ciphertextLengthNotBlockMultiple(byteCount: Int, blockByteCount: Int)
    /// The decrypted last block does not end in valid PKCS #7 padding
    /// (RFC 5652 §6.3, RFC 8018 §6.1.1): n bytes of value n, 1 ≤ n ≤ block size.
    /// A wrong key or passphrase usually ends here, since the padding is the
    /// only redundancy CBC has.
    case badPadding
    /// RC2's effective key bits outside 1...1024 (RFC 2268 §2).
    case invalidEffectiveKeyBits(Int)

    /// A stable identifier, `cipher.<case>`.
    public var code: String {
        switch self {
        case .invalidKeyLength: "cipher.invalid_key_length"
        case .invalidIVLength: "cipher.invalid_iv_length"
        case .ciphertextLengthNotBlockMultiple: "cipher.ciphertext_length_not_block_multiple"
        case .badPadding: "cipher.bad_padding"
        case .invalidEffectiveKeyBits: "cipher.invalid_effective_key_bits"
        }
    }

    /// A one-line description for diagnostics (never any key or data bytes).
    public var description: String {
        switch self {
        case .invalidKeyLength(let algorithm, let count):
            "\(algorithm.description) takes a key of \(algorithm.keyLengthText), not \(count) bytes"
        case .invalidIVLength(let expected, let found):
            "the IV must be \(expected) bytes, not \(found)"
        case .ciphertextLengthNotBlockMultiple(let count, let block):
            "the ciphertext is \(count) bytes, not a non-zero multiple of the \(block)-byte block"
        case .badPadding:
            "bad padding after decryption (wrong key, or corrupted data)"
        case .invalidEffectiveKeyBits(let bits):
            "RC2 effective key bits must be 1 to 1024, not \(bits)"
        }
    }
}

/// The block ciphers of ``TackCipher``.
public enum CipherAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// AES (FIPS 197) with a 16-, 24- or 32-byte key.
    case aes
    /// Triple DES, EDE (NIST SP 800-67), with a 16- (two-key) or 24-byte (three-key) key.
    case tripleDES
    /// RC2 (RFC 2268) with a 1- to 128-byte key.
    case rc2

    /// The algorithm's name.
    public var description: String {
        switch self {
        case .aes: "AES"
        case .tripleDES: "DES-EDE3"
        case .rc2: "RC2"
        }
    }

    /// The block size in bytes: 16 for AES, 8 for the legacy ciphers.
    public var blockByteCount: Int {
        switch self {
        case .aes: 16
        case .tripleDES, .rc2: 8
        }
    }

    var keyLengthText: String {
        switch self {
        case .aes: "16, 24 or 32 bytes"
        case .tripleDES: "16 or 24 bytes"
        case .rc2: "1 to 128 bytes"
        }
    }
}

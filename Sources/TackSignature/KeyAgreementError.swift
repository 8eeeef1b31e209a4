/// Why a key agreement (``X25519PrivateKey``) refused a key or its result.
///
/// No case carries key or secret bytes: only lengths and the rule broken.
public enum KeyAgreementError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A private key of the wrong length (its byte count; X25519 takes 32).
    case invalidPrivateKeyLength(Int)
    /// A public key of the wrong length (its byte count; X25519 takes 32).
    case invalidPublicKeyLength(Int)
    /// The shared secret is all zeros: the peer's public key is a point of
    /// small order, which contributes nothing secret. RFC 8446 §7.4.2 has a
    /// TLS 1.3 peer abort, and RFC 7748 §6.1 allows the check.
    case zeroSharedSecret
    /// The random source failed while a key was generated.
    case randomSourceFailed(RandomSourceError)

    /// A stable snake_case identifier of the case.
    public var code: String {
        switch self {
        case .invalidPrivateKeyLength: "invalid_private_key_length"
        case .invalidPublicKeyLength: "invalid_public_key_length"
        case .zeroSharedSecret: "zero_shared_secret"
        case .randomSourceFailed: "random_source_failed"
        }
    }

    /// A one-line description (never any key or secret bytes).
    public var description: String {
        switch self {
        case .invalidPrivateKeyLength(let count): "the private key is \(count) bytes, not 32"
        case .invalidPublicKeyLength(let count): "the public key is \(count) bytes, not 32"
        case .zeroSharedSecret: "the shared secret is all zeros (the peer's public key has small order)"
        case .randomSourceFailed(let error): "key generation failed: \(error.description)"
        }
    }
}

public import TackX509

/// Why a key agreement (``ECDHPrivateKey``, ``X25519PrivateKey``) could not produce
/// a key or a shared secret.
///
/// Every case is an enumerated reason with the numbers that make it precise;
/// ``code`` is a stable snake_case identifier and ``description`` text for people.
/// No case carries a private scalar, key bytes or a shared secret.
public enum KeyAgreementError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The curve is not offered for key agreement (P-521, or a curve a
    /// build left out: the `P384` trait off).
    case unsupportedCurve(ECCurve)
    /// The peer's public key is malformed: the fault names the rule it broke
    /// (wrong length, coordinate ≥ p, not on the curve, infinity, an unknown
    /// point form).
    case invalidPublicKey(SignatureError.PublicKeyFault)
    /// A public key of the wrong length (X25519: 32 bytes).
    case invalidPublicKeyLength(expected: Int, found: Int)
    /// A private scalar of the wrong length (its byte count and the curve's).
    case invalidPrivateKeyLength(expected: Int, found: Int)
    /// A private scalar of zero or not below the group order n.
    case privateKeyOutOfRange
    /// The private key and the peer's key are on different curves.
    case curveMismatch(privateKey: ECCurve, publicKey: ECCurve)
    /// The shared secret is all zeros: the peer's X25519 public key is a point of
    /// small order, which contributes nothing secret. RFC 8446 §7.4.2 has a
    /// TLS 1.3 peer abort, and RFC 7748 §6.1 allows the check.
    case zeroSharedSecret
    /// The random source failed while a key was generated.
    case randomSourceFailed(RandomSourceError)
    /// The random source gave 64 candidates in a row outside [1, n − 1]
    /// (each is out of range with probability below 2⁻³²): it is broken.
    case randomSourceUnusable

    /// The stable snake_case code of the failure, `key_agreement_<case>`.
    public var code: String {
        switch self {
        case .unsupportedCurve: "key_agreement_unsupported_curve"
        case .invalidPublicKey: "key_agreement_invalid_public_key"
        case .invalidPublicKeyLength: "key_agreement_invalid_public_key_length"
        case .invalidPrivateKeyLength: "key_agreement_invalid_private_key_length"
        case .privateKeyOutOfRange: "key_agreement_private_key_out_of_range"
        case .curveMismatch: "key_agreement_curve_mismatch"
        case .zeroSharedSecret: "key_agreement_zero_shared_secret"
        case .randomSourceFailed: "key_agreement_random_source_failed"
        case .randomSourceUnusable: "key_agreement_random_source_unusable"
        }
    }

    /// A readable sentence naming the failure (never any key material).
    public var description: String {
        switch self {
        case .unsupportedCurve(let curve):
            "key agreement on \(curve) is not supported"
        case .invalidPublicKey(let fault):
            "the peer's public key is invalid: \(SignatureError.malformedPublicKey(fault).description)"
        case .invalidPublicKeyLength(let expected, let found):
            "the public key must be \(expected) bytes, not \(found)"
        case .invalidPrivateKeyLength(let expected, let found):
            "the private key must be \(expected) bytes, not \(found)"
        case .privateKeyOutOfRange:
            "the private key is zero or not below the group order"
        case .curveMismatch(let privateKey, let publicKey):
            "the private key is on \(privateKey) but the peer's key on \(publicKey)"
        case .zeroSharedSecret:
            "the shared secret is all zeros (the peer's public key has small order)"
        case .randomSourceFailed(let error):
            "key generation failed: \(error.description)"
        case .randomSourceUnusable:
            "the random source gave 64 out-of-range scalars in a row"
        }
    }
}

public import TackX509

/// Why a key agreement (``ECDHPrivateKey``) could not produce a key or a
/// shared secret.
///
/// Every case is an enumerated reason; ``code`` is a stable snake_case
/// identifier and ``description`` text for people. No case carries a private
/// scalar or a shared secret.
public enum KeyAgreementError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The curve is not offered for key agreement (P-521, or a curve a
    /// firmware build left out with `TACK_NO_P384`).
    case unsupportedCurve(ECCurve)
    /// The peer's public key is malformed: the fault names the rule it broke
    /// (wrong length, coordinate ≥ p, not on the curve, infinity, an unknown
    /// point form).
    case invalidPublicKey(SignatureError.PublicKeyFault)
    /// A private scalar of the wrong length (its byte count and the curve's).
    case invalidPrivateKeyLength(expected: Int, found: Int)
    /// A private scalar of zero or not below the group order n.
    case privateKeyOutOfRange
    /// The private key and the peer's key are on different curves.
    case curveMismatch(privateKey: ECCurve, publicKey: ECCurve)
    /// The random source failed (``RandomSourceError``).
    case randomSourceFailed
    /// The random source gave 64 candidates in a row outside [1, n − 1]
    /// (each is out of range with probability below 2⁻³²): it is broken.
    case randomSourceUnusable

    /// The stable snake_case code of the failure.
    public var code: String {
        switch self {
        case .unsupportedCurve: "key_agreement_unsupported_curve"
        case .invalidPublicKey: "key_agreement_invalid_public_key"
        case .invalidPrivateKeyLength: "key_agreement_invalid_private_key_length"
        case .privateKeyOutOfRange: "key_agreement_private_key_out_of_range"
        case .curveMismatch: "key_agreement_curve_mismatch"
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
        case .invalidPrivateKeyLength(let expected, let found):
            "the private key must be \(expected) bytes, not \(found)"
        case .privateKeyOutOfRange:
            "the private key is zero or not below the group order"
        case .curveMismatch(let privateKey, let publicKey):
            "the private key is on \(privateKey) but the peer's key on \(publicKey)"
        case .randomSourceFailed:
            "the random source could not deliver bytes"
        case .randomSourceUnusable:
            "the random source gave 64 out-of-range scalars in a row"
        }
    }
}

/// A public key type whose SubjectPublicKeyInfo TackX509 can rebuild from raw key bytes.
///
/// The raw forms are those that Apple's `SecKeyCopyExternalRepresentation` returns
/// for public keys (and that other platforms' APIs commonly export):
///
/// | Type | Raw key bytes | SPKI algorithm |
/// |------|---------------|----------------|
/// | ``rsa`` | PKCS #1 `RSAPublicKey` DER | `rsaEncryption`, NULL |
/// | ``p256``, ``p384``, ``p521`` | `04 ‖ X ‖ Y` (65, 97, 133 bytes) | `id-ecPublicKey` + curve |
/// | ``ed25519``, ``x25519`` | 32 bytes | `id-Ed25519`, `id-X25519` |
/// | ``ed448``, ``x448`` | 57, 56 bytes | `id-Ed448`, `id-X448` |
public enum PublicKeyType: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// RSA, any modulus size.
    case rsa
    /// ECDSA / ECDH on NIST P-256.
    case p256
    /// ECDSA / ECDH on NIST P-384.
    case p384
    /// ECDSA / ECDH on NIST P-521.
    case p521
    /// Ed25519 (RFC 8410).
    case ed25519
    /// Ed448 (RFC 8410).
    case ed448
    /// X25519 (RFC 8410).
    case x25519
    /// X448 (RFC 8410).
    case x448

    /// Looks a type up by the name the `tack` command line uses: `rsa`, `p256`, `p384`,
    /// `p521`, `ed25519`, `ed448`, `x25519`, `x448` (ASCII, lowercase).
    ///
    /// - Parameter name: The name.
    public init?(name: String) {
        for type in PublicKeyType.allCases where type.name == name {
            self = type
            return
        }
        return nil
    }

    /// The command-line name: `rsa`, `p256`, ...
    public var name: String {
        switch self {
        case .rsa: "rsa"
        case .p256: "p256"
        case .p384: "p384"
        case .p521: "p521"
        case .ed25519: "ed25519"
        case .ed448: "ed448"
        case .x25519: "x25519"
        case .x448: "x448"
        }
    }

    /// The human-readable name: `RSA`, `EC P-256`, `Ed25519`, ...
    public var description: String {
        switch self {
        case .rsa: "RSA"
        case .p256, .p384, .p521: "EC " + (curve?.name ?? "")
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .x25519: "X25519"
        case .x448: "X448"
        }
    }

    /// The exact raw key length, or `nil` for RSA (whose length depends on the modulus).
    public var rawKeyByteCount: Int? {
        switch self {
        case .rsa: nil
        case .p256, .p384, .p521: 1 + 2 * (curve?.coordinateByteCount ?? 0)
        case .ed25519, .x25519: 32
        case .ed448: 57
        case .x448: 56
        }
    }

    /// The curve of an EC key type, `nil` for the others.
    public var curve: ECCurve? {
        switch self {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        case .rsa, .ed25519, .ed448, .x25519, .x448: nil
        }
    }
}

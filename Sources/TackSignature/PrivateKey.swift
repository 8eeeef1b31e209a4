public import TackDER
public import TackX509

// Private keys: PKCS #8 (RFC 5208 PrivateKeyInfo, RFC 5958 OneAsymmetricKey),
// PKCS #1 RSAPrivateKey (RFC 8017 §A.1.2) and SEC 1 ECPrivateKey (RFC 5915),
// read in strict DER, checked for consistency, and turned into the
// SubjectPublicKeyInfo of their public half.
//
// Why here, in TackSignature, and not in TackX509 beside SubjectPublicKeyInfo:
// the consistency checks are the point of reading a private key in a pinning
// tool (a key whose public half is not what its fields say would pin the wrong
// thing), and they need the arithmetic that only TackSignature has (the NIST
// curves' scalar multiplication, edwards25519, SHA-512 for Ed25519's key
// derivation, multi-limb integers). Parsing in TackX509 and checking here would
// split one concept over two modules and make that arithmetic public; this
// module already reads the key structures of its verifiers (RSAPublicKeyDER).

/// The algorithm of a private key.
public enum PrivateKeyAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// RSA (`rsaEncryption`), two primes.
    case rsa
    /// EC on P-256, P-384 or P-521 (`id-ecPublicKey` with a named curve).
    case ec(ECCurve)
    /// Ed25519 (RFC 8410).
    case ed25519
    /// X25519 (RFC 8410): recognised; Tack cannot derive its public key.
    case x25519
    /// Ed448 (RFC 8410): recognised; Tack cannot derive its public key.
    case ed448
    /// X448 (RFC 8410): recognised; Tack cannot derive its public key.
    case x448

    /// `RSA`, `EC P-256`, `Ed25519`, `X25519`, `Ed448` or `X448`.
    public var description: String {
        switch self {
        case .rsa: "RSA"
        case .ec(let curve): "EC " + curve.name
        case .ed25519: "Ed25519"
        case .x25519: "X25519"
        case .ed448: "Ed448"
        case .x448: "X448"
        }
    }
}

/// The container a private key was read from.
public enum PrivateKeyFormat: Sendable, Hashable, CustomStringConvertible {
    /// PKCS #8 `PrivateKeyInfo` (version 0, RFC 5208) or `OneAsymmetricKey`
    /// (version 1, RFC 5958): PEM label `PRIVATE KEY`.
    case pkcs8
    /// A bare PKCS #1 `RSAPrivateKey` (RFC 8017 §A.1.2): PEM label `RSA PRIVATE KEY`.
    case pkcs1
    /// A bare SEC 1 `ECPrivateKey` (RFC 5915 §3): PEM label `EC PRIVATE KEY`.
    case sec1

    /// `PKCS#8`, `PKCS#1` or `SEC1`.
    public var description: String {
        switch self {
        case .pkcs8: "PKCS#8"
        case .pkcs1: "PKCS#1"
        case .sec1: "SEC1"
        }
    }
}

/// A private key, read and checked, whose secret stays out of every printed form.
///
/// Reading checks the structure in strict DER and then the key itself:
/// - RSA: n = p·q, exponent1 = d mod (p − 1), exponent2 = d mod (q − 1),
///   coefficient = q⁻¹ mod p, and e·d ≡ 1 mod λ(n) (checked as
///   e·exponent1 ≡ 1 mod (p − 1) and e·exponent2 ≡ 1 mod (q − 1), which together
///   with the two previous checks is the same statement). Primality is not tested.
/// - EC: 1 ≤ d < n, and the public point is computed as d·G and compared with
///   the ECPrivateKey's `publicKey` [1] when present.
/// - Ed25519: the public key is derived from the seed (RFC 8032 §5.1.5) and
///   compared with OneAsymmetricKey's `publicKey` when present.
/// - X25519, Ed448, X448: recognised and read; the key is not checked
///   (``isChecked`` is `false`) and its public key is only what the file carries.
///
/// Every check that fails throws; none is skipped in silence.
///
/// The secret is reachable only through ``withPrivateKeyBytes(_:)``.
/// ``description`` and ``debugDescription`` name the algorithm and size alone.
///
/// Side channels: the RSA checks run in time that depends on the sizes of the
/// fields only (masked arithmetic, no branch on a secret bit), and the EC and
/// Ed25519 public keys are derived with constant-time scalar multiplications (EC:
/// ECDH's complete-formula fixed window with masked table reads; Ed25519: one
/// doubling and one masked addition per bit), never the verifiers' width-w NAF,
/// whose table index depends on the scalar. What still branches is whether a key
/// is valid at all (a scalar of zero or not below n).
public struct PrivateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's algorithm.
    public let algorithm: PrivateKeyAlgorithm
    /// The container it was read from.
    public let format: PrivateKeyFormat
    /// Whether the key was checked for consistency and its public key derived
    /// from it; `false` for X25519, Ed448 and X448, which Tack recognises only.
    public let isChecked: Bool
    /// The SubjectPublicKeyInfo of the public half: derived from the private key
    /// when ``isChecked``; otherwise the one a OneAsymmetricKey carries, unchecked,
    /// or `nil`.
    public let publicKeyInfo: SubjectPublicKeyInfo?
    /// The key size in bits: the modulus length for RSA, the field size for EC,
    /// 256 for Ed25519, 253 for X25519, 456 for Ed448, 448 for X448 (as
    /// `SubjectPublicKeyInfo.keySizeInBits`).
    public let keySizeInBits: Int
    /// The secret, in the form ``withPrivateKeyBytes(_:)`` documents. A
    /// ContiguousArray: its `span` back-deploys to every OS with Swift 5 in the
    /// system (an Array's needs macOS 26 and its peers).
    internal let secret: ContiguousArray<UInt8>

    internal init(algorithm: PrivateKeyAlgorithm, format: PrivateKeyFormat, isChecked: Bool,
                  publicKeyInfo: SubjectPublicKeyInfo?, keySizeInBits: Int, secret: [UInt8]) {
        self.algorithm = algorithm
        self.format = format
        self.isChecked = isChecked
        self.publicKeyInfo = publicKeyInfo
        self.keySizeInBits = keySizeInBits
        self.secret = ContiguousArray(secret)
    }

    /// Reads a DER private key in `format`.
    ///
    /// - Parameters:
    ///   - bytes: The DER of exactly one structure.
    ///   - format: The container; PKCS #8 by default.
    /// - Throws: ``PrivateKeyError`` at the offending byte of `bytes`.
    public init(derEncoded bytes: [UInt8], format: PrivateKeyFormat = .pkcs8) throws(PrivateKeyError) {
        self = try PrivateKeyReader.read(bytes, range: 0..<bytes.count, format: format)
    }

    /// Reads the private key whose DER occupies `range` of `bytes` (for example
    /// a PKCS #12 key bag's contents); offsets in errors index `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: The absolute range of the structure.
    ///   - format: The container; PKCS #8 by default.
    /// - Throws: ``PrivateKeyError`` at the offending byte of `bytes`.
    public init(derEncoded bytes: [UInt8], range: Range<Int>, format: PrivateKeyFormat = .pkcs8) throws(PrivateKeyError) {
        self = try PrivateKeyReader.read(bytes, range: range, format: format)
    }

    /// Reads a PEM block: `PRIVATE KEY` (PKCS #8), `RSA PRIVATE KEY` (PKCS #1)
    /// or `EC PRIVATE KEY` (SEC 1).
    ///
    /// - Parameter block: The block, from `PEM.parse(_:requiresBlock:)`.
    /// - Throws: ``PrivateKeyError/Reason/encrypted`` for `ENCRYPTED PRIVATE KEY`,
    ///   ``PrivateKeyError/Reason/unexpectedPEMLabel(_:)`` for another label, or
    ///   the errors of ``init(derEncoded:format:)`` (offsets index the block's bytes).
    public init(pemBlock block: PEMBlock) throws(PrivateKeyError) {
        guard let format = PrivateKey.format(forPEMLabel: block.label) else {
            if block.label == "ENCRYPTED PRIVATE KEY" { throw PrivateKeyError(.encrypted, at: 0) }
            throw PrivateKeyError(.unexpectedPEMLabel(block.label), at: 0)
        }
        try self.init(derEncoded: block.bytes, format: format)
    }

    /// The container a PEM label names, or `nil` if it names none Tack reads.
    ///
    /// - Parameter label: A PEM label.
    /// - Returns: ``PrivateKeyFormat/pkcs8`` for `PRIVATE KEY`, ``PrivateKeyFormat/pkcs1``
    ///   for `RSA PRIVATE KEY`, ``PrivateKeyFormat/sec1`` for `EC PRIVATE KEY`.
    public static func format(forPEMLabel label: String) -> PrivateKeyFormat? {
        switch label {
        case "PRIVATE KEY": .pkcs8
        case "RSA PRIVATE KEY": .pkcs1
        case "EC PRIVATE KEY": .sec1
        default: nil
        }
    }

    /// The public half's SubjectPublicKeyInfo, derived from the private key and
    /// checked: what `tack pin` pins for a private key file (the backup-pin
    /// workflow: generate a key, pin it, ship the pin).
    ///
    /// - Returns: ``publicKeyInfo``.
    /// - Throws: ``PrivateKeyError/Reason/publicKeyNotDerivable(_:)`` when the key
    ///   was not checked (X25519, Ed448, X448), even if the file carried a public key.
    public func checkedPublicKeyInfo() throws(PrivateKeyError) -> SubjectPublicKeyInfo {
        guard isChecked, let publicKeyInfo else {
            throw PrivateKeyError(.publicKeyNotDerivable(algorithm), at: 0)
        }
        return publicKeyInfo
    }

    /// Hands the secret to `body`, which must not let it escape.
    ///
    /// The bytes are: for RSA the PKCS #1 `RSAPrivateKey` DER; for EC the private
    /// scalar d, big-endian, ⌈log₂ n / 8⌉ octets (32, 48 or 66); for the RFC 8410
    /// algorithms the raw private key (Ed25519's 32-byte seed).
    ///
    /// - Parameter body: Receives the bytes.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @available(macOS 10.14.4, iOS 12.2, watchOS 5.2, tvOS 12.2, visionOS 1.0, *)
    public func withPrivateKeyBytes<Result, Failure: Error>(
        _ body: (Span<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(secret.span)
    }

    /// The algorithm, size and format, for example `RSA 2048-bit private key (PKCS#8)`:
    /// never key material.
    public var description: String {
        "\(algorithm) \(keySizeInBits)-bit private key (\(format))"
    }

    /// The same as ``description``: never key material.
    public var debugDescription: String { "PrivateKey(" + description + ")" }
}

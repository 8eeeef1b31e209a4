public import TackDER
import TackX509

/// Why a private key could not be read, or was read and found inconsistent.
///
/// Every case names one rule; ``offset`` is the absolute byte offset, in the
/// buffer that was parsed, of the element that broke it (the start of the
/// structure for checks that involve several fields). ``code`` is a stable
/// identifier for tools and test manifests; ``description`` is text for people
/// and never contains key material.
public struct PrivateKeyError: DERErrorWrapping, Sendable, Hashable, CustomStringConvertible {
    /// The rule the input broke.
    public var reason: Reason
    /// The absolute offset of the offending element.
    public var offset: Int

    /// Creates an error for `reason` at `offset`.
    ///
    /// - Parameters:
    ///   - reason: The rule that the input broke.
    ///   - offset: The absolute offset of the offending element.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// Wraps a DER error, keeping its reason and offset.
    ///
    /// - Parameter error: The DER error.
    public init(_ error: DERError) {
        self.init(.der(error.reason), at: error.offset)
    }

    /// The rules a private key can break.
    public enum Reason: Sendable, Hashable {
        /// The DER breaks a rule of TackDER's reader (strict DER: private keys are
        /// never read as BER, even inside a PKCS #12 file).
        case der(DERError.Reason)
        /// A `version` other than those the structure defines: PKCS #8 v1 (0) or
        /// v2 (1, RFC 5958 §2), RSAPrivateKey two-prime (0), ECPrivateKey 1.
        case unsupportedVersion(Int)
        /// A PKCS #8 v1 key (version 0) that carries a `publicKey` [1], which
        /// RFC 5958 §2 allows only in version 2.
        case publicKeyInVersion1
        /// A multi-prime RSA key (RSAPrivateKey version 1, RFC 8017 §A.1.2):
        /// recognised, not supported.
        case multiPrimeRSA
        /// A private key algorithm Tack does not know.
        case unknownAlgorithm(OID)
        /// Algorithm parameters that break the rule of their algorithm: RSA
        /// needs NULL (RFC 3279 §2.3.1), EC a named-curve OID (RFC 5480
        /// §2.1.1), the RFC 8410 algorithms none.
        case invalidAlgorithmParameters
        /// Explicit EC curve parameters (`specifiedCurve`), refused as RFC 5480
        /// §2.1.1 refuses them in certificates.
        case explicitCurveParameters
        /// A named curve other than P-256, P-384 and P-521.
        case unsupportedCurve(OID)
        /// An ECPrivateKey whose own `parameters` [0] name another curve than the
        /// PKCS #8 AlgorithmIdentifier (RFC 5915 §3).
        case curveMismatch
        /// A bare SEC 1 ECPrivateKey without `parameters`: its curve is unknown.
        case missingCurve
        /// An EC private scalar of the wrong length (RFC 5915 §3: ⌈log₂ n / 8⌉
        /// octets) or outside [1, n − 1] (SEC 1 v2 §3.2.1).
        case invalidPrivateScalar
        /// A raw private key (RFC 8410 `CurvePrivateKey`) of the wrong length.
        case wrongKeyLength(expected: Int, found: Int)
        /// An embedded public key that is malformed for the algorithm.
        case invalidPublicKey
        /// An embedded public key that differs from the one the private key
        /// determines (ECPrivateKey `publicKey` [1], OneAsymmetricKey `publicKey`).
        case publicKeyMismatch
        /// The fields of an RSA key contradict each other.
        case inconsistentRSAKey(RSAFault)
        /// An RSA modulus outside what Tack checks (1024 through 8192 bits, as
        /// ``RSAPublicKey``).
        case unsupportedRSAModulus(bits: Int)
        /// An RSA public exponent that is even, below 3, or wider than the modulus.
        case invalidRSAPublicExponent
        /// A PEM block whose label is not `PRIVATE KEY`, `RSA PRIVATE KEY` or
        /// `EC PRIVATE KEY`.
        case unexpectedPEMLabel(String)
        /// An `ENCRYPTED PRIVATE KEY` (PKCS #8 EncryptedPrivateKeyInfo): it must be
        /// decrypted first (PBES2, the privacy layer of TackPKCS12).
        case encrypted
        /// The public key was asked for, but Tack cannot derive it for this
        /// algorithm (X25519, Ed448, X448) and the key does not carry a checked one.
        case publicKeyNotDerivable(PrivateKeyAlgorithm)
    }

    /// How the fields of an RSA private key contradict each other (RFC 8017 §3.2).
    public enum RSAFault: Sendable, Hashable {
        /// A component that must be positive is zero.
        case zeroComponent
        /// p or q is even or 1: not an odd prime.
        case primeNotOdd
        /// n ≠ p·q.
        case modulusNotProduct
        /// `exponent1` ≠ d mod (p − 1).
        case exponent1Mismatch
        /// `exponent2` ≠ d mod (q − 1).
        case exponent2Mismatch
        /// `coefficient` is not q⁻¹ mod p (q·coefficient mod p ≠ 1, or coefficient ≥ p).
        case coefficientMismatch
        /// e·d ≢ 1 modulo λ(n): e·exponent1 ≢ 1 mod (p − 1) or
        /// e·exponent2 ≢ 1 mod (q − 1).
        case exponentsNotInverse
    }

    /// A stable identifier of the reason: `private_key.` and the case's name in snake_case, then
    /// its fault's (for example `private_key.inconsistent_rsa_key.modulus_not_product`,
    /// `private_key.der.truncated`). Payloads are not part of it.
    public var code: String { "private_key." + reason.code }

    /// A one-line description: the reason and the offset (never key material).
    public var description: String {
        "private key error at byte \(offset): \(reason)"
    }
}

extension PrivateKeyError.Reason: CustomStringConvertible {
    /// The part of ``PrivateKeyError/code`` after `private_key.`.
    public var code: String {
        switch self {
        case .der(let reason): "der." + reason.code
        case .unsupportedVersion: "unsupported_version"
        case .publicKeyInVersion1: "public_key_in_version1"
        case .multiPrimeRSA: "multi_prime_rsa"
        case .unknownAlgorithm: "unknown_algorithm"
        case .invalidAlgorithmParameters: "invalid_algorithm_parameters"
        case .explicitCurveParameters: "explicit_curve_parameters"
        case .unsupportedCurve: "unsupported_curve"
        case .curveMismatch: "curve_mismatch"
        case .missingCurve: "missing_curve"
        case .invalidPrivateScalar: "invalid_private_scalar"
        case .wrongKeyLength: "wrong_key_length"
        case .invalidPublicKey: "invalid_public_key"
        case .publicKeyMismatch: "public_key_mismatch"
        case .inconsistentRSAKey(let fault): "inconsistent_rsa_key." + fault.code
        case .unsupportedRSAModulus: "unsupported_rsa_modulus"
        case .invalidRSAPublicExponent: "invalid_rsa_public_exponent"
        case .unexpectedPEMLabel: "unexpected_pem_label"
        case .encrypted: "encrypted"
        case .publicKeyNotDerivable: "public_key_not_derivable"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .der(let reason): reason.description
        case .unsupportedVersion(let version): "unsupported version \(version)"
        case .publicKeyInVersion1: "publicKey present in a version 1 (v1) key"
        case .multiPrimeRSA: "multi-prime RSA keys are not supported"
        case .unknownAlgorithm(let oid): "a \(PublicKeyAlgorithm.name(of: oid)) private key, an algorithm Tack does not read"
        case .invalidAlgorithmParameters: "invalid algorithm parameters"
        case .explicitCurveParameters: "explicit EC curve parameters are not accepted"
        case .unsupportedCurve(let oid): "unsupported curve \(oid)"
        case .curveMismatch: "the ECPrivateKey names another curve than its AlgorithmIdentifier"
        case .missingCurve: "ECPrivateKey without curve parameters"
        case .invalidPrivateScalar: "EC private scalar of the wrong length or out of range"
        case .wrongKeyLength(let expected, let found): "private key of \(found) bytes, expected \(expected)"
        case .invalidPublicKey: "the embedded public key is malformed"
        case .publicKeyMismatch: "the embedded public key does not match the private key"
        case .inconsistentRSAKey(let fault): "inconsistent RSA key: " + fault.description
        case .unsupportedRSAModulus(let bits): "RSA modulus of \(bits) bits (1024 to 8192 are checked)"
        case .invalidRSAPublicExponent: "RSA public exponent even, below 3 or too wide"
        case .unexpectedPEMLabel(let label): "PEM label \(label) is not a private key"
        case .encrypted: "the private key is encrypted (decrypt it first)"
        case .publicKeyNotDerivable(let algorithm): "Tack cannot derive the public key of an \(algorithm) key"
        }
    }
}

extension PrivateKeyError.RSAFault: CustomStringConvertible {
    /// The last component of ``PrivateKeyError/code``.
    public var code: String {
        switch self {
        case .zeroComponent: "zero_component"
        case .primeNotOdd: "prime_not_odd"
        case .modulusNotProduct: "modulus_not_product"
        case .exponent1Mismatch: "exponent1_mismatch"
        case .exponent2Mismatch: "exponent2_mismatch"
        case .coefficientMismatch: "coefficient_mismatch"
        case .exponentsNotInverse: "exponents_not_inverse"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .zeroComponent: "a component is zero"
        case .primeNotOdd: "a prime factor is even or 1"
        case .modulusNotProduct: "n is not p·q"
        case .exponent1Mismatch: "exponent1 is not d mod (p − 1)"
        case .exponent2Mismatch: "exponent2 is not d mod (q − 1)"
        case .coefficientMismatch: "coefficient is not q⁻¹ mod p"
        case .exponentsNotInverse: "e·d is not 1 modulo λ(n)"
        }
    }
}

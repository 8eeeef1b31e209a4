// The signature policy: which algorithm and key combinations a verifier accepts,
// for certificates, CRLs and OCSP responses alike.

/// Which algorithm and key combinations a verifier accepts beyond what is
/// mathematically possible.
///
/// Algorithms Tack never accepts are refused whatever the policy: MD5 and SHA-1
/// (not collision resistant: TackDigest has no MD5, and its SHA-1, there for HMAC and
/// PKCS #12, is not a `SHA2HashFunction`, which signature code requires), Ed448, curves
/// other than P-256, P-384 and P-521, and RSA moduli outside 1024–8192 bits.
public struct SignaturePolicy: Sendable, Hashable {
    /// The smallest RSA modulus accepted, in bits.
    ///
    /// 2048 by default: NIST SP 800-131A disallowed 1024-bit RSA signatures after
    /// 2013, and the CA/Browser Forum Baseline Requirements §6.1.5 require 2048.
    public var minimumRSAModulusBitCount: Int

    /// Whether an ECDSA signature's hash must match its curve: SHA-256 with P-256,
    /// SHA-384 with P-384, SHA-512 with P-521.
    ///
    /// RFC 5758 §3.2 allows any pairing; the Baseline Requirements §7.1.3.2.2 allow
    /// only P-256 with SHA-256 and P-384 with SHA-384 (plus P-521 with SHA-512 in
    /// practice), so ``webPKI`` sets it.
    public var requiresCurveMatchedHash: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - minimumRSAModulusBitCount: The smallest RSA modulus accepted, in bits.
    ///   - requiresCurveMatchedHash: Whether ECDSA hashes must match the curve.
    public init(minimumRSAModulusBitCount: Int = 2048, requiresCurveMatchedHash: Bool = false) {
        self.minimumRSAModulusBitCount = minimumRSAModulusBitCount
        self.requiresCurveMatchedHash = requiresCurveMatchedHash
    }

    /// RSA of at least 2048 bits; any SHA-2 hash with any supported curve.
    public static let `default` = SignaturePolicy()

    /// The Web PKI profile: RSA of at least 2048 bits and curve-matched ECDSA hashes.
    public static let webPKI = SignaturePolicy(minimumRSAModulusBitCount: 2048, requiresCurveMatchedHash: true)

    /// Everything the library can verify: RSA from 1024 bits, any SHA-2 pairing.
    public static let permissive = SignaturePolicy(minimumRSAModulusBitCount: RSAPublicKey.minimumModulusBitCount)
}

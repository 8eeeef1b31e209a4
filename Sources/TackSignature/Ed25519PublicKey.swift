import TackDigest

/// An Ed25519 public key (RFC 8032 §5.1), decoded and checked on construction.
///
/// Verification follows RFC 8032 §5.1.7 for pure Ed25519 (no context, no
/// pre-hash), with these decisions, which agree with every verdict of the
/// Wycheproof `ed25519_test.json` vectors:
///
/// - A public key must decode (§5.1.3): 32 bytes, y < p (non-canonical
///   encodings are refused), x recoverable, and not "x = 0 with the sign bit
///   set". Small-order keys are not refused: RFC 8032 does not ask for it.
/// - S must be below L (§5.1.7 step 1): signatures with S ≥ L are malleable
///   copies and are refused as malformed.
/// - The check is the cofactorless equation [S]B = R + [k]A, evaluated as
///   "the encoding of [S]B − [k]A equals the 32 bytes of R". An R that does
///   not decode, or whose encoding is not canonical, therefore fails with
///   ``SignatureError/invalidSignature``, as does any other mismatch.
public struct Ed25519PublicKey: Sendable, Hashable {
    /// The 32-byte encoding of the key (RFC 8032 §5.1.5).
    public let rawRepresentation: [UInt8]

    private let point: Ed25519Point

    /// Decodes a 32-byte Ed25519 public key (the subjectPublicKey of an
    /// id-Ed25519 SubjectPublicKeyInfo, RFC 8410 §4).
    ///
    /// - Parameter rawRepresentation: The encoded point A.
    /// - Throws: ``SignatureError/malformedPublicKey(_:)`` when the length
    ///   is not 32 or the point does not decode (RFC 8032 §5.1.3).
    public init(rawRepresentation: some Collection<UInt8>) throws(SignatureError) {
        let bytes = Array(rawRepresentation)
        guard bytes.count == 32 else {
            throw .malformedPublicKey(.wrongLength(expected: 32, found: bytes.count))
        }
        guard let point = Ed25519Curve.shared.decode(bytes) else {
            throw .malformedPublicKey(.notAnEd25519Point)
        }
        self.rawRepresentation = bytes
        self.point = point
    }

    /// Checks an Ed25519 signature over a message (RFC 8032 §5.1.7).
    ///
    /// - Parameters:
    ///   - signature: The 64-byte signature R ‖ S.
    ///   - message: The signed message (for certificates, the DER of the
    ///     TBSCertificate; Ed25519 hashes it itself).
    /// - Throws: ``SignatureError/malformedSignature(_:)`` when the
    ///   signature is not 64 bytes or S ≥ L; ``SignatureError/invalidSignature``
    ///   when it does not verify.
    public func verifySignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) throws(SignatureError) {
        let signatureBytes = Array(signature)
        guard signatureBytes.count == 64 else {
            throw .malformedSignature(.wrongLength(expected: 64, found: signatureBytes.count))
        }
        let curve = Ed25519Curve.shared
        let rBytes = signatureBytes[0..<32]
        guard let s = ECLimbs4(littleEndian: signatureBytes[32..<64]), s.isLess(than: curve.order.modulus) else {
            throw .malformedSignature(.scalarNotReduced)
        }

        // k = SHA-512(R ‖ A ‖ M) mod L (§5.1.7 step 2).
        var hasher = SHA512()
        hasher.update(rBytes)
        hasher.update(rawRepresentation)
        hasher.update(Array(message))
        let digest = hasher.finalize()
        let k = Self.reduce512(digest, curve.order)

        // [S]B − [k]A must encode to R (§5.1.7 step 3, cofactorless).
        let candidate = curve.multiplyTwo(s: s, k: k, q: curve.negated(point))
        guard curve.encode(candidate).elementsEqual(rBytes) else { throw .invalidSignature }
    }

    /// A 64-byte little-endian integer mod L: lo + hi·2²⁵⁶ with
    /// hi·2²⁵⁶ mod L = MontgomeryProduct(hi, R² mod L) for R = 2²⁵⁶.
    private static func reduce512(_ digest: SHA512Digest, _ order: ECMontgomeryField<ECLimbs4>) -> ECLimbs4 {
        let low = ECLimbs4(littleEndian: digest.prefix(32)) ?? ECLimbs4()  // 32 bytes always fit
        let high = ECLimbs4(littleEndian: digest.suffix(32)) ?? ECLimbs4()
        return order.add(order.reduce(low), order.multiply(high, order.rSquared))
    }

    /// Two keys are equal when their 32-byte encodings are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawRepresentation == rhs.rawRepresentation }

    /// Hashes the 32-byte encoding, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }
}

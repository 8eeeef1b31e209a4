public import TackDigest
public import TackX509

/// An ECDSA public key on P-256, P-384 or P-521, validated on construction.
///
/// Construction performs the public-key validation of SEC 1 v2 §3.2.2.1
/// (ECC full public-key validation) as far as it applies to these curves:
/// the point is not infinity, both coordinates are below p, and the point
/// satisfies the curve equation. Step 4 of that procedure (n·Q = O) holds for
/// every curve point because the cofactor is 1.
///
/// Verification follows SEC 1 v2 §4.1.4 (equivalently FIPS 186-4 §6.4 /
/// ANSI X9.62). Every verifying method returns normally when the signature is
/// valid and throws otherwise: ``SignatureError/invalidSignature`` when the
/// inputs are well-formed but the signature does not match, another case when
/// an input is malformed or the signature's curve differs from the key's.
public struct ECDSAPublicKey: Sendable, Hashable {
    private typealias Point = ECPublicPoint

    /// The key's curve.
    public let curve: ECCurve

    /// The key as an uncompressed point, 0x04 ‖ X ‖ Y (SEC 1 v2 §2.3.3), whatever
    /// form it was given in.
    ///
    /// Encoded on each access: the key keeps only the point, inline, so that
    /// preparing it allocates nothing.
    public var x962Representation: [UInt8] { point.uncompressedEncoding }

    private let point: Point

    /// Decodes and validates a public point in the encoding of SEC 1 v2 §2.3.4
    /// (the content of the subjectPublicKey BIT STRING for id-ecPublicKey,
    /// RFC 5480 §2.2).
    ///
    /// Accepted forms: uncompressed 0x04 ‖ X ‖ Y, which RFC 5480 requires, and
    /// compressed 0x02/0x03 ‖ X, which it permits (the y-coordinate is
    /// recovered as a square root and its parity taken from the prefix).
    /// Refused: the single byte 0x00 (the point at infinity), the hybrid forms
    /// 0x06/0x07 (ANSI X9.62, not allowed in RFC 5480), wrong lengths,
    /// coordinates ≥ p, and points off the curve.
    ///
    /// - Parameters:
    ///   - curve: The curve named by the key's parameters.
    ///   - x962Representation: The encoded point.
    /// - Throws: ``SignatureError/malformedPublicKey(_:)`` when the point
    ///   fails decoding or validation.
    public init(curve: ECCurve, x962Representation: some Collection<UInt8>) throws(SignatureError) {
        self.curve = curve
        // Decoded in place (no copy) when the bytes are contiguous, as a
        // SubjectPublicKeyInfo's key slice is.
        let decoded = withContiguousBytes(of: x962Representation) { bytes in
            Result { () throws(SignatureError) -> Point in
                switch curve {
                case .p256:
                    return .p256(try P256.curve.decodePoint(bytes))
                case .p384:
                    // The `P384` trait off (Package.swift): a build without P-384.
                    #if !TACK_P384
                    throw .unsupported(.curve(curve.oid))
                    #else
                    return .p384(try P384.curve.decodePoint(bytes))
                    #endif
                case .p521:
                    #if !TACK_P521
                    throw .unsupported(.curve(curve.oid))
                    #else
                    return .p521(try P521.curve.decodePoint(bytes))
                    #endif
                }
            }
        }
        point = try decoded.get()
    }

    /// Checks a signature over a digest the caller has already computed.
    ///
    /// The digest is truncated to its leftmost ⌈log₂ n⌉ bits when longer
    /// (SEC 1 v2 §4.1.4 step 3, FIPS 186-4 §6.4), so any hash may be used; a
    /// policy about which hash suits which curve belongs to the caller.
    ///
    /// - Parameters:
    ///   - signature: The parsed signature.
    ///   - digest: The hash of the signed message.
    /// - Throws: ``SignatureError/invalidSignature`` if the signature does not
    ///   match; ``SignatureError/algorithmKeyMismatch(_:)`` if the
    ///   signature was parsed for another curve.
    public func verifySignature(_ signature: ECDSASignature, forDigest digest: some Collection<UInt8>) throws(SignatureError) {
        guard signature.curve == curve else {
            throw .algorithmKeyMismatch(.curve(signature: signature.curve, key: curve))
        }
        // In place when the digest is contiguous; the hashing overloads pass
        // their inline digest's bytes directly.
        let isValid = withContiguousBytes(of: digest) { isValidSignature(signature, digest: UnsafeRawBufferPointer($0)) }
        guard isValid else { throw .invalidSignature }
    }

    /// The verification equation on the key's curve, for a signature already
    /// known to be on that curve.
    private func isValidSignature(_ signature: ECDSASignature, digest: UnsafeRawBufferPointer) -> Bool {
        switch point {
        case .p256(let q): P256.curve.verify(signature: signature, digest: digest, publicKey: q)
        // Without the curve (its trait off) no key holds such a point.
        #if !TACK_P384
        case .p384: false
        #else
        case .p384(let q): P384.curve.verify(signature: signature, digest: digest, publicKey: q)
        #endif
        #if !TACK_P521
        case .p521: false
        #else
        case .p521(let q): P521.curve.verify(signature: signature, digest: digest, publicKey: q)
        #endif
        }
    }

    /// Checks a DER-encoded signature (as found in X.509 certificates and TLS)
    /// over a digest the caller has already computed.
    ///
    /// - Parameters:
    ///   - derEncoded: The `Ecdsa-Sig-Value` DER bytes (RFC 5480 §2.2).
    ///   - digest: The hash of the signed message.
    /// - Throws: ``SignatureError/malformedSignature(_:)`` if the DER is not
    ///   strict or r or s is out of range; ``SignatureError/invalidSignature`` if
    ///   the signature does not match.
    public func verifySignature(_ derEncoded: some Collection<UInt8>, forDigest digest: some Collection<UInt8>) throws(SignatureError) {
        let signature = try ECDSASignature(derEncoded: derEncoded, curve: curve)
        try verifySignature(signature, forDigest: digest)
    }

    /// Hashes a message and checks a DER-encoded signature over it.
    ///
    /// - Parameters:
    ///   - derEncoded: The `Ecdsa-Sig-Value` DER bytes (RFC 5480 §2.2).
    ///   - message: The signed bytes (for a certificate, the DER of its
    ///     TBSCertificate).
    ///   - hash: The hash named by the signature algorithm, for example
    ///     `SHA256.self` for ecdsa-with-SHA256 (RFC 5758 §3.2).
    /// - Throws: ``SignatureError/malformedSignature(_:)`` if the DER is not
    ///   strict or r or s is out of range; ``SignatureError/invalidSignature`` if
    ///   the signature does not match.
    public func verifySignature<Hash: SHA2HashFunction>(
        _ derEncoded: some Collection<UInt8>, for message: some Collection<UInt8>, hash: Hash.Type
    ) throws(SignatureError) {
        let signature = try ECDSASignature(derEncoded: derEncoded, curve: curve)
        try verifySignature(signature, for: message, hash: hash)
    }

    /// Hashes a message and checks a parsed signature over it.
    ///
    /// - Parameters:
    ///   - signature: The parsed signature.
    ///   - message: The signed bytes.
    ///   - hash: The hash named by the signature algorithm.
    /// - Throws: ``SignatureError/invalidSignature`` if the signature does not
    ///   match; ``SignatureError/algorithmKeyMismatch(_:)`` if the
    ///   signature was parsed for another curve.
    public func verifySignature<Hash: SHA2HashFunction>(
        _ signature: ECDSASignature, for message: some Collection<UInt8>, hash: Hash.Type
    ) throws(SignatureError) {
        // Hashed in place (no copy) when the message is contiguous, as a
        // certificate's TBS slice is.
        let digest = withContiguousBytes(of: message) { Hash.hash(UnsafeRawBufferPointer($0)) }
        guard signature.curve == curve else {
            throw .algorithmKeyMismatch(.curve(signature: signature.curve, key: curve))
        }
        guard digest.withUnsafeBytes({ isValidSignature(signature, digest: $0) }) else { throw .invalidSignature }
    }

    /// Two keys are equal when they are on the same curve and are the same
    /// point, whatever encoding each was decoded from.
    /// (The coordinates are compared fully reduced, in Montgomery form, which
    /// is one-to-one.)
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.curve == rhs.curve && lhs.point == rhs.point
    }

    /// Hashes the curve and the point, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(curve)
        hasher.combine(point)
    }
}

extension ECWeierstrassCurve {
    /// Decodes and validates an encoded point (see ``ECDSAPublicKey/init(curve:x962Representation:)``).
    func decodePoint(_ bytes: UnsafeBufferPointer<UInt8>) throws(SignatureError) -> ECAffinePoint<Limbs> {
        let width = coordinateByteCount
        guard let prefix = bytes.first else { throw .malformedPublicKey(.emptyPoint) }
        switch prefix {
        case 0x04:
            guard bytes.count == 1 + 2 * width else {
                throw .malformedPublicKey(.wrongLength(expected: 1 + 2 * width, found: bytes.count))
            }
            let x = try decodeCoordinate(bytes[1...width])
            let y = try decodeCoordinate(bytes[(1 + width)...])
            let point = ECAffinePoint(x: field.toMontgomery(x), y: field.toMontgomery(y))
            guard isOnCurve(point) else { throw .malformedPublicKey(.notOnCurve) }
            return point
        case 0x02, 0x03:
            guard bytes.count == 1 + width else {
                throw .malformedPublicKey(.wrongLength(expected: 1 + width, found: bytes.count))
            }
            let x = field.toMontgomery(try decodeCoordinate(bytes[1...]))
            guard let y = solveY(x: x, yIsOdd: prefix == 0x03) else {
                throw .malformedPublicKey(.compressedCoordinateNotOnCurve)
            }
            return ECAffinePoint(x: x, y: y)
        case 0x00:
            throw .malformedPublicKey(.pointAtInfinity)
        default:
            throw .malformedPublicKey(.unsupportedPointEncoding(prefix))
        }
    }

    private func decodeCoordinate(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) throws(SignatureError) -> Limbs {
        guard let value = Limbs(bigEndian: bytes), value.isLess(than: field.modulus) else {
            throw .malformedPublicKey(.coordinateOutOfRange)
        }
        return value
    }

    /// 0x04 ‖ X ‖ Y.
    func encodeUncompressed(_ point: ECAffinePoint<Limbs>) -> [UInt8] {
        [0x04]
            + field.fromMontgomery(point.x).bigEndianBytes(count: coordinateByteCount)
            + field.fromMontgomery(point.y).bigEndianBytes(count: coordinateByteCount)
    }

    /// The leftmost `orderBitCount` bits of `digest` as an integer
    /// (SEC 1 v2 §4.1.4 step 3); not reduced mod n.
    func truncatedDigest(_ digest: UnsafeRawBufferPointer) -> Limbs {
        let orderByteCount = (orderBitCount + 7) / 8
        let taken = digest.prefix(orderByteCount)
        // `taken` has at most ⌈orderBitCount / 8⌉ ≤ 8·limbCount bytes, so it fits.
        var value = Limbs(bigEndian: taken) ?? Limbs()
        let excessBits = 8 * taken.count - orderBitCount
        if excessBits > 0 { value = value.shiftedRight(by: excessBits) }
        return value
    }

    func verify(signature: ECDSASignature, digest: UnsafeRawBufferPointer, publicKey: ECAffinePoint<Limbs>) -> Bool {
        // `ECDSASignature` guarantees both values fit and lie in [1, n − 1].
        guard let r = Limbs(resizing: signature.rValue), let s = Limbs(resizing: signature.sValue) else { return false }
        return verify(r: r, s: s, e: truncatedDigest(digest), publicKey: publicKey)
    }
}

internal import TackDER
public import TackX509

/// An ECDSA signature (r, s), parsed strictly and range-checked for its curve.
///
/// Construction guarantees 1 ≤ r, s ≤ n − 1 (SEC 1 v2 §4.1.4 step 1): a
/// signature outside that range can never verify, so it is refused as
/// malformed before any curve arithmetic runs.
public struct ECDSASignature: Sendable, Hashable {
    /// The curve whose group order bounds r and s.
    public let curve: ECCurve
    /// r as a big-endian integer of exactly the curve's scalar width
    /// (32, 48 or 66 bytes).
    public var r: [UInt8] { rValue.bigEndianBytes(count: curve.scalarByteCount) }
    /// s as a big-endian integer of exactly the curve's scalar width.
    public var s: [UInt8] { sValue.bigEndianBytes(count: curve.scalarByteCount) }

    // r and s as integers, inline (no heap), wide enough for every curve:
    // nine limbs hold P-521's 521 bits, and the verification narrows them to
    // its curve's limb type (`ECLimbs.init(resizing:)`).
    let rValue: ECLimbs9
    let sValue: ECLimbs9

    /// Parses the DER encoding used in X.509 and TLS (RFC 5480 §2.2,
    /// RFC 3279 §2.2.3):
    ///
    /// ```
    /// Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }
    /// ```
    ///
    /// The parse is strict (X.690 §10, DER): definite minimal lengths, both
    /// INTEGERs minimally encoded (X.690 §8.3.2) and non-negative, nothing
    /// after the SEQUENCE, and r, s in [1, n − 1].
    ///
    /// - Parameters:
    ///   - derEncoded: The DER bytes of the signature.
    ///   - curve: The curve of the key that will check it.
    /// - Throws: ``SignatureError/malformedSignature(_:)`` when the
    ///   encoding is not strict DER or r or s is out of range;
    ///   ``SignatureError/unsupported(_:)`` for a curve a firmware build left out
    ///   (the `P384` and `P521` package traits off).
    public init(derEncoded: some Collection<UInt8>, curve: ECCurve) throws(SignatureError) {
        // Parsed in place (no copy) when the bytes are contiguous, as an array slice is.
        let parsed = withContiguousBytes(of: derEncoded) { bytes in
            Result { () throws(SignatureError) -> (ECLimbs9, ECLimbs9) in
                // Two levels deep, and no element can be longer than the largest P-521
                // signature (2 + 2 × (2 + 67) = 140 octets): anything bigger is malformed.
                let limits = DERLimits(maximumDepth: 2, maximumElementLength: 140)
                let ranges: (r: Range<Int>, s: Range<Int>)
                do throws(DERError) {
                    ranges = try DER.read(UnsafeRawBufferPointer(bytes), limits: limits) { reader throws(DERError) in
                        try reader.readSequence { sequence throws(DERError) in
                            (try sequence.readUnsignedIntegerMagnitude(), try sequence.readUnsignedIntegerMagnitude())
                        }
                    }
                } catch {
                    throw .malformedSignature(.encoding(error))
                }
                return try ECDSASignature.scalars(r: bytes[ranges.r], s: bytes[ranges.s], width: curve.scalarByteCount)
            }
        }
        try self.init(scalars: parsed.get(), curve: curve)
    }

    /// Parses the fixed-width form r ‖ s of IEEE P1363 (also used by JOSE,
    /// RFC 7518 §3.4, and by WebCrypto): two big-endian integers of the curve's
    /// scalar width each (64, 96 or 132 bytes in total).
    ///
    /// - Parameters:
    ///   - rawRepresentation: r ‖ s.
    ///   - curve: The curve of the key that will check it.
    /// - Throws: ``SignatureError/malformedSignature(_:)`` when the length
    ///   is wrong or r or s is out of range; ``SignatureError/unsupported(_:)`` for
    ///   a curve a firmware build left out (the `P384` and `P521` package traits off).
    public init(rawRepresentation: some Collection<UInt8>, curve: ECCurve) throws(SignatureError) {
        let width = curve.scalarByteCount
        let parsed = withContiguousBytes(of: rawRepresentation) { bytes in
            Result { () throws(SignatureError) -> (ECLimbs9, ECLimbs9) in
                guard bytes.count == 2 * width else {
                    throw .malformedSignature(.wrongLength(expected: 2 * width, found: bytes.count))
                }
                return try ECDSASignature.scalars(r: bytes[0..<width], s: bytes[width...], width: width)
            }
        }
        try self.init(scalars: parsed.get(), curve: curve)
    }

    /// r and s from their big-endian magnitudes: leading zeros are skipped,
    /// and more than `width` significant bytes is malformed.
    private static func scalars(
        r: Slice<UnsafeBufferPointer<UInt8>>, s: Slice<UnsafeBufferPointer<UInt8>>, width: Int
    ) throws(SignatureError) -> (ECLimbs9, ECLimbs9) {
        let rSignificant = r.drop(while: { $0 == 0 })
        let sSignificant = s.drop(while: { $0 == 0 })
        // `width` ≤ 66 bytes, so a value that passes fits in nine limbs (72 bytes).
        guard rSignificant.count <= width, sSignificant.count <= width,
            let rValue = ECLimbs9(bigEndian: rSignificant), let sValue = ECLimbs9(bigEndian: sSignificant)
        else { throw .malformedSignature(.scalarTooWide) }
        return (rValue, sValue)
    }

    private init(scalars: (r: ECLimbs9, s: ECLimbs9), curve: ECCurve) throws(SignatureError) {
        let (r, s) = scalars
        let inRange: Bool
        switch curve {
        case .p256: inRange = P256.curve.isValidScalar(r) && P256.curve.isValidScalar(s)
        case .p384:
            // The `P384`/`P521` traits off (Package.swift): without this the range check
            // alone keeps the whole P-384 curve in the image.
            #if !TACK_P384
            throw .unsupported(.curve(curve.oid))
            #else
            inRange = P384.curve.isValidScalar(r) && P384.curve.isValidScalar(s)
            #endif
        case .p521:
            #if !TACK_P521
            throw .unsupported(.curve(curve.oid))
            #else
            inRange = P521.curve.isValidScalar(r) && P521.curve.isValidScalar(s)
            #endif
        }
        guard inRange else { throw .malformedSignature(.scalarOutOfRange) }
        self.curve = curve
        rValue = r
        sValue = s
    }

    /// r ‖ s, each of the curve's scalar width (IEEE P1363).
    public var rawRepresentation: [UInt8] { r + s }
}

extension ECWeierstrassCurve {
    /// Whether `value` is in [1, n − 1].
    func isValidScalar(_ value: ECLimbs9) -> Bool {
        guard let value = Limbs(resizing: value) else { return false }
        return !value.isZero && value.isLess(than: order.modulus)
    }
}

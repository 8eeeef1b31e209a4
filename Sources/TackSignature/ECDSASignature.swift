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
    public let r: [UInt8]
    /// s as a big-endian integer of exactly the curve's scalar width.
    public let s: [UInt8]

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
    ///   (`TACK_NO_P384`, `TACK_NO_P521`).
    public init(derEncoded: some Collection<UInt8>, curve: ECCurve) throws(SignatureError) {
        let bytes = Array(derEncoded)
        // Two levels deep, and no element can be longer than the largest P-521
        // signature (2 + 2 × (2 + 67) = 140 octets): anything bigger is malformed.
        let limits = DERLimits(maximumDepth: 2, maximumElementLength: 140)
        let ranges: (r: Range<Int>, s: Range<Int>)
        do {
            ranges = try DER.read(bytes, limits: limits) { reader throws(DERError) in
                try reader.readSequence { sequence throws(DERError) in
                    (try sequence.readUnsignedIntegerMagnitude(), try sequence.readUnsignedIntegerMagnitude())
                }
            }
        } catch {
            throw .malformedSignature(.encoding(error))
        }
        let rBytes = bytes[ranges.r]
        let sBytes = bytes[ranges.s]
        try self.init(r: rBytes, s: sBytes, curve: curve)
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
    ///   a curve a firmware build left out (`TACK_NO_P384`, `TACK_NO_P521`).
    public init(rawRepresentation: some Collection<UInt8>, curve: ECCurve) throws(SignatureError) {
        let bytes = Array(rawRepresentation)
        let width = curve.scalarByteCount
        guard bytes.count == 2 * width else {
            throw .malformedSignature(.wrongLength(expected: 2 * width, found: bytes.count))
        }
        try self.init(r: bytes[0..<width], s: bytes[width...], curve: curve)
    }

    private init(r: ArraySlice<UInt8>, s: ArraySlice<UInt8>, curve: ECCurve) throws(SignatureError) {
        let width = curve.scalarByteCount
        let rPadded = ECDSASignature.leftPadded(r, to: width)
        let sPadded = ECDSASignature.leftPadded(s, to: width)
        guard let rPadded, let sPadded else { throw .malformedSignature(.scalarTooWide) }
        let inRange: Bool
        switch curve {
        case .p256: inRange = P256.curve.isValidScalar(rPadded) && P256.curve.isValidScalar(sPadded)
        case .p384:
            // Firmware switch (Tests/BareMetal/README.md): without it the range check
            // alone keeps the whole P-384 curve in the image.
            #if TACK_NO_P384
            throw .unsupported(.curve(curve.oid))
            #else
            inRange = P384.curve.isValidScalar(rPadded) && P384.curve.isValidScalar(sPadded)
            #endif
        case .p521:
            #if TACK_NO_P521
            throw .unsupported(.curve(curve.oid))
            #else
            inRange = P521.curve.isValidScalar(rPadded) && P521.curve.isValidScalar(sPadded)
            #endif
        }
        guard inRange else { throw .malformedSignature(.scalarOutOfRange) }
        self.curve = curve
        self.r = rPadded
        self.s = sPadded
    }

    /// Strips leading zeros and left-pads to `width`, or nil if too wide.
    private static func leftPadded(_ bytes: ArraySlice<UInt8>, to width: Int) -> [UInt8]? {
        let significant = bytes.drop(while: { $0 == 0 })
        guard significant.count <= width else { return nil }
        return [UInt8](repeating: 0, count: width - significant.count) + significant
    }

    /// r ‖ s, each of the curve's scalar width (IEEE P1363).
    public var rawRepresentation: [UInt8] { r + s }
}

extension ECWeierstrassCurve {
    /// Whether big-endian `bytes` encode an integer in [1, n − 1].
    func isValidScalar(_ bytes: [UInt8]) -> Bool {
        guard let value = Limbs(bigEndian: bytes) else { return false }
        return !value.isZero && value.isLess(than: order.modulus)
    }
}

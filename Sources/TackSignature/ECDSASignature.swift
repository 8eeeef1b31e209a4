/// An ECDSA signature (r, s), parsed strictly and range-checked for its curve.
///
/// Construction guarantees 1 ≤ r, s ≤ n − 1 (SEC 1 v2 §4.1.4 step 1): a
/// signature outside that range can never verify, so it is refused as
/// malformed before any curve arithmetic runs.
public struct ECDSASignature: Sendable, Hashable {
    /// The curve whose group order bounds r and s.
    public let curve: ECDSAPublicKey.Curve
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
    /// - Throws: ``SignatureError/malformedSignature(reason:)`` when the
    ///   encoding is not strict DER or r or s is out of range.
    public init(derEncoded: some Collection<UInt8>, curve: ECDSAPublicKey.Curve) throws(SignatureError) {
        let bytes = Array(derEncoded)
        let width = curve.scalarByteCount
        var reader = ECDERReader(bytes: bytes)
        let content = try reader.readElement(tag: 0x30, what: "signature SEQUENCE")
        guard reader.isAtEnd else { throw .malformedSignature(reason: "bytes after the signature SEQUENCE") }
        var inner = ECDERReader(bytes: content)
        let rBytes = try inner.readPositiveInteger(what: "r", maximumByteCount: width)
        let sBytes = try inner.readPositiveInteger(what: "s", maximumByteCount: width)
        guard inner.isAtEnd else { throw .malformedSignature(reason: "elements after s in the signature SEQUENCE") }
        try self.init(r: rBytes, s: sBytes, curve: curve)
    }

    /// Parses the fixed-width form r ‖ s of IEEE P1363 (also used by JOSE,
    /// RFC 7518 §3.4, and by WebCrypto): two big-endian integers of the curve's
    /// scalar width each (64, 96 or 132 bytes in total).
    ///
    /// - Parameters:
    ///   - rawRepresentation: r ‖ s.
    ///   - curve: The curve of the key that will check it.
    /// - Throws: ``SignatureError/malformedSignature(reason:)`` when the length
    ///   is wrong or r or s is out of range.
    public init(rawRepresentation: some Collection<UInt8>, curve: ECDSAPublicKey.Curve) throws(SignatureError) {
        let bytes = Array(rawRepresentation)
        let width = curve.scalarByteCount
        guard bytes.count == 2 * width else {
            throw .malformedSignature(reason: "raw signature must be \(2 * width) bytes, got \(bytes.count)")
        }
        try self.init(r: bytes[0..<width], s: bytes[width...], curve: curve)
    }

    private init(r: ArraySlice<UInt8>, s: ArraySlice<UInt8>, curve: ECDSAPublicKey.Curve) throws(SignatureError) {
        let width = curve.scalarByteCount
        let rPadded = ECDSASignature.leftPadded(r, to: width)
        let sPadded = ECDSASignature.leftPadded(s, to: width)
        guard let rPadded, let sPadded else { throw .malformedSignature(reason: "r or s is wider than the group order") }
        let inRange: Bool
        switch curve {
        case .p256: inRange = P256.curve.isValidScalar(rPadded) && P256.curve.isValidScalar(sPadded)
        case .p384: inRange = P384.curve.isValidScalar(rPadded) && P384.curve.isValidScalar(sPadded)
        case .p521: inRange = P521.curve.isValidScalar(rPadded) && P521.curve.isValidScalar(sPadded)
        }
        guard inRange else { throw .malformedSignature(reason: "r and s must lie in [1, n − 1]") }
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

/// A forward-only reader for the two DER shapes an ECDSA signature uses.
///
/// Accepts only what DER allows for these sizes: one-byte tags, and lengths in
/// short form or in the long form `0x81 L` with L ≥ 128 (X.690 §10.1: minimal
/// length octets). The largest ECDSA signature Tack handles, P-521, is at most
/// 2 + 2·(2 + 67) = 140 bytes, so no longer form is ever legitimate here.
private struct ECDERReader {
    let bytes: ArraySlice<UInt8>
    var position: Int

    init(bytes: [UInt8]) {
        self.bytes = bytes[...]
        self.position = bytes.startIndex
    }

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    private mutating func readByte(_ what: String) throws(SignatureError) -> UInt8 {
        guard position < bytes.endIndex else { throw .malformedSignature(reason: "\(what) is truncated") }
        defer { position += 1 }
        return bytes[position]
    }

    /// Reads one TLV with the given tag and returns its contents.
    mutating func readElement(tag: UInt8, what: String) throws(SignatureError) -> ArraySlice<UInt8> {
        guard try readByte(what) == tag else { throw .malformedSignature(reason: "\(what) has the wrong tag") }
        var length = Int(try readByte(what))
        if length == 0x81 {
            length = Int(try readByte(what))
            guard length >= 0x80 else { throw .malformedSignature(reason: "\(what) length is not minimally encoded") }
        } else if length > 0x80 {
            throw .malformedSignature(reason: "\(what) length is too large for an ECDSA signature")
        } else if length == 0x80 {
            throw .malformedSignature(reason: "\(what) uses the indefinite length, which DER forbids")
        }
        guard length <= bytes.endIndex - position else { throw .malformedSignature(reason: "\(what) is truncated") }
        defer { position += length }
        return bytes[position..<(position + length)]
    }

    /// Reads a minimally encoded, non-negative INTEGER and returns its
    /// magnitude (at most `maximumByteCount` significant bytes).
    mutating func readPositiveInteger(what: String, maximumByteCount: Int) throws(SignatureError) -> ArraySlice<UInt8> {
        let content = try readElement(tag: 0x02, what: what)
        guard let first = content.first else { throw .malformedSignature(reason: "\(what) has no content octets") }
        guard first & 0x80 == 0 else { throw .malformedSignature(reason: "\(what) is negative") }
        if first == 0, content.count > 1 {
            guard content[content.startIndex + 1] & 0x80 != 0 else {
                throw .malformedSignature(reason: "\(what) is not minimally encoded")
            }
        }
        let magnitude = first == 0 ? content.dropFirst() : content
        guard magnitude.count <= maximumByteCount else { throw .malformedSignature(reason: "\(what) is wider than the group order") }
        return magnitude
    }
}

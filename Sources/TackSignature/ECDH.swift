public import TackX509

/// A peer's ECDH public key on P-256 or P-384, validated on construction.
///
/// The validation of SEC 1 v2 §3.2.2.1 as far as it applies to these
/// prime-order curves: the encoding has the curve's length, both coordinates
/// are below p, the point is on the curve and is not infinity. These are the
/// checks that keep an invalid-curve attack from extracting the private key
/// (TLS 1.3 requires them of `secp256r1` and `secp384r1` key shares, RFC 8446
/// §4.2.8.2).
public struct ECDHPublicKey: Sendable, Hashable {
    fileprivate typealias Point = ECPublicPoint

    /// The key's curve.
    public let curve: ECCurve
    fileprivate let point: Point

    fileprivate init(curve: ECCurve, point: Point) {
        self.curve = curve
        self.point = point
    }

    /// Decodes and validates a point in the encoding of SEC 1 v2 §2.3.4, as TLS
    /// key shares carry it (RFC 8446 §4.2.8.2: `UncompressedPointRepresentation`).
    ///
    /// Accepted: uncompressed 0x04 ‖ X ‖ Y, and compressed 0x02/0x03 ‖ X (the
    /// y-coordinate recovered as a square root). Refused: the single byte 0x00
    /// (infinity), the hybrid forms, wrong lengths, coordinates ≥ p, points off
    /// the curve.
    ///
    /// - Parameters:
    ///   - curve: `ECCurve.p256` or `ECCurve.p384`.
    ///   - x963Representation: The encoded point.
    /// - Throws: ``KeyAgreementError/invalidPublicKey(_:)`` with the rule the
    ///   point broke, ``KeyAgreementError/unsupportedCurve(_:)`` for another curve.
    public init(curve: ECCurve, x963Representation: some Collection<UInt8>) throws(KeyAgreementError) {
        let bytes = [UInt8](x963Representation)
        let decoded = bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(SignatureError) -> Point? in
                switch curve {
                case .p256: return .p256(try P256.curve.decodePoint(bytes))
                case .p384:
                    #if !TACK_P384
                    return nil
                    #else
                    return .p384(try P384.curve.decodePoint(bytes))
                    #endif
                case .p521: return nil
                }
            }
        }
        switch decoded {
        case .success(let point?): self.init(curve: curve, point: point)
        case .success(nil): throw .unsupportedCurve(curve)
        case .failure(.malformedPublicKey(let fault)): throw .invalidPublicKey(fault)
        case .failure: throw .invalidPublicKey(.notOnCurve)  // decodePoint throws only malformedPublicKey
        }
    }

    /// The key as an uncompressed point, 0x04 ‖ X ‖ Y (SEC 1 v2 §2.3.3), the
    /// form a TLS key share sends, whatever form it was given in.
    public var x963Representation: [UInt8] { point.uncompressedEncoding }
}

/// An ephemeral ECDH private key on P-256 or P-384 (SEC 1 v2 §3.3.1, the
/// `secp256r1` and `secp384r1` key shares of TLS 1.3).
///
/// The scalar never leaves the value: ``description`` names only the curve,
/// no error carries it, and its storage is overwritten with zeros when the
/// last copy of the key goes away. Every computation with it, the public key
/// and the shared secret, is constant-time: a fixed-window scalar
/// multiplication with complete addition formulas and masked table reads
/// (ECConstantTime.swift), never the variable-time code that verifies
/// signatures.
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let key = try ECDHPrivateKey(curve: .p256, using: &random)
/// let share = key.publicKey.x963Representation  // sent to the peer
/// let secret = try key.sharedSecret(with: ECDHPublicKey(curve: .p256, x963Representation: peerShare))
/// ```
public struct ECDHPrivateKey: Sendable, CustomStringConvertible {
    /// The key's curve.
    public let curve: ECCurve
    /// The public key, d·G.
    public let publicKey: ECDHPublicKey
    private let scalar: ECDHScalar

    /// Generates a key: a scalar uniform in [1, n − 1] by rejection sampling
    /// (``randomScalar(curve:using:)``), then its public point.
    ///
    /// - Parameters:
    ///   - curve: `ECCurve.p256` or `ECCurve.p384`.
    ///   - random: The entropy source.
    /// - Throws: ``KeyAgreementError/randomSourceFailed(_:)`` when `random` throws,
    ///   ``KeyAgreementError/randomSourceUnusable`` after 64 rejected
    ///   candidates, ``KeyAgreementError/unsupportedCurve(_:)``.
    public init(curve: ECCurve, using random: inout some RandomSource) throws(KeyAgreementError) {
        var scalar = try Self.randomScalar(curve: curve, using: &random)
        defer { zeroizeBytes(&scalar) }
        try self.init(curve: curve, rawRepresentation: scalar)
    }

    /// Draws a private scalar uniform in [1, n − 1] by rejection sampling
    /// (FIPS 186-5 §A.2.2, "rejection sampling"): a candidate of the order's
    /// width from `random`, drawn again when it is zero or not below n. Its
    /// public point is not computed: ``init(curve:rawRepresentation:)`` makes the
    /// key when it is needed (a TLS client draws every key share's scalar up
    /// front and computes only the shares a server asks for). The same source
    /// gives the same key either way.
    ///
    /// - Parameters:
    ///   - curve: `ECCurve.p256` or `ECCurve.p384`.
    ///   - random: The entropy source.
    /// - Returns: The scalar, big-endian, the curve's coordinate width. It is a
    ///   secret: the caller overwrites it when done.
    /// - Throws: ``KeyAgreementError/randomSourceFailed(_:)`` when `random` throws,
    ///   ``KeyAgreementError/randomSourceUnusable`` after 64 rejected
    ///   candidates, ``KeyAgreementError/unsupportedCurve(_:)``.
    public static func randomScalar(curve: ECCurve, using random: inout some RandomSource) throws(KeyAgreementError) -> [UInt8] {
        let width = try scalarByteCount(curve)
        var candidate = [UInt8](repeating: 0, count: width)
        for _ in 0..<64 {
            do throws(RandomSourceError) {
                try random.fill(&candidate)
            } catch {
                zeroizeBytes(&candidate)
                throw .randomSourceFailed(error)
            }
            if try isScalarInRange(candidate, curve) { return candidate }
        }
        zeroizeBytes(&candidate)
        throw .randomSourceUnusable
    }

    /// Whether `bytes` (the curve's width, checked) is in [1, n − 1]; the answer
    /// is the only thing the comparison's branches reveal.
    private static func isScalarInRange(_ bytes: [UInt8], _ curve: ECCurve) throws(KeyAgreementError) -> Bool {
        switch curve {
        case .p256: return isScalarInRange(bytes, P256.curve)
        case .p384:
            #if !TACK_P384
            throw .unsupportedCurve(curve)
            #else
            return isScalarInRange(bytes, P384.curve)
            #endif
        case .p521: throw .unsupportedCurve(curve)
        }
    }

    private static func isScalarInRange<Limbs: ECLimbs>(_ bytes: [UInt8], _ curve: ECWeierstrassCurve<Limbs>) -> Bool {
        guard let d = Limbs(bigEndian: bytes) else { return false }
        return !d.isZero && d.isLess(than: curve.order.modulus)
    }

    /// A key from its scalar, as a fixed-width big-endian integer (SEC 1 v2
    /// §2.3.7; test vectors and stored keys).
    ///
    /// - Parameters:
    ///   - curve: `ECCurve.p256` or `ECCurve.p384`.
    ///   - rawRepresentation: The scalar d, exactly the curve's coordinate width
    ///     (32 or 48 bytes), 1 ≤ d < n.
    /// - Throws: ``KeyAgreementError/invalidPrivateKeyLength(expected:found:)``,
    ///   ``KeyAgreementError/privateKeyOutOfRange``,
    ///   ``KeyAgreementError/unsupportedCurve(_:)``.
    public init(curve: ECCurve, rawRepresentation: some Collection<UInt8>) throws(KeyAgreementError) {
        let width = try Self.scalarByteCount(curve)
        guard rawRepresentation.count == width else {
            throw .invalidPrivateKeyLength(expected: width, found: rawRepresentation.count)
        }
        var bytes = [UInt8](rawRepresentation)
        defer { zeroizeBytes(&bytes) }
        self.curve = curve
        switch curve {
        case .p256:
            let (scalar, point) = try Self.keyPair(bytes, P256.curve)
            self.scalar = ECDHScalar(.p256(scalar))
            publicKey = ECDHPublicKey(curve: curve, point: .p256(point))
        case .p384:
            #if !TACK_P384
            throw .unsupportedCurve(curve)
            #else
            let (scalar, point) = try Self.keyPair(bytes, P384.curve)
            self.scalar = ECDHScalar(.p384(scalar))
            publicKey = ECDHPublicKey(curve: curve, point: .p384(point))
            #endif
        case .p521:
            throw .unsupportedCurve(curve)
        }
    }

    /// The shared secret with `peer` (SEC 1 v2 §3.3.1): the x-coordinate of
    /// d·Q as a big-endian integer of the curve's coordinate width, which is
    /// TLS 1.3's ECDHE shared secret (RFC 8446 §7.4.2).
    ///
    /// - Parameter peer: The peer's validated public key.
    /// - Returns: The shared secret (32 bytes for P-256, 48 for P-384). It is a
    ///   secret: the caller overwrites it when done.
    /// - Throws: ``KeyAgreementError/curveMismatch(privateKey:publicKey:)``.
    public func sharedSecret(with peer: ECDHPublicKey) throws(KeyAgreementError) -> [UInt8] {
        switch (scalar.value, peer.point) {
        case (.p256(let d), .p256(let q)):
            return try Self.sharedX(d, q, P256.curve)
        #if TACK_P384
        case (.p384(let d), .p384(let q)):
            return try Self.sharedX(d, q, P384.curve)
        #endif
        default:
            throw .curveMismatch(privateKey: curve, publicKey: peer.curve)
        }
    }

    /// Names the curve only, never the scalar.
    public var description: String {
        "ECDHPrivateKey(\(curve))"
    }

    private static func scalarByteCount(_ curve: ECCurve) throws(KeyAgreementError) -> Int {
        switch curve {
        case .p256: return 32
        case .p384:
            #if !TACK_P384
            throw .unsupportedCurve(curve)
            #else
            return 48
            #endif
        case .p521: throw .unsupportedCurve(curve)
        }
    }

    /// The scalar in [1, n − 1] and its public point d·G.
    private static func keyPair<Limbs: ECLimbs>(
        _ bytes: [UInt8], _ curve: ECWeierstrassCurve<Limbs>
    ) throws(KeyAgreementError) -> (Limbs, ECAffinePoint<Limbs>) {
        // The width was checked, so the value fits; the range check's branch
        // reveals only whether the key is valid.
        guard let d = Limbs(bigEndian: bytes), !d.isZero, d.isLess(than: curve.order.modulus) else {
            throw .privateKeyOutOfRange
        }
        guard let point = curve.multiplySecret(d, curve.generator) else { throw .privateKeyOutOfRange }
        return (d, point)
    }

    private static func sharedX<Limbs: ECLimbs>(
        _ d: Limbs, _ q: ECAffinePoint<Limbs>, _ curve: ECWeierstrassCurve<Limbs>
    ) throws(KeyAgreementError) -> [UInt8] {
        // d ∈ [1, n − 1] and Q is a curve point of the prime-order group, so
        // d·Q is never infinity.
        guard let point = curve.multiplySecret(d, q) else { throw .invalidPublicKey(.pointAtInfinity) }
        return curve.field.fromMontgomery(point.x).bigEndianBytes(count: curve.coordinateByteCount)
    }
}

/// A private scalar, shared by the copies of an ``ECDHPrivateKey`` and
/// overwritten when the last one goes away.
///
/// `@unchecked Sendable`: `value` is written once, in `init`, and overwritten
/// only in `deinit`, when no other reference exists.
private final class ECDHScalar: @unchecked Sendable {
    enum Value {
        case p256(ECLimbs4)
        case p384(ECLimbs6)
    }

    private(set) var value: Value

    init(_ value: Value) {
        self.value = value
    }

    deinit {
        switch value {
        case .p256: value = .p256(ECLimbs4())
        case .p384: value = .p384(ECLimbs6())
        }
        ecdhKeepStore(&value)
    }
}

/// Keeps the zeroing store of a scalar from being dropped as dead: out of line,
/// the compiler cannot see that nothing reads the value afterwards.
@inline(never)
private func ecdhKeepStore<Value>(_ value: inout Value) {}

/// Overwrites a byte array (a private scalar's bytes) with zeros; out of line
/// so that the stores stay.
@inline(never)
private func zeroizeBytes(_ bytes: inout [UInt8]) {
    for index in bytes.indices { bytes[index] = 0 }
}

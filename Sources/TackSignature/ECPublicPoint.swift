// The one representation of a validated public point that ECDSAPublicKey and
// ECDHPublicKey keep, and its one encoding.

/// A validated public point on a named curve, in Montgomery form, inline (no
/// allocation). ECDHPublicKey never holds a P-521 point (TLS key agreement
/// offers P-256 and P-384 only).
enum ECPublicPoint: Sendable, Hashable {
    case p256(ECAffinePoint<ECLimbs4>)
    case p384(ECAffinePoint<ECLimbs6>)
    case p521(ECAffinePoint<ECLimbs9>)

    /// The point uncompressed, 0x04 ‖ X ‖ Y (SEC 1 v2 §2.3.3), encoded on each
    /// call: a key keeps only the point, so that preparing it allocates nothing.
    var uncompressedEncoding: [UInt8] {
        switch self {
        case .p256(let q): P256.curve.encodeUncompressed(q)
        #if !TACK_P384
        case .p384: []  // no key holds such a point in this build
        #else
        case .p384(let q): P384.curve.encodeUncompressed(q)
        #endif
        #if !TACK_P521
        case .p521: []
        #else
        case .p521(let q): P521.curve.encodeUncompressed(q)
        #endif
        }
    }
}

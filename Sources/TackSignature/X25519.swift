// X25519 (RFC 7748 §5): Diffie-Hellman on the Montgomery curve
// Curve25519, v² = u³ + 486662·u² + u over GF(2²⁵⁵ − 19), by the
// u-coordinate-only Montgomery ladder.
//
// The field is `Field25519` (radix 2⁵¹, Field25519.swift), the one Ed25519
// uses too: one implementation of GF(2²⁵⁵ − 19) serves verification and key
// agreement. Every field operation is branch-free (carries are shifts and
// masks); the one inversion is Fermat's z^(p−2) by a fixed chain.
//
// Constant time, loop by loop:
// - `ladder`: 255 iterations whatever the scalar; the scalar bit at the
//   public position t becomes a mask (0 or all ones) for `conditionalSwap`,
//   the same five limb XORs either way; the step's 18 field operations are
//   the same for every bit.
// - `inverted` (z^(p−2)): squarings and products in a fixed order.
// - Clamping and byte conversion: loops over 32 positions, fixed.
// - The zero check on the result: an OR over the limbs, then one branch on
//   the verdict, which is public (the exchange is refused).

/// A Curve25519 public key: the 32-byte little-endian u-coordinate of RFC 7748 §5.
///
/// Any 32 bytes are accepted, as RFC 7748 §5 asks: the top bit is ignored
/// and a non-canonical u (≥ 2²⁵⁵ − 19) is reduced. A public key of small
/// order is refused when it is used, by its all-zero shared secret.
public struct X25519PublicKey: Sendable, Hashable {
    /// The 32 bytes, as received.
    public let rawRepresentation: [UInt8]

    /// A public key from its 32 bytes (a TLS 1.3 `key_exchange` for x25519, RFC 8446 §4.2.8.2).
    ///
    /// - Parameter rawRepresentation: 32 bytes.
    /// - Throws: ``KeyAgreementError/invalidPublicKeyLength(expected:found:)`` for another length.
    public init(rawRepresentation: some Collection<UInt8>) throws(KeyAgreementError) {
        guard rawRepresentation.count == 32 else { throw .invalidPublicKeyLength(expected: 32, found: rawRepresentation.count) }
        self.rawRepresentation = Array(rawRepresentation)
    }
}

/// A Curve25519 private key for X25519 key agreement (RFC 7748 §5, §6.1).
///
/// The scalar is held by a private final class that overwrites it with zeros
/// when the last copy of the key goes away (a struct has no deinitialiser of
/// its own, and Embedded Swift allows no generic initialiser on a class, so
/// the key is a struct around that storage). The scalar never leaves it except
/// into the ladder: ``description`` says only the type, and no error carries it.
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let key = try X25519PrivateKey(using: &random)
/// let share = key.publicKey.rawRepresentation                  // send to the peer
/// let secret = try key.sharedSecret(with: X25519PublicKey(rawRepresentation: peerShare))
/// ```
public struct X25519PrivateKey: Sendable, CustomStringConvertible {
    /// The clamped scalar, wiped when the last copy of the key goes away.
    private let storage: X25519ScalarStorage

    /// The clamped scalar (RFC 7748 §5 decodeScalar25519), as an integer.
    private var scalar: ECLimbs4 { storage.scalar }

    /// A private key from 32 bytes (clamped as decodeScalar25519 does: bits
    /// 0–2 and 255 cleared, bit 254 set).
    ///
    /// - Parameter rawRepresentation: 32 bytes, uniformly random.
    /// - Throws: ``KeyAgreementError/invalidPrivateKeyLength(expected:found:)`` for another length.
    public init(rawRepresentation: some Collection<UInt8>) throws(KeyAgreementError) {
        guard rawRepresentation.count == 32 else { throw .invalidPrivateKeyLength(expected: 32, found: rawRepresentation.count) }
        var bytes = Array(rawRepresentation)
        storage = X25519ScalarStorage(scalar: X25519.clampedScalar(bytes))
        for index in bytes.indices { bytes[index] = 0 }
    }

    /// Generates a private key from 32 bytes of the caller's random source.
    ///
    /// - Parameter source: The entropy source (`SystemRandomNumberGenerator`
    ///   on hosted platforms; the application's generator on Embedded ones).
    /// - Throws: ``KeyAgreementError/randomSourceFailed(_:)`` when the source fails.
    public init(using source: inout some RandomSource) throws(KeyAgreementError) {
        var bytes = [UInt8](repeating: 0, count: 32)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        do throws(RandomSourceError) {
            try source.fill(&bytes)
        } catch {
            throw .randomSourceFailed(error)
        }
        try self.init(rawRepresentation: bytes)
    }

    /// The type's name; never the key.
    public var description: String { "X25519PrivateKey" }

    /// The public key: X25519(k, 9) (RFC 7748 §6.1).
    public var publicKey: X25519PublicKey {
        let u = X25519.multiply(scalar: scalar, u: ECLimbs4(small: 9))
        // 32 bytes: the initialiser cannot fail.
        return X25519PublicKey(checkedRawRepresentation: u)
    }

    /// The shared secret with a peer: X25519(k, peer's u) (RFC 7748 §6.1).
    ///
    /// - Parameter publicKey: The peer's public key.
    /// - Returns: The 32-byte shared secret (the input keying material of
    ///   TLS 1.3's handshake secret). The caller should overwrite it when done.
    /// - Throws: ``KeyAgreementError/zeroSharedSecret`` when the result is all
    ///   zeros (a peer key of small order; RFC 8446 §7.4.2).
    public func sharedSecret(with publicKey: X25519PublicKey) throws(KeyAgreementError) -> [UInt8] {
        let u = X25519.decodeCoordinate(publicKey.rawRepresentation)
        let shared = X25519.multiply(scalar: scalar, u: u)
        // One OR over the bytes; the branch is on the (public) verdict.
        var accumulator: UInt8 = 0
        for byte in shared { accumulator |= byte }
        guard accumulator != 0 else { throw .zeroSharedSecret }
        return shared
    }
}

/// The storage of an ``X25519PrivateKey``'s scalar: overwritten with zeros on deinit.
private final class X25519ScalarStorage: @unchecked Sendable {
    // @unchecked: `scalar` is written by the initialiser and by deinit only,
    // when no other reference exists; every other access reads it.
    var scalar: ECLimbs4

    init(scalar: ECLimbs4) {
        self.scalar = scalar
    }

    deinit {
        withUnsafeMutableBytes(of: &scalar) { bytes in
            for index in bytes.indices { bytes[index] = 0 }
        }
    }
}

extension X25519PublicKey {
    /// Wraps 32 bytes known to be 32.
    init(checkedRawRepresentation bytes: [UInt8]) {
        rawRepresentation = bytes
    }
}

/// The X25519 function of RFC 7748 §5.
enum X25519 {
    /// decodeScalar25519: bits 0, 1, 2 and 255 cleared, bit 254 set.
    static func clampedScalar(_ bytes: [UInt8]) -> ECLimbs4 {
        var limbs = ECLimbs4()
        for index in 0..<32 {
            limbs[index >> 3] |= UInt64(bytes[index]) << UInt64(8 * (index & 7))
        }
        limbs[0] &= ~7
        limbs[3] &= ~(1 << 63)
        limbs[3] |= 1 << 62
        return limbs
    }

    /// decodeUCoordinate: 32 little-endian bytes with bit 255 cleared (the
    /// value may still exceed p; the ladder reduces it).
    static func decodeCoordinate(_ bytes: [UInt8]) -> ECLimbs4 {
        var limbs = ECLimbs4()
        for index in 0..<32 {
            limbs[index >> 3] |= UInt64(bytes[index]) << UInt64(8 * (index & 7))
        }
        limbs[3] &= ~(1 << 63)
        return limbs
    }

    /// X25519(k, u): the u-coordinate of [k]·(u, …), 32 little-endian bytes.
    ///
    /// - Parameters:
    ///   - scalar: The clamped scalar.
    ///   - u: The u-coordinate, < 2²⁵⁵ (any such value; reduced mod p as it is used).
    static func multiply(scalar: ECLimbs4, u: ECLimbs4) -> [UInt8] {
        let x1 = Field25519(words: u)
        var x2 = Field25519.one
        var z2 = Field25519.zero
        var x3 = x1
        var z3 = Field25519.one
        var swap: UInt64 = 0
        var t = 254
        while t >= 0 {
            let bit = scalar.bit(t)  // t is public; the bit only becomes a mask
            swap ^= bit
            Field25519.conditionalSwap(&x2, &x3, mask: 0 &- swap)
            Field25519.conditionalSwap(&z2, &z3, mask: 0 &- swap)
            swap = bit
            // The sums and differences are lazy (no carry pass): each is only
            // multiplied or squared, within the bounds of `subtractingLazily`.
            let a = x2.addingLazily(z2)
            let aa = a.squared()
            let b = x2.subtractingLazily(z2)
            let bb = b.squared()
            let e = aa.subtractingLazily(bb)
            let c = x3.addingLazily(z3)
            let d = x3.subtractingLazily(z3)
            let da = d * a
            let cb = c * b
            x3 = da.addingLazily(cb).squared()
            z3 = x1 * da.subtractingLazily(cb).squared()
            x2 = aa * bb
            z2 = e * aa.addingLazily(e.multiplied(bySmall: 121_665))  // (A − 2)/4 = 121665
            t -= 1
        }
        Field25519.conditionalSwap(&x2, &x3, mask: 0 &- swap)
        Field25519.conditionalSwap(&z2, &z3, mask: 0 &- swap)
        // x2 / z2 by Fermat (z2 = 0 gives 0, as RFC 7748 §5 specifies).
        return (x2 * z2.inverted()).canonicalBytes
    }
}

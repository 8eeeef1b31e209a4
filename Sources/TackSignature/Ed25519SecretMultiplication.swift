// [a]B for a secret scalar a: the Ed25519 public key of a seed (RFC 8032 §5.1.5),
// in constant time. The verifier's `multiplyTwo` (width-w NAF, table lookups by
// digit) is for public scalars only; a private key's scalar takes this path.

extension Ed25519Curve {
    /// [a]B for the secret 255-bit scalar `a` (32 bytes, little-endian, any value),
    /// in constant time.
    ///
    /// One doubling and one addition of B per bit, from bit 254 down, the sum kept
    /// or dropped by a mask made from the bit: the same operations on the same
    /// memory whatever the scalar (the byte read is chosen by the bit's position,
    /// which is public). The addition (add-2008-hwcd-3) is complete on edwards25519,
    /// so the identity and doubling cases need no branch. The encoding divides by Z
    /// with Fermat's inverse (the exponent p − 2 is a public constant) rather than
    /// the variable-time inverse the verifier uses on public points.
    ///
    /// - Parameter a: The scalar's 32 bytes, little-endian.
    /// - Returns: The 32-byte encoding of [a]B.
    func encodedBaseMultipleSecret(_ a: [UInt8]) -> [UInt8] {
        precondition(a.count == 32, "an Ed25519 scalar is 32 bytes")  // internal callers pass SHA-512 halves
        let one = Field25519.one
        var accumulator = Ed25519Point(x: .zero, y: one, z: one, t: .zero)
        let base = preparedBaseTable[0]  // B, affine prepared
        var bit = 254
        while bit >= 0 {
            accumulator = double(accumulator)
            let sum = add(accumulator, base, subtract: false)
            let mask = 0 &- UInt64((a[bit >> 3] >> UInt8(bit & 7)) & 1)
            accumulator = Ed25519Point(
                x: accumulator.x.selecting(sum.x, mask: mask), y: accumulator.y.selecting(sum.y, mask: mask),
                z: accumulator.z.selecting(sum.z, mask: mask), t: accumulator.t.selecting(sum.t, mask: mask))
            bit -= 1
        }
        let zInverse = accumulator.z.inverted()
        let x = accumulator.x * zInverse
        var bytes = (accumulator.y * zInverse).canonicalBytes
        bytes[31] |= UInt8(truncatingIfNeeded: x.isOdd) << 7
        return bytes
    }
}

// The one constant every Montgomery reduction needs, shared by the RSA modulus
// (RSAMontgomery.swift) and the elliptic-curve fields (ECMontgomeryField.swift).

/// −n⁻¹ mod 2⁶⁴ for an odd n (the least significant limb of an odd modulus): the
/// per-word reduction factor of Montgomery multiplication.
///
/// Newton's iteration x ← x·(2 − n·x): for odd n, x = n is correct to 3 bits
/// (n² ≡ 1 mod 8) and each step doubles the number of correct bits (3, 6, 12,
/// 24, 48, 96 ≥ 64). Wrapping arithmetic is the point: everything is computed
/// modulo 2⁶⁴.
@inline(__always)
func montgomeryNegatedInverse(_ n: UInt64) -> UInt64 {
    var inverse = n
    for _ in 0..<5 { inverse = inverse &* (2 &- n &* inverse) }
    return 0 &- inverse
}

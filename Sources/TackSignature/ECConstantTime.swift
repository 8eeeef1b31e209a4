// Constant-time scalar multiplication on the NIST prime curves (a = −3), for
// secret scalars: ECDH key generation and shared secrets.
//
// The verification code (ECWeierstrassCurve.swift) is variable-time by design:
// its scalars and points are public, its wNAF skips zero digits and its
// additions branch on the exceptional cases. None of it is used here. This
// file has:
//
// - the complete projective formulas of Renes, Costello and Batina, "Complete
//   addition formulas for prime order elliptic curves" (EUROCRYPT 2016),
//   Algorithm 4 (addition, 12M + 2 multiplications by b) and Algorithm 6
//   (doubling, 8M + 3S), for a = −3: correct for every pair of points,
//   infinity and P = ±Q included, with no branch at all;
// - a fixed 5-bit signed window (Booth recoding: digits −16 … 16, so that
//   256 bits take 52 windows and 52 additions instead of 64 with an unsigned
//   4-bit window): the table 1·P, 2·P, …, 16·P, then per 5 scalar bits from the
//   top five doublings and one addition of the entry the digit's magnitude
//   selects, read by scanning all sixteen entries under masks, its y negated
//   under a mask for a negative digit, infinity put in under a mask for zero,
//   so that neither the sequence of operations nor any memory address depends
//   on the scalar;
// - the five doublings in Jacobian coordinates (X/Z², Y/Z³), "dbl-2001-b" of
//   the Explicit-Formulas Database for a = −3 (3M + 5S against the complete
//   doubling's 10M + 3S), the accumulator converted to Jacobian before them and
//   back to projective for the complete addition (3 products each way): 60
//   field operations per 5-bit window where the complete doubling took 79. The Jacobian doubling is
//   complete on these prime-order curves: no point but infinity has Y = 0, and
//   infinity, (0 : Y : 0) with Y ≠ 0 after the conversion, doubles to itself
//   (Z3 = 0, Y3 = −8Y⁴ ≠ 0). The conversion forces Y = 1 under a mask where Z
//   is zero, as Y·Z² would lose it;
// - the affine x-coordinate by Fermat inversion of Z (a fixed exponent, p − 2).
//
// The field operations are the generated straight-line ones
// (ECLimbArithmetic.swift): their reductions are mask selections, not branches.

/// A projective point (X : Y : Z) ↦ (X/Z, Y/Z), coordinates in Montgomery
/// form; (0 : 1 : 0) is infinity.
struct ECProjectivePoint<Limbs: ECLimbs>: Sendable {
    var x: Limbs
    var y: Limbs
    var z: Limbs
}

/// An all-ones mask when `a == b`, zero otherwise, computed without a
/// comparison the compiler could turn into a branch.
@inline(__always)
func ecEqualMask(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let difference = a ^ b
    // The top bit of d | −d is set exactly when d ≠ 0.
    return ((difference | (0 &- difference)) >> 63) &- 1
}

extension ECLimbs {
    /// `self` ORed with `other` under `mask` (all ones or zero), limb by limb.
    @inline(__always)
    func merging(_ other: Self, mask: UInt64) -> Self {
        var result = self
        for i in 0..<Self.limbCount { result[i] |= other[i] & mask }
        return result
    }

    /// `other` where `mask` is all ones, `self` where it is zero, limb by limb,
    /// without a branch.
    @inline(__always)
    func selecting(_ other: Self, mask: UInt64) -> Self {
        var result = self
        for i in 0..<Self.limbCount { result[i] = (result[i] & ~mask) | (other[i] & mask) }
        return result
    }
}

extension ECWeierstrassCurve {
    /// P + Q by Renes–Costello–Batina Algorithm 4 (a = −3), complete.
    @inline(__always)
    static func completeAdd<Field: ECFieldArithmetic<Limbs>>(
        _ p: ECProjectivePoint<Limbs>, _ q: ECProjectivePoint<Limbs>, b: Limbs, _ f: Field
    ) -> ECProjectivePoint<Limbs> {
        var t0 = f.multiply(p.x, q.x)
        var t1 = f.multiply(p.y, q.y)
        var t2 = f.multiply(p.z, q.z)
        var t3 = f.add(p.x, p.y)
        var t4 = f.add(q.x, q.y)
        t3 = f.multiply(t3, t4)
        t4 = f.add(t0, t1)
        t3 = f.subtract(t3, t4)
        t4 = f.add(p.y, p.z)
        var x3 = f.add(q.y, q.z)
        t4 = f.multiply(t4, x3)
        x3 = f.add(t1, t2)
        t4 = f.subtract(t4, x3)
        x3 = f.add(p.x, p.z)
        var y3 = f.add(q.x, q.z)
        x3 = f.multiply(x3, y3)
        y3 = f.add(t0, t2)
        y3 = f.subtract(x3, y3)
        var z3 = f.multiply(b, t2)
        x3 = f.subtract(y3, z3)
        z3 = f.add(x3, x3)
        x3 = f.add(x3, z3)
        z3 = f.subtract(t1, x3)
        x3 = f.add(t1, x3)
        y3 = f.multiply(b, y3)
        t1 = f.add(t2, t2)
        t2 = f.add(t1, t2)
        y3 = f.subtract(y3, t2)
        y3 = f.subtract(y3, t0)
        t1 = f.add(y3, y3)
        y3 = f.add(t1, y3)
        t1 = f.add(t0, t0)
        t0 = f.add(t1, t0)
        t0 = f.subtract(t0, t2)
        t1 = f.multiply(t4, y3)
        t2 = f.multiply(t0, y3)
        y3 = f.multiply(x3, z3)
        y3 = f.add(y3, t2)
        x3 = f.multiply(t3, x3)
        x3 = f.subtract(x3, t1)
        z3 = f.multiply(t4, z3)
        t1 = f.multiply(t3, t0)
        z3 = f.add(z3, t1)
        return ECProjectivePoint(x: x3, y: y3, z: z3)
    }

    /// 2P by Renes–Costello–Batina Algorithm 6 (a = −3), complete.
    @inline(__always)
    static func completeDouble<Field: ECFieldArithmetic<Limbs>>(
        _ p: ECProjectivePoint<Limbs>, b: Limbs, _ f: Field
    ) -> ECProjectivePoint<Limbs> {
        var t0 = f.square(p.x)
        let t1 = f.square(p.y)
        var t2 = f.square(p.z)
        var t3 = f.multiply(p.x, p.y)
        t3 = f.add(t3, t3)
        var z3 = f.multiply(p.x, p.z)
        z3 = f.add(z3, z3)
        var y3 = f.multiply(b, t2)
        y3 = f.subtract(y3, z3)
        var x3 = f.add(y3, y3)
        y3 = f.add(x3, y3)
        x3 = f.subtract(t1, y3)
        y3 = f.add(t1, y3)
        y3 = f.multiply(x3, y3)
        x3 = f.multiply(x3, t3)
        t3 = f.add(t2, t2)
        t2 = f.add(t2, t3)
        z3 = f.multiply(b, z3)
        z3 = f.subtract(z3, t2)
        z3 = f.subtract(z3, t0)
        t3 = f.add(z3, z3)
        z3 = f.add(z3, t3)
        t3 = f.add(t0, t0)
        t0 = f.add(t3, t0)
        t0 = f.subtract(t0, t2)
        t0 = f.multiply(t0, z3)
        y3 = f.add(y3, t0)
        t0 = f.multiply(p.y, p.z)
        t0 = f.add(t0, t0)
        z3 = f.multiply(t0, z3)
        x3 = f.subtract(x3, z3)
        z3 = f.multiply(t0, t1)
        z3 = f.add(z3, z3)
        z3 = f.add(z3, z3)
        return ECProjectivePoint(x: x3, y: y3, z: z3)
    }

    /// 2P in Jacobian coordinates, "dbl-2001-b" (a = −3): δ = Z², γ = Y²,
    /// β = X·γ, α = 3(X − δ)(X + δ); X3 = α² − 8β, Z3 = (Y + Z)² − γ − δ,
    /// Y3 = α(4β − X3) − 8γ². Complete on a prime-order curve (see the top of this file).
    @inline(__always)
    static func jacobianDouble<Field: ECFieldArithmetic<Limbs>>(
        _ p: ECProjectivePoint<Limbs>, _ f: Field
    ) -> ECProjectivePoint<Limbs> {
        let delta = f.square(p.z)
        let gamma = f.square(p.y)
        let beta = f.multiply(p.x, gamma)
        let difference = f.subtract(p.x, delta)
        let sum = f.add(p.x, delta)
        var alpha = f.multiply(difference, sum)
        alpha = f.add(f.add(alpha, alpha), alpha)
        let beta2 = f.add(beta, beta)
        let beta4 = f.add(beta2, beta2)
        let beta8 = f.add(beta4, beta4)
        let x3 = f.subtract(f.square(alpha), beta8)
        let yz = f.add(p.y, p.z)
        let z3 = f.subtract(f.subtract(f.square(yz), gamma), delta)
        let gammaSquared = f.square(gamma)
        let gamma2 = f.add(gammaSquared, gammaSquared)
        let gamma4 = f.add(gamma2, gamma2)
        let gamma8 = f.add(gamma4, gamma4)  // 8γ²
        let y3 = f.subtract(f.multiply(alpha, f.subtract(beta4, x3)), gamma8)
        return ECProjectivePoint(x: x3, y: y3, z: z3)
    }

    /// A projective point (X/Z, Y/Z) in Jacobian coordinates: (X·Z, Y·Z², Z),
    /// with Y forced to 1 under a mask where Z = 0, so that infinity keeps a
    /// nonzero Y.
    @inline(__always)
    static func jacobian<Field: ECFieldArithmetic<Limbs>>(
        _ p: ECProjectivePoint<Limbs>, _ f: Field
    ) -> ECProjectivePoint<Limbs> {
        let zz = f.square(p.z)
        var bits: UInt64 = 0
        for i in 0..<Limbs.limbCount { bits |= p.z[i] }  // Z < m: zero only as zero
        let y = f.multiply(p.y, zz).selecting(f.one, mask: ecEqualMask(bits, 0))
        return ECProjectivePoint(x: f.multiply(p.x, p.z), y: y, z: p.z)
    }

    /// A Jacobian point (X/Z², Y/Z³) in projective coordinates: (X·Z, Y, Z³).
    @inline(__always)
    static func projective<Field: ECFieldArithmetic<Limbs>>(
        _ p: ECProjectivePoint<Limbs>, _ f: Field
    ) -> ECProjectivePoint<Limbs> {
        ECProjectivePoint(x: f.multiply(p.x, p.z), y: p.y, z: f.multiply(f.square(p.z), p.z))
    }

    /// k·P for a secret scalar `k` (ordinary form, any value below 2^(64·limbCount))
    /// and an affine point `p` on the curve, in constant time: the affine
    /// result, or nil when it is infinity (k ≡ 0 mod n; callers refuse such
    /// scalars before, so nil never depends on a secret they keep).
    func multiplySecret(_ k: Limbs, _ p: ECAffinePoint<Limbs>) -> ECAffinePoint<Limbs>? {
        // As `multiplyTwo`: one limb type per curve, the P-256 prime's routine
        // fixed at compile time on four limbs.
        switch Limbs.limbCount {
        case 4: return multiplySecretAffine(k, p, using: ECShapedField<Limbs, ECP256PrimeShape>(field))
        default: return multiplySecretAffine(k, p, using: field)
        }
    }

    /// `multiplySecret(_:_:)` with `field`'s operations (which must be those of `self.field`).
    private func multiplySecretAffine<Field: ECFieldArithmetic<Limbs>>(
        _ k: Limbs, _ p: ECAffinePoint<Limbs>, using field: Field
    ) -> ECAffinePoint<Limbs>? {
        let point = multiplySecret(k, p, using: field)
        // Z⁻¹ by Fermat (the exponent p − 2 is public and fixed), so that the
        // time does not depend on Z; `inverse` is a variable-time gcd.
        let zInverse = field.power(point.z, self.field.modulusMinusTwo)
        let isInfinity = point.z.isZero
        guard !isInfinity else { return nil }
        return ECAffinePoint(x: field.multiply(point.x, zInverse), y: field.multiply(point.y, zInverse))
    }

    /// The fixed-window ladder of `multiplySecret(_:_:)`, with `field`'s
    /// operations (which must be those of `self.field`).
    func multiplySecret<Field: ECFieldArithmetic<Limbs>>(
        _ k: Limbs, _ p: ECAffinePoint<Limbs>, using field: Field
    ) -> ECProjectivePoint<Limbs> {
        // Algorithms 4 and 6 take b itself (their tripling is by additions).
        let b = self.b
        let infinity = ECProjectivePoint(x: Limbs(), y: field.one, z: Limbs())
        // table[i] = (i + 1)·P. An array: as a temporary allocation of 16 generic
        // points (1,536 bytes for P-256, over the stack limit), the optimised
        // build read through a null pointer (Swift 6.3.1, -O, x86-64).
        var table = [ECProjectivePoint<Limbs>](repeating: infinity, count: 16)
        table[0] = ECProjectivePoint(x: p.x, y: p.y, z: field.one)
        for i in 1..<16 {
            table[i] =
                i % 2 == 1
                ? Self.completeDouble(table[i / 2], b: b, field)  // (i + 1)·P = 2·((i + 1) / 2)·P
                : Self.completeAdd(table[i - 1], table[0], b: b, field)
        }
        // Windows of 5 bits from the top; the window above the scalar's top bit
        // takes its sign (Booth recoding needs one bit past the top).
        let windows = (Limbs.limbCount * 64 + 1 + 4) / 5
        var accumulator = infinity
        var window = windows - 1
        while window >= 0 {
            if window != windows - 1 {
                var jacobian = Self.jacobian(accumulator, field)
                for _ in 0..<5 { jacobian = Self.jacobianDouble(jacobian, field) }
                accumulator = Self.projective(jacobian, field)
            }
            // Bits 5w − 1 … 5w + 4 (bit −1 is zero), recoded branch-free (the
            // recoding of OpenSSL's ecp_nistz256, a fact of arithmetic): a set top
            // bit means the digit 32 − v taken negative, so the window is
            // magnitude · (−1)^negative with magnitude = ⌈v / 2⌉ or ⌈(63 − v) / 2⌉.
            let below = window > 0 ? k.bits(from: 5 * window - 1, count: 1) : 0
            let value = (k.bits(from: 5 * window, count: 5) << 1) | below
            let negative = 0 &- (value >> 5)  // all ones when the top bit is set
            let folded = ((63 &- value) & negative) | (value & ~negative)
            let magnitude = (folded >> 1) &+ (folded & 1)  // 0 … 16
            var selected = ECProjectivePoint(x: Limbs(), y: Limbs(), z: Limbs())
            for i in 0..<16 {
                let mask = ecEqualMask(UInt64(i + 1), magnitude)
                let entry = table[i]
                selected.x = selected.x.merging(entry.x, mask: mask)
                selected.y = selected.y.merging(entry.y, mask: mask)
                selected.z = selected.z.merging(entry.z, mask: mask)
            }
            // Digit 0: infinity, (0 : 1 : 0).
            selected.y = selected.y.merging(field.one, mask: ecEqualMask(magnitude, 0))
            selected.y = selected.y.selecting(field.negate(selected.y), mask: negative)
            accumulator = Self.completeAdd(accumulator, selected, b: b, field)
            window -= 1
        }
        // The multiples of P reveal nothing of k, but are cleared with the
        // rest of the computation's state all the same.
        for i in 0..<16 { table[i] = infinity }
        return accumulator
    }
}

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
//   Algorithm 4 (addition, 12M + 2 multiplications by b, for a = −3): correct
//   for every pair of points, infinity and P = ±Q included, with no branch at
//   all; used for the last window's addition;
// - a fixed 5-bit signed window (Booth recoding: digits −16 … 16, so that
//   256 bits take 52 windows and 52 additions instead of 64 with an unsigned
//   4-bit window): the table 1·P, 2·P, …, 16·P, then per 5 scalar bits from the
//   top five doublings and one addition of the entry the digit's magnitude
//   selects, read by scanning all sixteen entries under masks, its y negated
//   under a mask for a negative digit, infinity put in under a mask for zero,
//   so that neither the sequence of operations nor any memory address depends
//   on the scalar;
// - the table and the accumulator in Jacobian coordinates (X/Z², Y/Z³): the
//   five doublings are the verifier's (`ECWeierstrassCurve.double`, 4M + 4S,
//   branch-free; the complete doubling took 8M + 3S and 3 products by b), the
//   addition is "add-1998-cmo-2" of the Explicit-Formulas Database (12M + 4S):
//   56 field products per 5-bit window (60 with the complete addition and the
//   conversions it needed, 79 with complete doublings). The Jacobian doubling
//   is complete on these prime-order curves: no point but infinity has Y = 0,
//   and infinity, (0 : Y : 0) with Y ≠ 0, doubles to itself (Z3 = 0,
//   Y3 = −8Y⁴ ≠ 0, X3 = 0). The Jacobian addition is not:
//   its two infinity cases (an accumulator still at infinity, a zero digit)
//   are masked, and P = ±Q cannot occur before the last window (the proof is
//   at the addition); the last window uses the complete addition;
// - the affine x-coordinate by Fermat inversion of Z (a fixed exponent, p − 2;
//   for P-256 a fixed addition chain).
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

    /// P + Q in Jacobian coordinates, "add-1998-cmo-2" (12M + 4S): U1 = X1·Z2²,
    /// U2 = X2·Z1², S1 = Y1·Z2³, S2 = Y2·Z1³, H = U2 − U1, r = S2 − S1;
    /// X3 = r² − H³ − 2·U1·H², Y3 = r(U1·H² − X3) − S1·H³, Z3 = Z1·Z2·H.
    /// Branch-free, and correct only when neither point is infinity and
    /// P ≠ ±Q: the ladder below masks the infinity cases and shows why ±Q
    /// cannot occur where it is used.
    @inline(__always)
    static func jacobianAdd<Field: ECFieldArithmetic<Limbs>>(
        _ p: ECJacobianPoint<Limbs>, _ q: ECJacobianPoint<Limbs>, _ f: Field
    ) -> ECJacobianPoint<Limbs> {
        let z1z1 = f.square(p.z)
        let z2z2 = f.square(q.z)
        let u1 = f.multiply(p.x, z2z2)
        let u2 = f.multiply(q.x, z1z1)
        let s1 = f.multiply(p.y, f.multiply(q.z, z2z2))
        let s2 = f.multiply(q.y, f.multiply(p.z, z1z1))
        let h = f.subtract(u2, u1)
        let r = f.subtract(s2, s1)
        let hh = f.square(h)
        let hhh = f.multiply(h, hh)
        let v = f.multiply(u1, hh)
        let x3 = f.subtract(f.subtract(f.square(r), hhh), f.add(v, v))
        let y3 = f.subtract(f.multiply(r, f.subtract(v, x3)), f.multiply(s1, hhh))
        let z3 = f.multiply(f.multiply(p.z, q.z), h)
        return ECJacobianPoint(x: x3, y: y3, z: z3)
    }

    /// A Jacobian point (X/Z², Y/Z³) in projective coordinates: (X·Z, Y, Z³).
    @inline(__always)
    static func projective<Field: ECFieldArithmetic<Limbs>>(
        _ p: ECJacobianPoint<Limbs>, _ f: Field
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
        // time does not depend on Z; `inverse` is a variable-time gcd. P-256
        // by its addition chain (255 squarings, 12 products), the others by
        // the windowed `power`.
        let zInverse =
            Limbs.limbCount == 4
            ? Self.p256FermatInverse(point.z, field) : field.power(point.z, self.field.modulusMinusTwo)
        let isInfinity = point.z.isZero
        guard !isInfinity else { return nil }
        return ECAffinePoint(x: field.multiply(point.x, zInverse), y: field.multiply(point.y, zInverse))
    }

    /// z^(p − 2) for the P-256 prime, z⁻¹ (zero gives zero), by a fixed addition
    /// chain: p − 2 = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 3 is, from the top, 32 ones,
    /// 31 zeros and a one, 96 zeros, 94 ones, a zero and a one. zₙ = z^(2ⁿ − 1)
    /// is built for n = 2, 3, 6, 12, 15, 30, 32, then the exponent is read left
    /// to right: 255 squarings and 12 products, where the 4-bit window of
    /// `power` makes 256 squarings and some 60 products. The exponent is public.
    @inline(__always)
    static func p256FermatInverse<Field: ECFieldArithmetic<Limbs>>(_ z: Limbs, _ f: Field) -> Limbs {
        let z2 = f.multiply(f.square(z), z)
        let z3 = f.multiply(f.square(z2), z)
        let z6 = f.multiply(f.square(z3, times: 3), z3)
        let z12 = f.multiply(f.square(z6, times: 6), z6)
        let z15 = f.multiply(f.square(z12, times: 3), z3)
        let z30 = f.multiply(f.square(z15, times: 15), z15)
        let z32 = f.multiply(f.square(z30, times: 2), z2)  // bits 255 … 224
        var t = f.multiply(f.square(z32, times: 32), z)  // bits 223 … 192: 0…01
        t = f.multiply(f.square(t, times: 128), z32)  // 96 zeros, then bits 95 … 64
        t = f.multiply(f.square(t, times: 32), z32)  // bits 63 … 32
        t = f.multiply(f.square(t, times: 30), z30)  // bits 31 … 2
        return f.multiply(f.square(t, times: 2), z)  // bits 1, 0: 01
    }

    /// The fixed-window ladder of `multiplySecret(_:_:)`, with `field`'s
    /// operations (which must be those of `self.field`). The result is
    /// projective (X/Z, Y/Z).
    func multiplySecret<Field: ECFieldArithmetic<Limbs>>(
        _ k: Limbs, _ p: ECAffinePoint<Limbs>, using field: Field
    ) -> ECProjectivePoint<Limbs> {
        // Infinity, (0 : 1 : 0) in either coordinate system (Y ≠ 0, so the
        // Jacobian doubling keeps it at infinity).
        let infinity = ECJacobianPoint(x: Limbs(), y: field.one, z: Limbs())
        // table[i] = (i + 1)·P in Jacobian coordinates. Neither formula meets an
        // exceptional case here: P is a point of prime order n > 17, so
        // i·P ≠ ±P for 2 ≤ i ≤ 15. An array: as a temporary allocation of 16
        // generic points (1,536 bytes for P-256, over the stack limit), the
        // optimised build read through a null pointer (Swift 6.3.1, -O, x86-64).
        var table = [ECJacobianPoint<Limbs>](repeating: infinity, count: 16)
        table[0] = ECJacobianPoint(x: p.x, y: p.y, z: field.one)
        for i in 1..<16 {
            table[i] =
                i % 2 == 1
                ? Self.double(table[i / 2], field)  // (i + 1)·P = 2·((i + 1) / 2)·P
                : Self.jacobianAdd(table[i - 1], table[0], field)
        }
        // Windows of 5 bits from the top; the window above the scalar's top bit
        // takes its sign (Booth recoding needs one bit past the top).
        let windows = (Limbs.limbCount * 64 + 1 + 4) / 5
        var accumulator = infinity
        var result = ECProjectivePoint(x: Limbs(), y: field.one, z: Limbs())
        var window = windows - 1
        while window >= 0 {
            if window != windows - 1 {
                for _ in 0..<5 { accumulator = Self.double(accumulator, field) }
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
            var selected = ECJacobianPoint(x: Limbs(), y: Limbs(), z: Limbs())
            for i in 0..<16 {
                let mask = ecEqualMask(UInt64(i + 1), magnitude)
                let entry = table[i]
                selected.x = selected.x.merging(entry.x, mask: mask)
                selected.y = selected.y.merging(entry.y, mask: mask)
                selected.z = selected.z.merging(entry.z, mask: mask)
            }
            // Digit 0: infinity, (0 : 1 : 0).
            let digitIsZero = ecEqualMask(magnitude, 0)
            selected.y = selected.y.merging(field.one, mask: digitIsZero)
            selected.y = selected.y.selecting(field.negate(selected.y), mask: negative)
            if window > 0 {
                // The Jacobian addition, with its two infinity cases masked: an
                // infinite accumulator (the scalar's leading digits zero) gives the
                // entry, a zero digit the accumulator. Nothing else is exceptional
                // in these windows: with M the value of the digits above window w,
                // the accumulator is 32M·P with 32M ≤ 2^(64·limbCount − 5w) + 32 < n − 16
                // for w ≥ 1, so 32M ≡ ±d (mod n) only when M = d = 0.
                var zBits: UInt64 = 0
                for i in 0..<Limbs.limbCount { zBits |= accumulator.z[i] }  // Z < m: zero only as zero
                let accumulatorIsInfinity = ecEqualMask(zBits, 0)
                var sum = Self.jacobianAdd(accumulator, selected, field)
                sum.x = sum.x.selecting(selected.x, mask: accumulatorIsInfinity)
                sum.y = sum.y.selecting(selected.y, mask: accumulatorIsInfinity)
                sum.z = sum.z.selecting(selected.z, mask: accumulatorIsInfinity)
                sum.x = sum.x.selecting(accumulator.x, mask: digitIsZero)
                sum.y = sum.y.selecting(accumulator.y, mask: digitIsZero)
                sum.z = sum.z.selecting(accumulator.z, mask: digitIsZero)
                accumulator = sum
            } else {
                // The last window can meet P = Q (k ≡ 2d mod n, a scalar ≥ n or
                // close to it): the complete projective addition, on both points
                // converted (a Jacobian infinity (0 : Y : 0) stays (0 : Y : 0)).
                result = Self.completeAdd(
                    Self.projective(accumulator, field), Self.projective(selected, field), b: self.b, field)
            }
            window -= 1
        }
        // The multiples of P reveal nothing of k, but are cleared with the
        // rest of the computation's state all the same.
        for i in 0..<16 { table[i] = infinity }
        return result
    }
}

// Group arithmetic on the NIST prime curves y² = x³ − 3x + b (SEC 2 v2 §2.4,
// FIPS 186-4 §D.1.2), shared by P-256, P-384 and P-521 and specialised per
// limb count.
//
// Points are in Jacobian coordinates (X : Y : Z) ↦ (X/Z², Y/Z³); Z = 0 is the
// point at infinity. Formulas are from the Explicit-Formulas Database
// (hyperelliptic.org/EFD, "g1p/auto-shortw-jacobian-3"): add-2007-bl and
// madd-2007-bl, plus a doubling arranged as OpenSSL's (see `double`), with
// the exceptional cases (P = ±Q, infinity) handled explicitly, because a
// verifier must be correct for adversarial inputs, not only for random ones.

/// An affine point with coordinates in Montgomery form.
struct ECAffinePoint<Limbs: ECLimbs>: Sendable {
    var x: Limbs
    var y: Limbs
}

/// A Jacobian point with coordinates in Montgomery form; `z == 0` is infinity.
struct ECJacobianPoint<Limbs: ECLimbs>: Sendable {
    var x: Limbs
    var y: Limbs
    var z: Limbs

    /// The point at infinity, (1 : 1 : 0).
    static func infinity(one: Limbs) -> Self { Self(x: one, y: one, z: Limbs()) }

    var isInfinity: Bool { z.isZero }
}

/// A Jacobian point with Z² and Z³ kept beside it, for a point added many
/// times (the public-key table of `multiplyTwo`): each addition then skips
/// computing them, 11M + 3S instead of 11M + 5S.
struct ECCachedJacobianPoint<Limbs: ECLimbs>: Sendable {
    var x: Limbs
    var y: Limbs
    var z: Limbs
    /// Z².
    var zz: Limbs
    /// Z³.
    var zzz: Limbs

    init<Field: ECFieldArithmetic<Limbs>>(_ point: ECJacobianPoint<Limbs>, _ field: Field) {
        x = point.x
        y = point.y
        z = point.z
        zz = field.square(point.z)
        zzz = field.multiply(zz, point.z)
    }
}

/// A NIST prime curve with a = −3 and cofactor 1, plus the precomputed
/// multiples of its generator used by verification.
struct ECWeierstrassCurve<Limbs: ECLimbs>: Sendable {
    /// Arithmetic modulo the field prime p.
    let field: ECMontgomeryField<Limbs>
    /// Arithmetic modulo the group order n.
    let order: ECMontgomeryField<Limbs>
    /// The coefficient b, in Montgomery form.
    let b: Limbs
    /// The generator G, in Montgomery form.
    let generator: ECAffinePoint<Limbs>
    /// Bytes in an encoded field element: ⌈log₂ p / 8⌉ (SEC 1 v2 §2.3.5).
    let coordinateByteCount: Int
    /// Bits in n, the width to which digests are truncated (SEC 1 v2 §4.1.4 step 3).
    let orderBitCount: Int
    /// (p + 1) / 4: square roots by exponentiation, valid because p ≡ 3 mod 4
    /// for P-256, P-384 and P-521.
    let squareRootExponent: Limbs
    /// The odd multiples G, 3G, …, (2^(w−1) − 1)G for the width-w NAF of u₁,
    /// in affine form so that each use is a mixed addition.
    let generatorTable: [ECAffinePoint<Limbs>]

    /// NAF width for the generator: a table of 2^(w−2) = 64 points, built once
    /// (4 KiB for P-256, 6 KiB for P-384, 9 KiB for P-521). Width 7 (half the
    /// table) cost 0.7% more instructions on `verify-p256`: 761,608 against
    /// 756,586.
    static var generatorWindow: Int { 8 }
    /// NAF width for the public key (8 points, built per verification).
    static var publicKeyWindow: Int { 5 }

    /// Builds the curve from its SEC 2 parameters, given as ordinary integers.
    init(p: Limbs, n: Limbs, b: Limbs, gx: Limbs, gy: Limbs, coordinateByteCount: Int, fieldShape: ECModulusShape = .generic) {
        let field = ECMontgomeryField(modulus: p, shape: fieldShape)
        self.field = field
        self.order = ECMontgomeryField(modulus: n)
        self.b = field.toMontgomery(b)
        self.coordinateByteCount = coordinateByteCount
        self.orderBitCount = n.bitWidth
        let pPlusOne = p.addingWithCarry(Limbs(small: 1)).sum  // p < 2^(64·limbs) − 1 for these primes
        self.squareRootExponent = pPlusOne.shiftedRight(by: 2)
        let generator = ECAffinePoint(x: field.toMontgomery(gx), y: field.toMontgomery(gy))
        self.generator = generator

        // Odd multiples of G, then to affine one by one (a one-time cost).
        var table: [ECAffinePoint<Limbs>] = []
        let count = 1 << (Self.generatorWindow - 2)
        table.reserveCapacity(count)
        let g = ECJacobianPoint(x: generator.x, y: generator.y, z: field.one)
        let twoG = ECCachedJacobianPoint(Self.double(g, field), field)
        var current = g
        for _ in 0..<count {
            table.append(Self.toAffine(current, field))
            current = Self.addCached(current, twoG, field)
        }
        self.generatorTable = table
    }

    // MARK: Points

    /// Whether (x, y) (Montgomery form) satisfies y² = x³ − 3x + b.
    func isOnCurve(_ point: ECAffinePoint<Limbs>) -> Bool {
        let y2 = field.square(point.y)
        var rhs = field.multiply(field.square(point.x), point.x)
        let threeX = field.add(field.add(point.x, point.x), point.x)
        rhs = field.add(field.subtract(rhs, threeX), b)
        return y2 == rhs
    }

    /// The y with parity `yIsOdd` on the curve at x (Montgomery form), or nil
    /// when x³ − 3x + b is not a square (SEC 1 v2 §2.3.4 step 2.4).
    func solveY(x: Limbs, yIsOdd: Bool) -> Limbs? {
        var rhs = field.multiply(field.square(x), x)
        let threeX = field.add(field.add(x, x), x)
        rhs = field.add(field.subtract(rhs, threeX), b)
        var y = field.power(rhs, squareRootExponent)
        guard field.square(y) == rhs else { return nil }
        if (field.fromMontgomery(y)[0] & 1 == 1) != yIsOdd { y = field.negate(y) }
        return y
    }

    static func toAffine(_ point: ECJacobianPoint<Limbs>, _ field: ECMontgomeryField<Limbs>) -> ECAffinePoint<Limbs> {
        let zInverse = field.inverse(point.z)
        let zInverse2 = field.square(zInverse)
        return ECAffinePoint(
            x: field.multiply(point.x, zInverse2),
            y: field.multiply(point.y, field.multiply(zInverse2, zInverse))
        )
    }

    /// 2P for a = −3, in 4M + 4S, 10 additions or subtractions and one
    /// halving (the arrangement of OpenSSL's ecp_nistz256_point_double):
    /// with S = (2Y)² = 4Y² and M = 3(X − Z²)(X + Z²),
    /// X₃ = M² − 2·S·X, Y₃ = M·(S·X − X₃) − S²/2, Z₃ = 2·Y·Z. It replaced
    /// dbl-2001-b (3M + 5S but 16 additions and subtractions), measured on
    /// `verify-p256` (about 255 doublings per verification): 785,824
    /// instructions before, 770,584 after. Infinity doubles to
    /// infinity, since Z₃ = 2·Y₁·Z₁ = 0; there is no point of order 2 on a
    /// prime-order curve.
    @inline(__always)
    static func double<Field: ECFieldArithmetic<Limbs>>(_ p: ECJacobianPoint<Limbs>, _ field: Field) -> ECJacobianPoint<Limbs> {
        let zz = field.square(p.z)
        let twoY = field.add(p.y, p.y)
        let s = field.square(twoY)  // 4Y²
        let yz = field.multiply(p.y, p.z)
        let z3 = field.add(yz, yz)
        let t = field.multiply(field.add(p.x, zz), field.subtract(p.x, zz))
        let m = field.add(field.add(t, t), t)  // 3(X² − Z⁴)
        let halfS2 = field.half(field.square(s))  // 8Y⁴
        let sx = field.multiply(s, p.x)  // 4XY²
        let x3 = field.subtract(field.square(m), field.add(sx, sx))
        let y3 = field.subtract(field.multiply(m, field.subtract(sx, x3)), halfS2)
        return ECJacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q for Jacobian points (add-2007-bl with Q's Z² and Z³ cached, and
    /// Z₃ as 2·Z₁·Z₂·H: 11M + 3S; the squaring form of Z₃ measured 2,170 more
    /// instructions on `verify-p256`), complete by case analysis. The one
    /// Jacobian addition: a point added once is cached first.
    @inline(__always)
    static func addCached<Field: ECFieldArithmetic<Limbs>>(_ p: ECJacobianPoint<Limbs>, _ q: ECCachedJacobianPoint<Limbs>, _ field: Field) -> ECJacobianPoint<Limbs> {
        if p.isInfinity { return ECJacobianPoint(x: q.x, y: q.y, z: q.z) }
        if q.z.isZero { return p }
        let z1z1 = field.square(p.z)
        let u1 = field.multiply(p.x, q.zz)
        let u2 = field.multiply(q.x, z1z1)
        let s1 = field.multiply(p.y, q.zzz)
        let s2 = field.multiply(field.multiply(q.y, p.z), z1z1)
        let h = field.subtract(u2, u1)
        let sDifference = field.subtract(s2, s1)
        if h.isZero {
            // Same x: P = Q (double) or P = −Q (infinity).
            return sDifference.isZero ? double(p, field) : .infinity(one: field.one)
        }
        let h2 = field.add(h, h)
        let i = field.square(h2)
        let j = field.multiply(h, i)
        let r = field.add(sDifference, sDifference)
        let v = field.multiply(u1, i)
        let x3 = field.subtract(field.subtract(field.square(r), j), field.add(v, v))
        let s1j = field.multiply(s1, j)
        let y3 = field.subtract(field.multiply(r, field.subtract(v, x3)), field.add(s1j, s1j))
        let z3 = field.multiply(field.multiply(p.z, q.z), h2)  // 2·Z₁·Z₂·H, as r and i carry the factor 2
        return ECJacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q with Q affine (madd-2007-bl: 7M + 4S), complete by case analysis.
    @inline(__always)
    static func addAffine<Field: ECFieldArithmetic<Limbs>>(_ p: ECJacobianPoint<Limbs>, _ q: ECAffinePoint<Limbs>, _ field: Field) -> ECJacobianPoint<Limbs> {
        if p.isInfinity { return ECJacobianPoint(x: q.x, y: q.y, z: field.one) }
        let z1z1 = field.square(p.z)
        let u2 = field.multiply(q.x, z1z1)
        let s2 = field.multiply(field.multiply(q.y, p.z), z1z1)
        let h = field.subtract(u2, p.x)
        let sDifference = field.subtract(s2, p.y)
        if h.isZero {
            return sDifference.isZero ? double(p, field) : .infinity(one: field.one)
        }
        let hh = field.square(h)
        let i = field.add(field.add(hh, hh), field.add(hh, hh))
        let j = field.multiply(h, i)
        let r = field.add(sDifference, sDifference)
        let v = field.multiply(p.x, i)
        let x3 = field.subtract(field.subtract(field.square(r), j), field.add(v, v))
        let y1j = field.multiply(p.y, j)
        let y3 = field.subtract(field.multiply(r, field.subtract(v, x3)), field.add(y1j, y1j))
        let zh = field.add(p.z, h)
        let z3 = field.subtract(field.subtract(field.square(zh), z1z1), hh)
        return ECJacobianPoint(x: x3, y: y3, z: z3)
    }

    // MARK: Verification

    /// The ECDSA verification equation (SEC 1 v2 §4.1.4 steps 4–8) for
    /// `r`, `s` in [1, n − 1], a truncated digest `e` (< 2^orderBitCount) and a
    /// validated public key `q`, all ordinary integers except `q`.
    ///
    /// Computes R = u₁·G + u₂·Q with u₁ = e·s⁻¹, u₂ = r·s⁻¹ by interleaved
    /// width-w NAF (Straus–Shamir), then checks x(R) mod n = r without
    /// inverting Z: x(R) = X/Z², and x(R) mod n = r iff X = r′·Z² for
    /// r′ ∈ {r, r + n} with r′ < p.
    func verify(r: Limbs, s: Limbs, e: Limbs, publicKey q: ECAffinePoint<Limbs>) -> Bool {
        let sInverse = order.inverse(order.toMontgomery(s))  // s⁻¹·R
        let u1 = order.multiply(e, sInverse)  // e·s⁻¹, ordinary form (e < R)
        let u2 = order.multiply(r, sInverse)  // r·s⁻¹, ordinary form

        let point = multiplyTwo(u1: u1, u2: u2, q: q)
        guard !point.isInfinity else { return false }

        let z2 = field.square(point.z)
        if field.multiply(field.toMontgomery(r), z2) == point.x { return true }
        let (rPlusN, carry) = r.addingWithCarry(order.modulus)
        guard carry == 0, rPlusN.isLess(than: field.modulus) else { return false }
        return field.multiply(field.toMontgomery(rPlusN), z2) == point.x
    }

    /// u₁·G + u₂·Q by interleaved wNAF.
    ///
    /// The fast paths for the P-256 and P-521 primes are this same routine on
    /// an `ECShapedField`, which fixes the field's shape at compile time
    /// (`verify-p256`, `verify-p521`); ECArithmeticTests checks them against
    /// `multiplyTwo(u1:u2:q:using:)` on the plain field for seeded scalars.
    func multiplyTwo(u1: Limbs, u2: Limbs, q: ECAffinePoint<Limbs>) -> ECJacobianPoint<Limbs> {
        // The limb counts are constants after specialisation, so each limb
        // type keeps only the paths its curves can take.
        if Limbs.limbCount == 4 && field.shape == .p256Prime {
            return multiplyTwo(u1: u1, u2: u2, q: q, using: ECShapedField<Limbs, ECP256PrimeShape>(field))
        }
        if Limbs.limbCount == 9 && field.shape == .p521Prime {
            return multiplyTwo(u1: u1, u2: u2, q: q, using: ECShapedField<Limbs, ECP521PrimeShape>(field))
        }
        return multiplyTwo(u1: u1, u2: u2, q: q, using: field)
    }

    /// u₁·G + u₂·Q by interleaved wNAF, with `field`'s operations (which
    /// must be those of `self.field`).
    func multiplyTwo<Field: ECFieldArithmetic<Limbs>>(u1: Limbs, u2: Limbs, q: ECAffinePoint<Limbs>, using field: Field) -> ECJacobianPoint<Limbs> {
        let digitCount = 64 * Limbs.limbCount + 1
        return withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * digitCount) { digits in
            let naf1 = UnsafeMutableBufferPointer(rebasing: digits[0..<digitCount])
            let naf2 = UnsafeMutableBufferPointer(rebasing: digits[digitCount..<(2 * digitCount)])
            let length1 = ecWNAF(u1, window: Self.generatorWindow, into: naf1)
            let length2 = ecWNAF(u2, window: Self.publicKeyWindow, into: naf2)

            let tableCount = 1 << (Self.publicKeyWindow - 2)
            return withUnsafeTemporaryAllocation(of: ECCachedJacobianPoint<Limbs>.self, capacity: tableCount) { table in
                // Q, 3Q, 5Q, …, 15Q, with their Z² and Z³.
                let q1 = ECJacobianPoint(x: q.x, y: q.y, z: field.one)
                let q2 = ECCachedJacobianPoint(Self.double(q1, field), field)
                var current = q1
                for index in 0..<tableCount {
                    table.initializeElement(at: index, to: ECCachedJacobianPoint(current, field))
                    if index + 1 < tableCount { current = Self.addCached(current, q2, field) }
                }
                defer { table.deinitialize() }

                var accumulator = ECJacobianPoint<Limbs>.infinity(one: field.one)
                var position = max(length1, length2) - 1
                while position >= 0 {
                    accumulator = Self.double(accumulator, field)
                    let d1 = position < length1 ? Int(naf1[position]) : 0
                    if d1 > 0 {
                        accumulator = Self.addAffine(accumulator, generatorTable[d1 >> 1], field)
                    } else if d1 < 0 {
                        var negated = generatorTable[(-d1) >> 1]
                        negated.y = field.negate(negated.y)
                        accumulator = Self.addAffine(accumulator, negated, field)
                    }
                    let d2 = position < length2 ? Int(naf2[position]) : 0
                    if d2 > 0 {
                        accumulator = Self.addCached(accumulator, table[d2 >> 1], field)
                    } else if d2 < 0 {
                        var negated = table[(-d2) >> 1]
                        negated.y = field.negate(negated.y)
                        accumulator = Self.addCached(accumulator, negated, field)
                    }
                    position -= 1
                }
                return accumulator
            }
        }
    }
}

/// Writes the width-`window` non-adjacent form of `scalar` into `digits`
/// (least significant first): every non-zero digit is odd, in
/// (−2^(w−1), 2^(w−1)), and followed by at least w − 1 zeros.
///
/// - Returns: the number of digits written (one past the highest non-zero one).
/// - Precondition: `digits.count ≥ scalar.bitWidth + 1` and `2 ≤ window ≤ 8`
///   (internal callers size the buffer as 64·limbCount + 1).
func ecWNAF<Limbs: ECLimbs>(_ scalar: Limbs, window: Int, into digits: UnsafeMutableBufferPointer<Int8>) -> Int {
    let length = scalar.bitWidth + 1
    precondition(digits.count >= length && window >= 2 && window <= 8)  // internal invariant, see above
    UnsafeMutableBufferPointer(rebasing: digits[0..<length]).update(repeating: 0)
    var carry = 0
    var position = 0
    var highest = 0
    while position < length {
        // Skip the run of positions whose digit is zero: bits equal to the
        // carry (0 + 0, or 1 + 1 which keeps the carry), up to 57 at a time.
        let chunk = scalar.bits(from: position, count: 57)
        let run = carry == 0 ? chunk.trailingZeroBitCount : (~chunk).trailingZeroBitCount
        if run > 0 {
            position += min(run, 57)
            continue
        }
        let width = min(window, length - position)
        var word = carry + Int(scalar.bits(from: position, count: width))
        carry = (word >> (window - 1)) & 1
        word -= carry << window
        digits[position] = Int8(word)
        highest = position + 1
        position += width
    }
    return highest
}

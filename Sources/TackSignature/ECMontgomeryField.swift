// Arithmetic modulo an odd prime held in fixed limbs, in Montgomery form.
//
// Montgomery multiplication (P. L. Montgomery, "Modular multiplication without
// trial division", Math. Comp. 44, 1985) computes a·b·R⁻¹ mod m with
// R = 2^(64·limbCount), here in the CIOS variant (Koç, Acar, Kaliski,
// "Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro
// 16(3), 1996), unrolled per limb count in ECLimbArithmetic.swift. One generic
// field serves the P-256, P-384, P-521 and Ed25519 fields and their group
// orders; it is specialised per limb type, so each instance runs on registers
// and stack only.

/// A prime modulus with the constants Montgomery arithmetic needs.
///
/// Elements passed to these operations are fully reduced (`< modulus`); every
/// operation returns a fully reduced element. Values are in Montgomery form
/// (`x·R mod m`) unless a method says otherwise.
struct ECMontgomeryField<Limbs: ECLimbs>: Sendable {
    /// The odd prime modulus m.
    let modulus: Limbs
    /// −m⁻¹ mod 2⁶⁴.
    let negativeInverse: UInt64
    /// R mod m: the Montgomery form of 1.
    let one: Limbs
    /// R² mod m: converts into Montgomery form.
    let rSquared: Limbs
    /// m − 2, the exponent of Fermat inversion.
    let modulusMinusTwo: Limbs
    /// Which multiplication routine serves this modulus.
    let shape: ECModulusShape

    /// Derives the Montgomery constants of `modulus`, which must be an odd prime.
    ///
    /// - Parameters:
    ///   - modulus: The prime.
    ///   - shape: A dedicated multiplication routine for exactly this prime, if any.
    init(modulus: Limbs, shape: ECModulusShape = .generic) {
        // Internal invariant: only the curve constants in this module reach here.
        precondition(modulus[0] & 1 == 1 && modulus[Limbs.limbCount - 1] != 0, "modulus must be odd and use the top limb")
        self.modulus = modulus

        negativeInverse = montgomeryNegatedInverse(modulus[0])

        // R mod m and R² mod m by repeated modular doubling of 1: slow, but run
        // once per modulus when the curve constants are first used.
        var value = Limbs(small: 1)
        for _ in 0..<(64 * Limbs.limbCount) { value = Self.addModulo(value, value, modulus) }
        one = value
        for _ in 0..<(64 * Limbs.limbCount) { value = Self.addModulo(value, value, modulus) }
        rSquared = value

        modulusMinusTwo = modulus.subtractingWithBorrow(Limbs(small: 2)).difference
        self.shape = shape
    }

    @inline(__always)
    private static func addModulo(_ a: Limbs, _ b: Limbs, _ m: Limbs) -> Limbs {
        let (sum, carry) = a.addingWithCarry(b)
        let (reduced, borrow) = sum.subtractingWithBorrow(m)
        // Keep the reduced value unless the subtraction went below zero with no carry to absorb it.
        return (carry == 0 && borrow != 0) ? sum : reduced
    }

    /// `a` squared `count` times.
    func square(_ a: Limbs, times count: Int) -> Limbs {
        var result = a
        for _ in 0..<count { result = square(result) }
        return result
    }

    // MARK: Conversions

    /// x·R mod m for a fully reduced x (< m).
    func toMontgomery(_ x: Limbs) -> Limbs {
        multiply(x, rSquared)
    }

    /// x·R⁻¹ mod m: the ordinary value of a Montgomery-form element.
    func fromMontgomery(_ x: Limbs) -> Limbs {
        multiply(x, Limbs(small: 1))
    }

    /// x mod m in ordinary form, for any x < R (for example a hash that may
    /// exceed m): x·(R² mod m)·R⁻¹·R⁻¹ via two Montgomery products.
    func reduce(_ x: Limbs) -> Limbs {
        fromMontgomery(multiply(x, rSquared))
    }

    // MARK: Exponentiation

    /// baseᵉ in Montgomery form, by left-to-right exponentiation with a fixed
    /// 4-bit window (HAC 14.82): per 4 exponent bits, 4 squarings and at most
    /// one multiplication from a table of base⁰…base¹⁵. The exponents used
    /// here (m − 2, (p + 1)/4, (p − 5)/8) are public constants, so variable
    /// time is fine; for the all-ones exponents of 2²⁵⁵ − 19 and 2⁵²¹ − 1 this
    /// needs a quarter of the multiplications of plain square-and-multiply.
    func power(_ base: Limbs, _ exponent: Limbs) -> Limbs {
        withUnsafeTemporaryAllocation(of: Limbs.self, capacity: 16) { table in
            table.initializeElement(at: 0, to: one)
            table.initializeElement(at: 1, to: base)
            for i in 2..<16 { table.initializeElement(at: i, to: multiply(table[i - 1], base)) }
            defer { table.deinitialize() }

            var result = one
            var started = false
            var window = (exponent.bitWidth + 3) / 4 - 1
            while window >= 0 {
                if started { result = square(result, times: 4) }
                let bit = 4 * window
                let digit = Int(exponent.bit(bit) | exponent.bit(bit + 1) << 1 | exponent.bit(bit + 2) << 2 | exponent.bit(bit + 3) << 3)
                if digit != 0 {
                    result = started ? multiply(result, table[digit]) : table[digit]
                    started = true
                }
                window -= 1
            }
            return result
        }
    }

    /// a⁻¹ in Montgomery form (a = x·R ↦ x⁻¹·R); zero maps to zero.
    ///
    /// By the binary extended Euclidean algorithm on the stored integer
    /// (a⁻¹ = x⁻¹·R⁻¹), then two Montgomery products by R² (·R each) to
    /// x⁻¹·R. It takes variable time, which is fine here: Tack only verifies,
    /// so every value inverted (s of a signature, a point's Z, Ed25519's
    /// curve constant) is public. It replaced Fermat's a^(m−2) (`power`,
    /// 256 squarings and 64 products for P-256), which cost about 110,000 of
    /// `verify-p256`'s 874,000 instructions under callgrind for its one
    /// inversion, of s modulo n.
    func inverse(_ a: Limbs) -> Limbs {
        toMontgomery(toMontgomery(binaryInverse(a)))
    }

    /// x⁻¹ mod m for an ordinary integer 0 ≤ x < m (zero maps to zero), by
    /// the binary extended gcd (Menezes, van Oorschot, Vanstone, Handbook of
    /// Applied Cryptography, Algorithm 14.61), specialised to an odd prime
    /// modulus so that only the two coefficients of x are kept, halved
    /// modulo m: x₁·x ≡ u and x₂·x ≡ v (mod m) throughout. Every halving
    /// removes a bit of u or v and every subtraction (odd − odd) is followed
    /// by one, so the loop ends after at most 2·64·limbCount halvings with
    /// u = 1 or v = 1 (gcd(x, m) = 1 as m is prime).
    func binaryInverse(_ x: Limbs) -> Limbs {
        guard !x.isZero else { return Limbs() }
        let one = Limbs(small: 1)
        var u = x
        var v = modulus
        var x1 = one
        var x2 = Limbs()
        while u != one && v != one {
            // u and v are never zero: both stay multiples of gcd = 1 and a
            // subtraction never makes them equal (that would need u = v = 1).
            // Strip the trailing zero bits in one shift (at most 63 at a
            // time), halving the coefficient once per bit.
            while u[0] & 1 == 0 {
                let shift = min(u[0].trailingZeroBitCount, 63)
                u = u.shiftedRight(by: shift)
                for _ in 0..<shift { x1 = half(x1) }
            }
            while v[0] & 1 == 0 {
                let shift = min(v[0].trailingZeroBitCount, 63)
                v = v.shiftedRight(by: shift)
                for _ in 0..<shift { x2 = half(x2) }
            }
            // One subtraction decides the order too: u − v borrows iff u < v.
            let (difference, borrow) = u.subtractingWithBorrow(v)
            if borrow == 0 {
                u = difference
                x1 = subtract(x1, x2)
            } else {
                v = v.subtractingWithBorrow(u).difference
                x2 = subtract(x2, x1)
            }
        }
        return u == one ? x1 : x2
    }
}

/// A prime field in Montgomery form, as the point formulas of `ECWeierstrassCurve`
/// use it: `ECMontgomeryField` (the multiplication routine chosen per product at run
/// time) or `ECShapedField` (chosen by the type). The operations are written once,
/// below, on the constants each type provides.
protocol ECFieldArithmetic<Limbs> {
    associatedtype Limbs: ECLimbs
    /// The odd prime modulus m.
    var modulus: Limbs { get }
    /// −m⁻¹ mod 2⁶⁴.
    var negativeInverse: UInt64 { get }
    /// R mod m: the Montgomery form of 1.
    var one: Limbs { get }
    /// Which multiplication routine serves this modulus.
    var shape: ECModulusShape { get }
}

extension ECFieldArithmetic {
    /// (a + b) mod m.
    @inline(__always)
    func add(_ a: Limbs, _ b: Limbs) -> Limbs {
        Limbs.modularAdd(a, b, modulus: modulus)
    }

    /// (a − b) mod m.
    @inline(__always)
    func subtract(_ a: Limbs, _ b: Limbs) -> Limbs {
        Limbs.modularSubtract(a, b, modulus: modulus)
    }

    /// (−a) mod m.
    @inline(__always)
    func negate(_ a: Limbs) -> Limbs {
        subtract(Limbs(), a)
    }

    /// a / 2 mod m, branch-free (the same in or out of Montgomery form).
    @inline(__always)
    func half(_ a: Limbs) -> Limbs {
        Limbs.modularHalve(a, modulus: modulus)
    }

    /// a·b·R⁻¹ mod m (Montgomery product, CIOS).
    ///
    /// Correct whenever a·b < R·m (in particular for a, b < m, and for any
    /// a < R with b < m, which `ECMontgomeryField.reduce(_:)` relies on); the
    /// result is < m.
    @inline(__always)
    func multiply(_ a: Limbs, _ b: Limbs) -> Limbs {
        Limbs.montgomeryMultiply(a, b, modulus: modulus, negativeInverse: negativeInverse, shape: shape)
    }

    /// a²·R⁻¹ mod m, for a < m.
    @inline(__always)
    func square(_ a: Limbs) -> Limbs {
        Limbs.montgomerySquare(a, modulus: modulus, negativeInverse: negativeInverse, shape: shape)
    }
}

extension ECMontgomeryField: ECFieldArithmetic {}

/// A modulus shape known to the type system, for `ECShapedField`.
protocol ECStaticModulusShape {
    static var shape: ECModulusShape { get }
}

/// `ECModulusShape.p256Prime` as a type.
enum ECP256PrimeShape: ECStaticModulusShape {
    static var shape: ECModulusShape { .p256Prime }
}

/// `ECModulusShape.p521Prime` as a type.
enum ECP521PrimeShape: ECStaticModulusShape {
    static var shape: ECModulusShape { .p521Prime }
}

/// The operations of an `ECMontgomeryField` whose shape is `Shape.shape`,
/// with that shape a compile-time constant: the same routines, but the
/// switch on the shape in every product folds away when the point formulas
/// are specialised, instead of being a test and branch per product (about
/// 3,300 per P-256 verification) and keeping the generic product's call,
/// with its register spills, inside the main loop. With a faster `ecWNAF`,
/// `verify-p256` went from 800,534 to 785,824 instructions under callgrind
/// (see `ECWeierstrassCurve.multiplyTwo(u1:u2:q:)`).
struct ECShapedField<Limbs: ECLimbs, Shape: ECStaticModulusShape>: ECFieldArithmetic {
    let modulus: Limbs
    let negativeInverse: UInt64
    let one: Limbs

    /// `field`'s operations; `field.shape` must be `Shape.shape`.
    init(_ field: ECMontgomeryField<Limbs>) {
        precondition(field.shape == Shape.shape)  // internal invariant: callers test the shape first
        modulus = field.modulus
        negativeInverse = field.negativeInverse
        one = field.one
    }

    /// `Shape.shape`: a constant once the point formulas are specialised.
    @inline(__always)
    var shape: ECModulusShape { Shape.shape }
}

import Testing
import TackTestSupport
@testable import TackSignature

/// Internal arithmetic of the EC code: the field operations against their
/// defining identities, the P-256 product against the generic one, and the
/// NAF recoding against the scalar it encodes.
@Suite("EC field and scalar arithmetic")
struct ECArithmeticTests {
    /// A value below `field.modulus`, with a few extreme ones first.
    static func element<Limbs: ECLimbs>(_ index: Int, _ stream: inout DeterministicStream, _ field: ECMontgomeryField<Limbs>) -> Limbs {
        switch index {
        case 0: return Limbs()
        case 1: return Limbs(small: 1)
        case 2: return field.modulus.subtractingWithBorrow(Limbs(small: 1)).difference
        default:
            var value = Limbs()
            for i in 0..<Limbs.limbCount { value[i] = stream.next() }
            // Clear the bits above the modulus's width, then reduce by subtraction.
            let excess = 64 * Limbs.limbCount - field.modulus.bitWidth
            if excess > 0 { value[Limbs.limbCount - 1] &= UInt64.max >> UInt64(excess) }
            while !value.isLess(than: field.modulus) { value = value.subtractingWithBorrow(field.modulus).difference }
            return value
        }
    }

    static func checkField<Limbs: ECLimbs>(_ field: ECMontgomeryField<Limbs>, seed: UInt64) {
        var stream = DeterministicStream(state: seed)
        for index in 0..<40 {
            let a = element(index, &stream, field)
            let b = element(index + 7, &stream, field)
            let aM = field.toMontgomery(a)
            let bM = field.toMontgomery(b)
            #expect(field.fromMontgomery(aM) == a)
            // (a + b) − b = a, and a − a = 0.
            #expect(field.subtract(field.add(aM, bM), bM) == aM)
            #expect(field.subtract(aM, aM).isZero)
            // a·b = b·a, (a + b)·b = a·b + b².
            let ab = field.multiply(aM, bM)
            #expect(ab == field.multiply(bM, aM))
            #expect(field.multiply(field.add(aM, bM), bM) == field.add(ab, field.square(bM)))
            // a·a⁻¹ = 1 for a ≠ 0.
            if !a.isZero { #expect(field.multiply(aM, field.inverse(aM)) == field.one) }
            // −a + a = 0.
            #expect(field.add(field.negate(aM), aM).isZero)
        }
        // reduce() accepts any value below R, including m itself and R − 1.
        #expect(field.reduce(field.modulus).isZero)
        var allOnes = Limbs()
        for i in 0..<Limbs.limbCount { allOnes[i] = UInt64.max }
        let reduced = field.reduce(allOnes)
        #expect(reduced.isLess(than: field.modulus))
        // R − 1 ≡ (R mod m) − 1.
        #expect(field.toMontgomery(reduced) == field.toMontgomery(field.subtract(field.fromMontgomery(field.toMontgomery(field.one)), Limbs(small: 1))))
    }

    @Test("Field and order arithmetic satisfy the ring identities")
    func rings() {
        Self.checkField(P256.curve.field, seed: 1)
        Self.checkField(P256.curve.order, seed: 2)
        Self.checkField(P384.curve.field, seed: 3)
        Self.checkField(P384.curve.order, seed: 4)
        Self.checkField(P521.curve.field, seed: 5)
        Self.checkField(P521.curve.order, seed: 6)
    }

    /// The dedicated products and squarings of the P-256 and P-521 primes
    /// (`verify-p256`, `verify-p521` in tack-bench justify them) against
    /// the generic CIOS product they replace, on seeded random elements
    /// and the extremes 0, 1 and p − 1.
    @Test("The P-256 product and square with shift reductions equal the generic product")
    func p256Product() {
        let field = P256.curve.field
        #expect(field.shape == .p256Prime)
        var stream = DeterministicStream(state: 99)
        for index in 0..<2000 {
            let a = Self.element(index, &stream, field)
            let b = Self.element(index + 3, &stream, field)
            let generic = ECLimbs4.montgomeryProduct(a, b, modulus: field.modulus, negativeInverse: field.negativeInverse)
            #expect(ECLimbs4.p256MontgomeryMultiply(a, b) == generic)
            let genericSquare = ECLimbs4.montgomeryProduct(a, a, modulus: field.modulus, negativeInverse: field.negativeInverse)
            #expect(ECLimbs4.p256MontgomerySquare(a) == genericSquare)
        }
        // The contract reduce() relies on: any a < R times b < p.
        var allOnes = ECLimbs4()
        for i in 0..<4 { allOnes[i] = UInt64.max }
        let b = field.modulus.subtractingWithBorrow(ECLimbs4(small: 1)).difference
        #expect(ECLimbs4.p256MontgomeryMultiply(allOnes, b) == ECLimbs4.montgomeryProduct(allOnes, b, modulus: field.modulus, negativeInverse: field.negativeInverse))
    }

    /// The binary inversion behind `inverse` against Fermat's a^(m−2), the
    /// definition it replaced, on every field and group order.
    @Test("Binary inversion equals Fermat inversion")
    func binaryInversion() {
        func check<Limbs: ECLimbs>(_ field: ECMontgomeryField<Limbs>, seed: UInt64) {
            var stream = DeterministicStream(state: seed)
            for index in 0..<300 {
                let a = Self.element(index, &stream, field)
                #expect(field.inverse(a) == field.power(a, field.modulusMinusTwo))
            }
        }
        check(P256.curve.field, seed: 11)
        check(P256.curve.order, seed: 12)
        check(P384.curve.field, seed: 13)
        check(P384.curve.order, seed: 14)
        check(P521.curve.field, seed: 15)
        check(P521.curve.order, seed: 16)
        check(Ed25519Curve.shared.field, seed: 17)
    }

    /// The inversion on the values its one-word approximations treat least evenly:
    /// small numbers (both values fit a word from the first round), powers of two
    /// and their neighbours (long runs of equal bits), m − 2ʲ, and numbers of each
    /// length, each against Fermat's a^(m−2) and checked as an inverse.
    @Test("Inversion of small, power-of-two and every-length values equals Fermat inversion")
    func inversionEdgeValues() {
        func check<Limbs: ECLimbs>(_ field: ECMontgomeryField<Limbs>, seed: UInt64) {
            var stream = DeterministicStream(state: seed)
            let width = field.modulus.bitWidth
            var values: [Limbs] = (2..<66).map { Limbs(small: UInt64($0)) }
            for j in 0..<width {
                var power = Limbs()
                power[j >> 6] = 1 << UInt64(j & 63)
                values.append(power)
                values.append(power.subtractingWithBorrow(Limbs(small: 1)).difference)
                if j > 0 { values.append(power.addingWithCarry(Limbs(small: 1)).sum) }
                values.append(field.modulus.subtractingWithBorrow(power).difference)
                // A random value of exactly j + 1 bits: random bits below bit j, and bit j.
                var random = power
                for i in 0..<Limbs.limbCount where 64 * i < j {
                    let bitsBelow = j - 64 * i
                    random[i] |= bitsBelow < 64 ? stream.next() & ((1 << UInt64(bitsBelow)) - 1) : stream.next()
                }
                values.append(random)
            }
            for value in values where !value.isZero && value.isLess(than: field.modulus) {
                let inverse = field.binaryInverse(value)
                #expect(field.toMontgomery(field.toMontgomery(inverse)) == field.power(value, field.modulusMinusTwo))
                // value · value⁻¹ = 1 in ordinary form: the Montgomery product of
                // value·R and value⁻¹ is value·value⁻¹.
                #expect(field.multiply(field.toMontgomery(value), inverse) == Limbs(small: 1))
            }
        }
        check(P256.curve.field, seed: 21)
        check(P256.curve.order, seed: 22)
        check(P384.curve.field, seed: 23)
        check(P384.curve.order, seed: 24)
        check(P521.curve.field, seed: 25)
        check(P521.curve.order, seed: 26)
        check(Ed25519Curve.shared.field, seed: 27)
    }

    @Test("The P-521 product and square by Mersenne folding equal the generic Montgomery product")
    func p521Product() {
        let field = P521.curve.field
        #expect(field.shape == .p521Prime)
        var stream = DeterministicStream(state: 521)
        for index in 0..<2000 {
            let a = Self.element(index, &stream, field)
            let b = Self.element(index + 3, &stream, field)
            let generic = ECLimbs9.montgomeryProduct(a, b, modulus: field.modulus, negativeInverse: field.negativeInverse)
            #expect(ECLimbs9.p521MontgomeryMultiply(a, b) == generic)
            let genericSquare = ECLimbs9.montgomeryProduct(a, a, modulus: field.modulus, negativeInverse: field.negativeInverse)
            #expect(ECLimbs9.p521MontgomerySquare(a) == genericSquare)
        }
        // Any a < R = 2⁵⁷⁶ times b < p (what reduce() passes), including
        // the largest of both, and a·b ≡ 0 from a = p.
        var allOnes = ECLimbs9()
        for i in 0..<9 { allOnes[i] = UInt64.max }
        let pMinusOne = field.modulus.subtractingWithBorrow(ECLimbs9(small: 1)).difference
        for a in [allOnes, field.modulus, pMinusOne] {
            for b in [pMinusOne, ECLimbs9(small: 1), ECLimbs9()] {
                #expect(ECLimbs9.p521MontgomeryMultiply(a, b) == ECLimbs9.montgomeryProduct(a, b, modulus: field.modulus, negativeInverse: field.negativeInverse))
            }
        }
    }

    @Test("The generator is on its curve and n·G is the point at infinity")
    func generatorOrder() {
        func check<Limbs: ECLimbs>(_ curve: ECWeierstrassCurve<Limbs>) {
            #expect(curve.isOnCurve(curve.generator))
            // u₁·G + u₂·G with u₁ + u₂ = n: the sum must be infinity.
            let one = Limbs(small: 1)
            let nMinusOne = curve.order.modulus.subtractingWithBorrow(one).difference
            #expect(curve.multiplyTwo(u1: nMinusOne, u2: one, q: curve.generator).isInfinity)
            #expect(!curve.multiplyTwo(u1: one, u2: one, q: curve.generator).isInfinity)
        }
        check(P256.curve)
        check(P384.curve)
        check(P521.curve)
    }

    @Test("u₁·G + u₂·Q on the shape-fixed field (verify-p256, verify-p521) equals the plain field's")
    func shapedFieldMatchesPlainField() {
        func check<Limbs: ECLimbs>(_ curve: ECWeierstrassCurve<Limbs>, seed: UInt64) {
            var stream = DeterministicStream(state: seed)
            for index in 0..<8 {
                let k = Self.element(index + 3, &stream, curve.order)  // a non-zero multiple of G
                let q = ECWeierstrassCurve<Limbs>.toAffine(curve.multiplyTwo(u1: k, u2: Limbs(), q: curve.generator, using: curve.field), curve.field)
                let u1 = Self.element(index, &stream, curve.order)
                let u2 = Self.element(index, &stream, curve.order)
                let fast = curve.multiplyTwo(u1: u1, u2: u2, q: q)
                let plain = curve.multiplyTwo(u1: u1, u2: u2, q: q, using: curve.field)
                #expect(fast.x == plain.x && fast.y == plain.y && fast.z == plain.z)
            }
        }
        check(P256.curve, seed: 256)
        check(P521.curve, seed: 521)
    }

    @Test("Width-w NAF digits are odd, bounded, spaced, and sum to the scalar", arguments: [2, 5, 7, 8])
    func wNAF(window: Int) {
        var stream = DeterministicStream(state: UInt64(window))
        for index in 0..<50 {
            let scalar = Self.element(index, &stream, P256.curve.order)
            var digits = [Int8](repeating: 0, count: 257)
            let length = digits.withUnsafeMutableBufferPointer { ecWNAF(scalar, window: window, into: $0) }
            // Rebuild Σ dᵢ·2ⁱ with signed arithmetic on two accumulators.
            var positive = ECLimbs4()
            var negative = ECLimbs4()
            var lastNonZero = -window
            for position in 0..<length where digits[position] != 0 {
                let digit = Int(digits[position])
                #expect(digit & 1 == 1 || digit & 1 == -1)
                #expect(abs(digit) < 1 << (window - 1))
                #expect(position - lastNonZero >= window)
                lastNonZero = position
                var term = ECLimbs4(small: UInt64(abs(digit)))
                for _ in 0..<position { term = term.addingWithCarry(term).sum }
                if digit > 0 { positive = positive.addingWithCarry(term).sum } else { negative = negative.addingWithCarry(term).sum }
            }
            #expect(positive.subtractingWithBorrow(negative).difference == scalar)
        }
    }
}

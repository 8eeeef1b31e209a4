import Testing
@testable import TackSignature

/// The generated curve constants (Sources/TackSignature/ECCurves.swift, from
/// scripts/generate-ec-curve-constants.py) derived again with the Swift field
/// and group arithmetic, the way the curves computed them at first use before
/// they became literals: a wrong or stale literal fails here, before any
/// signature vector.
@Suite("EC curve constants")
struct ECCurveConstantsTests {
    /// R mod m and R² mod m by modular doubling of 1 (addition is the same in
    /// and out of Montgomery form), −m⁻¹ mod 2⁶⁴ by its defining product, m − 2.
    static func checkField<Limbs: ECLimbs>(_ field: ECMontgomeryField<Limbs>, _ name: String) {
        var value = Limbs(small: 1)
        for _ in 0..<(64 * Limbs.limbCount) { value = field.add(value, value) }
        #expect(value == field.one, "\(name): R mod m")
        for _ in 0..<(64 * Limbs.limbCount) { value = field.add(value, value) }
        #expect(value == field.rSquared, "\(name): R² mod m")
        #expect(field.negativeInverse &* field.modulus[0] == UInt64.max, "\(name): −m⁻¹ mod 2⁶⁴")
        #expect(field.modulusMinusTwo == field.modulus.subtractingWithBorrow(Limbs(small: 2)).difference, "\(name): m − 2")
        #expect(field.modulus[0] & 1 == 1 && field.modulus[Limbs.limbCount - 1] != 0, "\(name): odd, top limb used")
    }

    /// The table against G, 3G, 5G, … computed with the Jacobian group law, and
    /// the other derived values against their definitions.
    static func checkCurve<Limbs: ECLimbs>(_ curve: ECWeierstrassCurve<Limbs>, _ name: String) {
        checkField(curve.field, "\(name) field")
        checkField(curve.order, "\(name) order")
        let field = curve.field
        #expect(curve.generatorTableCount == 1 << (ECWeierstrassCurve<Limbs>.generatorWindow - 2), "\(name): table size")
        #expect(curve.generatorWords.count == 2 * Limbs.limbCount * curve.generatorTableCount, "\(name): whole points")
        #expect(curve.isOnCurve(curve.generator), "\(name): G on the curve")
        #expect(curve.orderBitCount == curve.order.modulus.bitWidth, "\(name): bits in n")
        let pPlusOne = curve.field.modulus.addingWithCarry(Limbs(small: 1)).sum
        #expect(curve.squareRootExponent == pPlusOne.shiftedRight(by: 2), "\(name): (p + 1)/4")

        let g = ECJacobianPoint(x: curve.generator.x, y: curve.generator.y, z: field.one)
        let twoG = ECCachedJacobianPoint(ECWeierstrassCurve<Limbs>.double(g, field), field)
        var current = g
        for index in 0..<curve.generatorTableCount {
            let entry = curve.generatorTableEntry(index)
            let expected = ECWeierstrassCurve<Limbs>.toAffine(current, field)
            #expect(entry.x == expected.x && entry.y == expected.y, "\(name): table entry \(index) is \(2 * index + 1)G")
            current = ECWeierstrassCurve<Limbs>.addCached(current, twoG, field)
        }
    }

    @Test("P-256: Montgomery constants and generator table")
    func p256() { Self.checkCurve(P256.curve, "P-256") }

    @Test("P-384: Montgomery constants and generator table")
    func p384() { Self.checkCurve(P384.curve, "P-384") }

    @Test("P-521: Montgomery constants and generator table")
    func p521() { Self.checkCurve(P521.curve, "P-521") }

    @Test("edwards25519: d, 2d, √−1, the exponent and the base table")
    func ed25519() throws {
        let curve = Ed25519Curve.shared
        let field = curve.field
        Self.checkField(field, "edwards25519 field")
        Self.checkField(curve.order, "edwards25519 order")
        // d · 121666 = −121665.
        let product = field.multiply(curve.d, field.toMontgomery(ECLimbs4(small: 121666)))
        #expect(product == field.negate(field.toMontgomery(ECLimbs4(small: 121665))))
        #expect(curve.d2 == field.add(curve.d, curve.d))
        #expect(field.square(curve.squareRootOfMinusOne) == field.negate(field.one))
        let pMinusFive = field.modulus.subtractingWithBorrow(ECLimbs4(small: 5)).difference
        #expect(curve.squareRootExponent == pMinusFive.shiftedRight(by: 3))
        #expect(curve.baseTable.count == 1 << (Ed25519Curve.baseWindow - 2))

        // B: y = 4/5 with x even, encoded as 0x58 then thirty-one 0x66 bytes.
        let base = try #require(curve.decode([0x58] + [UInt8](repeating: 0x66, count: 31)))
        let twoB = curve.cached(curve.double(base))
        var current = base
        func generic(_ x: Field25519) -> ECLimbs4 { field.toMontgomery(x.canonicalWords) }
        #expect(curve.preparedBaseTable.count == curve.baseTable.count)
        for (index, entry) in curve.baseTable.enumerated() {
            let zInverse = current.z.inverted()
            let x = current.x * zInverse
            let y = current.y * zInverse
            #expect(entry.yPlusX == generic(y + x), "table entry \(index): y + x")
            #expect(entry.yMinusX == generic(y - x), "table entry \(index): y − x")
            #expect(entry.t2d == generic(x * y * curve.fieldD2), "table entry \(index): 2d·x·y")
            let prepared = curve.preparedBaseTable[index]
            #expect(prepared.yPlusX == y + x && prepared.yMinusX == y - x, "prepared entry \(index)")
            current = curve.add(current, twoB)
        }
    }
}

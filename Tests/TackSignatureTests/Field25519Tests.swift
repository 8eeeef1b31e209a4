import TackTestSupport
import Testing

@testable import TackSignature

@Suite("GF(2²⁵⁵ − 19) in radix 2⁵¹ (Field25519)")
struct Field25519Tests {
    /// A value below 2²⁵⁵ from the stream, sometimes one of the edge values
    /// around p (p − 1, p, p + 1, 2²⁵⁵ − 1: non-canonical inputs) or a small one.
    static func value(_ stream: inout DeterministicStream) -> ECLimbs4 {
        var words = ECLimbs4()
        let top: UInt64 = (1 << 63) - 1
        switch stream.next() % 8 {
        case 0:
            let low = [UInt64(0xffff_ffff_ffff_ffec), 0xffff_ffff_ffff_ffed, 0xffff_ffff_ffff_ffee, ~0][Int(stream.next() % 4)]
            (words[0], words[1], words[2], words[3]) = (low, ~0, ~0, top)
        case 1:
            words[0] = stream.next() % 40
        default:
            (words[0], words[1], words[2], words[3]) = (stream.next(), stream.next(), stream.next(), stream.next() & top)
        }
        return words
    }

    @Test("Seeded: sums, differences, products, squares, small multiples, inverses and the square-root power agree with the generic Montgomery field")
    func field25519MatchesGenericField() {
        let field = Ed25519Curve.shared.field
        var stream = DeterministicStream(state: 0x2551_9F1E)
        func generic(_ x: ECLimbs4) -> ECLimbs4 { field.toMontgomery(x) }
        for round in 0..<400 {
            let a = Self.value(&stream), b = Self.value(&stream)
            let fa = Field25519(words: a), fb = Field25519(words: b)
            let ga = generic(a), gb = generic(b)
            #expect((fa + fb).canonicalWords == field.fromMontgomery(field.add(ga, gb)), "round \(round) +")
            #expect((fa - fb).canonicalWords == field.fromMontgomery(field.subtract(ga, gb)), "round \(round) −")
            #expect((fa * fb).canonicalWords == field.fromMontgomery(field.multiply(ga, gb)), "round \(round) ×")
            #expect(fa.squared().canonicalWords == field.fromMontgomery(field.square(ga)), "round \(round) ²")
            #expect(fa.negated.canonicalWords == field.fromMontgomery(field.negate(ga)), "round \(round) neg")
            let k = field.toMontgomery(ECLimbs4(small: 121_665))
            #expect(fa.multiplied(bySmall: 121_665).canonicalWords == field.fromMontgomery(field.multiply(ga, k)))
            #expect(fa.canonicalWords == field.fromMontgomery(ga), "round \(round) reduction")
            // Chains of loose results: ((a − b)·(a + b))² − a·b.
            let chained = ((fa - fb) * (fa + fb)).squared() - fa * fb
            let genericChained = field.subtract(
                field.square(field.multiply(field.subtract(ga, gb), field.add(ga, gb))), field.multiply(ga, gb))
            #expect(chained.canonicalWords == field.fromMontgomery(genericChained), "round \(round) chain")
            if round % 20 == 0 {
                #expect(fa.inverted().canonicalWords == field.fromMontgomery(field.power(ga, field.modulusMinusTwo)))
                let ed = Ed25519Curve.shared
                #expect(fa.powerPMinus5Over8().canonicalWords
                    == field.fromMontgomery(field.power(ga, ed.squareRootExponent)))
            }
        }
    }

    @Test("Seeded: the UInt128 column accumulator and the two-word one give the same low words and carries")
    func columnAccumulatorsAgree() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        var stream = DeterministicStream(state: 0x2551_9C01)
        for round in 0..<2000 {
            // Factors below 2⁵⁸ (a lazy limb times 19 is below 2⁵⁸): five products, a carry-in.
            let bits = UInt64(50 + round % 9)
            func limb() -> UInt64 { stream.next() & ((1 << bits) - 1) }
            let (a0, b0) = (limb(), limb())
            var wide = Field25519Column128(a0, b0), pair = Field25519WordPair(a0, b0)
            for _ in 0..<4 {
                let (a, b) = (limb(), limb())
                wide.add(a, b); pair.add(a, b)
            }
            let addend = stream.next() >> 6
            wide.add(addend); pair.add(addend)
            #expect(wide.low == pair.low && wide.carry == pair.carry, "round \(round)")
        }
    }
}

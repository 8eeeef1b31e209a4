// Host check of Runtime/SoftFloat.swift: every soft-float function against the
// host's hardware double arithmetic, on boundary operands and seeded random ones
// (SplitMix64, seed 0x7ACC). Run by scripts/baremetal-check.sh:
//   swiftc -O -parse-as-library Tests/BareMetal/Runtime/SoftFloat.swift Tests/BareMetal/softfloat-check.swift -o check && ./check
// Prints `softfloat: N agree, N differ` and exits 1 on a difference.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum SoftFloatCheck {
    static func main() {
        var state: UInt64 = 0x7ACC
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        let boundaries: [UInt64] = [
            0, signBit, 1, 2, fractionBits, hiddenBit, hiddenBit | 1, 0x3FF0_0000_0000_0000, 0x3FF0_0000_0000_0001,
            0x3FE8_0000_0000_0000, 0x3FE0_0000_0000_0000, 0x3FE0_0000_0000_0001, 0x4000_0000_0000_0000,
            0x7FEF_FFFF_FFFF_FFFF, 0x7FE0_0000_0000_0000, 0x0010_0000_0000_0000, 0x000F_FFFF_FFFF_FFFF,
            positiveInfinity, defaultNaN, 0x7FF0_0000_0000_0001, 0x4330_0000_0000_0000, 0x4330_0000_0000_0001,
            0x432F_FFFF_FFFF_FFFF, 0x41E0_0000_0000_0000, 0x41DF_FFFF_FFC0_0000, 0xC1E0_0000_0000_0000,
    0x3FF8_0000_0000_0000, 0x3FF8_0000_0000_0001, 0x3FF0_0000_0000_0003, 0x0008_0000_0000_0000, 0x3CA0_0000_0000_0000,
        ]
        var operands = boundaries + boundaries.map { $0 ^ signBit }
        // Random bit patterns, and random values in the ranges the hash tables use.
        for _ in 0..<20_000 { operands.append(next()) }
        for _ in 0..<5_000 { operands.append(Double(Int(truncatingIfNeeded: next() % 2_000_000) - 1_000_000).bitPattern) }
        for _ in 0..<5_000 { operands.append((Double(next() % 1_000_000) / 7.0).bitPattern) }

        var agree = 0
        var differ = 0
        func same(_ x: UInt64, _ y: Double) -> Bool { isNaN(x) ? y.isNaN : x == y.bitPattern }
        func expect(_ ok: Bool, _ what: @autoclosure () -> String) {
            if ok { agree += 1 } else {
                differ += 1
                if differ <= 20 { print("softfloat: DIFFER \(what())") }
            }
        }
        func hex(_ x: UInt64) -> String { "0x" + String(x, radix: 16) }

        // Every pair of boundary operands, then each operand with a partner from the list.
        var pairs: [(UInt64, UInt64)] = []
        let edges = operands.prefix(boundaries.count * 2)
        for a in edges { for b in edges { pairs.append((a, b)) } }
        for (index, a) in operands.enumerated() { pairs.append((a, operands[(index &* 7919 &+ 13) % operands.count])) }
        for (a, b) in pairs {
            let (x, y) = (Double(bitPattern: a), Double(bitPattern: b))
            expect(same(softMultiply(a, b), x * y), "mul \(hex(a)) \(hex(b))")
            expect(same(softDivide(a, b), x / y), "div \(hex(a)) \(hex(b))")
            expect(same(softCeiling(a), ceil(x)), "ceil \(hex(a))")
            let order: Int? = x.isNaN || y.isNaN ? nil : (x < y ? -1 : (x == y ? 0 : 1))
            expect(softCompare(a, b) == order, "compare \(hex(a)) \(hex(b))")
            expect(softCompare(a, a) == (x.isNaN ? nil : 0), "compare \(hex(a)) itself")
            if !x.isNaN && x > -2_147_483_649 && x < 2_147_483_648 {
                expect(softToInt32(a) == Int32(x), "d2iz \(hex(a))")
            }
            let i = Int32(truncatingIfNeeded: a)
            expect(softFromInt32(i) == Double(i).bitPattern, "i2d \(i)")
            expect(softFromUInt32(UInt32(truncatingIfNeeded: a)) == Double(UInt32(truncatingIfNeeded: a)).bitPattern, "ui2d")
        }
        for i in [Int32.min, Int32.max, -1, 1, 0] {
            expect(softFromInt32(i) == Double(i).bitPattern, "i2d \(i)")
        }
        print("softfloat: \(agree) agree, \(differ) differ")
        exit(differ == 0 ? 0 : 1)

    }
}

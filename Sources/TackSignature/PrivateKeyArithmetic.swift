// Multi-limb integer operations for the RSA private-key checks: product,
// remainder and comparison of unsigned integers held as little-endian 64-bit
// limbs, with no branch and no memory index that depends on a value's bits.
// Their running time depends on the limb counts alone, that is on the lengths
// of the DER INTEGERs, which the encoding shows anyway.
//
// RSAMontgomery.swift's kernels serve verification: an odd public modulus, a
// public exponent below 2³³, and a remainder routine that computes only
// 2^(128k) mod n. The checks need remainders of arbitrary values by even moduli
// (p − 1, q − 1), so they use the bit-serial long division below: one shift and
// one masked subtraction per dividend bit, about 4·8192·65 limb operations for
// the largest key checked (8192 bits), run once per key read.

enum PrivateKeyArithmetic {
    /// Little-endian limbs of a big-endian magnitude: ⌈count / 8⌉ limbs, at least one.
    static func limbs(_ bytes: ArraySlice<UInt8>) -> [UInt64] {
        let count = max(1, (bytes.count + 7) / 8)
        var limbs = [UInt64](repeating: 0, count: count)
        var shift: UInt64 = 0
        var limb = 0
        for byte in bytes.reversed() {
            limbs[limb] |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                shift = 0
                limb += 1
            }
        }
        return limbs
    }

    /// a·b, in a.count + b.count limbs (schoolbook).
    static func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: a.count + b.count)
        for i in 0..<a.count {
            var carry: UInt64 = 0
            for j in 0..<b.count {
                let (high, low) = a[i].multipliedFullWidth(by: b[j])
                let (sum1, overflow1) = low.addingReportingOverflow(result[i + j])
                let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
                result[i + j] = sum2
                // high ≤ 2⁶⁴ − 2, so adding the two carries cannot wrap.
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
            }
            result[i + b.count] = carry
        }
        return result
    }

    /// a mod m, in m.count limbs, by binary long division with a masked
    /// subtraction per bit. `m` must be non-zero (the callers check it).
    static func remainder(_ a: [UInt64], _ m: [UInt64]) -> [UInt64] {
        let k = m.count + 1
        var r = [UInt64](repeating: 0, count: k)
        var t = [UInt64](repeating: 0, count: k)
        var i = a.count - 1
        while i >= 0 {
            var bit = 63
            while bit >= 0 {
                // r ← 2r + bit. r < m before, so 2r + 1 < 2m fits in k limbs.
                var carry = (a[i] >> UInt64(bit)) & 1
                for j in 0..<k {
                    let next = r[j] >> 63
                    r[j] = (r[j] << 1) | carry
                    carry = next
                }
                // t ← r − m; keep t when there was no borrow.
                var borrow: UInt64 = 0
                for j in 0..<k {
                    let mj = j < m.count ? m[j] : 0
                    let (d1, b1) = r[j].subtractingReportingOverflow(mj)
                    let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                    t[j] = d2
                    borrow = (b1 ? 1 : 0) | (b2 ? 1 : 0)
                }
                let keep = 0 &- (1 &- borrow)  // all ones when r ≥ m
                for j in 0..<k {
                    r[j] = (t[j] & keep) | (r[j] & ~keep)
                }
                bit -= 1
            }
            i -= 1
        }
        return Array(r[0..<m.count])
    }

    /// Whether a = b as integers (the shorter zero-extended), in time that
    /// depends on the lengths only.
    static func isEqual(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        var difference: UInt64 = 0
        for j in 0..<max(a.count, b.count) {
            difference |= (j < a.count ? a[j] : 0) ^ (j < b.count ? b[j] : 0)
        }
        return difference == 0
    }

    /// Whether a = 1.
    static func isOne(_ a: [UInt64]) -> Bool {
        isEqual(a, [1])
    }

    /// Whether a = 0.
    static func isZero(_ a: [UInt64]) -> Bool {
        isEqual(a, [0])
    }

    /// Whether two byte strings are equal, in time that depends on their lengths only.
    static func bytesEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

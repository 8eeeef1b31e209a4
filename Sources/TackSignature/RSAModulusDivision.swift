// The long division that enters RSA's Montgomery domain: x·R mod n by Knuth's
// Algorithm D (TAOCP vol. 2, §4.3.1), keeping only the remainder. It is
// `RSAModulus.power`'s first step (RSAMontgomery.swift) and the tests' way to
// R² mod n. Moved here unchanged from RSAMontgomery.swift; `divide` went from
// private to internal so that `power` can call it across files.

extension RSAModulus {
    /// x·R mod n for x of k or k + 1 limbs below 2^64·n, by the long division
    /// that ``power(_:exponent:into:workspace:scratch:modulus:)`` enters the Montgomery domain
    /// with (x = s). With x = R (k + 1 limbs, the top one 1) this is R² mod n; the
    /// tests check the division's rare add-back step that way.
    ///
    /// - Parameters:
    ///   - x: k or k + 1 limbs.
    ///   - limbs: n, the modulus this value was prepared for, k limbs.
    func shiftedRemainder(_ x: [UInt64], modulus limbs: [UInt64]) -> [UInt64] {
        let k = limbCount
        // Internal invariant: callers are tests.
        precondition(x.count == k || x.count == k + 1, "shiftedRemainder takes k or k + 1 limbs")
        var work = [UInt64](repeating: 0, count: Self.divisionWorkspaceLimbCount(k: k, dividendLimbs: x.count))
        var result = [UInt64](repeating: 0, count: k)
        limbs.withUnsafeBufferPointer { nBuffer in
            x.withUnsafeBufferPointer { xBuffer in
                work.withUnsafeMutableBufferPointer { workBuffer in
                    result.withUnsafeMutableBufferPointer { resultBuffer in
                        Self.divide(
                            nBuffer.baseAddress.unsafelyUnwrapped, k, xBuffer.baseAddress.unsafelyUnwrapped, x.count,
                            workBuffer.baseAddress.unsafelyUnwrapped, resultBuffer.baseAddress.unsafelyUnwrapped)
                    }
                }
            }
        }
        return result
    }

    /// The limbs of workspace ``divide(_:_:_:_:_:_:)`` needs: v (k) and u (k + xCount + 1).
    static func divisionWorkspaceLimbCount(k: Int, dividendLimbs xCount: Int) -> Int {
        2 * k + xCount + 1
    }

    /// result ← x·B^k mod n (B = 2^64, so B^k = R) for x of `xCount` limbs
    /// (k or k + 1) below B·n: Knuth's Algorithm D (TAOCP vol. 2, §4.3.1)
    /// with 64-bit digits, keeping only the remainder.
    ///
    /// The divisor is normalised (shifted left until its top bit is set) so
    /// that each quotient digit estimate from the top two dividend digits is
    /// at most 2 too large; the refinement with the third digit makes it at
    /// most 1 too large, and the add-back step fixes that rare case. The cost
    /// is about (xCount + 1)·k word products and xCount + 1 word divisions:
    /// for x = s, half the products of a Montgomery multiplication by R².
    ///
    /// Index arithmetic is unchecked (`&+`, `&-`): every index is below
    /// 3k + 2 ≤ 386. (Pointers rather than array subscripts: the checked form
    /// cost 35,000 instructions a key, twice a verification's hashing.)
    ///
    /// - Parameters: `work` holds ``divisionWorkspaceLimbCount(k:dividendLimbs:)``
    ///   limbs (any contents); `result` k limbs; neither aliases `x` or `n`.
    static func divide(
        _ n: UnsafePointer<UInt64>, _ k: Int, _ x: UnsafePointer<UInt64>, _ xCount: Int,
        _ work: UnsafeMutablePointer<UInt64>, _ result: UnsafeMutablePointer<UInt64>
    ) {
        let shift = n[k &- 1].leadingZeroBitCount
        // v = n << shift.
        let v = work
        for i in 0..<k {
            let low = (i > 0 && shift > 0) ? n[i &- 1] >> UInt64(64 &- shift) : 0
            v[i] = (n[i] << UInt64(shift)) | low
        }
        // u = (x·B^k) << shift in k + xCount + 1 limbs: k zero limbs, then x
        // shifted, then the spill of the normalisation shift.
        let u = work + k
        u.update(repeating: 0, count: k)
        var spill: UInt64 = 0
        for i in 0..<xCount {
            u[k &+ i] = (x[i] << UInt64(shift)) | spill
            spill = shift > 0 ? x[i] >> UInt64(64 &- shift) : 0
        }
        u[k &+ xCount] = spill
        let vTop = v[k &- 1]
        let vNext = v[k &- 2]
        // x < B·n keeps the first window's top k digits below v, as the
        // estimate below needs.
        var j = xCount
        while j >= 0 {
            let top = u + j  // the window u[j ... j+k]
            // Estimate q̂ = ⌊(u[j+k]·B + u[j+k−1]) / v[k−1]⌋, capped at B − 1.
            var qHat: UInt64
            var rHat: UInt64
            var rHatOverflow = false
            if top[k] >= vTop {
                // Only equality is possible (the running remainder is < v).
                qHat = UInt64.max
                (rHat, rHatOverflow) = top[k &- 1].addingReportingOverflow(vTop)
            } else {
                (qHat, rHat) = vTop.dividingFullWidth((high: top[k], low: top[k &- 1]))
            }
            // While q̂·v[k−2] > r̂·B + u[j+k−2], q̂ is too large.
            while !rHatOverflow {
                let product = qHat.multipliedFullWidth(by: vNext)
                guard product.high > rHat || (product.high == rHat && product.low > top[k &- 2]) else {
                    break
                }
                qHat &-= 1  // q̂ ≥ 1 here: q̂ = 0 makes the product 0
                (rHat, rHatOverflow) = rHat.addingReportingOverflow(vTop)
            }
            // u[j ... j+k] −= q̂·v, the borrow of each word folded into the
            // carry to the next: q̂·v[i] + carry ≤ (B − 1)² + (B − 1) = B(B − 1),
            // so the high word is at most B − 1, and it is B − 1 only with a
            // zero low word, which borrows nothing: carry + borrow never wraps.
            var carry: UInt64 = 0
            var i = 0
            while i < k {
                let product = multiplyAdd(qHat, v[i], 0, carry)
                let (difference, borrow) = top[i].subtractingReportingOverflow(product.low)
                top[i] = difference
                carry = product.high &+ (borrow ? 1 : 0)
                i &+= 1
            }
            let (difference, borrow) = top[k].subtractingReportingOverflow(carry)
            top[k] = difference
            if borrow {
                // q̂ was one too large: add v back. The carry out of the top
                // cancels the borrow, so the top limb wraps back on purpose.
                var addCarry = false
                for i in 0..<k {
                    let (s1, c1) = top[i].addingReportingOverflow(v[i])
                    let (s2, c2) = s1.addingReportingOverflow(addCarry ? 1 : 0)
                    top[i] = s2
                    addCarry = c1 || c2
                }
                top[k] &+= addCarry ? 1 : 0
            }
            j &-= 1
        }
        // The remainder is u[0 ..< k] >> shift.
        for i in 0..<k {
            let high = (i &+ 1 < k && shift > 0) ? u[i &+ 1] << UInt64(64 &- shift) : 0
            result[i] = (u[i] >> UInt64(shift)) | high
        }
    }
}

// Fixed-width Montgomery arithmetic for RSA signature verification.
//
// Only what verification needs: an odd modulus n of k 64-bit limbs
// (16 ≤ k ≤ 128, see `RSAPublicKey.minimumModulusBitCount` and
// `maximumModulusBitCount`), Montgomery multiplication in the CIOS form
// (Koç, Acar and Kaliski, "Analyzing and Comparing Montgomery Multiplication
// Algorithms", IEEE Micro 1996), a dedicated squaring (their FIPS product
// scanning), and left-to-right
// binary exponentiation by a public exponent of at most 33 bits.
//
// Everything here operates on public values (modulus, exponent, signature),
// so nothing needs to be constant time; the code is nonetheless branch-free
// in its inner loops because that is also what makes it fast.
//
// Limbs are little-endian: limb 0 holds the least significant 64 bits.
// The working buffers of one verification are allocated once, by the caller;
// no step allocates.

/// An odd RSA modulus prepared for Montgomery multiplication.
///
/// With R = 2^(64·k), Montgomery multiplication computes a·b·R⁻¹ mod n.
/// `rSquared` converts a value into the Montgomery domain (x ↦ x·R mod n).
struct RSAModulus: Sendable {
    /// n as little-endian limbs; the most significant limb is non-zero.
    let limbs: [UInt64]
    /// −n⁻¹ mod 2^64, the per-word reduction factor of CIOS.
    let negatedInverse: UInt64
    /// R² mod n.
    let rSquared: [UInt64]
    /// The bit length of n.
    let bitCount: Int

    /// Prepares an odd modulus given as little-endian limbs.
    ///
    /// - Precondition: `limbs` has at least 2 limbs (Algorithm D in
    ///   `computeRSquared` reads the top two), its last limb is non-zero and
    ///   limb 0 is odd. `RSAPublicKey` establishes all three (1024 bits and
    ///   more is 16 limbs and more) before calling.
    init(limbs: [UInt64]) {
        // Internal invariant, established by RSAPublicKey's validation.
        precondition(
            limbs.count >= 2 && limbs[limbs.count - 1] != 0 && limbs[0] & 1 == 1,
            "RSAModulus requires an odd, normalised modulus of at least two limbs"
        )
        let k = limbs.count
        self.limbs = limbs
        self.bitCount = 64 * k - limbs[k - 1].leadingZeroBitCount

        self.negatedInverse = montgomeryNegatedInverse(limbs[0])

        self.rSquared = RSAModulus.computeRSquared(limbs: limbs)
    }

    /// Computes R² mod n = 2^(128k) mod n by one long division: Knuth's
    /// Algorithm D (TAOCP vol. 2, §4.3.1) with 64-bit digits, keeping only
    /// the remainder.
    ///
    /// The divisor is normalised (shifted left until its top bit is set) so
    /// that each quotient digit estimate from the top two dividend digits is
    /// at most 2 too large; the refinement with the third digit makes it at
    /// most 1 too large, and the add-back step fixes that rare case. The cost
    /// is about (k + 2)·k word products, a fraction of one Montgomery
    /// squaring, so preparing a key costs little next to verifying with it.
    private static func computeRSquared(limbs: [UInt64]) -> [UInt64] {
        let k = limbs.count
        // One buffer: v (k limbs) | u (2k + 2 limbs). Index arithmetic is unchecked
        // (`&+`, `&-`): every index is below 3k + 2 ≤ 386. (Pointers rather than
        // array subscripts: the checked form cost 35,000 instructions a key,
        // twice a verification's hashing; `e2e-rsa2048`, `verify-rsa2048-with-key`.)
        var work = [UInt64](repeating: 0, count: 3 &* k &+ 2)
        var result = [UInt64](repeating: 0, count: k)
        limbs.withUnsafeBufferPointer { nBuffer in
            work.withUnsafeMutableBufferPointer { workBuffer in
                result.withUnsafeMutableBufferPointer { resultBuffer in
                    divide(
                        nBuffer.baseAddress.unsafelyUnwrapped, k, workBuffer.baseAddress.unsafelyUnwrapped,
                        resultBuffer.baseAddress.unsafelyUnwrapped)
                }
            }
        }
        return result
    }

    /// The body of ``computeRSquared(limbs:)``: `work` is 3k + 2 zeroed limbs, `result` k.
    private static func divide(
        _ n: UnsafePointer<UInt64>, _ k: Int, _ work: UnsafeMutablePointer<UInt64>,
        _ result: UnsafeMutablePointer<UInt64>
    ) {
        let shift = n[k &- 1].leadingZeroBitCount
        // v = n << shift.
        let v = work
        for i in 0..<k {
            let low = (i > 0 && shift > 0) ? n[i &- 1] >> UInt64(64 &- shift) : 0
            v[i] = (n[i] << UInt64(shift)) | low
        }
        // u = 2^(128k) << shift in 2k + 2 limbs (the top limb is the spill
        // of the normalisation shift, zero here).
        let u = work + k
        u[2 &* k] = 1 << UInt64(shift)
        let vTop = v[k &- 1]
        let vNext = v[k &- 2]
        var j = k &+ 1
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
            // u[j ... j+k] −= q̂·v.
            var carry: UInt64 = 0
            var borrow = false
            for i in 0..<k {
                let product = qHat.multipliedFullWidth(by: v[i])
                let (low, o) = product.low.addingReportingOverflow(carry)
                // q̂·v[i] + carry < 2^128: the high word cannot wrap.
                carry = product.high &+ (o ? 1 : 0)
                let (d1, b1) = top[i].subtractingReportingOverflow(low)
                let (d2, b2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
                top[i] = d2
                borrow = b1 || b2
            }
            let (d1, b1) = top[k].subtractingReportingOverflow(carry)
            let (d2, b2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
            top[k] = d2
            if b1 || b2 {
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

    /// The number of limbs of workspace that ``power(_:exponent:into:workspace:)``
    /// needs: 4k + 1.
    var powerWorkspaceLimbCount: Int { 4 * limbs.count + 1 }

    /// Computes base^exponent mod n (RSAVP1's core) into `result`.
    ///
    /// Left-to-right binary exponentiation: for e = 65537 = 2^16 + 1 this is
    /// exactly 16 squarings and one multiplication, for e = 3 one squaring and
    /// one multiplication, and for any e below 2^33 at most 32 squarings and
    /// 32 multiplications. Plus one multiplication into the Montgomery domain
    /// and one reduction out of it. No step allocates: the caller passes the
    /// workspace.
    ///
    /// (The workspace is one heap block per verification rather than
    /// `withUnsafeTemporaryAllocation`: with Swift 6.3.1 on x86_64, release
    /// builds trap after that function's heap fallback, taken above 1 KiB,
    /// returns from a non-throwing closure: the typed-throws error register
    /// is tested after the call without being preserved.)
    ///
    /// - Parameters:
    ///   - base: k limbs, the value must be below n (checked by the caller).
    ///   - exponent: odd, at least 3 (checked when the key was made).
    ///   - result: k limbs, receives the fully reduced result (< n).
    ///   - workspace: `powerWorkspaceLimbCount` limbs, aliasing nothing else.
    func power(
        _ base: UnsafePointer<UInt64>, exponent: UInt64, into result: UnsafeMutablePointer<UInt64>,
        workspace: UnsafeMutablePointer<UInt64>
    ) {
        let k = limbs.count
        limbs.withUnsafeBufferPointer { nBuffer in
            rSquared.withUnsafeBufferPointer { r2Buffer in
                let n = nBuffer.baseAddress.unsafelyUnwrapped
                let r2 = r2Buffer.baseAddress.unsafelyUnwrapped
                // Layout: baseM (k) | x (k) | scratch (2k + 1).
                let baseM = workspace
                let x = baseM + k
                let scratch = x + k
                let n0 = negatedInverse
                // base·R mod n.
                Self.montgomeryMultiply(baseM, base, r2, n, n0, k, scratch)
                x.update(from: baseM, count: k)
                let topBit = 63 - exponent.leadingZeroBitCount
                var bit = topBit - 1
                while bit >= 0 {
                    Self.montgomerySquare(x, x, n, n0, k, scratch)
                    if (exponent >> UInt64(bit)) & 1 == 1 {
                        Self.montgomeryMultiply(x, x, baseM, n, n0, k, scratch)
                    }
                    bit -= 1
                }
                // Leave the Montgomery domain: x·R⁻¹, a reduction alone.
                scratch.update(from: x, count: k)
                (scratch + k).update(repeating: 0, count: k + 1)
                Self.reduce(result, scratch, n, n0, k)
            }
        }
    }

    // MARK: - Limb kernels
    //
    // Index arithmetic in the kernels uses `&+`: every index is below
    // 2k + 1 ≤ 257 (k ≤ 128 limbs, the 8192-bit bound), so it cannot wrap,
    // and the unchecked form keeps overflow branches out of the inner loops.

    /// r ← a·b·R⁻¹ mod n (CIOS, multiplication and reduction fused per word).
    ///
    /// Inputs a, b < n; output < n. `r` may alias `a` or `b`. `t` is scratch
    /// of at least k + 1 limbs and must not alias anything else.
    @inline(__always)
    static func montgomeryMultiply(
        _ r: UnsafeMutablePointer<UInt64>,
        _ a: UnsafePointer<UInt64>,
        _ b: UnsafePointer<UInt64>,
        _ n: UnsafePointer<UInt64>,
        _ n0: UInt64,
        _ k: Int,
        _ t: UnsafeMutablePointer<UInt64>
    ) {
        t.update(repeating: 0, count: k &+ 1)
        var i = 0
        while i < k {
            let bi = b[i]
            // Word 0: t0 + a0·bi, then choose m so that adding m·n clears it.
            // Each (high, low) accumulation below is a·b + c + d with all four
            // below 2^64, which is at most 2^128 − 1: `high` never wraps, so
            // `&+=` on it is exact.
            var (c1, low) = a[0].multipliedFullWidth(by: bi)
            var overflow: Bool
            (low, overflow) = low.addingReportingOverflow(t[0])
            c1 &+= overflow ? 1 : 0
            let m = low &* n0  // mod 2^64 by design
            var (c2, reduced) = m.multipliedFullWidth(by: n[0])
            (reduced, overflow) = reduced.addingReportingOverflow(low)
            c2 &+= overflow ? 1 : 0
            var j = 1
            // Two independent carry chains, a·bi into t and then m·n; two
            // words per turn, then the tail.
            while j &+ 1 < k {
                let product0 = multiplyAdd(a[j], bi, t[j], c1)
                let reduced0 = multiplyAdd(m, n[j], product0.low, c2)
                t[j &- 1] = reduced0.low
                let product1 = multiplyAdd(a[j &+ 1], bi, t[j &+ 1], product0.high)
                let reduced1 = multiplyAdd(m, n[j &+ 1], product1.low, reduced0.high)
                t[j] = reduced1.low
                c1 = product1.high
                c2 = reduced1.high
                j &+= 2
            }
            while j < k {
                let product = multiplyAdd(a[j], bi, t[j], c1)
                c1 = product.high
                let reduced = multiplyAdd(m, n[j], product.low, c2)
                c2 = reduced.high
                t[j &- 1] = reduced.low
                j &+= 1
            }
            // t < 2n < 2R throughout, so the top word is 0 or 1.
            var (top, o1) = t[k].addingReportingOverflow(c1)
            var o2: Bool
            (top, o2) = top.addingReportingOverflow(c2)
            t[k &- 1] = top
            t[k] = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            i &+= 1
        }
        finalSubtract(r, t, n, k)
    }

    /// r ← a²·R⁻¹ mod n by product scanning with the reduction interleaved
    /// (the "FIPS" method of Koç, Acar and Kaliski, 1996, §6, specialised to
    /// a square): column i of the result sums the square's products
    /// a_j·a_(i−j) (each symmetric pair once, doubled, k(k+1)/2 word products
    /// in all) and the reduction's m_j·n_(i−j) (k² in all) in a three-word
    /// accumulator held in registers; in the low k columns m_i is chosen to
    /// clear the column, the high k columns are the result. No intermediate
    /// 2k-word square goes through memory, which is what the timed
    /// `verify-rsa4096` (and -2048, -3072) figures were paying for: every word
    /// product loaded and stored a word of it.
    ///
    /// Input a < n; output < n. `r` may alias `a`. `t` is scratch of at least
    /// 2k + 1 limbs and must not alias anything else.
    @inline(__always)
    static func montgomerySquare(
        _ r: UnsafeMutablePointer<UInt64>,
        _ a: UnsafePointer<UInt64>,
        _ n: UnsafePointer<UInt64>,
        _ n0: UInt64,
        _ k: Int,
        _ t: UnsafeMutablePointer<UInt64>
    ) {
        // Layout: m (k limbs, the reduction multipliers) | result (k + 1).
        let m = t
        let result = t + k
        // The column accumulator c2:c1:c0. A column holds fewer than 2k + 2
        // products and carries below 2^128 each, so it stays below 2^137
        // (k ≤ 128) and c2 never wraps.
        var c0: UInt64 = 0
        var c1: UInt64 = 0
        var c2: UInt64 = 0
        let lastColumn = k &+ k &- 2
        var i = 0
        while i <= lastColumn {
            // j ranges over the indices with both j and i − j in 0..<k.
            let first = i < k ? 0 : i &- k &+ 1
            // The reduction's products m_j·n_(i−j); in the low columns only
            // the m_j already chosen (j < i).
            var j = first
            let reductionEnd = i < k ? i : k
            while j < reductionEnd {
                accumulate(m[j], n[i &- j], &c0, &c1, &c2)
                j &+= 1
            }
            // The square's off-diagonal products a_j·a_(i−j), j < i − j, once,
            // into u2:u1:u0 (below 2^135), then doubled into the column.
            var u0: UInt64 = 0
            var u1: UInt64 = 0
            var u2: UInt64 = 0
            j = first
            while j &+ j < i {
                accumulate(a[j], a[i &- j], &u0, &u1, &u2)
                j &+= 1
            }
            u2 = (u2 << 1) | (u1 >> 63)
            u1 = (u1 << 1) | (u0 >> 63)
            u0 = u0 << 1
            var overflow: Bool
            (c0, overflow) = c0.addingReportingOverflow(u0)
            (u1, u2) = addCarry(u1, u2, overflow)
            (c1, overflow) = c1.addingReportingOverflow(u1)
            c2 &+= u2 &+ (overflow ? 1 : 0)  // below 2^9, see above
            // The diagonal square a_(i/2)² in even columns.
            if i & 1 == 0 {
                let half = a[i >> 1]
                accumulate(half, half, &c0, &c1, &c2)
            }
            if i < k {
                // m_i clears the column: c0 + m_i·n_0 ≡ 0 (mod 2^64).
                let mi = c0 &* n0  // mod 2^64 by design
                m[i] = mi
                accumulate(mi, n[0], &c0, &c1, &c2)
            } else {
                result[i &- k] = c0
            }
            (c0, c1, c2) = (c1, c2, 0)
            i &+= 1
        }
        // (a² + M·n)/R < 2n: the last word and the carry word above it.
        result[k &- 1] = c0
        result[k] = c1
        finalSubtract(r, result, n, k)
    }

    /// c2:c1:c0 += x·y. The caller guarantees c2 does not wrap.
    @inline(__always)
    private static func accumulate(
        _ x: UInt64, _ y: UInt64, _ c0: inout UInt64, _ c1: inout UInt64, _ c2: inout UInt64
    ) {
        let (high, low) = x.multipliedFullWidth(by: y)
        var overflow: Bool
        (c0, overflow) = c0.addingReportingOverflow(low)
        // high ≤ 2^64 − 2 for a 128-bit product, so high + 1 does not wrap.
        (c1, overflow) = c1.addingReportingOverflow(high &+ (overflow ? 1 : 0))
        c2 &+= overflow ? 1 : 0
    }

    /// (low + carry, high + carry out) for a two-word value below 2^128 − 1.
    @inline(__always)
    private static func addCarry(_ low: UInt64, _ high: UInt64, _ carry: Bool) -> (UInt64, UInt64) {
        let (sum, overflow) = low.addingReportingOverflow(carry ? 1 : 0)
        return (sum, high &+ (overflow ? 1 : 0))
    }

    /// r ← t·R⁻¹ mod n for a (2k + 1)-limb t < n·R whose top limb is zero
    /// (Montgomery reduction, REDC). t is destroyed; `r` must not alias it.
    ///
    /// k rounds each add m·n·2^(64i) to clear word i. The carry out of each
    /// round is kept in `pending` and added at word i + k of the next round,
    /// so the extra word t[2k] only ever holds the final carry.
    @inline(__always)
    static func reduce(
        _ r: UnsafeMutablePointer<UInt64>,
        _ t: UnsafeMutablePointer<UInt64>,
        _ n: UnsafePointer<UInt64>,
        _ n0: UInt64,
        _ k: Int
    ) {
        var pending: UInt64 = 0
        var i = 0
        while i < k {
            let row = t + i
            let m = row[0] &* n0  // mod 2^64 by design
            var c: UInt64 = 0
            var j = 0
            // Four words per turn (k is a multiple of 4 for every common key
            // size), then the tail.
            while j &+ 3 < k {
                let w0 = multiplyAdd(m, n[j], row[j], c)
                row[j] = w0.low
                let w1 = multiplyAdd(m, n[j &+ 1], row[j &+ 1], w0.high)
                row[j &+ 1] = w1.low
                let w2 = multiplyAdd(m, n[j &+ 2], row[j &+ 2], w1.high)
                row[j &+ 2] = w2.low
                let w3 = multiplyAdd(m, n[j &+ 3], row[j &+ 3], w2.high)
                row[j &+ 3] = w3.low
                c = w3.high
                j &+= 4
            }
            while j < k {
                let w = multiplyAdd(m, n[j], row[j], c)
                row[j] = w.low
                c = w.high
                j &+= 1
            }
            var (sum, o1) = row[k].addingReportingOverflow(c)
            var o2: Bool
            (sum, o2) = sum.addingReportingOverflow(pending)
            row[k] = sum
            pending = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            i &+= 1
        }
        // The result (t + M·n)/R < 2n sits in t[k ..< 2k] plus `pending`.
        t[k &+ k] = pending
        finalSubtract(r, t + k, n, k)
    }

    /// a·b + t + c as (high, low). With all four below 2^64 the sum is at
    /// most (2^64 − 1)² + 2·(2^64 − 1) = 2^128 − 1, so `high` never wraps
    /// and the `&+=` on it is exact.
    @inline(__always)
    static func multiplyAdd(
        _ a: UInt64, _ b: UInt64, _ t: UInt64, _ c: UInt64
    ) -> (high: UInt64, low: UInt64) {
        var (high, low) = a.multipliedFullWidth(by: b)
        var overflow: Bool
        (low, overflow) = low.addingReportingOverflow(t)
        high &+= overflow ? 1 : 0
        (low, overflow) = low.addingReportingOverflow(c)
        high &+= overflow ? 1 : 0
        return (high, low)
    }

    /// r ← t − n if the (k+1)-limb value t is at least n, else r ← t.
    @inline(__always)
    private static func finalSubtract(
        _ r: UnsafeMutablePointer<UInt64>, _ t: UnsafeMutablePointer<UInt64>,
        _ n: UnsafePointer<UInt64>, _ k: Int
    ) {
        if t[k] != 0 || !isLess(UnsafePointer(t), n, k) {
            subtract(t, n, k)
        }
        r.update(from: t, count: k)
    }

    /// Whether the k-limb value a is below b.
    @inline(__always)
    static func isLess(_ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, _ k: Int) -> Bool {
        var i = k - 1
        while i >= 0 {
            if a[i] != b[i] { return a[i] < b[i] }
            i -= 1
        }
        return false
    }

    /// a ← a − b over k limbs, modulo 2^(64k) (the borrow out is dropped on
    /// purpose: callers subtract only when the full value is at least b).
    @inline(__always)
    private static func subtract(_ a: UnsafeMutablePointer<UInt64>, _ b: UnsafePointer<UInt64>, _ k: Int) {
        var borrow = false
        for i in 0..<k {
            let (d1, b1) = a[i].subtractingReportingOverflow(b[i])
            let (d2, b2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
            a[i] = d2
            borrow = b1 || b2
        }
    }
}

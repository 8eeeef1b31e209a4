// Fixed-width Montgomery arithmetic for RSA signature verification.
//
// Only what verification needs: an odd modulus n of k 64-bit limbs
// (16 ≤ k ≤ 128, see `RSAPublicKey.minimumModulusBitCount` and
// `maximumModulusBitCount`), Montgomery multiplication in the CIOS form
// (Koç, Acar and Kaliski, "Analyzing and Comparing Montgomery Multiplication
// Algorithms", IEEE Micro 1996), a dedicated squaring, and left-to-right
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
    /// - Precondition: `limbs` is non-empty, its last limb is non-zero and
    ///   limb 0 is odd. `RSAPublicKey` checks all three before calling.
    init(limbs: [UInt64]) {
        // Internal invariant, established by RSAPublicKey's validation.
        precondition(
            !limbs.isEmpty && limbs[limbs.count - 1] != 0 && limbs[0] & 1 == 1,
            "RSAModulus requires an odd, normalised modulus"
        )
        let k = limbs.count
        self.limbs = limbs
        self.bitCount = 64 * k - limbs[k - 1].leadingZeroBitCount

        // −n⁻¹ mod 2^64 by Newton's iteration x ← x·(2 − n·x): for odd n,
        // x = n is correct to 3 bits (n² ≡ 1 mod 8) and each step doubles the
        // number of correct bits (3, 6, 12, 24, 48, 96). Wrapping arithmetic
        // is the point: everything is computed modulo 2^64.
        let n0 = limbs[0]
        var inverse = n0
        for _ in 0..<5 {
            inverse = inverse &* (2 &- n0 &* inverse)
        }
        self.negatedInverse = 0 &- inverse

        self.rSquared = RSAModulus.computeRSquared(limbs: limbs, negatedInverse: 0 &- inverse)
    }

    /// Computes R² mod n without a general division.
    ///
    /// Write 64·k = a·2^j with a odd. Starting from 2^(b−1) (b the bit length
    /// of n, so 2^(b−1) < n), modular doublings reach X = 2^(64k + a) mod n,
    /// which is the Montgomery form of 2^a. Each Montgomery squaring doubles
    /// the exponent of that represented power of two, so j squarings give the
    /// Montgomery form of 2^(a·2^j) = R, that is R·R mod n = R² mod n.
    /// For k = 32 (RSA-2048) that is 2 doublings and 11 squarings; in every
    /// case at most 64 + 127 + 1 doublings and 13 squarings.
    private static func computeRSquared(limbs: [UInt64], negatedInverse: UInt64) -> [UInt64] {
        let k = limbs.count
        let bitCount = 64 * k - limbs[k - 1].leadingZeroBitCount
        let totalBits = 64 * k
        let j = totalBits.trailingZeroBitCount
        let a = totalBits >> j
        var result = [UInt64](repeating: 0, count: k)
        // Heap scratch, not withUnsafeTemporaryAllocation: see `power`.
        let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * k + 1)
        defer { scratch.deallocate() }
        limbs.withUnsafeBufferPointer { n in
            result.withUnsafeMutableBufferPointer { x in
                let top = bitCount - 1
                x[top / 64] = 1 << UInt64(top % 64)
                for _ in 0..<(totalBits + a - top) {
                    modularDouble(x.baseAddress.unsafelyUnwrapped, n.baseAddress.unsafelyUnwrapped, k)
                }
                for _ in 0..<j {
                    montgomerySquare(
                        x.baseAddress.unsafelyUnwrapped, x.baseAddress.unsafelyUnwrapped,
                        n.baseAddress.unsafelyUnwrapped, negatedInverse, k, scratch
                    )
                }
            }
        }
        return result
    }

    /// x ← 2·x mod n, for x < n.
    private static func modularDouble(_ x: UnsafeMutablePointer<UInt64>, _ n: UnsafePointer<UInt64>, _ k: Int) {
        var carry: UInt64 = 0
        for i in 0..<k {
            let limb = x[i]
            x[i] = (limb << 1) | carry
            carry = limb >> 63
        }
        if carry != 0 || !isLess(UnsafePointer(x), n, k) {
            subtract(x, n, k)
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
    /// and one out of it. No step allocates: the caller passes the workspace.
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
                // Leave the Montgomery domain: x·1·R⁻¹.
                baseM.update(repeating: 0, count: k)
                baseM[0] = 1
                Self.montgomeryMultiply(result, x, baseM, n, n0, k, scratch)
            }
        }
    }

    // MARK: - Limb kernels

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
        t.update(repeating: 0, count: k + 1)
        for i in 0..<k {
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
            while j < k {
                var (h1, l1) = a[j].multipliedFullWidth(by: bi)
                (l1, overflow) = l1.addingReportingOverflow(t[j])
                h1 &+= overflow ? 1 : 0
                (l1, overflow) = l1.addingReportingOverflow(c1)
                h1 &+= overflow ? 1 : 0
                c1 = h1
                var (h2, l2) = m.multipliedFullWidth(by: n[j])
                (l2, overflow) = l2.addingReportingOverflow(l1)
                h2 &+= overflow ? 1 : 0
                (l2, overflow) = l2.addingReportingOverflow(c2)
                h2 &+= overflow ? 1 : 0
                c2 = h2
                t[j - 1] = l2
                j += 1
            }
            // t < 2n < 2R throughout, so the top word is 0 or 1.
            var (top, o1) = t[k].addingReportingOverflow(c1)
            var o2: Bool
            (top, o2) = top.addingReportingOverflow(c2)
            t[k - 1] = top
            t[k] = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
        }
        finalSubtract(r, t, n, k)
    }

    /// r ← a²·R⁻¹ mod n: the square computed with the symmetric products
    /// counted once (k(k−1)/2 word products plus k squares), then a separate
    /// Montgomery reduction (k² products), against 2k² for a multiplication.
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
        t.update(repeating: 0, count: 2 * k + 1)
        var overflow: Bool
        // Off-diagonal products a_i·a_j, i < j, into t.
        var i = 0
        while i < k - 1 {
            let ai = a[i]
            var carry: UInt64 = 0
            var j = i + 1
            while j < k {
                // a·b + t + carry ≤ 2^128 − 1: `high` never wraps.
                var (high, low) = ai.multipliedFullWidth(by: a[j])
                (low, overflow) = low.addingReportingOverflow(t[i + j])
                high &+= overflow ? 1 : 0
                (low, overflow) = low.addingReportingOverflow(carry)
                high &+= overflow ? 1 : 0
                t[i + j] = low
                carry = high
                j += 1
            }
            t[i + k] = carry
            i += 1
        }
        // Double them (a shift by one bit over 2k words) ...
        var shiftedOut: UInt64 = 0
        i = 0
        while i < 2 * k {
            let word = t[i]
            t[i] = (word << 1) | shiftedOut
            shiftedOut = word >> 63
            i += 1
        }
        // ... and add the squares a_i² on the diagonal.
        var carry: UInt64 = 0
        i = 0
        while i < k {
            let (high, low) = a[i].multipliedFullWidth(by: a[i])
            var (sumLow, o1) = t[2 * i].addingReportingOverflow(low)
            var o2: Bool
            (sumLow, o2) = sumLow.addingReportingOverflow(carry)
            t[2 * i] = sumLow
            // At most one of o1, o2 is set (if t + low wrapped, the sum is at
            // most 2^64 − 2 and adding a carry of 1 cannot wrap again), and
            // high ≤ 2^64 − 2, so `highPlus` does not wrap. The second
            // word's sum may carry into the next pair.
            let highPlus = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            var sumHigh: UInt64
            (sumHigh, o1) = t[2 * i + 1].addingReportingOverflow(highPlus)
            t[2 * i + 1] = sumHigh
            carry = o1 ? 1 : 0
            i += 1
        }
        // a² < n² < R·n, so no carry leaves the 2k words.

        // Montgomery reduction of the 2k-word value: k rounds, each adding
        // m·n·2^(64i) to clear word i. The carry out of each round is kept
        // in `pending` and added at word i + k of the next round, so the
        // extra word t[2k] only ever holds the final carry.
        var pending: UInt64 = 0
        i = 0
        while i < k {
            let m = t[i] &* n0  // mod 2^64 by design
            var c: UInt64 = 0
            var j = 0
            while j < k {
                // m·n_j + t + c ≤ 2^128 − 1: `high` never wraps.
                var (high, low) = m.multipliedFullWidth(by: n[j])
                (low, overflow) = low.addingReportingOverflow(t[i + j])
                high &+= overflow ? 1 : 0
                (low, overflow) = low.addingReportingOverflow(c)
                high &+= overflow ? 1 : 0
                t[i + j] = low
                c = high
                j += 1
            }
            var (sum, o1) = t[i + k].addingReportingOverflow(c)
            var o2: Bool
            (sum, o2) = sum.addingReportingOverflow(pending)
            t[i + k] = sum
            pending = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            i += 1
        }
        // The result (a² + M·n)/R < 2n sits in t[k ..< 2k] plus `pending`.
        t[2 * k] = pending
        finalSubtract(r, t + k, n, k)
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

// GF(2²⁵⁵ − 19), the field of Curve25519 and edwards25519 (RFC 7748 §4.1,
// RFC 8032 §5.1), in radix 2⁵¹: five 64-bit limbs, value l₀ + l₁·2⁵¹ + … + l₄·2²⁰⁴.
//
// Why a field of its own beside the generic Montgomery field of the NIST
// curves: 2²⁵⁵ ≡ 19, so a product's limbs at 2²⁵⁵ and up fold back multiplied
// by 19 with no Montgomery reduction, and 51-bit limbs leave 13 bits of room,
// so additions need no carries and the 25 limb products of a multiplication
// (15 for a square) sum without overflow in 128 bits. Measured by tack-bench's
// `x25519`; held to the generic field by the seeded differential test
// `field25519MatchesGenericField` (Tests/TackSignatureTests/X25519Tests.swift).
//
// Bounds. Every operation but the two lazy ones returns a "loose" element: each limb below
// 2⁵¹ + 2¹⁵ (the carries below end with limbs under 2⁵¹ except l₁, which may
// receive one last small carry). Inputs are loose. With limbs below 2^51.01,
// 19·b < 2^55.3, each product < 2^106.4, a sum of five < 2^108.8: the carry
// out of the top limb is below 2⁵⁸ and 19 times it below 2⁶³.
// `addingLazily` and `subtractingLazily` (the X25519 ladder, measured by
// `x25519`: 595,521 → 545,284 instructions a shared secret under callgrind)
// skip the carry pass; their results may only be multiplied or squared, within
// the bound proved at `subtractingLazily`.
//
// Constant time: additions, multiplications, shifts and masks only; no
// branch, no memory index. `inverted` is Fermat's z^(p−2) by a fixed chain of
// squarings and products; `canonicalBytes` reduces below p by a carry and a
// mask, not a comparison.

/// 2⁵¹ − 1.
private let mask51: UInt64 = (1 << 51) - 1

#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
/// The column accumulator of the products: `UInt128` needs macOS 15 / iOS 18
/// at run time, so Apple builds (no deployment target set) keep the two-word sum.
typealias Field25519Column = Field25519WordPair
#else
/// The column accumulator of the products: one `UInt128` (x25519: 556,167 →
/// 507,547 instructions a shared secret under callgrind against the two-word
/// sum, `Field25519WordPair`, which Apple builds keep). The two are held to
/// each other by the seeded test `columnAccumulatorsAgree` (Field25519Tests).
typealias Field25519Column = Field25519Column128
#endif

/// A 128-bit sum of 64 × 64-bit products, as one `UInt128`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Field25519Column128 {
    var value: UInt128

    @inline(__always)
    init(_ a: UInt64, _ b: UInt64) {
        value = UInt128(truncatingIfNeeded: a) &* UInt128(truncatingIfNeeded: b)
    }

    /// Adds a·b (the callers' bounds keep the sum below 2¹²⁸).
    @inline(__always)
    mutating func add(_ a: UInt64, _ b: UInt64) {
        value &+= UInt128(truncatingIfNeeded: a) &* UInt128(truncatingIfNeeded: b)
    }

    /// Adds a 64-bit value.
    @inline(__always)
    mutating func add(_ addend: UInt64) {
        value &+= UInt128(truncatingIfNeeded: addend)
    }

    /// The low 64 bits.
    @inline(__always)
    var low: UInt64 { UInt64(truncatingIfNeeded: value) }

    /// The bits from 2⁵¹ up (the sum is below 2¹¹⁵).
    @inline(__always)
    var carry: UInt64 { UInt64(truncatingIfNeeded: value >> 51) }
}

/// A 128-bit sum of 64 × 64-bit products, as (high, low).
struct Field25519WordPair {
    var low: UInt64
    var high: UInt64

    @inline(__always)
    init(_ a: UInt64, _ b: UInt64) {
        (high, low) = a.multipliedFullWidth(by: b)
    }

    /// Adds a·b (the callers' bounds keep the sum below 2¹²⁸).
    @inline(__always)
    mutating func add(_ a: UInt64, _ b: UInt64) {
        let (productHigh, productLow) = a.multipliedFullWidth(by: b)
        let (sum, carry) = low.addingReportingOverflow(productLow)
        low = sum
        high = high &+ productHigh &+ UInt64(unsafeBitCast(carry, to: UInt8.self))
    }

    /// Adds a 64-bit value.
    @inline(__always)
    mutating func add(_ value: UInt64) {
        let (sum, carry) = low.addingReportingOverflow(value)
        low = sum
        high = high &+ UInt64(unsafeBitCast(carry, to: UInt8.self))
    }

    /// The bits from 2⁵¹ up (the sum is below 2¹¹⁵).
    @inline(__always)
    var carry: UInt64 { (high << 13) | (low >> 51) }
}

/// The accumulator of this file's products.
private typealias Wide = Field25519Column

/// An element of GF(2²⁵⁵ − 19) in five 51-bit limbs (loose: see the top of the file).
struct Field25519: Sendable {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64
    var l4: UInt64

    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4) = (l0, l1, l2, l3, l4)
    }

    static var zero: Field25519 { Field25519(0, 0, 0, 0, 0) }
    static var one: Field25519 { Field25519(1, 0, 0, 0, 0) }

    /// The element for a small integer.
    init(small value: UInt64) {
        self.init(value & mask51, value >> 51, 0, 0, 0)
    }

    /// The element for an integer below 2²⁵⁶ given as four little-endian 64-bit
    /// words; bit 255 is ignored (callers clear or reject it), the rest may
    /// exceed p (it is reduced as it is used).
    init(words w: ECLimbs4) {
        self.init(
            w[0] & mask51, ((w[0] >> 51) | (w[1] << 13)) & mask51, ((w[1] >> 38) | (w[2] << 26)) & mask51,
            ((w[2] >> 25) | (w[3] << 39)) & mask51, (w[3] >> 12) & mask51)
    }

    /// The element for 32 little-endian bytes, bit 255 ignored.
    init(littleEndianBytes bytes: [UInt8]) {
        var words = ECLimbs4()
        for index in 0..<min(32, bytes.count) {
            words[index >> 3] |= UInt64(bytes[index]) << UInt64(8 * (index & 7))
        }
        self.init(words: words)
    }

    /// Carries each limb's bits from 2⁵¹ up into the next, the top limb's into
    /// l₀ times 19 (2²⁵⁵ ≡ 19). Limbs below 2⁶³ on entry; loose on exit.
    @inline(__always)
    private static func carried(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) -> Field25519 {
        var (l0, l1, l2, l3, l4) = (l0, l1, l2, l3, l4)
        l1 &+= l0 >> 51; l0 &= mask51
        l2 &+= l1 >> 51; l1 &= mask51
        l3 &+= l2 >> 51; l2 &= mask51
        l4 &+= l3 >> 51; l3 &= mask51
        l0 &+= 19 &* (l4 >> 51); l4 &= mask51
        l1 &+= l0 >> 51; l0 &= mask51
        return Field25519(l0, l1, l2, l3, l4)
    }

    /// The five 128-bit column sums of a product, carried and folded.
    @inline(__always)
    private static func carried(_ r0: Wide, _ r1: Wide, _ r2: Wide, _ r3: Wide, _ r4: Wide) -> Field25519 {
        var (r1, r2, r3, r4) = (r1, r2, r3, r4)
        let l0 = r0.low & mask51
        r1.add(r0.carry)
        let l1 = r1.low & mask51
        r2.add(r1.carry)
        let l2 = r2.low & mask51
        r3.add(r2.carry)
        let l3 = r3.low & mask51
        r4.add(r3.carry)
        let l4 = r4.low & mask51
        let top = r4.carry  // < 2⁵⁸
        var low = l0 &+ 19 &* top
        let high = l1 &+ (low >> 51)
        low &= mask51
        return Field25519(low, high, l2, l3, l4)
    }

    @inline(__always)
    static func + (a: Field25519, b: Field25519) -> Field25519 {
        carried(a.l0 &+ b.l0, a.l1 &+ b.l1, a.l2 &+ b.l2, a.l3 &+ b.l3, a.l4 &+ b.l4)
    }

    /// a − b as a + 4p − b (4p's limbs exceed any loose limb, so nothing wraps).
    @inline(__always)
    static func - (a: Field25519, b: Field25519) -> Field25519 {
        let low: UInt64 = (1 << 53) - 76, other: UInt64 = (1 << 53) - 4
        return carried(
            a.l0 &+ low &- b.l0, a.l1 &+ other &- b.l1, a.l2 &+ other &- b.l2, a.l3 &+ other &- b.l3,
            a.l4 &+ other &- b.l4)
    }

    /// a + b without the carry pass, for the X25519 ladder: limbs below
    /// 2⁵² + 2¹⁶ from loose inputs. Such an element may only be multiplied or
    /// squared (within the bound given at `subtractingLazily`), never added to again.
    @inline(__always)
    func addingLazily(_ b: Field25519) -> Field25519 {
        Field25519(l0 &+ b.l0, l1 &+ b.l1, l2 &+ b.l2, l3 &+ b.l3, l4 &+ b.l4)
    }

    /// a − b as a + 4p − b without the carry pass, for the X25519 ladder:
    /// limbs below 2⁵³ + 2⁵¹ + 2¹⁵ < 2^53.33 from loose inputs (4p's limbs,
    /// 2⁵³ − 76 and 2⁵³ − 4, exceed any loose limb, so nothing wraps). May
    /// only be multiplied or squared, never added to again.
    ///
    /// The bound that makes this safe: for factors with limbs
    /// below 2^A and 2^B, column 4 of the product sums five products below
    /// 2^(A+B) and column 0 at most 77 (1 + 4·19), so with A + B ≤ 108.4 every
    /// column stays below 2¹¹⁵ (`Field25519Column.carry` takes the bits from 2⁵¹ of a sum
    /// below 2¹¹⁵), the carry out of the top limb is below 5·2^(A+B−51)·(1 + 2⁻⁴⁰)
    /// < 2^59.72, and 19 times it plus a 51-bit limb stays below 2⁶⁴. The ladder
    /// multiplies at most a lazy difference by a lazy difference (A + B < 106.7),
    /// a lazy difference by a lazy sum (< 105.4), or either by a loose element.
    @inline(__always)
    func subtractingLazily(_ b: Field25519) -> Field25519 {
        let low: UInt64 = (1 << 53) - 76, other: UInt64 = (1 << 53) - 4
        return Field25519(l0 &+ low &- b.l0, l1 &+ other &- b.l1, l2 &+ other &- b.l2, l3 &+ other &- b.l3, l4 &+ other &- b.l4)
    }

    /// −a.
    @inline(__always)
    var negated: Field25519 { Field25519.zero - self }

    @inline(__always)
    static func * (a: Field25519, b: Field25519) -> Field25519 {
        let b1 = 19 &* b.l1, b2 = 19 &* b.l2, b3 = 19 &* b.l3, b4 = 19 &* b.l4
        var r0 = Wide(a.l0, b.l0); r0.add(a.l1, b4); r0.add(a.l2, b3); r0.add(a.l3, b2); r0.add(a.l4, b1)
        var r1 = Wide(a.l0, b.l1); r1.add(a.l1, b.l0); r1.add(a.l2, b4); r1.add(a.l3, b3); r1.add(a.l4, b2)
        var r2 = Wide(a.l0, b.l2); r2.add(a.l1, b.l1); r2.add(a.l2, b.l0); r2.add(a.l3, b4); r2.add(a.l4, b3)
        var r3 = Wide(a.l0, b.l3); r3.add(a.l1, b.l2); r3.add(a.l2, b.l1); r3.add(a.l3, b.l0); r3.add(a.l4, b4)
        var r4 = Wide(a.l0, b.l4); r4.add(a.l1, b.l3); r4.add(a.l2, b.l2); r4.add(a.l3, b.l1); r4.add(a.l4, b.l0)
        return carried(r0, r1, r2, r3, r4)
    }

    /// a² (15 limb products instead of 25).
    @inline(__always)
    func squared() -> Field25519 {
        let d0 = 2 &* l0, d1 = 2 &* l1, d2 = 2 &* l2, d3 = 2 &* l3
        let t3 = 19 &* l3, t4 = 19 &* l4
        var r0 = Wide(l0, l0); r0.add(d1, t4); r0.add(d2, t3)
        var r1 = Wide(d0, l1); r1.add(d2, t4); r1.add(l3, t3)
        var r2 = Wide(d0, l2); r2.add(l1, l1); r2.add(d3, t4)
        var r3 = Wide(d0, l3); r3.add(d1, l2); r3.add(l4, t4)
        var r4 = Wide(d0, l4); r4.add(d1, l3); r4.add(l2, l2)
        return Field25519.carried(r0, r1, r2, r3, r4)
    }

    /// a^(2ⁿ): n squarings.
    @inline(__always)
    func squared(times n: Int) -> Field25519 {
        var x = self
        for _ in 0..<n { x = x.squared() }
        return x
    }

    /// a·k for a small constant k < 2¹⁷ (121665 in the X25519 ladder).
    @inline(__always)
    func multiplied(bySmall k: UInt64) -> Field25519 {
        let r0 = Wide(l0, k), r1 = Wide(l1, k), r2 = Wide(l2, k), r3 = Wide(l3, k), r4 = Wide(l4, k)
        return Field25519.carried(r0, r1, r2, r3, r4)
    }

    /// (z^(2²⁵⁰ − 1), z¹¹): the common part of the two exponentiations below,
    /// by the usual chain of 2ᵏ − 1 powers (exponents are public constants).
    private func power2250Minus1() -> (Field25519, Field25519) {
        let z2 = squared()
        let z9 = self * z2.squared(times: 2)
        let z11 = z2 * z9
        let z5 = z9 * z11.squared()  // 2⁵ − 1
        let z10 = z5.squared(times: 5) * z5
        let z20 = z10.squared(times: 10) * z10
        let z40 = z20.squared(times: 20) * z20
        let z50 = z40.squared(times: 10) * z10
        let z100 = z50.squared(times: 50) * z50
        let z200 = z100.squared(times: 100) * z100
        let z250 = z200.squared(times: 50) * z50
        return (z250, z11)
    }

    /// z^(p − 2) = z^(2²⁵⁵ − 21), z⁻¹ for z ≠ 0 (0 gives 0), by a fixed chain.
    func inverted() -> Field25519 {
        let (z250, z11) = power2250Minus1()
        return z250.squared(times: 5) * z11
    }

    /// z^((p − 5)/8) = z^(2²⁵² − 3), the square-root exponent of RFC 8032 §5.1.3.
    func powerPMinus5Over8() -> Field25519 {
        let (z250, _) = power2250Minus1()
        return z250.squared(times: 2) * self
    }

    /// The value reduced below p, as four little-endian 64-bit words.
    var canonicalWords: ECLimbs4 {
        // Two carry passes: every limb below 2⁵¹, the value below 2²⁵⁵.
        var x = Field25519.carried(l0, l1, l2, l3, l4)
        x = Field25519.carried(x.l0, x.l1, x.l2, x.l3, x.l4)
        // q = 1 exactly when x ≥ p (x + 19 reaches 2²⁵⁵).
        var q = (x.l0 &+ 19) >> 51
        q = (x.l1 &+ q) >> 51
        q = (x.l2 &+ q) >> 51
        q = (x.l3 &+ q) >> 51
        q = (x.l4 &+ q) >> 51
        // x + 19q − 2²⁵⁵q: add, carry, drop bit 255.
        var l0 = x.l0 &+ 19 &* q
        var l1 = x.l1 &+ (l0 >> 51); l0 &= mask51
        var l2 = x.l2 &+ (l1 >> 51); l1 &= mask51
        var l3 = x.l3 &+ (l2 >> 51); l2 &= mask51
        var l4 = x.l4 &+ (l3 >> 51); l3 &= mask51
        l4 &= mask51
        var words = ECLimbs4()
        words[0] = l0 | (l1 << 51)
        words[1] = (l1 >> 13) | (l2 << 38)
        words[2] = (l2 >> 26) | (l3 << 25)
        words[3] = (l3 >> 39) | (l4 << 12)
        return words
    }

    /// The value reduced below p, 32 little-endian bytes.
    var canonicalBytes: [UInt8] { canonicalWords.littleEndianBytes(count: 32) }

    /// Whether the value is 0 mod p: one OR over the canonical words, then the (public) verdict.
    var isZero: Bool {
        let w = canonicalWords
        return (w[0] | w[1] | w[2] | w[3]) == 0
    }

    /// Bit 0 of the canonical value (the "sign" of RFC 8032 §5.1.2).
    var isOdd: UInt64 { canonicalWords[0] & 1 }

    /// Returns `other` where `mask` is all ones, `self` where it is zero; no branch.
    @inline(__always)
    func selecting(_ other: Field25519, mask: UInt64) -> Field25519 {
        Field25519(
            l0 ^ (mask & (l0 ^ other.l0)), l1 ^ (mask & (l1 ^ other.l1)), l2 ^ (mask & (l2 ^ other.l2)),
            l3 ^ (mask & (l3 ^ other.l3)), l4 ^ (mask & (l4 ^ other.l4)))
    }

    /// Swaps `a` and `b` when `mask` is all ones, leaves them when it is zero;
    /// the same XORs either way (RFC 7748 §5 cswap).
    @inline(__always)
    static func conditionalSwap(_ a: inout Field25519, _ b: inout Field25519, mask: UInt64) {
        let t0 = mask & (a.l0 ^ b.l0), t1 = mask & (a.l1 ^ b.l1), t2 = mask & (a.l2 ^ b.l2)
        let t3 = mask & (a.l3 ^ b.l3), t4 = mask & (a.l4 ^ b.l4)
        a.l0 ^= t0; a.l1 ^= t1; a.l2 ^= t2; a.l3 ^= t3; a.l4 ^= t4
        b.l0 ^= t0; b.l1 ^= t1; b.l2 ^= t2; b.l3 ^= t3; b.l4 ^= t4
    }
}

extension Field25519: Equatable {
    /// Equality of the values mod p (canonical words compared). Used on public values only.
    static func == (a: Field25519, b: Field25519) -> Bool {
        a.canonicalWords == b.canonicalWords
    }
}

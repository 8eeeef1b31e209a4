#!/usr/bin/env python3
"""Generate Sources/TackSignature/ECLimbArithmetic.swift.

Straight-line (fully unrolled) modular arithmetic for the inline limb types
ECLimbs4, ECLimbs6 and ECLimbs9: Montgomery multiplication (CIOS), modular
addition, subtraction and halving. Written out by this script rather than as generic
loops because the optimiser keeps generic limb loops rolled, spills the tuple
to memory and turns carries into unpredictable branches (about 8x slower when
measured on P-256); unrolled, every limb lives in a register and carries
compile to add-with-carry.

    python3 scripts/generate-ec-limb-arithmetic.py > Sources/TackSignature/ECLimbArithmetic.swift
"""

SIZES = {4: "256 bits: P-256, Ed25519", 6: "384 bits: P-384", 9: "576 bits: P-521"}


def unpack(w, name, count):
    """`let (x0, …, x{count-1}) = x.storage`: a value's limbs as locals."""
    w("        let (" + ", ".join(f"{name}{i}" for i in range(count)) + f") = {name}.storage")


def emit_montgomery_body(w, n, constants=None):
    """The unrolled CIOS body; with `constants` (modulus limbs, −m⁻¹ mod 2⁶⁴)
    the modulus is a literal, so the optimiser drops products by zero limbs and
    by a unit −m⁻¹."""
    idx = range(n)
    unpack(w, "a", n)
    unpack(w, "b", n)
    if constants:
        limbs, inverse = constants
        w("        let (" + ", ".join(f"m{i}" for i in idx) + "): (" + ", ".join(["UInt64"] * n) + ") = (")
        w("            " + ", ".join("0x%016x" % l for l in limbs))
        w("        )")
        w("        let negativeInverse: UInt64 = 0x%x" % inverse)
        w("        let m = ECLimbs%d((" % n + ", ".join(f"m{i}" for i in idx) + "))")
    else:
        unpack(w, "m", n)
    w("        var " + ", ".join(f"t{i}: UInt64 = 0" for i in range(n + 1)))
    w("        var carry: UInt64 = 0")
    w("        var q: UInt64 = 0")
    w("        var top: UInt64 = 0")
    w("        var discard: UInt64 = 0")
    for i in idx:
        w(f"        // Round {i}: t += a·b{i}, then t = (t + q·m) / 2⁶⁴ with q clearing limb 0.")
        w("        carry = 0")
        for j in idx:
            w(f"        (t{j}, carry) = ecMultiplyAdd(a{j}, b{i}, t{j}, carry)")
        w(f"        (t{n}, top) = ecAdd(t{n}, carry)")
        w("        q = t0 &* negativeInverse  // mod 2⁶⁴ by design")
        w("        (discard, carry) = ecMultiplyAdd(q, m0, t0, 0)")
        for j in range(1, n):
            w(f"        (t{j - 1}, carry) = ecMultiplyAdd(q, m{j}, t{j}, carry)")
        w(f"        (t{n - 1}, carry) = ecAdd(t{n}, carry)")
        w(f"        t{n} = top &+ carry  // at most 1: t < 2m throughout")
    w("        _ = discard")
    w("        // t < 2m: subtract m unless that borrows past the spare word.")
    w("        return ecSelectReduced((" + ", ".join(f"t{i}" for i in idx) + f"), extra: t{n}, modulus: m.storage)")


P256_PRIME = 2**256 - 2**224 + 2**192 + 2**96 - 1

# The P-256 product and square: inlined into the point formulas on 64-bit targets,
# called and compiled for speed on 32-bit ones (the comment emitted above
# ecP256MontgomeryMultiply says why).
P256_INLINING = [
    "#if _pointerBitWidth(_32)",
    "@inline(never) @_optimize(speed)",
    "#else",
    "@inline(__always)",
    "#endif",
]
P256_TOP = (P256_PRIME >> 192) & (2**64 - 1)  # 0xffffffff00000001

# The modular addition, subtraction and halving: inlined on 64-bit targets, where each
# is a few carry-chained instructions per limb; one called function per limb type on
# 32-bit ones, where every 64-bit limb operation is a pair of carry-chained words and the
# inlined copies (six to twelve per point formula) were most of the P-256 point code
# in the Cortex-M4 pinning image (issue 36; figures in Tests/BareMetal/README.md,
# "Linking for size"). A call is a few instructions against the body's forty-odd.
LINEAR_INLINING = [
    "    #if _pointerBitWidth(_32)",
    "    @inline(never)",
    "    #else",
    "    @inline(__always)",
    "    #endif",
]


def emit_p256_reduction_round(w, source_top, pending):
    """One Montgomery reduction round modulo the P-256 prime on the window
    (t0, t1, t2, t3) plus the word `source_top` above it: adds q·p with
    q = t0 (−p⁻¹ ≡ 1 mod 2⁶⁴) and shifts down one word."""
    w("        q = t0")
    w("        (t0, carry) = ecAdd(t1, q << 32)")
    w("        (t1, carry) = ecAddWithCarry(t2, q >> 32, carry)")
    w("        (high, low) = q.multipliedFullWidth(by: 0x%016x)" % P256_TOP)
    w("        (t2, carry) = ecAddWithCarry(t3, low, carry)")
    extra = " &+ pending" if pending else ""
    w(f"        (t3, carry) = ecAdd({source_top}, high &+ carry{extra})  // high ≤ 2⁶⁴ − 2³², so high + 2 cannot wrap")


P256_ROUND_COMMENT = """        // Reduction: q = t0, since −p⁻¹ ≡ 1 (mod 2⁶⁴). Adding q·p clears t0 and
        // needs one product: q·(2⁶⁴ − 1) + t0 = q·2⁶⁴ carries q into the next
        // word, where q·(2³² − 1) + q = q·2³² is a shift; p's third limb is
        // zero; only its top limb 2⁶⁴ − 2³² + 1 is multiplied."""


def emit_p256():
    L = []
    w = L.append
    pl = ", ".join("0x%016x" % ((P256_PRIME >> (64 * i)) & (2**64 - 1)) for i in range(4))
    w("    /// The Montgomery product modulo the P-256 prime")
    w("    /// p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1 (FIPS 186-4 §D.2.3): CIOS as in")
    w("    /// `montgomeryProduct`, but each reduction round costs one word product")
    w("    /// instead of four, because −p⁻¹ mod 2⁶⁴ = 1 and p's low limbs are")
    w("    /// 2⁶⁴ − 1, 2³² − 1 and 0 (shifts, not products). 20 word products")
    w("    /// against 32. Same contract: a·b < 2²⁵⁶·p; result < p.")
    w("    ///")
    w("    /// Inlined into the point formulas on 64-bit targets, unlike the generic")
    w("    /// products: a call costs about 25 of its 210 instructions (arguments")
    w("    /// spilled, registers saved), and verify-p256 makes some 3,300 field")
    w("    /// products. On 32-bit targets each 64-bit word product is several")
    w("    /// instructions, and the copies inlined at -Osize were most of the P-256")
    w("    /// point formulas' flash (issue 36: the Cortex-M4 pinning image), where")
    w("    /// the machine outliner also cut the products into shared fragments; there")
    w("    /// it is one function, called, and compiled for speed (`@_optimize(speed)`:")
    w("    /// no `minsize`, so not outlined): the pinning image 16.6 KB smaller and its")
    w("    /// P-256 verdict 7.92 M -> 6.60 M instructions (`scripts/baremetal-check.sh`). A")
    w("    /// free function, not a static method: the function-signature")
    w("    /// specialisation that drops a static method's unused metatype drops the")
    w("    /// `@_optimize` attribute with it.")
    for line in P256_INLINING:
        w("    " + line)
    w("    func ecP256MontgomeryMultiply(_ a: ECLimbs4, _ b: ECLimbs4) -> ECLimbs4 {")
    unpack(w, "a", 4)
    unpack(w, "b", 4)
    w("        var t0: UInt64 = 0, t1: UInt64 = 0, t2: UInt64 = 0, t3: UInt64 = 0, t4: UInt64 = 0")
    w("        var carry: UInt64 = 0")
    w("        var top: UInt64 = 0")
    w("        var q: UInt64 = 0")
    w("        var high: UInt64 = 0")
    w("        var low: UInt64 = 0")
    for i in range(4):
        w(f"        // Round {i}: t += a·b{i}, then t = (t + q·p) / 2⁶⁴.")
        w("        carry = 0")
        for j in range(4):
            w(f"        (t{j}, carry) = ecMultiplyAdd(a{j}, b{i}, t{j}, carry)")
        w("        (t4, top) = ecAdd(t4, carry)")
        if i == 0:
            w(P256_ROUND_COMMENT)
        emit_p256_reduction_round(w, "t4", False)
        w("        t4 = top &+ carry  // at most 1: t < 2p throughout")
    w("        _ = (q, high, low)")
    w("        return ecSelectReduced((t0, t1, t2, t3), extra: t4, modulus: (%s))" % pl)
    w("    }")
    w("")
    w("    /// a²·2⁻²⁵⁶ mod p for the P-256 prime and a < p: the square with each")
    w("    /// cross product computed once (6 + 4 word products), then four")
    w("    /// reduction rounds of one product each, 14 in all against 20 for")
    w("    /// `ecP256MontgomeryMultiply(a, a)`. Inlined, or called, as the product is.")
    for line in P256_INLINING:
        w("    " + line)
    w("    func ecP256MontgomerySquare(_ a: ECLimbs4) -> ECLimbs4 {")
    unpack(w, "a", 4)
    w("        var carry: UInt64 = 0")
    w("        var high: UInt64 = 0")
    w("        var low: UInt64 = 0")
    w("        // Cross products a_i·a_j, i < j, into r1 … r6.")
    w("        var r1: UInt64 = 0, r2: UInt64 = 0, r3: UInt64 = 0, r4: UInt64 = 0, r5: UInt64 = 0, r6: UInt64 = 0")
    w("        (r1, carry) = ecMultiplyAdd(a0, a1, 0, 0)")
    w("        (r2, carry) = ecMultiplyAdd(a0, a2, 0, carry)")
    w("        (r3, r4) = ecMultiplyAdd(a0, a3, 0, carry)")
    w("        (r3, carry) = ecMultiplyAdd(a1, a2, r3, 0)")
    w("        (r4, r5) = ecMultiplyAdd(a1, a3, r4, carry)")
    w("        (r5, r6) = ecMultiplyAdd(a2, a3, r5, 0)")
    w("        // Doubled (the sum is below 2⁵¹², so r7 takes the bit shifted out) ...")
    w("        let r7 = r6 >> 63")
    w("        r6 = (r6 << 1) | (r5 >> 63)")
    w("        r5 = (r5 << 1) | (r4 >> 63)")
    w("        r4 = (r4 << 1) | (r3 >> 63)")
    w("        r3 = (r3 << 1) | (r2 >> 63)")
    w("        r2 = (r2 << 1) | (r1 >> 63)")
    w("        r1 = r1 << 1")
    w("        // ... plus the squares a_i² on the diagonal.")
    w("        let (square0High, r0) = a0.multipliedFullWidth(by: a0)")
    w("        (r1, carry) = ecAdd(r1, square0High)")
    w("        (high, low) = a1.multipliedFullWidth(by: a1)")
    w("        (r2, carry) = ecAddWithCarry(r2, low, carry)")
    w("        (r3, carry) = ecAddWithCarry(r3, high, carry)")
    w("        (high, low) = a2.multipliedFullWidth(by: a2)")
    w("        (r4, carry) = ecAddWithCarry(r4, low, carry)")
    w("        (r5, carry) = ecAddWithCarry(r5, high, carry)")
    w("        (high, low) = a3.multipliedFullWidth(by: a3)")
    w("        (r6, carry) = ecAddWithCarry(r6, low, carry)")
    w("        let r7Sum = r7 &+ high &+ carry  // a² < 2⁵¹²: no carry out of the top word")
    w("        // Four reduction rounds over the window t0 … t3; the carry out of")
    w("        // the word above the window is pending into the next source word.")
    w("        var t0 = r0, t1 = r1, t2 = r2, t3 = r3")
    w("        var q: UInt64 = 0")
    w("        var pending: UInt64 = 0")
    w(P256_ROUND_COMMENT)
    for i, src in enumerate(["r4", "r5", "r6", "r7Sum"]):
        emit_p256_reduction_round(w, src, i > 0)
        w("        pending = carry")
    w("        _ = q")
    w("        // (a² + Q·p) / 2²⁵⁶ < 2p: subtract p unless that borrows past `pending`.")
    w("        return ecSelectReduced((t0, t1, t2, t3), extra: pending, modulus: (%s))" % pl)
    w("    }")
    w("")
    # File-level functions: written at a method's indentation above, moved out here.
    return "\n".join(line[4:] if line.startswith("    ") else line for line in L)


P521_MASK = 0x1FF  # the 9 bits of p = 2⁵²¹ − 1 in limb 8


def emit_p521():
    """Montgomery products modulo p = 2⁵²¹ − 1 with R = 2⁵⁷⁶: since 2⁵²¹ ≡ 1,
    a·b·R⁻¹ ≡ a·b·2⁻⁵⁵, so the routine multiplies (Comba), folds the
    product's high part onto its low part (Mersenne reduction) and rotates
    the 521-bit result right by 55 bits."""
    L = []
    w = L.append
    n = 9
    w("    /// a·b·2⁻⁵⁷⁶ mod p for p = 2⁵²¹ − 1 (FIPS 186-4 §D.2.5), the Montgomery")
    w("    /// product of `montgomeryProduct` by another route: because")
    w("    /// 2⁵²¹ ≡ 1 (mod p), 2⁻⁵⁷⁶ ≡ 2⁻⁵⁵, so the product (81 word products,")
    w("    /// column by column) is reduced by folding its bits above 2⁵²¹ onto the")
    w("    /// low ones and rotated right by 55 bits; no reduction products at all,")
    w("    /// against 81 for the generic one. Same contract: a·b < 2⁵⁷⁶·p;")
    w("    /// result < p.")
    w("    @inline(never)")
    w("    static func p521MontgomeryMultiply(_ a: Self, _ b: Self) -> Self {")
    unpack(w, "a", n)
    unpack(w, "b", n)
    w("        var high: UInt64 = 0")
    w("        var low: UInt64 = 0")
    w("        var carry: UInt64 = 0")
    w("        // Column sums into a three-word accumulator (at most nine 128-bit")
    w("        // products per column: below 2¹³², so `c2` never wraps).")
    w("        var c0: UInt64 = 0, c1: UInt64 = 0, c2: UInt64 = 0")
    for k in range(2 * n - 1):
        for i in range(max(0, k - n + 1), min(k, n - 1) + 1):
            j = k - i
            w(f"        (high, low) = a{i}.multipliedFullWidth(by: b{j})")
            w("        (c0, carry) = ecAdd(c0, low)")
            w("        (c1, carry) = ecAddWithCarry(c1, high, carry)")
            w("        c2 &+= carry")
        w(f"        let r{k} = c0")
        w("        (c0, c1, c2) = (c1, c2, 0)")
    w(f"        let r{2 * n - 1} = c0  // a·b < 2¹¹⁵²: c1 is zero here")
    w("        _ = c1")
    w("        return p521Reduce(" + ", ".join(f"r{i}" for i in range(2 * n)) + ")")
    w("    }")
    w("")
    w("    /// a²·2⁻⁵⁷⁶ mod p for p = 2⁵²¹ − 1 and a < p: the cross products once")
    w("    /// (36 word products), doubled, plus the 9 squares; then as")
    w("    /// `p521MontgomeryMultiply`.")
    w("    @inline(never)")
    w("    static func p521MontgomerySquare(_ a: Self) -> Self {")
    unpack(w, "a", n)
    w("        var high: UInt64 = 0")
    w("        var low: UInt64 = 0")
    w("        var carry: UInt64 = 0")
    w("        var c0: UInt64 = 0, c1: UInt64 = 0, c2: UInt64 = 0")
    w("        // Cross products a_i·a_j, i < j, column by column.")
    w("        var r0: UInt64 = 0")
    for k in range(1, 2 * n - 2):
        for i in range(max(0, k - n + 1), min(k, n - 1) + 1):
            j = k - i
            if i >= j:
                continue
            w(f"        (high, low) = a{i}.multipliedFullWidth(by: a{j})")
            w("        (c0, carry) = ecAdd(c0, low)")
            w("        (c1, carry) = ecAddWithCarry(c1, high, carry)")
            w("        c2 &+= carry")
        w(f"        var r{k} = c0")
        w("        (c0, c1, c2) = (c1, c2, 0)")
    w(f"        var r{2 * n - 2} = c0")
    w("        _ = c1")
    w("        // Doubled: a shift left by one bit over 18 words (the cross sum is")
    w("        // below 2¹¹⁵¹) ...")
    w(f"        var r{2 * n - 1} = r{2 * n - 2} >> 63")
    for k in range(2 * n - 2, 0, -1):
        w(f"        r{k} = (r{k} << 1) | (r{k - 1} >> 63)")
    w("        // ... plus the squares a_i² on the diagonal.")
    w("        carry = 0")
    for i in range(n):
        w(f"        (high, low) = a{i}.multipliedFullWidth(by: a{i})")
        w(f"        (r{2 * i}, carry) = ecAddWithCarry(r{2 * i}, low, carry)")
        w(f"        (r{2 * i + 1}, carry) = ecAddWithCarry(r{2 * i + 1}, high, carry)")
    w("        _ = carry  // a² < 2¹¹⁵²: nothing leaves the top word")
    w("        return p521Reduce(" + ", ".join(f"r{i}" for i in range(2 * n)) + ")")
    w("    }")
    w("")
    return "\n".join(L)


def emit_p521_reduce():
    n = 9
    L = []
    w = L.append
    params = ", ".join(f"_ r{i}: UInt64" for i in range(2 * n))
    w("/// t·2⁻⁵⁵ mod (2⁵²¹ − 1), fully reduced, for an 18-word t < 2¹¹⁵².")
    w("///")
    w("/// t = H·2⁵²¹ + L ≡ H + L; H + L < 2⁵⁷⁷, and two more folds of the bits")
    w("/// above 2⁵²¹ leave x ≤ p, with x = p meaning zero. Then x·2⁻⁵⁵ ≡")
    w("/// ⌊x / 2⁵⁵⌋ + (x mod 2⁵⁵)·2⁴⁶⁶ (2⁵²¹ ≡ 1), two disjoint bit ranges below p.")
    w("@inline(__always)")
    w(f"private func p521Reduce({params}) -> ECLimbs9 {{")
    w("    var carry: UInt64 = 0")
    w("    var " + ", ".join(f"s{i}: UInt64 = 0" for i in range(n)))
    w("    // L + H, where H's limb i is bits 521 + 64i … of t.")
    for i in range(n):
        lo = f"(r{i} & 0x1ff)" if i == n - 1 else f"r{i}"
        hi = f"((r{8 + i} >> 9) | (r{9 + i} << 55))"
        w(f"    (s{i}, carry) = ecAddWithCarry({lo}, {hi}, carry)")
    w("    // Fold the bits at 2⁵²¹ and above (at most 56 of them) back in ...")
    w("    var fold = (s8 >> 9) | (carry << 55)")
    w("    s8 &= 0x1ff")
    w("    (s0, carry) = ecAdd(s0, fold)")
    for i in range(1, n):
        w(f"    (s{i}, carry) = ecAddWithCarry(s{i}, 0, carry)")
    w("    // ... and once more: the sum was below 2⁵²¹ + 2⁵⁶, so this fold adds at most 1.")
    w("    fold = s8 >> 9")
    w("    s8 &= 0x1ff")
    w("    (s0, carry) = ecAdd(s0, fold)")
    for i in range(1, n):
        w(f"    (s{i}, carry) = ecAddWithCarry(s{i}, 0, carry)")
    w("    _ = carry")
    w("    // x ≤ p now; x = p is zero.")
    w("    let allOnes = s0 & s1 & s2 & s3 & s4 & s5 & s6 & s7 & (s8 | ~UInt64(0x1ff))")
    w("    let keep = 0 &- ecBit(allOnes != UInt64.max)  // all ones unless x = p")
    for i in range(n):
        w(f"    s{i} &= keep")
    w("    // Rotate right by 55 bits within 521: ⌊x / 2⁵⁵⌋ | (x mod 2⁵⁵)·2⁴⁶⁶,")
    w("    // with 466 = 7·64 + 18.")
    w("    let lowBits = s0 & ((1 << 55) - 1)")
    outs = []
    for i in range(n):
        nxt = f" | (s{i + 1} << 9)" if i + 1 < n else ""
        expr = f"(s{i} >> 55){nxt}"
        if i == 7:
            expr += " | (lowBits << 18)"
        if i == 8:
            expr += " | (lowBits >> 46)"
        outs.append(expr)
    w("    return ECLimbs9((")
    w("        " + ",\n        ".join(outs))
    w("    ))")
    w("}")
    w("")
    return "\n".join(L)


def emit_type(n):
    L = []
    w = L.append
    idx = range(n)
    w(f"extension ECLimbs{n} {{")
    # --- Montgomery multiplication
    w("    /// a·b·2^(−64·limbCount) mod m (Montgomery product, CIOS, unrolled).")
    w("    ///")
    w("    /// Requires a·b < 2^(64·limbCount)·m (true for a, b < m, and for any a")
    w("    /// with b < m); returns a value < m.")
    w("    @inline(never)  // large; inlining it into every point formula only bloats code and compile time")
    w("    static func montgomeryProduct(_ a: Self, _ b: Self, modulus m: Self, negativeInverse: UInt64) -> Self {")
    emit_montgomery_body(w, n)
    w("    }")
    w("")
    if n == 4:
        w("    /// `ecP256MontgomeryMultiply(a, b)`: the Montgomery product modulo the P-256 prime.")
        w("    @inline(__always)")
        w("    static func p256MontgomeryMultiply(_ a: Self, _ b: Self) -> Self { ecP256MontgomeryMultiply(a, b) }")
        w("")
        w("    /// `ecP256MontgomerySquare(a)`: the Montgomery square modulo the P-256 prime.")
        w("    @inline(__always)")
        w("    static func p256MontgomerySquare(_ a: Self) -> Self { ecP256MontgomerySquare(a) }")
        w("")
    if n == 9:
        w(emit_p521())
    # --- modular addition
    w("    /// (a + b) mod m for a, b < m.")
    L.extend(LINEAR_INLINING)
    w("    static func modularAdd(_ a: Self, _ b: Self, modulus m: Self) -> Self {")
    unpack(w, "a", n)
    unpack(w, "b", n)
    w("        var carry: UInt64 = 0")
    w("        var " + ", ".join(f"s{i}: UInt64 = 0" for i in idx))
    for i in idx:
        w(f"        (s{i}, carry) = ecAddWithCarry(a{i}, b{i}, carry)")
    w("        return ecSelectReduced((" + ", ".join(f"s{i}" for i in idx) + "), extra: carry, modulus: m.storage)")
    w("    }")
    w("")
    # --- modular subtraction
    w("    /// (a − b) mod m for a, b < m.")
    L.extend(LINEAR_INLINING)
    w("    static func modularSubtract(_ a: Self, _ b: Self, modulus m: Self) -> Self {")
    unpack(w, "a", n)
    unpack(w, "b", n)
    unpack(w, "m", n)
    w("        var borrow: UInt64 = 0")
    w("        var " + ", ".join(f"d{i}: UInt64 = 0" for i in idx))
    for i in idx:
        w(f"        (d{i}, borrow) = ecSubtractWithBorrow(a{i}, b{i}, borrow)")
    w("        // d + m, always computed, then chosen by a mask when the subtraction borrowed.")
    w("        // Not `d + (m & mask)`: LLVM turned that into a branch on the borrow around the")
    w("        // loads of m (scripts/constant-time-check.sh, ecdh-p256, 2026-12-03); a select")
    w("        // between two computed values compiles to cmov, as in ecSelectReduced.")
    w("        let mask = 0 &- borrow")
    w("        var carry: UInt64 = 0")
    w("        var " + ", ".join(f"e{i}: UInt64 = 0" for i in idx))
    for i in idx:
        w(f"        (e{i}, carry) = ecAddWithCarry(d{i}, m{i}, carry)")
    w("        _ = carry  // cancels the borrow when it is chosen")
    w("        return Self((" + ", ".join(f"(e{i} & mask) | (d{i} & ~mask)" for i in idx) + "))")
    w("    }")
    w("")
    # --- modular halving
    w("    /// a / 2 mod m for a < m and odd m: a >> 1 when a is even, else")
    w("    /// (a + m) >> 1 with the carry of a + m as the top bit; branch-free.")
    L.extend(LINEAR_INLINING)
    w("    static func modularHalve(_ a: Self, modulus m: Self) -> Self {")
    unpack(w, "a", n)
    unpack(w, "m", n)
    w("        let mask = 0 &- (a0 & 1)  // all ones when a is odd")
    w("        var carry: UInt64 = 0")
    w("        var " + ", ".join(f"s{i}: UInt64 = 0" for i in idx))
    for i in idx:
        w(f"        (s{i}, carry) = ecAddWithCarry(a{i}, m{i} & mask, carry)")
    w("        return Self((" + ", ".join(f"(s{i} >> 1) | (s{i + 1} << 63)" for i in range(n - 1)) + f", (s{n - 1} >> 1) | (carry << 63)))")
    w("    }")
    w("}")
    w("")
    # --- select reduced
    tup = "(" + ", ".join(["UInt64"] * n) + ")"
    w("/// Returns t − m if t (with a carry word `extra` above it) is at least m,")
    w("/// else t; branch-free. Requires t + extra·2^(64·limbCount) < 2m.")
    w("@inline(__always)")
    w(f"private func ecSelectReduced(_ t: {tup}, extra: UInt64, modulus m: {tup}) -> ECLimbs{n} {{")
    w("    var borrow: UInt64 = 0")
    w("    var " + ", ".join(f"r{i}: UInt64 = 0" for i in idx))
    for i in idx:
        w(f"    (r{i}, borrow) = ecSubtractWithBorrow(t.{i}, m.{i}, borrow)")
    w("    // Keep t when t − m went negative and no carry word absorbs it.")
    w("    let (_, keepBorrow) = ecSubtractWithBorrow(extra, 0, borrow)")
    w("    let keep = 0 &- keepBorrow  // all ones: keep t")
    w("    return ECLimbs" + str(n) + "((" + ", ".join(f"(t.{i} & keep) | (r{i} & ~keep)" for i in idx) + "))")
    w("}")
    w("")
    return "\n".join(L)


HEADER = '''// GENERATED by scripts/generate-ec-limb-arithmetic.py; do not edit by hand.
//
// Straight-line modular arithmetic on the inline limb types (see the script
// for why it is unrolled). All `&+`, `&-` and `&*` below are limb arithmetic
// whose wrap-around is the intended carry or is proved impossible in a comment.

/// 0 or 1. Written as a bit cast (Bool is one byte holding 0 or 1) rather
/// than `flag ? 1 : 0`, which the optimiser may turn into a branch on a
/// carry, unpredictable by nature: measured 2.5x slower on P-256.
@inline(__always)
func ecBit(_ flag: Bool) -> UInt64 {
    UInt64(unsafeBitCast(flag, to: UInt8.self))
}

/// a·b + t + carry as (low, high); cannot overflow 128 bits because
/// (2⁶⁴ − 1)² + 2·(2⁶⁴ − 1) = 2¹²⁸ − 1.
@inline(__always)
func ecMultiplyAdd(_ a: UInt64, _ b: UInt64, _ t: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
    let (high, low) = a.multipliedFullWidth(by: b)
    let (s1, c1) = low.addingReportingOverflow(t)
    let (s2, c2) = s1.addingReportingOverflow(carry)
    return (s2, high &+ ecBit(c1) &+ ecBit(c2))
}

/// a + b as (sum, carry ∈ {0, 1}).
@inline(__always)
func ecAdd(_ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
    let (s, c) = a.addingReportingOverflow(b)
    return (s, ecBit(c))
}

/// a + b + carry as (sum, carry ∈ {0, 1}) for carry ∈ {0, 1}.
@inline(__always)
func ecAddWithCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
    let (s1, c1) = a.addingReportingOverflow(b)
    let (s2, c2) = s1.addingReportingOverflow(carry)
    return (s2, ecBit(c1) | ecBit(c2))
}

/// a − b − borrow as (difference, borrow ∈ {0, 1}) for borrow ∈ {0, 1}.
@inline(__always)
func ecSubtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
    let (d1, b1) = a.subtractingReportingOverflow(b)
    let (d2, b2) = d1.subtractingReportingOverflow(borrow)
    return (d2, ecBit(b1) | ecBit(b2))
}
'''

def render():
    parts = [HEADER]
    for n in SIZES:
        parts.append(f"// MARK: {n} limbs ({SIZES[n]})\n")
        parts.append(emit_type(n))
        if n == 4:
            parts.append(emit_p256())
    parts.append(emit_p521_reduce())
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    import os
    import sys
    target = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "Sources", "TackSignature", "ECLimbArithmetic.swift")
    if sys.argv[1:] == ["--check"]:
        # What scripts/check.sh runs: the committed file must be this script's output.
        with open(target) as f:
            if f.read() != render():
                print("Sources/TackSignature/ECLimbArithmetic.swift is out of date: run "
                      "python3 scripts/generate-ec-limb-arithmetic.py > Sources/TackSignature/ECLimbArithmetic.swift")
                sys.exit(1)
        sys.exit(0)
    sys.stdout.write(render())

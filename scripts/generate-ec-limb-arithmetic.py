#!/usr/bin/env python3
"""Generate Sources/TackSignature/ECLimbArithmetic.swift.

Straight-line (fully unrolled) modular arithmetic for the inline limb types
ECLimbs4, ECLimbs6 and ECLimbs9: Montgomery multiplication (CIOS), modular
addition and subtraction. Written out by this script rather than as generic
loops because the optimiser keeps generic limb loops rolled, spills the tuple
to memory and turns carries into unpredictable branches (about 8x slower when
measured on P-256); unrolled, every limb lives in a register and carries
compile to add-with-carry.

    python3 scripts/generate-ec-limb-arithmetic.py > Sources/TackSignature/ECLimbArithmetic.swift
"""

SIZES = {4: "256 bits: P-256, Ed25519", 6: "384 bits: P-384", 9: "576 bits: P-521"}


def emit_montgomery_body(w, n, constants=None):
    """The unrolled CIOS body; with `constants` (modulus limbs, −m⁻¹ mod 2⁶⁴)
    the modulus is a literal, so the optimiser drops products by zero limbs and
    by a unit −m⁻¹."""
    idx = range(n)
    w("        let (" + ", ".join(f"a{i}" for i in idx) + ") = a.storage")
    w("        let (" + ", ".join(f"b{i}" for i in idx) + ") = b.storage")
    if constants:
        limbs, inverse = constants
        w("        let (" + ", ".join(f"m{i}" for i in idx) + "): (" + ", ".join(["UInt64"] * n) + ") = (")
        w("            " + ", ".join("0x%016x" % l for l in limbs))
        w("        )")
        w("        let negativeInverse: UInt64 = 0x%x" % inverse)
        w("        let m = ECLimbs%d((" % n + ", ".join(f"m{i}" for i in idx) + "))")
    else:
        w("        let (" + ", ".join(f"m{i}" for i in idx) + ") = m.storage")
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
        w("    /// The Montgomery product modulo the P-256 prime")
        w("    /// p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, whose limbs (one of them zero) and")
        w("    /// −p⁻¹ mod 2⁶⁴ = 1 are literals here, so the optimiser drops a quarter of")
        w("    /// the reduction's products.")
        w("    @inline(never)")
        w("    static func p256MontgomeryMultiply(_ a: Self, _ b: Self) -> Self {")
        limbs = [(P256_PRIME >> (64 * i)) & (2**64 - 1) for i in range(4)]
        emit_montgomery_body(w, n, (limbs, 1))
        w("    }")
        w("")
    # --- modular addition
    w("    /// (a + b) mod m for a, b < m.")
    w("    @inline(__always)")
    w("    static func modularAdd(_ a: Self, _ b: Self, modulus m: Self) -> Self {")
    w("        let (" + ", ".join(f"a{i}" for i in idx) + ") = a.storage")
    w("        let (" + ", ".join(f"b{i}" for i in idx) + ") = b.storage")
    w("        var carry: UInt64 = 0")
    w("        var " + ", ".join(f"s{i}: UInt64 = 0" for i in idx))
    for i in idx:
        w(f"        (s{i}, carry) = ecAddWithCarry(a{i}, b{i}, carry)")
    w("        return ecSelectReduced((" + ", ".join(f"s{i}" for i in idx) + "), extra: carry, modulus: m.storage)")
    w("    }")
    w("")
    # --- modular subtraction
    w("    /// (a − b) mod m for a, b < m.")
    w("    @inline(__always)")
    w("    static func modularSubtract(_ a: Self, _ b: Self, modulus m: Self) -> Self {")
    w("        let (" + ", ".join(f"a{i}" for i in idx) + ") = a.storage")
    w("        let (" + ", ".join(f"b{i}" for i in idx) + ") = b.storage")
    w("        let (" + ", ".join(f"m{i}" for i in idx) + ") = m.storage")
    w("        var borrow: UInt64 = 0")
    w("        var " + ", ".join(f"d{i}: UInt64 = 0" for i in idx))
    for i in idx:
        w(f"        (d{i}, borrow) = ecSubtractWithBorrow(a{i}, b{i}, borrow)")
    w("        // Add m back when the subtraction borrowed (mask is all ones then), without a branch.")
    w("        let mask = 0 &- borrow")
    w("        var carry: UInt64 = 0")
    for i in idx:
        w(f"        (d{i}, carry) = ecAddWithCarry(d{i}, m{i} & mask, carry)")
    w("        _ = carry  // cancels the borrow")
    w("        return Self((" + ", ".join(f"d{i}" for i in idx) + "))")
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

if __name__ == "__main__":
    print(HEADER)
    for n in SIZES:
        print(f"// MARK: {n} limbs ({SIZES[n]})\n")
        print(emit_type(n))

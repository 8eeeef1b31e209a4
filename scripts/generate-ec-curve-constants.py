#!/usr/bin/env python3
"""Generate Sources/TackSignature/ECCurves.swift: every curve constant, precomputed.

The NIST prime curves (SEC 2 v2 §2.4.2, §2.5.1, §2.6.1; FIPS 186-4 §D.1.2.3-5)
and edwards25519 (RFC 8032 §5.1), with what verification needs beyond the
domain parameters: the Montgomery constants of each field and group order
(R mod m, R² mod m, −m⁻¹ mod 2⁶⁴, R = 2^(64·limbs)), b, G, d, 2d and √−1 in
Montgomery form, and the tables of odd multiples of the generator (64 affine
points per NIST curve, 32 cached affine points for edwards25519).

Why constants rather than code run at first use: Embedded Swift inlines all of a
global's initialiser into its one-time initialisation function, whatever the
callees say (@inline(never) included), so deriving the tables there gave LLVM
one function of 70,000 lines of IR per curve, and its IndVarSimplify pass spent
~130 CPU-seconds of a 200-second TackSignature compile for armv7em on them (and
the same again in every module that inlines the curves). As literals the
globals are statically initialised data: no code, no heap, no work at startup,
which firmware wants anyway. Tests/TackSignatureTests/ECCurveConstantsTests
derives every constant again with the Swift field and group arithmetic and
compares.

    python3 scripts/generate-ec-curve-constants.py > Sources/TackSignature/ECCurves.swift
    python3 scripts/generate-ec-curve-constants.py --check   # exit 1 if the file differs
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "Sources" / "TackSignature" / "ECCurves.swift"

# Must equal ECWeierstrassCurve.generatorWindow and Ed25519Curve.baseWindow.
GENERATOR_WINDOW = 8
ED25519_BASE_WINDOW = 7

NIST = [
    # name, limb count, byte count, shape, p, n, b, gx, gy, SEC 2 section
    ("P256", 4, 32, ".p256Prime",
     0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff,
     0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551,
     0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b,
     0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296,
     0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5,
     "P-256 (secp256r1, prime256v1), SEC 2 v2 §2.4.2"),
    ("P384", 6, 48, ".generic",
     2**384 - 2**128 - 2**96 + 2**32 - 1,
     int("ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973", 16),
     int("b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef", 16),
     int("aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7", 16),
     int("3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f", 16),
     "P-384 (secp384r1), SEC 2 v2 §2.5.1"),
    ("P521", 9, 66, ".p521Prime",
     2**521 - 1,
     int("01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409", 16),
     int("0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00", 16),
     int("00c6858e06b70404e9cd9e3ecb662395b4429c648139053fb521f828af606b4d3dbaa14b5e77efe75928fe1dc127a2ffa8de3348b3c1856a429bf97e7e31c2e5bd66", 16),
     int("011839296a789a3bc0045c8a5fb42c7d1bd998f54449579b446817afbd17273e662c97ee72995ef42640c550b9013fad0761353c7086a272c24088be94769fd16650", 16),
     "P-521 (secp521r1), SEC 2 v2 §2.6.1"),
]

ED_P = 2**255 - 19
ED_L = 2**252 + 27742317777372353535851937790883648493
ED_D = (-121665 * pow(121666, -1, ED_P)) % ED_P


def limbs(value, count):
    assert 0 <= value < 1 << (64 * count)
    return [(value >> (64 * i)) & (2**64 - 1) for i in range(count)]


def limb_literal(value, count):
    return f"ECLimbs{count}((" + ", ".join("0x%016x" % l for l in limbs(value, count)) + "))"


def to_montgomery(value, modulus, count):
    return value * (1 << (64 * count)) % modulus


def field_literal(modulus, count, shape, indent):
    r = (1 << (64 * count)) % modulus
    negative_inverse = (-pow(modulus, -1, 2**64)) % 2**64
    pad = " " * indent
    return (
        f"ECMontgomeryField<ECLimbs{count}>(\n"
        f"{pad}    modulus: {limb_literal(modulus, count)},\n"
        f"{pad}    negativeInverse: 0x{negative_inverse:016x},\n"
        f"{pad}    one: {limb_literal(r, count)},\n"
        f"{pad}    rSquared: {limb_literal(r * r % modulus, count)},\n"
        f"{pad}    modulusMinusTwo: {limb_literal(modulus - 2, count)},\n"
        f"{pad}    shape: {shape}\n"
        f"{pad})"
    )


def weierstrass_add(p1, p2, prime):
    """Affine addition on y² = x³ − 3x + b (no point at infinity occurs here)."""
    (x1, y1), (x2, y2) = p1, p2
    if p1 == p2:
        slope = (3 * x1 * x1 - 3) * pow(2 * y1, -1, prime) % prime
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, prime) % prime
    x3 = (slope * slope - x1 - x2) % prime
    return (x3, (slope * (x1 - x3) - y1) % prime)


def edwards_add(p1, p2):
    """Affine addition on −x² + y² = 1 + d·x²·y² (complete)."""
    (x1, y1), (x2, y2) = p1, p2
    t = ED_D * x1 * x2 * y1 * y2 % ED_P
    x3 = (x1 * y2 + y1 * x2) * pow(1 + t, -1, ED_P) % ED_P
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, -1, ED_P) % ED_P
    return (x3, y3)


def ed25519_base():
    """B: y = 4/5, x even (RFC 8032 §5.1)."""
    y = 4 * pow(5, -1, ED_P) % ED_P
    u, v = (y * y - 1) % ED_P, (ED_D * y * y + 1) % ED_P
    x = u * pow(v, 3, ED_P) * pow(u * pow(v, 7, ED_P), (ED_P - 5) // 8, ED_P) % ED_P
    if v * x * x % ED_P != u:
        x = x * pow(2, (ED_P - 1) // 4, ED_P) % ED_P
    assert v * x * x % ED_P == u
    if x & 1:
        x = ED_P - x
    return (x, y)


def generate():
    out = []
    w = out.append
    w("// Generated by scripts/generate-ec-curve-constants.py; do not edit.")
    w("//")
    w("// The curves' domain parameters (SEC 2 v2, FIPS 186-4 §D.1.2; RFC 8032 §5.1)")
    w("// and everything verification derives from them, as literals: Montgomery")
    w("// constants (R = 2^(64·limbs)), Montgomery forms, and the odd multiples of")
    w("// the generator. Each global is statically initialised data: no code runs")
    w("// and nothing is allocated at first use. The generator's docstring says why;")
    w("// ECCurveConstantsTests derives every value again and compares. Limbs are")
    w("// little-endian 64-bit words.")
    for name, count, byte_count, shape, p, n, b, gx, gy, title in NIST:
        assert (gy * gy - (gx ** 3 - 3 * gx + b)) % p == 0
        table = []
        g = (gx, gy)
        two_g = weierstrass_add(g, g, p)
        current = g
        for _ in range(1 << (GENERATOR_WINDOW - 2)):
            table.append(current)
            current = weierstrass_add(current, two_g, p)
        w("")
        if name != "P256":  # the P384 and P521 package traits (Package.swift)
            w(f"#if TACK_{name}")
        w(f"/// {title}.")
        w(f"enum {name} {{")
        w(f"    static let curve = ECWeierstrassCurve<ECLimbs{count}>(")
        w(f"        field: {field_literal(p, count, shape, 8)},")
        w(f"        order: {field_literal(n, count, '.generic', 8)},")
        w(f"        b: {limb_literal(to_montgomery(b, p, count), count)},")
        w(f"        coordinateByteCount: {byte_count},")
        w(f"        orderBitCount: {n.bit_length()},")
        w(f"        squareRootExponent: {limb_literal((p + 1) // 4, count)},")
        # Flat words, x's limbs then y's, point after point: a flat array of integer
        # literals is static data in Embedded Swift, an array of points is code that
        # writes it (ECWeierstrassCurve.generatorWords says more).
        w(f"        generatorWords: [")
        for index, (x, y) in enumerate(table):
            w(f"            // {2 * index + 1}G")
            for value in (x, y):
                words = limbs(to_montgomery(value, p, count), count)
                for start in range(0, count, 4):
                    w("            " + " ".join("0x%016x," % l for l in words[start:start + 4]))
        w("        ]")
        w("    )")
        w("}")
        if name != "P256":
            w("#endif")

    base = ed25519_base()
    two_b = edwards_add(base, base)
    current = base
    mont = lambda v: to_montgomery(v % ED_P, ED_P, 4)
    w("")
    w("extension Ed25519Curve {")
    w("    /// edwards25519 (RFC 8032 §5.1).")
    w("    static let shared = Ed25519Curve(")
    w(f"        field: {field_literal(ED_P, 4, '.generic', 8)},")
    w(f"        order: {field_literal(ED_L, 4, '.generic', 8)},")
    w(f"        d: {limb_literal(mont(ED_D), 4)},")
    w(f"        d2: {limb_literal(mont(2 * ED_D), 4)},")
    w(f"        squareRootOfMinusOne: {limb_literal(mont(pow(2, (ED_P - 1) // 4, ED_P)), 4)},")
    w(f"        squareRootExponent: {limb_literal((ED_P - 5) // 8, 4)},")
    w("        baseTable: [")
    for _ in range(1 << (ED25519_BASE_WINDOW - 2)):
        x, y = current
        w("            Ed25519AffineCachedPoint(")
        w(f"                yPlusX: {limb_literal(mont(y + x), 4)},")
        w(f"                yMinusX: {limb_literal(mont(y - x), 4)},")
        w(f"                t2d: {limb_literal(mont(2 * ED_D * x * y), 4)}),")
        current = edwards_add(current, two_b)
    w("        ]")
    w("    )")
    w("}")
    return "\n".join(out) + "\n"


def main():
    text = generate()
    if sys.argv[1:] == ["--check"]:
        if OUTPUT.read_text() != text:
            print(f"{OUTPUT.relative_to(ROOT)} is not what scripts/generate-ec-curve-constants.py generates; regenerate it")
            return 1
        return 0
    if sys.argv[1:]:
        print(__doc__)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Private keys for TackSignature's PrivateKey tests (PrivateKeyTests).

Writes, beside this script, one file per key and manifest.json. Valid keys come
from Python `cryptography` (PKCS #8, PKCS #1, SEC 1, PEM and DER); their expected
SubjectPublicKeyInfo is what `cryptography` derives. The invalid keys are valid
ones with one field changed, re-encoded by the small DER writer below, each with
the PrivateKeyError code the reader must throw.

    python3 Vectors/private-keys/generate.py
"""
import json
import os
import sys

from cryptography.hazmat.primitives import serialization as s
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, ed448, rsa, x25519, x448

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from derwriter import bits, integer, octets, oid, seq, tlv  # noqa: E402 (Vectors/derwriter.py, shared)

HERE = os.path.dirname(os.path.abspath(__file__))
manifest = []


NULL = b"\x05\x00"
RSA = oid("1.2.840.113549.1.1.1")
ECPK = oid("1.2.840.10045.2.1")
CURVES = {"p256": ("1.2.840.10045.3.1.7", ec.SECP256R1(), 32), "p384": ("1.3.132.0.34", ec.SECP384R1(), 48),
          "p521": ("1.3.132.0.35", ec.SECP521R1(), 66)}
ORDERS = {"p256": 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551}


def pkcs8(algorithm, key, version=0, public=None):
    items = [integer(version), algorithm, octets(key)]
    if public is not None:
        items.append(bits(public, tag=0x81))
    return seq(*items)


def spki_of(private):
    return private.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)


def write(name, data, fmt, algorithm=None, bits_=None, spki=None, checked=True, error=None, pem=False):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    manifest.append({"file": name, "format": fmt, "pem": pem, "algorithm": algorithm, "bits": bits_,
                     "spki": spki.hex() if spki else None, "checked": checked, "error": error})


def rsa_der(n, e, d, p, q, dp, dq, qi, version=0):
    return seq(integer(version), integer(n), integer(e), integer(d), integer(p), integer(q),
               integer(dp), integer(dq), integer(qi))


def ec_der(d_bytes, curve_oid=None, public=None, version=1):
    items = [integer(version), octets(d_bytes)]
    if curve_oid is not None:
        items.append(tlv(0xA0, oid(curve_oid) if isinstance(curve_oid, str) else curve_oid))
    if public is not None:
        items.append(tlv(0xA1, bits(public)))
    return seq(*items)


# --- RSA -------------------------------------------------------------------
for size, exponent in ((2048, 65537), (3072, 3)):
    key = rsa.generate_private_key(exponent, size)
    name = "rsa%d-e%d" % (size, exponent)
    spki = spki_of(key)
    write(name + ".pk8.der", key.private_bytes(s.Encoding.DER, s.PrivateFormat.PKCS8, s.NoEncryption()),
          "pkcs8", "RSA", size, spki)
    write(name + ".pk1.der", key.private_bytes(s.Encoding.DER, s.PrivateFormat.TraditionalOpenSSL, s.NoEncryption()),
          "pkcs1", "RSA", size, spki)
    write(name + ".pk8.pem", key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()),
          "pkcs8", "RSA", size, spki, pem=True)
    write(name + ".pk1.pem", key.private_bytes(s.Encoding.PEM, s.PrivateFormat.TraditionalOpenSSL, s.NoEncryption()),
          "pkcs1", "RSA", size, spki, pem=True)
    if size != 2048:
        continue
    pn = key.private_numbers()
    n, e, d, p, q = pn.public_numbers.n, pn.public_numbers.e, pn.d, pn.p, pn.q
    dp, dq, qi = pn.dmp1, pn.dmq1, pn.iqmp
    bad = {
        "modulus_not_product": rsa_der(n + 2, e, d, p, q, dp, dq, qi),
        "exponent1_mismatch": rsa_der(n, e, d, p, q, dp + 2, dq, qi),
        "exponent2_mismatch": rsa_der(n, e, d, p, q, dp, dq + 2, qi),
        "coefficient_mismatch": rsa_der(n, e, d, p, q, dp, dq, qi + 1),
        "coefficientNotReduced": rsa_der(n, e, d, p, q, dp, dq, qi + p),
        "exponents_not_inverse": rsa_der(n, 65539, d, p, q, dp, dq, qi),
        "prime_not_odd": rsa_der(n, e, d, p + 1, q, dp, dq, qi),
        "zero_component": rsa_der(n, e, 0, p, q, dp, dq, qi),
    }
    codes = {"coefficientNotReduced": "coefficient_mismatch"}
    for label, der in bad.items():
        write("rsa-bad-%s.pk1.der" % label, der, "pkcs1",
              error="private_key.inconsistent_rsa_key." + codes.get(label, label))
    write("rsa-bad-multiprime.pk1.der", rsa_der(n, e, d, p, q, dp, dq, qi, version=1) , "pkcs1",
          error="private_key.multi_prime_rsa")
    write("rsa-bad-exponent-even.pk1.der", rsa_der(n, 65538, d, p, q, dp, dq, qi), "pkcs1",
          error="private_key.invalid_rsa_public_exponent")
    good = rsa_der(n, e, d, p, q, dp, dq, qi)
    write("rsa-bad-params-absent.pk8.der", pkcs8(seq(RSA), good), "pkcs8",
          error="private_key.invalid_algorithm_parameters")
    write("rsa-bad-trailing.pk1.der", good + b"\x00", "pkcs1", error="private_key.der.trailing_data")
    pub = key.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.PKCS1)
    write("rsa-v2-public.pk8.der", pkcs8(seq(RSA, NULL), good, version=1, public=pub), "pkcs8", "RSA", 2048, spki)
    other = rsa.generate_private_key(65537, 2048).public_key().public_bytes(s.Encoding.DER, s.PublicFormat.PKCS1)
    write("rsa-bad-v2-public.pk8.der", pkcs8(seq(RSA, NULL), good, version=1, public=other), "pkcs8",
          error="private_key.public_key_mismatch")
    small = rsa.generate_private_key(65537, 1024)
    write("rsa1024.pk8.der", small.private_bytes(s.Encoding.DER, s.PrivateFormat.PKCS8, s.NoEncryption()),
          "pkcs8", "RSA", 1024, spki_of(small))

# --- EC ----------------------------------------------------------------------
for name, (curve_oid, curve, width) in CURVES.items():
    key = ec.generate_private_key(curve)
    spki = spki_of(key)
    alg = "EC P-" + name[1:]
    bits_ = int(name[1:])
    write("%s.pk8.der" % name, key.private_bytes(s.Encoding.DER, s.PrivateFormat.PKCS8, s.NoEncryption()),
          "pkcs8", alg, bits_, spki)
    write("%s.sec1.der" % name, key.private_bytes(s.Encoding.DER, s.PrivateFormat.TraditionalOpenSSL, s.NoEncryption()),
          "sec1", alg, bits_, spki)
    write("%s.sec1.pem" % name, key.private_bytes(s.Encoding.PEM, s.PrivateFormat.TraditionalOpenSSL, s.NoEncryption()),
          "sec1", alg, bits_, spki, pem=True)
    d = key.private_numbers().private_value.to_bytes(width, "big")
    point = key.public_key().public_bytes(s.Encoding.X962, s.PublicFormat.UncompressedPoint)
    compressed = key.public_key().public_bytes(s.Encoding.X962, s.PublicFormat.CompressedPoint)
    algorithm = seq(ECPK, oid(curve_oid))
    write("%s-nopublic.sec1.der" % name, ec_der(d, curve_oid), "sec1", alg, bits_, spki)
    write("%s-nopublic.pk8.der" % name, pkcs8(algorithm, ec_der(d)), "pkcs8", alg, bits_, spki)
    write("%s-compressed.sec1.der" % name, ec_der(d, curve_oid, compressed), "sec1", alg, bits_, spki)
    if name != "p256":
        continue
    other = ec.generate_private_key(curve).public_key().public_bytes(s.Encoding.X962, s.PublicFormat.UncompressedPoint)
    n = ORDERS["p256"]
    write("ec-bad-public.sec1.der", ec_der(d, curve_oid, other), "sec1", error="private_key.public_key_mismatch")
    write("ec-bad-public-offcurve.sec1.der", ec_der(d, curve_oid, point[:-1] + bytes([point[-1] ^ 1])), "sec1",
          error="private_key.invalid_public_key")
    write("ec-bad-zero.sec1.der", ec_der(bytes(32), curve_oid), "sec1", error="private_key.invalid_private_scalar")
    write("ec-bad-order.sec1.der", ec_der(n.to_bytes(32, "big"), curve_oid), "sec1",
          error="private_key.invalid_private_scalar")
    write("ec-bad-short.sec1.der", ec_der(d[1:], curve_oid), "sec1", error="private_key.invalid_private_scalar")
    write("ec-bad-curve-mismatch.pk8.der", pkcs8(algorithm, ec_der(d, "1.3.132.0.34")), "pkcs8",
          error="private_key.curve_mismatch")
    write("ec-bad-missing-curve.sec1.der", ec_der(d), "sec1", error="private_key.missing_curve")
    write("ec-bad-explicit.pk8.der", pkcs8(seq(ECPK, seq(integer(1))), ec_der(d)), "pkcs8",
          error="private_key.explicit_curve_parameters")
    write("ec-bad-brainpool.pk8.der", pkcs8(seq(ECPK, oid("1.3.36.3.3.2.8.1.1.7")), ec_der(d)), "pkcs8",
          error="private_key.unsupported_curve")
    write("ec-bad-version.sec1.der", ec_der(d, curve_oid, version=2), "sec1", error="private_key.unsupported_version")

# --- RFC 8410 ------------------------------------------------------------------
for name, module, alg, bits_, checked in (("ed25519", ed25519.Ed25519PrivateKey, "Ed25519", 256, True),
                                          ("x25519", x25519.X25519PrivateKey, "X25519", 253, False),
                                          ("ed448", ed448.Ed448PrivateKey, "Ed448", 456, False),
                                          ("x448", x448.X448PrivateKey, "X448", 448, False)):
    key = module.generate()
    spki = spki_of(key)
    der = key.private_bytes(s.Encoding.DER, s.PrivateFormat.PKCS8, s.NoEncryption())
    write("%s.pk8.der" % name, der, "pkcs8", alg, bits_, spki if checked else None, checked=checked)
    raw = key.private_bytes(s.Encoding.Raw, s.PrivateFormat.Raw, s.NoEncryption())
    public = key.public_key().public_bytes(s.Encoding.Raw, s.PublicFormat.Raw)
    algorithm = seq(oid({"ed25519": "1.3.101.112", "x25519": "1.3.101.110", "ed448": "1.3.101.113",
                         "x448": "1.3.101.111"}[name]))
    # OneAsymmetricKey v2 with the public key: an unchecked algorithm's SPKI is the embedded one.
    write("%s-v2.pk8.der" % name, pkcs8(algorithm, octets(raw), version=1, public=public), "pkcs8", alg, bits_, spki,
          checked=checked)
    if name != "ed25519":
        continue
    write("ed25519.pk8.pem", key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()),
          "pkcs8", alg, bits_, spki, pem=True)
    write("ed25519-bad-v2-public.pk8.der", pkcs8(algorithm, octets(raw), version=1, public=bytes(32)), "pkcs8",
          error="private_key.public_key_mismatch")
    write("ed25519-bad-v1-public.pk8.der", pkcs8(algorithm, octets(raw), version=0, public=public), "pkcs8",
          error="private_key.public_key_in_version1")
    write("ed25519-bad-length.pk8.der", pkcs8(algorithm, octets(raw[1:])), "pkcs8", error="private_key.wrong_key_length")
    write("ed25519-bad-params.pk8.der", pkcs8(seq(oid("1.3.101.112"), NULL), octets(raw)), "pkcs8",
          error="private_key.invalid_algorithm_parameters")
    write("ed25519-bad-version.pk8.der", pkcs8(algorithm, octets(raw), version=2), "pkcs8",
          error="private_key.unsupported_version")
    write("bad-unknown-algorithm.pk8.der", pkcs8(seq(oid("1.2.840.10040.4.1")), integer(5)), "pkcs8",
          error="private_key.unknown_algorithm")

with open(os.path.join(HERE, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
print("wrote %d files" % len(manifest))

#!/usr/bin/env python3
"""Writes COUNT certificates as Base64 DER lines, for the tack scan / Spark recipe.

    Benchmarks/spark/generate.py [--count 1000000] [--keys 300] [--seed 11] OUT.b64

KEYS subject keys (a mix of EC P-256, P-384, RSA-2048 and Ed25519, like a web crawl)
each get one certificate signed by one of three CAs, with its own subject, SANs and
validity; every further certificate is one of those templates with a new serial
number written over the template's (same length, so the DER stays well-formed).
The patched certificates' signatures no longer verify: `tack scan` parses and
fingerprints, it does not verify, and signing a million certificates in Python would
take longer than scanning them. Deterministic for a given seed (the keys are not:
they come from the OS generator; the certificates' shape is what matters here).
"""
import argparse
import base64
import datetime
import random
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.serialization import Encoding
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

SERIAL_BYTES = 16  # every template's serial is exactly this long, first octet 0x40..0x7f


def make_key(kind):
    if kind == "p256":
        return ec.generate_private_key(ec.SECP256R1())
    if kind == "p384":
        return ec.generate_private_key(ec.SECP384R1())
    if kind == "rsa":
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return ed25519.Ed25519PrivateKey.generate()


def name(cn, org):
    return x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "FR"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, org),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def serial(rng):
    return int.from_bytes(bytes([rng.randrange(0x40, 0x80)]) + rng.randbytes(SERIAL_BYTES - 1), "big")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("out")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)

    cas = []
    for index, kind in enumerate(["p256", "p384", "rsa"]):
        key = make_key(kind)
        subject = name(f"Spark Example CA {index + 1}", "Tack Spark Example")
        cas.append((key, subject))

    templates = []
    kinds = ["p256"] * 5 + ["p384"] * 2 + ["rsa"] * 2 + ["ed25519"]
    for index in range(args.keys):
        key = make_key(kinds[index % len(kinds)])
        ca_key, ca_name = cas[index % len(cas)]
        host = f"host{index}.example{index % 17}.com"
        not_before = start + datetime.timedelta(days=rng.randrange(0, 365))
        builder = (x509.CertificateBuilder()
                   .subject_name(name(host, f"Example Org {index % 41}"))
                   .issuer_name(ca_name)
                   .public_key(key.public_key())
                   .serial_number(serial(rng))
                   .not_valid_before(not_before)
                   .not_valid_after(not_before + datetime.timedelta(days=rng.choice([90, 200, 397])))
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                   .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
                   .add_extension(x509.SubjectAlternativeName(
                       [x509.DNSName(host), x509.DNSName("www." + host)]
                       + [x509.DNSName(f"alt{j}.{host}") for j in range(rng.randrange(0, 6))]), critical=False))
        algorithm = None if isinstance(ca_key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
        certificate = builder.sign(ca_key, algorithm)
        der = certificate.public_bytes(Encoding.DER)
        encoded = certificate.serial_number.to_bytes(SERIAL_BYTES, "big")
        offset = der.find(b"\x02" + bytes([SERIAL_BYTES]) + encoded)
        assert offset > 0, "serial not found"
        templates.append((bytearray(der), offset + 2))

    with open(args.out, "w") as out:
        for index in range(args.count):
            der, at = templates[index % len(templates)]
            der[at:at + SERIAL_BYTES] = (0x40 << (8 * (SERIAL_BYTES - 1)) | index).to_bytes(SERIAL_BYTES, "big")
            out.write(base64.b64encode(der).decode())
            out.write("\n")
    print(f"generate: {args.count} certificates from {len(templates)} keys -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

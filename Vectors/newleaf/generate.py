#!/usr/bin/env python3
"""Generates Vectors/newleaf/: one RSA-2048 root, one intermediate under it, and 1,000
distinct leaves under the intermediate, for tack-bench's `trust-rsa2048-newleaf` (a
client meeting a fleet of servers behind one CA: every verdict has a leaf it has not
seen, always above the same intermediate and root).

Usage: python3 Vectors/newleaf/generate.py   (needs the `cryptography` package, >= 42)

Writes root.der, intermediate.der and leaves.der (the 1,000 leaves' DER back to back; a
DER certificate is self-delimiting, so the file needs no other framing). Every run makes
new keys, so the files change; the shapes, names and times below do not.

Shapes follow Vectors/chains/generate.py's RSA family: root valid 2020..2040, intermediate
2022..2030, leaves 2024..2026 with serverAuth and dNSName example.com; each leaf has its
own key, serial and common name (server-NNNN.example.com). Validation time of the
benchmark: 2025-06-01T00:00:00Z.
"""

import datetime
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = datetime.timezone.utc
LEAF_COUNT = 1000


def t(year):
    return datetime.datetime(year, 1, 1, tzinfo=UTC)


def new_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def name(cn, org=None):
    attributes = []
    if org:
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, org))
    attributes.append(x509.NameAttribute(NameOID.COMMON_NAME, cn))
    return x509.Name(attributes)


def usage(ca):
    return x509.KeyUsage(digital_signature=not ca, content_commitment=False, key_encipherment=False,
                         data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                         encipher_only=False, decipher_only=False)


def make_cert(subject, key, issuer_name, issuer_key, *, ca, not_before, not_after, aki=True):
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(usage(ca), critical=True)
    )
    if not ca:
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName("example.com")]), critical=False)
    if aki:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def der(cert):
    return cert.public_bytes(serialization.Encoding.DER)


def main():
    root_key, ica_key = new_key(), new_key()
    root_name = name("Tack Newleaf Root", "Tack")
    ica_name = name("Tack Newleaf Intermediate", "Tack")
    root = make_cert(root_name, root_key, root_name, root_key, ca=True, not_before=t(2020), not_after=t(2040), aki=False)
    ica = make_cert(ica_name, ica_key, root_name, root_key, ca=True, not_before=t(2022), not_after=t(2030))
    leaves = []
    for index in range(LEAF_COUNT):
        leaf = make_cert(name(f"server-{index:04d}.example.com"), new_key(), ica_name, ica_key,
                         ca=False, not_before=t(2024), not_after=t(2026))
        leaves.append(der(leaf))
    for file, data in (("root.der", der(root)), ("intermediate.der", der(ica)), ("leaves.der", b"".join(leaves))):
        with open(os.path.join(HERE, file), "wb") as out:
            out.write(data)


if __name__ == "__main__":
    main()

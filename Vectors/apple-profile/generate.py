#!/usr/bin/env python3
"""Generates Vectors/apple-profile/: chains on both sides of each boundary of Apple's
TLS server certificate rules (TrustProfile.apple; support.apple.com/103769 and
support.apple.com/102028), and of the weak-digest and weak-key reasons every profile
gives, with one manifest section per case (manifest.txt).

Usage: python3 Vectors/apple-profile/generate.py   (needs the `cryptography` package, >= 42)

Every run makes new keys, so the DER files change; the manifest's cases, times, names
and expected verdicts do not.

Manifest format, one section per case (files relative to this folder):

    [case NAME]
    anchors = FILE...           trust anchors (DER)
    origin = system | user      the anchors' AnchorStore.Origin
    chain = FILE...             what the peer sends, leaf first (DER)
    time = SECONDS              validation time, seconds since 1970
    host = dns:NAME
    profile = rfc5280 | apple   the TrustProfile
    expect = trusted | CODE     TrustFailure.code of the verdict
    certificate = served:N | anchor:N   the certificate the failure names (failures only)
    payload = WORD...           the failure's payload: weak_key BITS MINIMUM,
                                validity_too_long DAYS LIMIT, weak_signature_algorithm NAME
    comment = TEXT

Validity periods: notAfter - notBefore in seconds; a limit of N days holds while that is
at most N x 86,400 s, and the days reported are the difference over 86,400 rounded up.
"""

import datetime
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.serialization import Encoding
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from derwriter import bits, oid, seq, tlv  # noqa: E402 (Vectors/derwriter.py, shared)

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = datetime.timezone.utc
DAY = datetime.timedelta(days=1)
SECOND = datetime.timedelta(seconds=1)


def t(year, month=1, day=1, hour=0, minute=0, second=0):
    return datetime.datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def epoch(when):
    return int(when.timestamp())


_keys = {}


def key(bits, label):
    """One key per (size, label), so every certificate of a role shares it."""
    if (bits, label) not in _keys:
        _keys[(bits, label)] = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    return _keys[(bits, label)]


def name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


# AlgorithmIdentifier DER (RFC 4055 §5: NULL parameters) of the two RSA signature algorithms.
SHA256_WITH_RSA = seq(oid("1.2.840.113549.1.1.11"), tlv(0x05, b""))
SHA1_WITH_RSA = seq(oid("1.2.840.113549.1.1.5"), tlv(0x05, b""))


def sign(builder, private_key, digest):
    """`builder` signed with `digest`. `cryptography` refuses to sign with SHA-1, so a
    SHA-1 certificate is the SHA-256 one with both signature AlgorithmIdentifiers
    (RFC 5280 §4.1.1.2, §4.1.2.3) replaced and its TBS signed again with SHA-1."""
    if not isinstance(digest, hashes.SHA1):
        return builder.sign(private_key, digest)
    tbs = builder.sign(private_key, hashes.SHA256()).tbs_certificate_bytes
    assert tbs.count(SHA256_WITH_RSA) == 1
    tbs = tbs.replace(SHA256_WITH_RSA, SHA1_WITH_RSA)
    signature = private_key.sign(tbs, padding.PKCS1v15(), hashes.SHA1())
    return x509.load_der_x509_certificate(seq(tbs, SHA1_WITH_RSA, bits(signature)))


def write(filename, certificate):
    with open(os.path.join(HERE, filename), "wb") as handle:
        handle.write(certificate.public_bytes(Encoding.DER))


ROOT_KEY = key(2048, "root")
ROOT_NAME = name("Tack Apple Profile Root")
ROOT = (
    x509.CertificateBuilder()
    .subject_name(ROOT_NAME).issuer_name(ROOT_NAME)
    .public_key(ROOT_KEY.public_key()).serial_number(1)
    .not_valid_before(t(2015)).not_valid_after(t(2045))
    .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
    .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
    .add_extension(x509.SubjectKeyIdentifier.from_public_key(ROOT_KEY.public_key()), critical=False)
    .sign(ROOT_KEY, hashes.SHA256())
)
write("root.der", ROOT)


def intermediate(filename, common_name, bits, digest):
    """An intermediate under the root: `bits`-bit RSA key, signed with `digest`."""
    public = key(bits, "intermediate").public_key()
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name(common_name)).issuer_name(ROOT_NAME)
        .public_key(public).serial_number(x509.random_serial_number())
        .not_valid_before(t(2015)).not_valid_after(t(2040))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ROOT_KEY.public_key()), critical=False)
    )
    certificate = sign(certificate, ROOT_KEY, digest)
    write(filename, certificate)
    return certificate, key(bits, "intermediate")


INTERMEDIATES = {
    "intermediate.der": intermediate("intermediate.der", "Tack Apple Profile CA", 2048, hashes.SHA256()),
    "intermediate-rsa2047.der": intermediate("intermediate-rsa2047.der", "Tack Apple Profile CA RSA-2047", 2047, hashes.SHA256()),
    "intermediate-rsa1024.der": intermediate("intermediate-rsa1024.der", "Tack Apple Profile CA RSA-1024", 1024, hashes.SHA256()),
    "intermediate-sha1.der": intermediate("intermediate-sha1.der", "Tack Apple Profile CA SHA-1", 2048, hashes.SHA1()),
}


def leaf(filename, not_before, not_after, bits=2048, digest=None, eku=True, san=True, issuer="intermediate.der"):
    """A TLS server leaf for example.com under `issuer`."""
    issuer_certificate, issuer_key = INTERMEDIATES[issuer]
    public = key(bits, "leaf").public_key()
    builder = (
        x509.CertificateBuilder()
        .subject_name(name("example.com")).issuer_name(issuer_certificate.subject)
        .public_key(public).serial_number(x509.random_serial_number())
        .not_valid_before(not_before).not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(True, False, True, False, False, False, False, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
    )
    if san:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName("example.com")]), critical=False)
    if eku:
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    write(filename, sign(builder, issuer_key, digest or hashes.SHA256()))


CASES = []


def case(case_name, chain, time, expect, comment, profiles=("apple",), origin="user", certificate=None, payload=None):
    for profile in profiles:
        CASES.append((f"{case_name}-{profile}" if len(profiles) > 1 else case_name, [
            ("anchors", "root.der"), ("origin", origin), ("chain", " ".join(chain)), ("time", str(epoch(time))),
            ("host", "dns:example.com"), ("profile", profile),
            ("expect", expect if isinstance(expect, str) else expect[profile]),
        ] + ([("certificate", certificate if isinstance(certificate, str) else certificate[profile])]
             if certificate and (isinstance(certificate, str) or certificate.get(profile)) else [])
          + ([("payload", payload if isinstance(payload, str) else payload[profile])]
             if payload and (isinstance(payload, str) or payload.get(profile)) else [])
          + [("comment", comment)]))


BOTH = ("rfc5280", "apple")
NOW = t(2024, 6, 1)

# The baseline: RSA-2048 everywhere, SHA-256, EKU serverAuth, 90 days, SAN.
leaf("leaf.der", t(2024, 5, 1), t(2024, 5, 1) + 90 * DAY - SECOND)
case("baseline", ["leaf.der", "intermediate.der"], NOW, "trusted",
     "RSA-2048 leaf and CA, SHA-256, serverAuth, 90 days: every rule met", profiles=BOTH, origin="system")

# RSA key sizes (support.apple.com/103769: at least 2048 bits).
leaf("leaf-rsa2047.der", t(2024, 5, 1), t(2024, 5, 1) + 90 * DAY - SECOND, bits=2047)
case("leaf-rsa2047", ["leaf-rsa2047.der", "intermediate.der"], NOW, {"rfc5280": "trusted", "apple": "weak_key"},
     "a 2047-bit leaf key: below Apple's 2048 (RFC 5280 does not size the leaf's key, which signs nothing on the path)",
     profiles=BOTH, certificate={"apple": "served:0"}, payload={"apple": "2047 2048"})
case("leaf-rsa2048", ["leaf.der", "intermediate.der"], NOW, "trusted", "a 2048-bit leaf key: the minimum")
leaf("leaf-under-rsa2047.der", t(2024, 5, 1), t(2024, 5, 1) + 90 * DAY - SECOND, issuer="intermediate-rsa2047.der")
case("intermediate-rsa2047", ["leaf-under-rsa2047.der", "intermediate-rsa2047.der"], NOW, "weak_key",
     "a 2047-bit intermediate key: below the 2048 of the Web PKI signature policy (every profile) and of Apple",
     profiles=BOTH, certificate="served:1", payload="2047 2048")
case("intermediate-rsa2048", ["leaf.der", "intermediate.der"], NOW, "trusted", "a 2048-bit intermediate key")
leaf("leaf-under-rsa1024.der", t(2024, 5, 1), t(2024, 5, 1) + 90 * DAY - SECOND, issuer="intermediate-rsa1024.der")
case("intermediate-rsa1024", ["leaf-under-rsa1024.der", "intermediate-rsa1024.der"], NOW, "weak_key",
     "an RSA-1024 issuer is a weak key, not a bad signature, in every profile",
     profiles=BOTH, certificate="served:1", payload="1024 2048")

# SHA-1 signatures: refused in every profile, reported as what they are.
leaf("leaf-sha1.der", t(2024, 5, 1), t(2024, 5, 1) + 90 * DAY - SECOND, digest=hashes.SHA1())
case("leaf-sha1", ["leaf-sha1.der", "intermediate.der"], NOW, "weak_signature_algorithm",
     "the leaf is signed with sha1WithRSAEncryption", profiles=BOTH, certificate="served:0",
     payload="sha1WithRSAEncryption")
leaf("leaf-under-sha1.der", t(2024, 5, 1), t(2024, 5, 1) + 90 * DAY - SECOND, issuer="intermediate-sha1.der")
case("intermediate-sha1", ["leaf-under-sha1.der", "intermediate-sha1.der"], NOW, "weak_signature_algorithm",
     "the intermediate is signed with sha1WithRSAEncryption", profiles=BOTH, certificate="served:1",
     payload="sha1WithRSAEncryption")

# Extended key usage: required from notBefore 2019-07-01 00:00:00 UTC.
leaf("leaf-no-eku-2019-06-30.der", t(2019, 7, 1) - SECOND, t(2019, 7, 1) + 700 * DAY, eku=False)
case("no-eku-before-2019-07-01", ["leaf-no-eku-2019-06-30.der", "intermediate.der"], t(2020, 6, 1), "trusted",
     "no EKU, notBefore 2019-06-30T23:59:59Z: the rule does not apply yet", profiles=BOTH)
leaf("leaf-no-eku-2019-07-01.der", t(2019, 7, 1), t(2019, 7, 1) + 700 * DAY, eku=False)
case("no-eku-from-2019-07-01", ["leaf-no-eku-2019-07-01.der", "intermediate.der"], t(2020, 6, 1),
     {"rfc5280": "trusted", "apple": "missing_server_auth"},
     "no EKU, notBefore 2019-07-01T00:00:00Z: Apple requires id-kp-serverAuth", profiles=BOTH,
     certificate={"apple": "served:0"})

# 825 days from 2019-07-01 (before 2020-09-01, so a system anchor adds nothing).
START = t(2020, 1, 1)
for days, extra, expect, payload in [
    (824, 0, "trusted", None), (825, 0, "trusted", None), (825, 1, "validity_too_long", "826 825"),
    (830, 0, "validity_too_long", "830 825"),
]:
    label = f"{days}d" + (f"-plus-{extra}s" if extra else "")
    leaf(f"leaf-{label}.der", START, START + days * DAY + extra * SECOND)
    case(f"validity-{label}", [f"leaf-{label}.der", "intermediate.der"], t(2020, 6, 1),
         {"rfc5280": "trusted", "apple": expect},
         f"notAfter - notBefore = {days} x 86,400 s" + (f" + {extra} s" if extra else "") + ", notBefore 2020-01-01",
         profiles=BOTH, origin="system",
         certificate={"apple": "served:0" if payload else None}, payload={"apple": payload})

# 398 days from 2020-09-01, under a system anchor only.
START = t(2021, 1, 1)
for days, extra, origin, expect, payload in [
    (397, 0, "system", "trusted", None), (398, 0, "system", "trusted", None),
    (398, 1, "system", "validity_too_long", "399 398"), (400, 0, "system", "validity_too_long", "400 398"),
    (400, 0, "user", "trusted", None),
]:
    label = f"{days}d" + (f"-plus-{extra}s" if extra else "")
    filename = f"leaf-2021-{label}.der"
    if origin == "system":
        leaf(filename, START, START + days * DAY + extra * SECOND)
    case(f"validity-2021-{label}-{origin}-anchor", [filename, "intermediate.der"], t(2021, 6, 1), expect,
         f"notBefore 2021-01-01, notAfter - notBefore = {days} x 86,400 s" + (f" + {extra} s" if extra else "")
         + f", {origin} anchor", origin=origin, certificate="served:0" if payload else None, payload=payload)
leaf("leaf-2020-08-31-400d.der", t(2020, 9, 1) - SECOND, t(2020, 9, 1) - SECOND + 400 * DAY)
case("validity-400d-before-2020-09-01-system-anchor", ["leaf-2020-08-31-400d.der", "intermediate.der"], t(2021, 6, 1),
     "trusted", "notBefore 2020-08-31T23:59:59Z, 400 days, system anchor: only the 825-day limit applies", origin="system")

# The DNS name in the subject alternative name, never the common name.
leaf("leaf-cn-only.der", t(2024, 5, 1), t(2024, 5, 1) + 90 * DAY - SECOND, san=False)
case("cn-without-san", ["leaf-cn-only.der", "intermediate.der"], NOW, "peer_name_mismatch",
     "CN=example.com and no subject alternative name: no common-name fallback in any profile",
     profiles=BOTH, certificate="served:0")

with open(os.path.join(HERE, "manifest.txt"), "w") as manifest:
    manifest.write("# Vectors/apple-profile manifest, generated by generate.py (do not edit by hand).\n")
    manifest.write("# Sections: [case NAME]; keys: anchors, origin, chain (leaf first), time, host, profile,\n")
    manifest.write("# expect, certificate, payload, comment (see generate.py).\n")
    for case_name, fields in CASES:
        manifest.write(f"\n[case {case_name}]\n")
        for field, value in fields:
            manifest.write(f"{field} = {value}\n")
print(f"{len(CASES)} cases")

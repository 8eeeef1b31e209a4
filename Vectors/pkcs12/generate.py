#!/usr/bin/env python3
"""PKCS #12 files for TackPKCS12's tests (PKCS12Tests), and their manifest.

    python3 Vectors/pkcs12/generate.py [--fresh]

Files already here are kept (a run makes only what is missing, so the tests'
fixed hashes stay valid); --fresh makes every file again, keys included.

Writes beside this script:
- keys and certificates (a test CA, and RSA, P-256 and Ed25519 leaves), PEM;
- files made by `openssl pkcs12 -export` (OpenSSL 3): unencrypted and without a
  MAC (`-keypbe NONE -certpbe NONE -nomac`), which TackPKCS12 reads today, and
  encrypted ones (OpenSSL 3 defaults, `-legacy`, `-descert`, `-macalg sha1`,
  `-noiter`, PBES2 choices) for when the primitives land;
- files made by Python `cryptography` (`serialize_key_and_certificates`, PBESv1
  and PBESv2 through its encryption builder, SHA-1 and SHA-256 MACs);
- files assembled here from DER pieces: several identities in one file, BER
  forms (indefinite lengths, constructed OCTET STRINGs) of an unencrypted file,
  nested safeContentsBags, secret and CRL bags, unknown attributes, refused
  certificate types and enveloped_data;
- a CA -> intermediate -> client chain with key identifiers and the clientAuth
  extended key usage (trusted-*.pem), for the trust tests, in an OpenSSL file
  whose top certificate is the intermediate and in a file with a decoy issuer;
- files made by Java's `keytool` (PKCS12 keystores: RSA and EC key pairs, a
  trusted-certificate entry, a secret key, the legacy algorithms), when
  `keytool` is on the PATH (otherwise the committed ones are kept, and said so);
- manifest.json: per file, the passphrase, what `cryptography`'s
  `load_pkcs12` reads (key SPKI, certificates as SHA-256 of their DER, friendly
  names) or its error, and what TackPKCS12 reads today: `read` or an error code
  (`pkcs12.mac_algorithm_unavailable` for files with a MAC until SHA-1 and the
  PKCS #12 KDF land, `pkcs12.encryption_unavailable` for encrypted layers of files
  without one).
"""
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization as s
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from derwriter import integer, length, oid, tlv  # noqa: E402 (Vectors/derwriter.py, shared)

HERE = os.path.dirname(os.path.abspath(__file__))
PASSPHRASE = "correct horse"
manifest = []
# Files already here are kept (so a run adds what is missing, and the tests' fixed
# hashes stay valid); --fresh makes everything again, keys and certificates too.
FRESH = "--fresh" in sys.argv[1:]
# Groups of keys and certificates made fresh in this run: their files are remade.
fresh_groups = set()


def existing(filename, group):
    """The committed bytes of `filename`, unless it is to be made again."""
    path = os.path.join(HERE, filename)
    if not os.path.exists(path) or (group != "rfc9579" and (FRESH or group in fresh_groups)):
        return None
    with open(path, "rb") as f:
        return f.read()


# --- DER and BER writers -------------------------------------------------------


class Encoder:
    """DER, or BER with indefinite lengths and 16-byte OCTET STRING segments."""

    def __init__(self, ber):
        self.ber = ber

    def cons(self, tag, *items):
        body = b"".join(items)
        return bytes([tag, 0x80]) + body + b"\x00\x00" if self.ber else tlv(tag, body)

    def seq(self, *items):
        return self.cons(0x30, *items)

    def set(self, *items):
        return self.cons(0x31, *items)

    def explicit0(self, item):
        return self.cons(0xA0, item)

    def octets(self, data):
        if not self.ber:
            return tlv(0x04, data)
        segments = [tlv(0x04, data[i:i + 16]) for i in range(0, len(data), 16)] or [tlv(0x04, b"")]
        return bytes([0x24, 0x80]) + b"".join(segments) + b"\x00\x00"


DATA = "1.2.840.113549.1.7.1"
BAG = "1.2.840.113549.1.12.10.1."
FRIENDLY, LOCAL_KEY_ID = "1.2.840.113549.1.9.20", "1.2.840.113549.1.9.21"


def attributes(e, friendly=None, key_id=None, extra=None):
    items = []
    if friendly is not None:
        items.append(e.seq(oid(FRIENDLY), e.set(tlv(0x1E, friendly.encode("utf-16-be")))))
    if key_id is not None:
        items.append(e.seq(oid(LOCAL_KEY_ID), e.set(tlv(0x04, key_id))))
    if extra is not None:
        items.append(extra)
    return [e.set(*items)] if items else []


def cert_bag(e, der, **attrs):
    value = e.seq(oid("1.2.840.113549.1.9.22.1"), e.explicit0(e.octets(der)))
    return e.seq(oid(BAG + "3"), e.explicit0(value), *attributes(e, **attrs))


def key_bag(e, der, **attrs):
    return e.seq(oid(BAG + "1"), e.explicit0(der), *attributes(e, **attrs))


def pfx(e, safe_contents_list, content_type=DATA):
    infos = [e.seq(oid(content_type), e.explicit0(e.octets(e.seq(*bags)))) for bags in safe_contents_list]
    auth_safe = e.seq(*infos)
    return e.seq(integer(3), e.seq(oid(DATA), e.explicit0(e.octets(auth_safe))))


# --- keys and certificates --------------------------------------------------------
NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def certificate(subject_key, subject, issuer_key, issuer, ca, extensions=()):
    builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(subject_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(NOW).not_valid_after(NOW + datetime.timedelta(days=3650))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    for extension, critical in extensions:
        builder = builder.add_extension(extension, critical=critical)
    algorithm = None if isinstance(issuer_key, ed25519.Ed25519PrivateKey) else hashes.SHA256()
    return builder.sign(issuer_key, algorithm)


def pem_write(filename, data):
    with open(os.path.join(HERE, filename), "wb") as f:
        f.write(data)


def pem_read(filename):
    with open(os.path.join(HERE, filename), "rb") as f:
        return f.read()


def have(*filenames):
    return not FRESH and all(os.path.exists(os.path.join(HERE, f)) for f in filenames)


KINDS = ("rsa", "p256", "ed25519")
if have("ca.pem", *["%s-%s.pem" % (kind, part) for kind in KINDS for part in ("leaf", "key")]):
    ca = x509.load_pem_x509_certificate(pem_read("ca.pem"))
    leaves = {kind: s.load_pem_private_key(pem_read("%s-key.pem" % kind), None) for kind in KINDS}
    certs = {kind: x509.load_pem_x509_certificate(pem_read("%s-leaf.pem" % kind)) for kind in KINDS}
else:
    fresh_groups.add("base")
    ca_key = ec.generate_private_key(ec.SECP384R1())
    ca = certificate(ca_key, "Tack PKCS12 Test CA", ca_key, "Tack PKCS12 Test CA", True)
    leaves = {
        "rsa": rsa.generate_private_key(65537, 2048),
        "p256": ec.generate_private_key(ec.SECP256R1()),
        "ed25519": ed25519.Ed25519PrivateKey.generate(),
    }
    certs = {kind: certificate(key, "client-" + kind, ca_key, "Tack PKCS12 Test CA", False)
             for kind, key in leaves.items()}
    pem_write("ca.pem", ca.public_bytes(s.Encoding.PEM))
    for kind in leaves:
        pem_write("%s-leaf.pem" % kind, certs[kind].public_bytes(s.Encoding.PEM))
        pem_write("%s-key.pem" % kind, leaves[kind].private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8,
                                                                   s.NoEncryption()))

# A chain the trust evaluator accepts for a TLS client: root -> intermediate -> leaf,
# with key identifiers (RFC 5280 §4.2.1.1/2), key usage and the clientAuth EKU; and a
# decoy: a certificate with the intermediate's name and another key.
TRUSTED = ("trusted-root.pem", "trusted-intermediate.pem", "trusted-decoy-intermediate.pem",
           "trusted-client-leaf.pem", "trusted-client-key.pem")
if have(*TRUSTED):
    trusted_root, trusted_intermediate, trusted_decoy, trusted_leaf = (
        x509.load_pem_x509_certificate(pem_read(f)) for f in TRUSTED[:4])
    trusted_key = s.load_pem_private_key(pem_read(TRUSTED[4]), None)
else:
    fresh_groups.add("trusted")
    ROOT, INTERMEDIATE = "Tack PKCS12 Trusted Root", "Tack PKCS12 Trusted Intermediate"

    def ca_extensions(key, issuer_key):
        return [(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False),
                (x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), False),
                (x509.KeyUsage(False, False, False, False, False, True, True, False, False), True)]

    root_key, intermediate_key, decoy_key = (ec.generate_private_key(ec.SECP256R1()) for _ in range(3))
    trusted_key = ec.generate_private_key(ec.SECP256R1())
    trusted_root = certificate(root_key, ROOT, root_key, ROOT, True, ca_extensions(root_key, root_key))
    trusted_intermediate = certificate(intermediate_key, INTERMEDIATE, root_key, ROOT, True,
                                       ca_extensions(intermediate_key, root_key))
    trusted_decoy = certificate(decoy_key, INTERMEDIATE, root_key, ROOT, True, ca_extensions(decoy_key, root_key))
    trusted_leaf = certificate(trusted_key, "client-trusted", intermediate_key, INTERMEDIATE, False, [
        (x509.SubjectKeyIdentifier.from_public_key(trusted_key.public_key()), False),
        (x509.AuthorityKeyIdentifier.from_issuer_public_key(intermediate_key.public_key()), False),
        (x509.KeyUsage(True, False, False, False, False, False, False, False, False), True),
        (x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH]), False)])
    for filename, cert in zip(TRUSTED, (trusted_root, trusted_intermediate, trusted_decoy, trusted_leaf)):
        pem_write(filename, cert.public_bytes(s.Encoding.PEM))
    pem_write(TRUSTED[4], trusted_key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))


def der_of(cert):
    return cert.public_bytes(s.Encoding.DER)


def pk8(key):
    return key.private_bytes(s.Encoding.DER, s.PrivateFormat.PKCS8, s.NoEncryption())


# --- manifest ----------------------------------------------------------------------
def cryptography_reading(data, passphrase):
    try:
        loaded = pkcs12.load_pkcs12(data, None if passphrase is None else passphrase.encode())
    except Exception as error:  # noqa: BLE001 - recorded, not hidden
        return {"error": type(error).__name__ + ": " + str(error)}
    key = None
    if loaded.key is not None:
        key = hashlib.sha256(loaded.key.public_key().public_bytes(
            s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)).hexdigest()
    certificates = []
    for entry in ([loaded.cert] if loaded.cert else []) + list(loaded.additional_certs):
        certificates.append({"sha256": hashlib.sha256(der_of(entry.certificate)).hexdigest(),
                             "friendly_name": entry.friendly_name.decode("utf-8") if entry.friendly_name else None})
    return {"key_spki_sha256": key, "certificates": certificates}


def record(filename, data, passphrase, generator, tack, without_mac=False, bomb=False, group="base"):
    """Records `filename` in the manifest: its committed bytes when kept, else `data`
    (bytes, or a function that makes them) written out."""
    kept = existing(filename, group)
    if kept is not None:
        data = kept
    else:
        data = data() if callable(data) else data
        pem_write(filename, data)
    # An iteration bomb would hold load_pkcs12 for hours: not offered to it.
    reading = {"error": "not tried: iteration bomb"} if bomb else cryptography_reading(data, passphrase)
    manifest.append({"file": filename, "passphrase": passphrase, "generator": generator,
                     "reads_without_mac": without_mac, "tack": tack, "cryptography": reading})


def openssl(filename, kind, args, passphrase, tack, name_="Alice", without_mac=False, chain=True,
            group="base", cafile="ca.pem"):
    def make():
        with tempfile.TemporaryDirectory() as tmp:
            cmd = ["openssl", "pkcs12", "-export", "-inkey", os.path.join(HERE, kind + "-key.pem"),
                   "-in", os.path.join(HERE, kind + "-leaf.pem"), "-name", name_,
                   "-passout", "pass:" + passphrase, "-out", os.path.join(tmp, "out.p12")] + args
            if chain:
                cmd += ["-certfile", os.path.join(HERE, cafile)]
            subprocess.run(cmd, check=True)
            with open(os.path.join(tmp, "out.p12"), "rb") as f:
                return f.read()
    record(filename, make, passphrase, " ".join(["openssl pkcs12 -export"] + args), tack, without_mac, group=group)


PLAIN = ["-keypbe", "NONE", "-certpbe", "NONE", "-nomac"]
openssl("openssl-rsa-plain.p12", "rsa", PLAIN, "", "read", without_mac=True)
openssl("openssl-p256-plain.p12", "p256", PLAIN, "", "read", name_="Zoë clé", without_mac=True)
openssl("openssl-ed25519-plain.p12", "ed25519", PLAIN, "", "read", without_mac=True, chain=False)
openssl("openssl-rsa-plain-nomac-refused.p12", "rsa", PLAIN, "", "pkcs12.missing_mac")
openssl("openssl-rsa-nomac-encrypted.p12", "rsa", ["-nomac"], PASSPHRASE, "read",
        without_mac=True)
MAC = "read"  # every MAC and encryption scheme these tools write
openssl("openssl-rsa-default.p12", "rsa", [], PASSPHRASE, MAC)
openssl("openssl-p256-default.p12", "p256", [], PASSPHRASE, MAC)
openssl("openssl-ed25519-default.p12", "ed25519", [], PASSPHRASE, MAC)
openssl("openssl-rsa-legacy.p12", "rsa", ["-legacy"], PASSPHRASE, MAC)
openssl("openssl-rsa-descert.p12", "rsa", ["-descert"], PASSPHRASE, MAC)
openssl("openssl-rsa-macsha1.p12", "rsa", ["-macalg", "sha1"], PASSPHRASE, MAC)
openssl("openssl-rsa-noiter.p12", "rsa", ["-noiter"], PASSPHRASE, MAC)
openssl("openssl-rsa-aes128.p12", "rsa", ["-keypbe", "AES-128-CBC", "-certpbe", "AES-128-CBC"], PASSPHRASE, MAC)
openssl("openssl-rsa-3des.p12", "rsa", ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES"], PASSPHRASE, MAC)
openssl("openssl-rsa-empty-passphrase.p12", "rsa", [], "", MAC)

# cryptography: serialize_key_and_certificates.
for kind in ("rsa", "p256", "ed25519"):
    record("cryptography-%s-best.p12" % kind,
           lambda kind=kind: pkcs12.serialize_key_and_certificates(
               b"Bob", leaves[kind], certs[kind], [ca], s.BestAvailableEncryption(PASSPHRASE.encode())),
           PASSPHRASE, "serialize_key_and_certificates(BestAvailable)", MAC)
for label, algorithm, mac in (("pbesv1-sha1", pkcs12.PBES.PBESv1SHA1And3KeyTripleDESCBC, hashes.SHA1()),
                              ("pbesv2-sha256", pkcs12.PBES.PBESv2SHA256AndAES256CBC, hashes.SHA256())):
    encryption = (s.PrivateFormat.PKCS12.encryption_builder().kdf_rounds(2048).key_cert_algorithm(algorithm)
                  .hmac_hash(mac).build(PASSPHRASE.encode()))
    record("cryptography-rsa-%s.p12" % label,
           lambda encryption=encryption: pkcs12.serialize_key_and_certificates(
               b"Carol", leaves["rsa"], certs["rsa"], [ca], encryption),
           PASSPHRASE, "serialize_key_and_certificates(%s)" % label, MAC)
record("cryptography-p256-noencryption.p12",
       lambda: pkcs12.serialize_key_and_certificates(b"Dave", leaves["p256"], certs["p256"], [ca], s.NoEncryption()),
       None, "serialize_key_and_certificates(NoEncryption)", MAC)

# The trusted chain: OpenSSL's defaults, the leaf and the intermediate only (the file's
# top certificate is not a root); and a file whose first certificate after the leaf
# is a decoy with the intermediate's name but another key, the root last.
openssl("openssl-trusted-client.p12", "trusted-client", [], PASSPHRASE, MAC, name_="Trusted client",
        group="trusted", cafile="trusted-intermediate.pem")
e = Encoder(False)
record("assembled-decoy-issuer.p12",
       pfx(e, [[cert_bag(e, der_of(trusted_leaf), key_id=b"\x07"), cert_bag(e, der_of(trusted_decoy)),
                cert_bag(e, der_of(trusted_intermediate)), cert_bag(e, der_of(trusted_root)),
                key_bag(e, pk8(trusted_key), key_id=b"\x07")]]),
       "", "generate.py", "read", without_mac=True, group="trusted")

# Assembled here: several identities, BER, odd bags.
for ber in (False, True):
    e = Encoder(ber)
    suffix = "-ber" if ber else ""
    bags = []
    for index, kind in enumerate(("rsa", "p256", "ed25519")):
        key_id = bytes([index + 1]) * 20
        friendly = ["Ärger", "𝄞 music", "名前"][index]
        bags.append(cert_bag(e, der_of(certs[kind]), friendly=friendly, key_id=key_id))
    bags.append(cert_bag(e, der_of(ca), friendly="CA"))
    keys = [key_bag(e, pk8(leaves[kind]), key_id=bytes([index + 1]) * 20)
            for index, kind in enumerate(("rsa", "p256", "ed25519"))]
    record("assembled-three-identities%s.p12" % suffix, pfx(e, [bags, keys]), "", "generate.py (%s)" %
           ("BER" if ber else "DER"), "read", without_mac=True)

e = Encoder(False)
# Nested safeContentsBags around a key, a secret bag and a CRL bag.
inner = key_bag(e, pk8(leaves["p256"]))
for _ in range(3):
    inner = e.seq(oid(BAG + "6"), e.explicit0(e.seq(inner)))
secret = e.seq(oid(BAG + "5"), e.explicit0(e.seq(oid("1.2.3.4"), e.explicit0(tlv(0x04, b"s3cret")))))
crl = e.seq(oid(BAG + "4"), e.explicit0(e.seq(oid("1.2.840.113549.1.9.23.1"), e.explicit0(tlv(0x04, b"crl")))))
other_attribute = e.seq(oid("1.3.6.1.4.1.311.17.1"), e.set(tlv(0x1E, "CSP".encode("utf-16-be"))))
bags = [cert_bag(e, der_of(certs["p256"]), friendly="nested", extra=other_attribute), inner, secret, crl]
record("assembled-nested-bags.p12", pfx(e, [bags]), "", "generate.py", "read", without_mac=True)
deep = key_bag(e, pk8(leaves["p256"]))
for _ in range(5):
    deep = e.seq(oid(BAG + "6"), e.explicit0(e.seq(deep)))
record("assembled-nesting-too-deep.p12", pfx(e, [[deep]]), "", "generate.py", "pkcs12.safe_contents_too_deep",
       without_mac=True)
sdsi = e.seq(oid(BAG + "3"), e.explicit0(e.seq(oid("1.2.840.113549.1.9.22.2"), e.explicit0(tlv(0x16, b"sdsi")))))
record("assembled-sdsi-certificate.p12", pfx(e, [[sdsi]]), "", "generate.py", "pkcs12.unsupported_certificate_type",
       without_mac=True)
record("assembled-enveloped-data.p12", pfx(e, [[key_bag(e, pk8(leaves["p256"]))]], "1.2.840.113549.1.7.3"), "",
       "generate.py", "pkcs12.enveloped_data", without_mac=True)
lone = e.seq(oid(BAG + "3"), e.explicit0(e.seq(oid("1.2.840.113549.1.9.22.1"), e.explicit0(e.octets(der_of(ca))))),
             e.set(e.seq(oid(FRIENDLY), e.set(tlv(0x1E, b"\xd8\x00")))))
record("assembled-lone-surrogate.p12", pfx(e, [[lone]]), "", "generate.py", "pkcs12.invalid_friendly_name",
       without_mac=True)
mismatched = [cert_bag(e, der_of(certs["rsa"]), key_id=b"\x01"), key_bag(e, pk8(leaves["p256"]), key_id=b"\x01")]
record("assembled-key-id-mismatch.p12", pfx(e, [mismatched]), "", "generate.py", "read", without_mac=True)

# Iteration bombs: 2^31 - 1 iterations in the MAC, and in a shrouded key's PBES2.
plain = pfx(e, [[key_bag(e, pk8(leaves["p256"]))]])
mac = e.seq(e.seq(e.seq(oid("2.16.840.1.101.3.4.2.1"), b"\x05\x00"), tlv(0x04, bytes(32))), tlv(0x04, bytes(8)),
            integer(2**31 - 1))
body = plain[plain.index(b"\x02\x01\x03"):]  # version and authSafe, inside the PFX SEQUENCE
record("assembled-mac-iteration-bomb.p12", tlv(0x30, body + mac), "x", "generate.py", "pkcs12.iterations_above_limit", bomb=True)
pbes2 = e.seq(oid("1.2.840.113549.1.5.13"), e.seq(
    e.seq(oid("1.2.840.113549.1.5.12"), e.seq(tlv(0x04, bytes(8)), integer(2**31 - 1))),
    e.seq(oid("2.16.840.1.101.3.4.1.42"), tlv(0x04, bytes(16)))))
shrouded = e.seq(oid(BAG + "2"), e.explicit0(e.seq(pbes2, tlv(0x04, bytes(32)))))
record("assembled-key-iteration-bomb.p12", pfx(e, [[shrouded]]), "x", "generate.py", "pkcs12.iterations_above_limit",
       without_mac=True, bomb=True)
rc4 = e.seq(oid("1.2.840.113549.1.12.1.1"), e.seq(tlv(0x04, bytes(8)), integer(2048)))
record("assembled-rc4.p12", pfx(e, [[e.seq(oid(BAG + "2"), e.explicit0(e.seq(rc4, tlv(0x04, bytes(32)))))]]), "x",
       "generate.py", "pkcs12.unsupported_encryption", without_mac=True)
broken_key = key_bag(e, pk8(leaves["p256"])[:-1] + bytes([pk8(leaves["p256"])[-1] ^ 1]))
record("assembled-broken-key.p12", pfx(e, [[broken_key]]), "", "generate.py",
       "pkcs12.invalid_private_key.private_key.invalid_public_key", without_mac=True)

# Java's keytool (PKCS12 keystores). Without keytool the committed files are kept.
KEYTOOL = shutil.which("keytool")
if KEYTOOL is None:
    print("keytool not found: the keytool-*.p12 files are kept as committed, not made again")


def keytool(filename, commands, tack="read", legacy=False, group="keytool"):
    """A keystore made by running each `keytool` command (arguments after the
    command name) into one PKCS12 file; recorded from the committed file when
    keytool is absent."""
    def make():
        with tempfile.TemporaryDirectory() as tmp:
            store = os.path.join(tmp, "store.p12")
            for command in commands:
                cmd = [KEYTOOL] + (["-J-Dkeystore.pkcs12.legacy"] if legacy else []) + command + [
                    "-storetype", "PKCS12", "-keystore", store, "-storepass", PASSPHRASE, "-noprompt"]
                subprocess.run(cmd, check=True, capture_output=True)
            with open(store, "rb") as f:
                return f.read()
    if KEYTOOL is None and not os.path.exists(os.path.join(HERE, filename)):
        print("keytool not found: %s is missing" % filename)
        return
    generator = "; ".join("keytool " + " ".join(os.path.basename(c) if c.startswith(HERE) else c for c in command)
                          for command in commands) + (" (-J-Dkeystore.pkcs12.legacy)" if legacy else "")
    record(filename, make if KEYTOOL else None, PASSPHRASE, generator, tack, group=group)


def genkeypair(alias, algorithm, *more):
    return ["-genkeypair", "-alias", alias, "-keyalg", algorithm, *more, "-dname", "CN=keytool-" + alias,
            "-validity", "3650", "-startdate", "2026/01/01 00:00:00"]


keytool("keytool-rsa.p12", [genkeypair("rsa", "RSA", "-keysize", "2048")])
keytool("keytool-ec.p12", [genkeypair("ec", "EC", "-groupname", "secp256r1")])
keytool("keytool-two-entries.p12", [genkeypair("rsa", "RSA", "-keysize", "2048"),
                                    genkeypair("ec", "EC", "-groupname", "secp384r1")])
keytool("keytool-trusted-certificate.p12", [["-importcert", "-alias", "root", "-file",
                                             os.path.join(HERE, "trusted-root.pem")]], group="trusted")
keytool("keytool-secret-key.p12", [["-genseckey", "-alias", "secret", "-keyalg", "AES", "-keysize", "128"]])
keytool("keytool-rsa-legacy.p12", [genkeypair("rsa", "RSA", "-keysize", "2048")], legacy=True)

# RFC 9579 appendix A: PBMAC1 test files, decoded from the RFC's base64 (password
# "1234"; README), kept as committed. A.4 and A.5 change the PBKDF2 iteration count
# and salt the MAC key is derived with, so the MAC does not verify; A.6 lacks the
# keyLength PBMAC1 requires (RFC 9579 §3).
for filename, section, tack in (
        ("rfc9579-a1-sha256-sha256.p12", "A.1", "read"),
        ("rfc9579-a2-sha256-prf-sha512.p12", "A.2", "read"),
        ("rfc9579-a3-sha512-sha512.p12", "A.3", "read"),
        ("rfc9579-a4-wrong-iterations.p12", "A.4", "pkcs12.wrong_passphrase"),
        ("rfc9579-a5-wrong-salt.p12", "A.5", "pkcs12.wrong_passphrase"),
        ("rfc9579-a6-no-key-length.p12", "A.6", "pkcs12.invalid_algorithm_parameters")):
    assert os.path.exists(os.path.join(HERE, filename)), filename + ": copy it from RFC 9579 " + section
    record(filename, None, "1234", "RFC 9579 appendix " + section, tack, group="rfc9579")

with open(os.path.join(HERE, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("wrote %d files" % len(manifest))

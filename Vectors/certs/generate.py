#!/usr/bin/env python3
"""Generates the certificate vectors of Vectors/certs (see README.md).

Requires Python `cryptography` (48 was used) and the `openssl` command (3.0 was
used). Run from anywhere:

    python3 Vectors/certs/generate.py

Everything in Vectors/certs except README.md, this script and keys/ is rewritten.
Keys are generated once into keys/<name>.key.pem (test keys only) and reused, so
regenerating keeps every key, SPKI and pin stable.

Outputs:
- <type>-ca.pem / <type>-leaf.pem for every key type: a self-signed CA with every CA
  extension, and a leaf it signs with every leaf extension and SANs of every kind;
- <name>.pin next to each certificate: the SPKI pin printed by the OpenSSL pipeline
  `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`;
- <name>.spki.der: the SPKI alone, from `openssl pkey -pubin -outform der`;
- x25519-leaf.pem, x448-leaf.pem: key-agreement leaves signed by the Edwards CAs;
- <name>.rawkey.hex: the public key as SecKeyCopyExternalRepresentation returns it
  (PKCS #1 RSAPublicKey DER, 04||X||Y, raw RFC 8410 bytes), written by `cryptography`;
- chain-example.pem (leaf, intermediate, root) and chain-{leaf,intermediate,root}.pem;
- v1.pem: a version 1 certificate made by `openssl x509 -req` (no extensions);
- manifest.txt: one line per valid certificate (file, key type, key bits, signature
  algorithm, pin, SHA-256 fingerprint from `openssl x509 -fingerprint -sha256`);
- malformed/: DER mutations of valid certificates, each with a .txt note and a line in
  malformed/manifest.txt giving the expected TackX509 error and byte offset.
"""

import datetime
import ipaddress
import os
import subprocess
import sys
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa, x448, x25519
from cryptography.x509.oid import AuthorityInformationAccessOID, ExtendedKeyUsageOID, NameOID, ObjectIdentifier

HERE = os.path.dirname(os.path.abspath(__file__))
MALFORMED = os.path.join(HERE, "malformed")
KEYS = os.path.join(HERE, "keys")

NOT_BEFORE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
NOT_AFTER = datetime.datetime(2035, 1, 1, tzinfo=datetime.timezone.utc)
ROOT_NOT_AFTER = datetime.datetime(2050, 6, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)  # a GeneralizedTime

KEY_TYPES = ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa8192", "p256", "p384", "p521", "ed25519", "ed448"]


def make_key(kind, label):
    """The test key `label`: loaded from keys/<label>.key.pem, or generated and saved
    there, so that regenerating keeps every key, pin and SPKI stable."""
    path = os.path.join(KEYS, label + ".key.pem")
    if os.path.exists(path):
        with open(path, "rb") as f:
            return serialization.load_pem_private_key(f.read(), None)
    key = new_key(kind)
    os.makedirs(KEYS, exist_ok=True)
    with open(path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return key


def new_key(kind):
    if kind.startswith("rsa"):
        return rsa.generate_private_key(public_exponent=65537, key_size=int(kind[3:]))
    if kind == "p256":
        return ec.generate_private_key(ec.SECP256R1())
    if kind == "p384":
        return ec.generate_private_key(ec.SECP384R1())
    if kind == "p521":
        return ec.generate_private_key(ec.SECP521R1())
    if kind == "ed25519":
        return ed25519.Ed25519PrivateKey.generate()
    if kind == "ed448":
        return ed448.Ed448PrivateKey.generate()
    if kind == "x25519":
        return x25519.X25519PrivateKey.generate()
    if kind == "x448":
        return x448.X448PrivateKey.generate()
    raise ValueError(kind)


def signing_hash(kind):
    """The digest each CA key signs with: varied so every algorithm appears."""
    return {
        "rsa1024": hashes.SHA256(), "rsa2048": hashes.SHA256(), "rsa3072": hashes.SHA384(),
        "rsa4096": hashes.SHA512(), "rsa8192": hashes.SHA256(),
        "p256": hashes.SHA256(), "p384": hashes.SHA384(), "p521": hashes.SHA512(),
        "ed25519": None, "ed448": None,
    }[kind]


def sign(builder, issuer_key, kind, pss=False):
    if pss:
        return builder.sign(issuer_key, hashes.SHA256(),
                            rsa_padding=padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32))
    return builder.sign(issuer_key, signing_hash(kind))


def raw_public_key(key):
    """The bytes SecKeyCopyExternalRepresentation returns for the public key."""
    public = key.public_key()
    if isinstance(public, rsa.RSAPublicKey):
        return public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.PKCS1)
    if isinstance(public, ec.EllipticCurvePublicKey):
        return public.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def der_tlv(tag, content):
    n = len(content)
    if n < 0x80:
        length = bytes([n])
    else:
        octets = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(octets)]) + octets
    return bytes([tag]) + length + content


def der_oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    out = bytearray()
    for i, arc in enumerate([arcs[0] * 40 + arcs[1]] + arcs[2:]):
        septets = []
        while True:
            septets.append(arc & 0x7F)
            arc >>= 7
            if not arc:
                break
        for j, s in enumerate(reversed(septets)):
            out.append(s | (0x80 if j < len(septets) - 1 else 0))
    return der_tlv(0x06, bytes(out))


def name(common_name, organization="Tack Test PKI"):
    return x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "FR"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Vectors"),
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
    ])


POLICY = ObjectIdentifier("1.3.6.1.4.1.55555.1.1")
POLICY_2 = ObjectIdentifier("1.3.6.1.4.1.55555.1.2")


def ca_certificate(kind, key):
    subject = name("Tack " + kind + " CA")
    # PolicyMappings (RFC 5280 §4.2.1.5) has no cryptography class: encode it.
    mappings = der_tlv(0x30, der_tlv(0x30, der_oid(POLICY.dotted_string) + der_oid(POLICY_2.dotted_string)))
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject).issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(0x1000 + KEY_TYPES.index(kind))
        .not_valid_before(NOT_BEFORE).not_valid_after(ROOT_NOT_AFTER)
        .add_extension(x509.BasicConstraints(ca=True, path_length=1), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                     crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.NameConstraints(
            permitted_subtrees=[
                x509.DNSName("example.com"), x509.DNSName(".example.org"),
                x509.IPAddress(ipaddress.IPv4Network("192.0.2.0/24")),
                x509.IPAddress(ipaddress.IPv6Network("2001:db8::/32")),
                x509.RFC822Name("example.com"),
                x509.UniformResourceIdentifier(".example.com"),
                x509.DirectoryName(x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "FR")])),
            ],
            excluded_subtrees=[x509.DNSName("forbidden.example.com"),
                               x509.IPAddress(ipaddress.IPv4Network("192.0.2.128/25"))]), critical=True)
        .add_extension(x509.CertificatePolicies([x509.PolicyInformation(x509.oid.CertificatePoliciesOID.ANY_POLICY, None)]),
                       critical=False)
        .add_extension(x509.UnrecognizedExtension(ObjectIdentifier("2.5.29.33"), mappings), critical=True)
        .add_extension(x509.PolicyConstraints(require_explicit_policy=0, inhibit_policy_mapping=1), critical=True)
        .add_extension(x509.InhibitAnyPolicy(skip_certs=1), critical=True)
    )
    return sign(builder, key, kind)


def leaf_certificate(kind, key, ca_cert, ca_key, pss=False):
    directory = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "FR"),
                           x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Directory Example")])
    # otherName: a UPN (1.3.6.1.4.1.311.20.2.3) with a UTF8String value.
    upn = x509.OtherName(ObjectIdentifier("1.3.6.1.4.1.311.20.2.3"), der_tlv(0x0C, b"leaf@example.com"))
    # A fake SCT list (RFC 6962 §3.3): an OCTET STRING of a TLS-encoded list, kept as bytes.
    sct_list = der_tlv(0x04, bytes([0x00, 0x04, 0x00, 0x02, 0xAB, 0xCD]))
    builder = (
        x509.CertificateBuilder()
        .subject_name(name(kind + ".example.com", "Tack Leaf"))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(0x7F00_0000_0000_0000_0000_0000_0000_0000_0000_0000 + KEY_TYPES.index(kind))  # 20 octets
        .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False,
                                     key_encipherment=kind.startswith("rsa"), data_encipherment=False,
                                     key_agreement=False, key_cert_sign=False, crl_sign=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                       critical=False)
        .add_extension(x509.SubjectAlternativeName([
            x509.DNSName(kind + ".example.com"),
            x509.DNSName("*.wildcard.example.com"),
            x509.IPAddress(ipaddress.IPv4Address("192.0.2.10")),
            x509.IPAddress(ipaddress.IPv6Address("2001:db8::10")),
            x509.RFC822Name("leaf@example.com"),
            x509.UniformResourceIdentifier("https://" + kind + ".example.com/path"),
            x509.DirectoryName(directory),
            upn,
            x509.RegisteredID(ObjectIdentifier("1.3.6.1.4.1.55555.2")),
        ]), critical=False)
        .add_extension(x509.IssuerAlternativeName([x509.UniformResourceIdentifier("https://ca.example.com/")]),
                       critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .add_extension(x509.AuthorityInformationAccess([
            x509.AccessDescription(AuthorityInformationAccessOID.OCSP, x509.UniformResourceIdentifier("http://ocsp.example.com")),
            x509.AccessDescription(AuthorityInformationAccessOID.CA_ISSUERS,
                                   x509.UniformResourceIdentifier("http://ca.example.com/ca.der")),
        ]), critical=False)
        .add_extension(x509.CRLDistributionPoints([
            x509.DistributionPoint(full_name=[x509.UniformResourceIdentifier("http://crl.example.com/ca.crl")],
                                   relative_name=None, reasons=None, crl_issuer=None),
        ]), critical=False)
        .add_extension(x509.CertificatePolicies([
            x509.PolicyInformation(POLICY, [
                "https://cps.example.com/",
                x509.UserNotice(x509.NoticeReference("Tack Test PKI", [1, 2]), "Test certificate"),
            ]),
            x509.PolicyInformation(ObjectIdentifier("2.23.140.1.2.2"), None),
        ]), critical=False)
        .add_extension(x509.UnrecognizedExtension(ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2"), sct_list),
                       critical=False)
    )
    return sign(builder, ca_key, kind, pss=pss)


def write_pem(path, certificates):
    with open(path, "wb") as f:
        for certificate in certificates:
            f.write(certificate.public_bytes(serialization.Encoding.PEM))


def sh(command, data=None):
    return subprocess.run(command, shell=True, check=True, input=data, capture_output=True).stdout


def openssl_pin(path):
    pipeline = ("openssl x509 -in '%s' -pubkey -noout | openssl pkey -pubin -outform der"
                " | openssl dgst -sha256 -binary | base64") % path
    return sh(pipeline).decode().strip()


def openssl_fingerprint(path):
    line = sh("openssl x509 -in '%s' -noout -fingerprint -sha256" % path).decode().strip()
    return line.split("=", 1)[1]


def clean():
    for directory in (HERE, MALFORMED):
        if not os.path.isdir(directory):
            continue
        for entry in os.listdir(directory):
            if entry.endswith((".pem", ".pin", ".hex", ".der", ".txt")) and not entry.endswith(".key.pem"):
                os.remove(os.path.join(directory, entry))


# ---------------------------------------------------------------------------
# Malformed certificates: a minimal DER tree to mutate and re-encode.

class Node:
    def __init__(self, tag, content=b"", children=None):
        self.tag = tag
        self.content = content
        self.children = children

    def encode(self):
        body = b"".join(c.encode() for c in self.children) if self.children is not None else self.content
        return der_tlv(self.tag, body)


def parse_der(data):
    def parse_at(offset, end):
        tag = data[offset]
        assert tag & 0x1F != 0x1F, "high tags not used in certificates"
        first = data[offset + 1]
        if first < 0x80:
            length, start = first, offset + 2
        else:
            count = first & 0x7F
            length = int.from_bytes(data[offset + 2:offset + 2 + count], "big")
            start = offset + 2 + count
        content = data[start:start + length]
        if tag & 0x20:
            children, position = [], start
            while position < start + length:
                child, position = parse_at(position, start + length)
                children.append(child)
            return Node(tag, children=children), start + length
        return Node(tag, content=content), start + length
    node, end = parse_at(0, len(data))
    assert end == len(data)
    return node


def offset_of(der, path):
    """The absolute offset of the element at `path` (child indices) in `der`."""
    offset = 0
    for index in path:
        header = 2 if der[offset + 1] < 0x80 else 2 + (der[offset + 1] & 0x7F)
        position = offset + header
        for _ in range(index):
            length_byte = der[position + 1]
            if length_byte < 0x80:
                position += 2 + length_byte
            else:
                count = length_byte & 0x7F
                position += 2 + count + int.from_bytes(der[position + 2:position + 2 + count], "big")
        offset = position
    return offset


def child_index(tbs, tag):
    return next(i for i, c in enumerate(tbs.children) if c.tag == tag)


def malformed(base_ed, base_ec, base_rsa):
    os.makedirs(MALFORMED, exist_ok=True)
    cases = []

    def add(file, der, reason, path_or_offset, note):
        offset = path_or_offset if isinstance(path_or_offset, int) else offset_of(der, path_or_offset)
        with open(os.path.join(MALFORMED, file), "wb") as f:
            f.write(der)
        with open(os.path.join(MALFORMED, file[:-4] + ".txt"), "w") as f:
            f.write(note.strip() + "\n\nExpected TackX509 error: %s at byte %d.\n" % (reason, offset))
        cases.append((file, reason, offset))

    def tree(der):
        return parse_der(der)

    # Paths: [0] = tbsCertificate; its children: 0 version, 1 serial, 2 signature, 3 issuer,
    # 4 validity, 5 subject, 6 SPKI, 7 extensions [3].
    base = base_ed
    add("truncated.der", base[:-10], "der.length_exceeds_input", 0,
        "The Ed25519 leaf with its last 10 bytes cut off: the outer SEQUENCE's length runs past the input.")

    add("trailing-data.der", base + b"\x00", "der.trailing_data", len(base),
        "The Ed25519 leaf followed by one 0x00 byte.")

    t = tree(base)
    t.children[0].children[0] = Node(0xA0, children=[Node(0x02, b"\x03")])
    add("wrong-version.der", t.encode(), "invalid_version", [0, 0],
        "The Ed25519 leaf with version [0] INTEGER 3 (v4), which RFC 5280 §4.1.2.1 does not define.")

    t = tree(base)
    t.children[0].children[0] = Node(0xA0, children=[Node(0x02, b"\x00")])
    add("explicit-v1.der", t.encode(), "der.default_value_encoded", [0, 0],
        "The Ed25519 leaf with version [0] INTEGER 0: v1 is the DEFAULT and DER omits it (X.690 §11.5).")

    t = tree(base)
    del t.children[0].children[0]
    add("extensions-in-v1.der", t.encode(), "invalid_version", [0, 6],
        "The Ed25519 leaf without its version field (so v1) but with extensions, which need v3.")

    t = tree(base)
    extensions = t.children[0].children[7].children[0]
    extensions.children.append(extensions.children[0])
    der = t.encode()
    add("duplicate-extension.der", der, "duplicate_extension", [0, 7, 0, len(extensions.children) - 1],
        "The Ed25519 leaf with its first extension (basic constraints) repeated at the end of the list.")

    t = tree(base)
    t.children[0].children[7].children[0].children = []
    add("empty-extensions.der", t.encode(), "empty_extensions", [0, 7],
        "The Ed25519 leaf with an extensions field holding an empty SEQUENCE (RFC 5280: SIZE (1..MAX)).")

    t = tree(base)
    extensions = t.children[0].children[7].children[0]
    extensions.children = [Node(0x30, children=[Node(0x06, der_oid("1.3.6.1.4.1.55555.9.%d" % i)[2:]),
                                                Node(0x04, b"\x05\x00")]) for i in range(65)]
    add("too-many-extensions.der", t.encode(), "too_many_extensions", [0, 7, 0, 64],
        "The Ed25519 leaf with 65 distinct private extensions, one more than Certificate.maximumExtensionCount.")

    t = tree(base)
    extensions = t.children[0].children[7].children[0]
    extensions.children = [Node(0x30, children=[Node(0x06, der_oid("1.3.6.1.4.1.55555.9.%d" % i)[2:]),
                                                Node(0x04, b"\x05\x00")]) for i in range(64)]
    add("extensions-64.der", t.encode(), "ok.extensionCount64", [0, 7],
        "The Ed25519 leaf with 64 distinct private extensions: exactly Certificate.maximumExtensionCount, accepted.")

    t = tree(base)
    first = t.children[0].children[7].children[0].children[1]  # key usage, critical TRUE
    first.children[1] = Node(0x01, b"\x00")
    add("critical-false-encoded.der", t.encode(), "ok.criticalFalseEncoded", [0, 7, 0, 1, 1],
        "The Ed25519 leaf whose key usage extension encodes critical BOOLEAN FALSE, the DEFAULT (X.690 §11.5): "
        "accepted as non-critical and flagged, a deliberate leniency (see Vectors/leniencies).")

    t = tree(base)
    t.children[0].children[4].children[0] = Node(0x17, b"251301000000Z")
    add("bad-time.der", t.encode(), "der.invalid_date", [0, 4, 0],
        "The Ed25519 leaf with notBefore UTCTime 251301000000Z: month 13.")

    t = tree(base)
    t.children[0].children[4].children[1] = Node(0x17, b"3501010000Z")
    add("bad-time-format.der", t.encode(), "der.invalid_time_format", [0, 4, 1],
        "The Ed25519 leaf with notAfter UTCTime 3501010000Z: no seconds, which RFC 5280 §4.1.2.5.1 requires.")

    t = tree(base)
    t.children[1].children[0] = Node(0x06, der_oid("1.3.101.113")[2:])
    add("algorithm-mismatch.der", t.encode(), "signature_algorithm_mismatch", [1],
        "The Ed25519 leaf whose outer signature_algorithm says Ed448 while the TBS signature field says Ed25519.")

    t = tree(base)
    signature = t.children[2]
    signature.content = b"\x01" + signature.content[1:-1] + bytes([signature.content[-1] & 0xFE])
    add("signature-unused-bits.der", t.encode(), "invalid_signature_value", [2],
        "The Ed25519 leaf whose signature BIT STRING declares 1 unused bit (padding zero).")

    t = tree(base)
    t.children[0].children[6].children[0].children.append(Node(0x05))
    add("ed25519-parameters.der", t.encode(), "invalid_algorithm_parameters.must_be_absent", [0, 6, 0, 1],
        "The Ed25519 leaf whose key AlgorithmIdentifier carries NULL parameters; RFC 8410 §3 requires them absent.")

    t = tree(base)
    key = t.children[0].children[6].children[1]
    key.content = key.content[:-1]
    add("ed25519-short-key.der", t.encode(), "invalid_public_key.wrong_length", [0, 6, 1],
        "The Ed25519 leaf with a 31-byte public key.")

    t = tree(base)
    t.children[0].children[1] = Node(0x02, b"\x00\x01")
    add("serial-non-minimal.der", t.encode(), "der.non_minimal_integer", [0, 1],
        "The Ed25519 leaf with serial number INTEGER 00 01, not minimally encoded (X.690 §8.3.2).")

    # EC base (the P-256 leaf).
    t = tree(base_ec)
    t.children[0].children[6].children[0].children[1] = Node(0x30, children=[Node(0x02, b"\x01")])
    add("ec-explicit-curve.der", t.encode(), "explicit_curve_parameters", [0, 6, 0, 1],
        "The P-256 leaf whose key parameters are a SEQUENCE (specifiedCurve) instead of a named-curve OID.")

    t = tree(base_ec)
    key = t.children[0].children[6].children[1]
    key.content = b"\x00\x05" + key.content[2:]
    add("ec-bad-point-format.der", t.encode(), "invalid_public_key.invalid_point_encoding", [0, 6, 1],
        "The P-256 leaf whose point starts with 0x05, neither uncompressed (04) nor compressed (02/03).")

    t = tree(base_ec)
    del t.children[0].children[6].children[0].children[1]
    add("ec-no-curve.der", t.encode(), "invalid_algorithm_parameters.missing_named_curve", [0, 6, 0],
        "The P-256 leaf whose key AlgorithmIdentifier has no parameters (no named curve).")

    t = tree(base_ec)
    t.children[0].children[2].children.append(Node(0x05))
    t.children[1].children.append(Node(0x05))
    add("ecdsa-null-parameters.der", t.encode(), "ok.ecdsaNullParameters", [1, 1],
        "The P-256 leaf whose inner and outer ecdsa-with-SHA256 identifiers both carry NULL; RFC 5758 §3.2 requires "
        "absent: accepted and flagged, a deliberate leniency for Java keytool's certificates (see Vectors/leniencies).")

    # RSA base (the RSA-1024 leaf).
    t = tree(base_rsa)
    del t.children[0].children[6].children[0].children[1]
    add("rsa-key-no-null.der", t.encode(), "invalid_algorithm_parameters.must_be_null", [0, 6, 0],
        "The RSA-1024 leaf whose rsaEncryption key identifier lacks the NULL that RFC 3279 §2.3.1 requires.")

    t = tree(base_rsa)
    bitstring = t.children[0].children[6].children[1]
    rsakey = parse_der(bitstring.content[1:])
    rsakey.children[1] = Node(0x02, b"\xff")
    bitstring.content = b"\x00" + rsakey.encode()
    der = t.encode()
    bitstring_offset = offset_of(der, [0, 6, 1])
    length_byte = der[bitstring_offset + 1]
    key_start = bitstring_offset + (2 if length_byte < 0x80 else 2 + (length_byte & 0x7F)) + 1  # + unused-bits octet
    add("rsa-negative-exponent.der", der, "der.negative_integer", key_start + offset_of(rsakey.encode(), [1]),
        "The RSA-1024 leaf whose public exponent is INTEGER -1.")

    # Accepted but flagged serial numbers (RFC 5280 §4.1.2.2 asks users to handle them).
    for file, serial, flag, note in [
        ("serial-negative.der", b"\xff\x01", "ok.serialNegative", "serial number -255"),
        ("serial-zero.der", b"\x00", "ok.serialZero", "serial number 0"),
        ("serial-21-octets.der", b"\x01" * 21, "ok.serialTooLong", "a 21-octet serial number"),
    ]:
        t = tree(base)
        t.children[0].children[1] = Node(0x02, serial)
        add(file, t.encode(), flag, [0, 1],
            "The Ed25519 leaf with %s: accepted and flagged, as RFC 5280 §4.1.2.2 asks." % note)

    with open(os.path.join(MALFORMED, "manifest.txt"), "w") as f:
        f.write("# file\texpected (TackX509 X509Error code, or ok.<flag>)\toffset\n")
        for file, reason, offset in cases:
            f.write("%s\t%s\t%d\n" % (file, reason, offset))


def main():
    clean()
    manifest = []
    ders = {}
    cas = {}

    def emit(filename, certificate, kind, key):
        path = os.path.join(HERE, filename)
        write_pem(path, [certificate])
        pin = openssl_pin(path)
        with open(path[:-4] + ".pin", "w") as f:
            f.write(pin + "\n")
        with open(path[:-4] + ".rawkey.hex", "w") as f:
            f.write(raw_public_key(key).hex() + "\n")
        with open(path[:-4] + ".spki.der", "wb") as f:
            f.write(sh("openssl x509 -in '%s' -pubkey -noout | openssl pkey -pubin -outform der" % path))
        algorithm = certificate.signature_algorithm_oid._name
        # OpenSSL's EVP_PKEY_get_bits for the RFC 8410 types.
        bits = getattr(key.public_key(), "key_size", {"ed25519": 256, "ed448": 456, "x25519": 253, "x448": 448}.get(kind))
        keytype = {"p256": "p256", "p384": "p384", "p521": "p521"}.get(kind, "rsa" if kind.startswith("rsa") else kind)
        manifest.append((filename, keytype, bits, algorithm, pin, openssl_fingerprint(path)))
        ders[filename] = certificate.public_bytes(serialization.Encoding.DER)

    for kind in KEY_TYPES:
        print("generating", kind, file=sys.stderr)
        ca_key, leaf_key = make_key(kind, kind + "-ca"), make_key(kind, kind + "-leaf")
        ca = ca_certificate(kind, ca_key)
        emit(kind + "-ca.pem", ca, kind, ca_key)
        leaf = leaf_certificate(kind, leaf_key, ca, ca_key, pss=(kind == "rsa3072"))
        emit(kind + "-leaf.pem", leaf, kind, leaf_key)
        cas[kind] = (ca, ca_key)

    # Key-agreement leaves (X25519, X448) signed by the Edwards CAs of the same family.
    for kind, signer in (("x25519", "ed25519"), ("x448", "ed448")):
        key = make_key(kind, kind + "-leaf")
        ca, ca_key = cas[signer]
        builder = (
            x509.CertificateBuilder()
            .subject_name(name(kind + ".example.com", "Tack Leaf")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(0x2000 + len(kind))
            .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, True, False, False, False, False), critical=True)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(kind + ".example.com")]), critical=False)
        )
        emit(kind + "-leaf.pem", sign(builder, ca_key, signer), kind, key)

    # The README's example chain: root (P-384) -> intermediate (P-256) -> leaf (P-256).
    root_key = make_key("p384", "chain-root")
    intermediate_key = make_key("p256", "chain-intermediate")
    leaf_key = make_key("p256", "chain-leaf")
    root_name = name("Tack Example Root CA", "Tack Example")
    root = sign(x509.CertificateBuilder().subject_name(root_name).issuer_name(root_name)
                .public_key(root_key.public_key()).serial_number(1)
                .not_valid_before(NOT_BEFORE).not_valid_after(ROOT_NOT_AFTER)
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
                .add_extension(x509.SubjectKeyIdentifier.from_public_key(root_key.public_key()), critical=False),
                root_key, "p384")
    intermediate_name = name("Tack Example Intermediate CA", "Tack Example")
    intermediate = sign(x509.CertificateBuilder().subject_name(intermediate_name).issuer_name(root_name)
                        .public_key(intermediate_key.public_key()).serial_number(2)
                        .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
                        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                        .add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
                        .add_extension(x509.SubjectKeyIdentifier.from_public_key(intermediate_key.public_key()), critical=False)
                        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(root_key.public_key()), critical=False),
                        root_key, "p384")
    leaf = sign(x509.CertificateBuilder().subject_name(name("www.example.com", "Tack Example")).issuer_name(intermediate_name)
                .public_key(leaf_key.public_key()).serial_number(3)
                .not_valid_before(NOT_BEFORE).not_valid_after(NOT_AFTER)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
                .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
                .add_extension(x509.SubjectAlternativeName([x509.DNSName("www.example.com"), x509.DNSName("example.com")]),
                               critical=False)
                .add_extension(x509.SubjectKeyIdentifier.from_public_key(leaf_key.public_key()), critical=False)
                .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(intermediate_key.public_key()), critical=False),
                intermediate_key, "p256")
    emit("chain-root.pem", root, "p384", root_key)
    emit("chain-intermediate.pem", intermediate, "p256", intermediate_key)
    emit("chain-leaf.pem", leaf, "p256", leaf_key)
    write_pem(os.path.join(HERE, "chain-example.pem"), [leaf, intermediate, root])

    # A version 1 certificate, made by the openssl command (no extensions).
    with tempfile.TemporaryDirectory() as tmp:
        key_path, csr_path = os.path.join(KEYS, "v1.key.pem"), os.path.join(tmp, "v1.csr")
        if not os.path.exists(key_path):
            sh("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out '%s'" % key_path)
        sh("openssl req -new -key '%s' -subj '/C=FR/O=Tack Test PKI/CN=Tack v1 certificate' -out '%s'" % (key_path, csr_path))
        v1_path = os.path.join(HERE, "v1.pem")
        sh("openssl x509 -req -in '%s' -signkey '%s' -days 3650 -set_serial 4242 -sha256 -out '%s'"
           % (csr_path, key_path, v1_path))
        v1 = x509.load_pem_x509_certificate(open(v1_path, "rb").read())
        assert v1.version == x509.Version.v1, "openssl made a %s certificate" % v1.version
        with open(key_path, "rb") as f:
            v1_key = serialization.load_pem_private_key(f.read(), None)
        os.remove(v1_path)
        emit("v1.pem", v1, "p256", v1_key)

    with open(os.path.join(HERE, "manifest.txt"), "w") as f:
        f.write("# file\tkey type\tkey bits\tsignature algorithm\tSPKI pin (OpenSSL pipeline)\tSHA-256 fingerprint (openssl x509 -fingerprint)\n")
        for row in manifest:
            f.write("\t".join(str(v) for v in row) + "\n")

    malformed(ders["ed25519-leaf.pem"], ders["p256-leaf.pem"], ders["rsa1024-leaf.pem"])


if __name__ == "__main__":
    main()

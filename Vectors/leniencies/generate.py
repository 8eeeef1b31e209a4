#!/usr/bin/env python3
"""Generates the vectors of Vectors/leniencies (see README.md): one certificate per
deliberate leniency of TackX509, each as real users have it, plus near misses that
must stay refused.

Requires the JDK's `keytool` (17 was used), the `openssl` command (3.0 was used) and
Python `cryptography` (48 was used). Run from anywhere:

    python3 Vectors/leniencies/generate.py

Everything in Vectors/leniencies except README.md and this script is rewritten.

Outputs:
- keytool-ecdsa-null.pem: a self-signed P-256 certificate made by `keytool
  -genkeypair`, with NULL parameters added to both ecdsa-with-SHA256
  AlgorithmIdentifiers and the TBS re-signed with keytool's key: what keytool of
  JDK 11 and of earlier JDK 17 updates wrote (pyca/cryptography#9002, #8996 and
  #9253, whose warning asks Java users to upgrade); JDK 17.0.15, used here,
  omits the parameters, so the NULL is put back by hand;
- rfc8410-x25519.pem: the sample certificate of RFC 8410 §10.2, as printed there
  (66-character lines), whose keyUsage and subjectKeyIdentifier extensions encode
  the DEFAULT critical FALSE;
- <name>.pin: the SPKI pin the OpenSSL pipeline prints for each of the two
  (`openssl x509 -pubkey -noout | openssl pkey -pubin -outform der |
  openssl dgst -sha256 -binary | base64`), at generation time;
- <name>.txt: what each file is, where the lenient bytes are, and what Tack must do;
- strict/*.der with a .txt twin each and strict/manifest.txt: mutations of the two
  certificates that leave the exact lenient forms, which TackX509 must still refuse
  with the given X509Error reason at the given byte offset (computed here from the
  DER tree, not by Tack).
"""

import base64
import os
import sys
import shutil
import subprocess
import tempfile

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from derwriter import tlv  # noqa: E402 (Vectors/derwriter.py, shared)

HERE = os.path.dirname(os.path.abspath(__file__))
STRICT = os.path.join(HERE, "strict")

# RFC 8410 §10.2 "Example X25519 Certificate", exactly as printed in the RFC
# (https://www.rfc-editor.org/rfc/rfc8410#section-10.2), 66-character lines included.
RFC8410_CERTIFICATE = """\
-----BEGIN CERTIFICATE-----
MIIBLDCB36ADAgECAghWAUdKKo3DMDAFBgMrZXAwGTEXMBUGA1UEAwwOSUVURiBUZX
N0IERlbW8wHhcNMTYwODAxMTIxOTI0WhcNNDAxMjMxMjM1OTU5WjAZMRcwFQYDVQQD
DA5JRVRGIFRlc3QgRGVtbzAqMAUGAytlbgMhAIUg8AmJMKdUdIt93LQ+91oNvzoNJj
ga9OukqY6qm05qo0UwQzAPBgNVHRMBAf8EBTADAQEAMA4GA1UdDwEBAAQEAwIDCDAg
BgNVHQ4BAQAEFgQUmx9e7e0EM4Xk97xiPFl1uQvIuzswBQYDK2VwA0EAryMB/t3J5v
/BzKc9dNZIpDmAgs3babFOTQbs+BolzlDUwsPrdGxO3YNGhW7Ibz3OGhhlxXrCe1Cg
w1AH9efZBw==
-----END CERTIFICATE-----
"""

STOREPASS = "tack-test-only"


def sh(arguments, data=None):
    return subprocess.run(arguments, input=data, capture_output=True, check=True).stdout


def openssl_pin(pem):
    public = sh(["openssl", "x509", "-pubkey", "-noout"], pem)
    der = sh(["openssl", "pkey", "-pubin", "-outform", "der"], public)
    digest = sh(["openssl", "dgst", "-sha256", "-binary"], der)
    return sh(["openssl", "base64"], digest).decode().strip()


def pem_of(der):
    body = base64.b64encode(der).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return ("-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n").encode()


def der_of(pem):
    return sh(["openssl", "x509", "-outform", "der"], pem)


# ---------------------------------------------------------------------------
# A minimal DER tree (definite lengths, low tag numbers: all certificates need).


class Node:
    def __init__(self, tag, content=b"", children=None):
        self.tag, self.content, self.children = tag, content, children

    def encode(self):
        if self.children is None:
            return tlv(self.tag, self.content)
        return tlv(self.tag, b"".join(child.encode() for child in self.children))


def parse(data):
    def at(offset):
        tag, first = data[offset], data[offset + 1]
        assert tag & 0x1F != 0x1F
        if first < 0x80:
            length, start = first, offset + 2
        else:
            count = first & 0x7F
            length, start = int.from_bytes(data[offset + 2:offset + 2 + count], "big"), offset + 2 + count
        end = start + length
        if not tag & 0x20:
            return Node(tag, data[start:end]), end
        children, position = [], start
        while position < end:
            child, position = at(position)
            children.append(child)
        return Node(tag, children=children), end
    node, end = at(0)
    assert end == len(data)
    return node


def offset_of(der, path):
    """The absolute offset of the element at `path` (child indices) in `der`."""
    def header(offset):
        first = der[offset + 1]
        return 2 if first < 0x80 else 2 + (first & 0x7F)

    def total(offset):
        first = der[offset + 1]
        if first < 0x80:
            return 2 + first
        count = first & 0x7F
        return 2 + count + int.from_bytes(der[offset + 2:offset + 2 + count], "big")

    offset = 0
    for index in path:
        position = offset + header(offset)
        for _ in range(index):
            position += total(position)
        offset = position
    return offset


# Paths: [0] tbsCertificate (0 version, 1 serial, 2 signature, 3 issuer, 4 validity,
# 5 subject, 6 SPKI, 7 [3] extensions), [1] signature_algorithm, [2] signatureValue.


def keytool_certificate(work):
    """A keytool self-signed P-256 certificate (DER) and keytool's private key."""
    store = os.path.join(work, "keytool.p12")
    sh(["keytool", "-genkeypair", "-alias", "tack", "-keyalg", "EC", "-groupname", "secp256r1",
        "-sigalg", "SHA256withECDSA", "-dname", "CN=Tack keytool test, O=Tack Test PKI",
        "-startdate", "2025/01/01 00:00:00", "-validity", "3652",
        "-keystore", store, "-storetype", "PKCS12", "-storepass", STOREPASS, "-keypass", STOREPASS])
    der = sh(["keytool", "-exportcert", "-alias", "tack", "-keystore", store, "-storepass", STOREPASS])
    key_pem = sh(["openssl", "pkcs12", "-in", store, "-nocerts", "-nodes", "-passin", "pass:" + STOREPASS])
    key = serialization.load_pem_private_key(key_pem[key_pem.index(b"-----BEGIN"):], None)
    return der, key


def with_null_parameters(der, key):
    """`der` with NULL appended to both signature AlgorithmIdentifiers, re-signed by `key`."""
    tree = parse(der)
    for algorithm in (tree.children[0].children[2], tree.children[1]):
        assert len(algorithm.children) == 1, "keytool already wrote parameters"
        algorithm.children.append(Node(0x05))
    tbs = tree.children[0].encode()
    signature = key.sign(tbs, ec.ECDSA(hashes.SHA256()))
    tree.children[2] = Node(0x03, b"\x00" + signature)
    return tree.encode()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    for entry in os.listdir(HERE):
        if entry not in ("README.md", "generate.py", "strict"):
            os.remove(os.path.join(HERE, entry))
    shutil.rmtree(STRICT, ignore_errors=True)
    os.makedirs(STRICT)

    with tempfile.TemporaryDirectory() as work:
        original, key = keytool_certificate(work)
    keytool_der = with_null_parameters(original, key)
    keytool_pem = pem_of(keytool_der)
    write("keytool-ecdsa-null.pem", keytool_pem)
    keytool_pin = openssl_pin(keytool_pem)
    write("keytool-ecdsa-null.pin", (keytool_pin + "\n").encode())
    inner = offset_of(keytool_der, [0, 2, 1])
    outer = offset_of(keytool_der, [1, 1])
    write("keytool-ecdsa-null.txt", (
        "A self-signed P-256 certificate made by `keytool -genkeypair -keyalg EC -groupname secp256r1\n"
        "-sigalg SHA256withECDSA` (JDK 17.0.15), then changed as keytool of JDK 11 and of earlier\n"
        "JDK 17 updates wrote it (pyca/cryptography#9002, #8996, #9253): NULL\n"
        "parameters (05 00) appended to both ecdsa-with-SHA256 AlgorithmIdentifiers, at byte %d\n"
        "(tbsCertificate.signature) and byte %d (signature_algorithm), and the TBS re-signed with\n"
        "keytool's key, so the self-signature is valid. RFC 5758 §3.2 says the encoding MUST omit\n"
        "the parameters; OpenSSL, Go and pyca/cryptography accept the NULL.\n"
        "\n"
        "Expected: Certificate(derEncoded:) accepts it, signature_algorithm is ecdsa-with-SHA256,\n"
        "hasNullECDSASignatureParameters is true, the self-signature verifies, and the pin is\n"
        "%s (keytool-ecdsa-null.pin, from the OpenSSL pipeline).\n"
        % (inner, outer, keytool_pin)).encode())

    rfc_pem = RFC8410_CERTIFICATE.encode()
    write("rfc8410-x25519.pem", rfc_pem)
    rfc_pin = openssl_pin(rfc_pem)
    write("rfc8410-x25519.pin", (rfc_pin + "\n").encode())
    rfc_der = der_of(rfc_pem)
    extensions = parse(rfc_der).children[0].children[7].children[0]
    flags = []
    for index, extension in enumerate(extensions.children):
        if len(extension.children) == 3 and extension.children[1].content == b"\x00":
            flags.append(offset_of(rfc_der, [0, 7, 0, index, 1]))
    assert len(flags) == 2, flags
    basic = offset_of(rfc_der, [0, 7, 0, 0])
    write("rfc8410-x25519.txt", (
        "The sample certificate of RFC 8410 §10.2 (an X25519 key, signed with Ed25519), exactly as\n"
        "the RFC prints it, with 66-character Base64 lines (RFC 7468 §2 lets parsers accept them).\n"
        "Its keyUsage and subjectKeyIdentifier extensions encode critical BOOLEAN FALSE (01 01 00,\n"
        "at bytes %d and %d), the DEFAULT that DER omits (X.690 §11.5; RFC 8410 errata 6936 and\n"
        "7070). Its basicConstraints value (extension at byte %d) is SEQUENCE { BOOLEAN FALSE },\n"
        "cA encoded at its DEFAULT too, which stays an error when that extension is decoded.\n"
        "\n"
        "Expected: Certificate(derEncoded:) accepts it, with both extensions non-critical and\n"
        "hasEncodedDefaultCriticalFlag true; basicConstraints throws der.default_value_encoded;\n"
        "the pin is %s (rfc8410-x25519.pin, from the OpenSSL pipeline).\n"
        % (flags[0], flags[1], basic, rfc_pin)).encode())

    # Near misses: each leaves the one accepted form and must stay refused.
    cases = []

    def strict(file, der, reason, path, note):
        offset = offset_of(der, path)
        with open(os.path.join(STRICT, file), "wb") as f:
            f.write(der)
        with open(os.path.join(STRICT, file[:-4] + ".txt"), "w") as f:
            f.write(note.strip() + "\n\nExpected TackX509 error: %s at byte %d.\n" % (reason, offset))
        cases.append((file, reason, offset))

    tree = parse(keytool_der)
    for algorithm in (tree.children[0].children[2], tree.children[1]):
        algorithm.children[1] = Node(0x02, b"\x00")
    strict("ecdsa-integer-parameters.der", tree.encode(), "invalid_algorithm_parameters.must_be_absent", [1, 1],
           "keytool-ecdsa-null.pem with INTEGER 0 instead of NULL as the parameters of both "
           "ecdsa-with-SHA256 identifiers: only NULL is tolerated.")

    tree = parse(keytool_der)
    for algorithm in (tree.children[0].children[2], tree.children[1]):
        algorithm.children[1] = Node(0x30, children=[])
    strict("ecdsa-empty-sequence-parameters.der", tree.encode(), "invalid_algorithm_parameters.must_be_absent", [1, 1],
           "keytool-ecdsa-null.pem with an empty SEQUENCE instead of NULL as the parameters of both "
           "ecdsa-with-SHA256 identifiers: only NULL is tolerated.")

    tree = parse(keytool_der)
    del tree.children[1].children[1]
    strict("ecdsa-null-inner-only.der", tree.encode(), "signature_algorithm_mismatch", [1],
           "keytool-ecdsa-null.pem with the NULL removed from the outer signature_algorithm only: "
           "the two identifiers must still be byte-identical (RFC 5280 §4.1.1.2).")

    tree = parse(rfc_der)
    extensions = tree.children[0].children[7].children[0]
    extensions.children[1].children[1] = Node(0x01, b"\x01")
    strict("critical-boolean-01.der", tree.encode(), "der.invalid_boolean", [0, 7, 0, 1, 1],
           "rfc8410-x25519.pem with the keyUsage critical flag encoded 01 01 01: a BOOLEAN whose "
           "contents are neither 00 nor FF is not DER (X.690 §11.1), whatever its value.")

    tree = parse(rfc_der)
    extensions = tree.children[0].children[7].children[0]
    extensions.children[1].children[1] = Node(0x01, b"\x00\x00")
    strict("critical-boolean-long.der", tree.encode(), "der.invalid_boolean", [0, 7, 0, 1, 1],
           "rfc8410-x25519.pem with the keyUsage critical flag encoded 01 02 00 00: a BOOLEAN is one "
           "octet (X.690 §8.2.1).")

    with open(os.path.join(STRICT, "manifest.txt"), "w") as f:
        f.write("# file\texpected TackX509 X509Error reason (der.<DERError.Reason> for DER errors)\toffset\n")
        for file, reason, offset in cases:
            f.write("%s\t%s\t%d\n" % (file, reason, offset))

    print("keytool-ecdsa-null.pem  %s\nrfc8410-x25519.pem      %s" % (keytool_pin, rfc_pin))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes Vectors/differential/seeds/: one certificate per encoding rule on which
strict DER parsers and BER-tolerant ones part ways, for scripts/differential.sh
and as fuzz seeds (scripts/fuzz.sh copies them into every target's corpus).

Each file is Vectors/certs/p256-leaf.pem (DER) with exactly one change, re-encoded
with correct enclosing lengths; the signature no longer verifies, which does not
matter to a parse verdict. The expected classes of disagreement are in
../known.md. Needs only the Python standard library; run from anywhere:

    python3 Vectors/differential/generate.py
"""

import base64
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "seeds")


def pem_certificate(path):
    text = open(path, encoding="ascii").read()
    body = text.split("-----BEGIN CERTIFICATE-----")[1].split("-----END CERTIFICATE-----")[0]
    return base64.b64decode("".join(body.split()))


def length_octets(length, form="minimal"):
    """The length octets of `length`: minimal DER, or `long` (long form with one
    octet more than needed: a leading zero, or 0x81 for a length below 128)."""
    if form == "minimal" and length < 0x80:
        return bytes([length])
    body = length.to_bytes(max(1, (length.bit_length() + 7) // 8), "big")
    if form == "long":
        body = (b"\x00" + body) if length >= 0x80 else body
    return bytes([0x80 | len(body)]) + body


class Node:
    """One element: identifier octets, then either primitive contents or children.
    `form` picks how its length is written: minimal, long or indefinite."""

    def __init__(self, ident, content=b"", children=None):
        self.ident, self.content, self.children, self.form = ident, content, children, "minimal"

    @property
    def constructed(self):
        return self.children is not None

    def encode(self):
        body = b"".join(c.encode() for c in self.children) if self.constructed else self.content
        if self.form == "indefinite":
            return self.ident + b"\x80" + body + b"\x00\x00"
        return self.ident + length_octets(len(body), self.form) + body


def parse(data):
    """The elements in data (minimal DER in, single-octet tags only)."""
    nodes, offset = [], 0
    while offset < len(data):
        ident = data[offset:offset + 1]
        first = data[offset + 1]
        if first < 0x80:
            length, start = first, offset + 2
        else:
            count = first & 0x7F
            length = int.from_bytes(data[offset + 2:offset + 2 + count], "big")
            start = offset + 2 + count
        content = data[start:start + length]
        nodes.append(Node(ident, children=parse(content)) if ident[0] & 0x20 else Node(ident, content))
        offset = start + length
    return nodes


def base():
    [cert] = parse(pem_certificate(os.path.join(ROOT, "Vectors", "certs", "p256-leaf.pem")))
    return cert


# Paths: cert.children = [tbs, signature_algorithm, signatureValue]; tbs.children =
# [version, serial, signature, issuer, validity, subject, spki, extensions].
def tbs(cert):
    return cert.children[0]


def first_attribute_value(name):
    """The value of the first attribute of a Name's last RDN (the CN here)."""
    return name.children[-1].children[0].children[1]


def cases():
    out = []

    def add(file, cert, note):
        out.append((file, cert.encode(), note))

    c = base(); c.form = "long"
    add("ber-long-length-certificate.der", c, "the outer SEQUENCE's length with a leading zero octet (X.690 §10.1)")

    c = base(); tbs(c).children[1].form = "long"
    add("ber-long-length-short.der", c, "the serial's length in the long form, below 128 (X.690 §10.1)")

    c = base(); tbs(c).form = "indefinite"
    add("ber-indefinite-tbs.der", c, "tbsCertificate with an indefinite length and end-of-contents (X.690 §10.1)")

    c = base(); tbs(c).children[4].form = "indefinite"
    add("ber-indefinite-validity.der", c, "validity with an indefinite length (X.690 §10.1)")

    c = base(); ext = tbs(c).children[7]; ext.ident = b"\xbf\x03"
    add("ber-high-tag-number.der", c, "extensions [3] with the tag number in the high-tag-number form (X.690 §8.1.2.4)")

    c = base(); serial = tbs(c).children[1]; serial.content = b"\x00" + serial.content.lstrip(b"\x00")
    if serial.content[1] >= 0x80:
        serial.content = b"\x00" + serial.content
    add("ber-integer-padded.der", c, "the serial INTEGER with a redundant leading zero octet (X.690 §8.3.2)")

    c = base(); cn = first_attribute_value(tbs(c).children[5]); text, primitive = cn.content, cn.ident
    cn.ident = bytes([primitive[0] | 0x20]); cn.children = [Node(primitive, text[:3]), Node(primitive, text[3:])]
    add("ber-constructed-string.der", c, "the subject CN as a constructed string of two segments (X.690 §10.2)")

    c = base()
    exts = tbs(c).children[7].children[0].children
    critical = next(e for e in exts if len(e.children) == 3)
    critical.children[1].content = b"\x01"
    add("ber-boolean-true-01.der", c, "an extension's critical BOOLEAN TRUE as 0x01, not 0xFF (X.690 §11.1)")

    c = base(); sig = c.children[2]; sig.content = b"\x03" + sig.content[1:-1] + bytes([sig.content[-1] | 0x07])
    add("ber-bitstring-padding.der", c, "signatureValue with 3 unused bits, set (X.690 §11.2.1; RFC 5280 §4.1.1.3)")

    c = base(); c.children.append(Node(b"\x05", b""))
    add("extra-field-certificate.der", c, "a NULL after signatureValue inside the Certificate SEQUENCE")

    c = base(); cn = first_attribute_value(tbs(c).children[5]); cn.ident = b"\x13"; cn.content = b"tack@example"
    add("printable-string-alphabet.der", c, "the subject CN a PrintableString holding '@' (X.680 §41.4)")

    c = base(); cn = first_attribute_value(tbs(c).children[5]); cn.ident = b"\x0c"; cn.content = b"tack\xc3\x28"
    add("utf8-string-invalid.der", c, "the subject CN a UTF8String with an invalid UTF-8 sequence (X.680 §41.16)")

    c = base(); cn = first_attribute_value(tbs(c).children[5]); cn.ident = b"\x04"
    add("name-value-octet-string.der", c, "the subject CN an OCTET STRING: X.501 AttributeValue is ANY, kept raw by Tack")

    c = base(); cn = first_attribute_value(tbs(c).children[5]); cn.ident = b"\x1a"
    add("name-value-visible-string.der", c, "the subject CN a VisibleString (valid alphabet), outside OpenSSL's set for names")

    c = base(); cn = first_attribute_value(tbs(c).children[5]); cn.ident = b"\x1e"; cn.content = b"\x00t\x00a\x00"
    add("bmp-string-odd-length.der", c, "the subject CN a BMPString of odd length (X.690 §8.23.8)")

    c = base(); tbs(c).children[4].children[0] = Node(b"\x17", b"250101000000+0100")
    add("utctime-offset.der", c, "notBefore UTCTime with a +0100 offset, not Z (RFC 5280 §4.1.2.5.1)")

    c = base(); tbs(c).children[4].children[1] = Node(b"\x18", b"20350101000000.5Z")
    add("generalizedtime-fraction.der", c, "notAfter GeneralizedTime with fractional seconds (RFC 5280 §4.1.2.5.2)")

    c = base(); tbs(c).children[4].children[1] = Node(b"\x18", b"20350101000000Z")
    add("generalizedtime-before-2050.der", c, "notAfter a GeneralizedTime in 2035, which RFC 5280 §4.1.2.5 says is a UTCTime (a Tack leniency)")

    c = base(); tbs(c).children[1].content = b"\xff\x01"
    add("serial-negative.der", c, "a negative serial number (RFC 5280 §4.1.2.2; a Tack leniency, flagged)")

    c = base(); tbs(c).children[1].content = b"\x01" * 21
    add("serial-21-octets.der", c, "a 21-octet serial number (RFC 5280 §4.1.2.2: at most 20; a Tack leniency, flagged)")

    c = base(); tbs(c).children[5].children.append(Node(b"\x31", children=[]))
    add("name-empty-rdn.der", c, "the subject with an empty RelativeDistinguishedName (RFC 5280 §4.1.2.4: SET SIZE (1..MAX))")

    c = base(); tbs(c).children.append(Node(b"\x05", b""))
    add("extra-field-tbs.der", c, "a NULL after the extensions inside tbsCertificate")

    c = base(); tbs(c).children[0] = Node(b"\xa0", children=[Node(b"\x02", b"\x01")])
    add("version-v2-extensions.der", c, "version v2 with extensions, which need v3 (RFC 5280 §4.1.2.9)")

    c = base(); spki = tbs(c).children[6]; alg = spki.children[0]; alg.children.append(Node(b"\x05", b""))
    add("ec-key-extra-parameter.der", c, "an id-ecPublicKey AlgorithmIdentifier with a third element (RFC 5480 §2.1.1)")

    c = base(); key = tbs(c).children[6].children[1]; key.content = key.content[:1] + b"\x02" + key.content[2:34]
    add("ec-key-compressed.der", c, "the P-256 key as a compressed point (SEC 1 §2.3.3; RFC 5480 §2.2 allows it)")

    c = base(); key = tbs(c).children[6].children[1]; key.content = key.content[:-1]
    add("ec-key-short.der", c, "the P-256 uncompressed point one octet short (SEC 1 §2.3.4)")
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    lines = []
    for file, data, note in cases():
        with open(os.path.join(OUT, file), "wb") as handle:
            handle.write(data)
        lines.append("- `%s`: %s." % (file, note))
    with open(os.path.join(HERE, "seeds.md"), "w", encoding="utf-8") as handle:
        handle.write("# The seeds (written by generate.py)\n\n" + "\n".join(lines) + "\n")
    print("wrote %d seeds to %s" % (len(lines), OUT))


if __name__ == "__main__":
    main()

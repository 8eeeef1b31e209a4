#!/usr/bin/env python3
"""Regenerates Vectors/der: valid and malformed DER documents with readable twins.

Usage: python3 Vectors/der/generate.py   (from anywhere; needs only the standard library
and, for the valid set's .txt twins, `openssl asn1parse` when it is on PATH)

Each malformed case breaks exactly one rule of the strict DER reader. The manifest
`malformed/manifest.tsv` lists: file name, the expected DERError.Reason case name, the
expected byte offset of the offending element, and a one-line description. The Swift
test `DERVectorTests` reads the manifest and asserts reason and offset exactly.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from derwriter import oid, seq, tlv  # noqa: E402 (Vectors/derwriter.py, shared)

HERE = os.path.dirname(os.path.abspath(__file__))


VALID = {
    "integer-small": tlv(0x02, b"\x05"),
    "integer-128-needs-sign-octet": tlv(0x02, b"\x00\x80"),
    "integer-negative": tlv(0x02, b"\x80"),
    "boolean-true": tlv(0x01, b"\xff"),
    "null": tlv(0x05, b""),
    "bit-string-padded": tlv(0x03, b"\x01\x02"),
    "bit-string-empty": tlv(0x03, b"\x00"),
    "oid-sha256WithRSA": oid("1.2.840.113549.1.1.11"),
    "oid-uuid-arc": oid("2.25.329800735698586629295641978511506172918"),
    "oid-arc-32-octets": tlv(0x06, b"\x2a" + b"\x81" * 31 + b"\x01"),
    "utctime": tlv(0x17, b"250301120000Z"),
    "generalizedtime-2050": tlv(0x18, b"20500101000000Z"),
    "generalizedtime-9999": tlv(0x18, b"99991231235959Z"),
    "printable-string": tlv(0x13, b"Example CA (Test) 1"),
    "utf8-string": tlv(0x0C, "Zürich – 東京".encode()),
    "bmp-string": tlv(0x1E, "Ab€".encode("utf-16-be")),
    "universal-string": tlv(0x1C, "A😀".encode("utf-32-be")),
    "high-tag-number": tlv(0x9F, b"")[:0] + b"\x9f\x1f\x00",
    "long-form-length": tlv(0x04, bytes(200)),
    "nested": seq(seq(oid("2.5.4.3"), tlv(0x0C, b"example.com")), tlv(0xA0, tlv(0x02, b"\x02"))),
}

# name: (bytes, reason, offset, description)
MALFORMED = {
    "indefinite-length": (b"\x30\x80\x05\x00\x00\x00", "indefinite_length", 0, "SEQUENCE with indefinite length (X.690 10.1)"),
    "length-long-form-below-128": (b"\x04\x81\x01\x00", "non_minimal_length", 0, "length 1 in long form"),
    "length-leading-zero": (b"\x04\x82\x00\x80" + bytes(128), "non_minimal_length", 0, "length octets with a leading zero"),
    "length-five-octets": (b"\x04\x85\x00\x00\x00\x00\x01\x00", "unsupported_length", 0, "five length octets (Tack caps at four)"),
    "length-past-end": (b"\x04\x05\x00\x00", "length_exceeds_input", 0, "length 5 with 2 octets left"),
    "length-2-31": (b"\x04\x84\x80\x00\x00\x00\x00\x00", "length_exceeds_input", 0, "length 2^31 in four octets (above a 32-bit Int) with 2 octets left"),
    "length-2-32-minus-1": (b"\x04\x84\xff\xff\xff\xff\x00\x00", "length_exceeds_input", 0, "length 2^32 - 1 in four octets with 2 octets left"),
    "truncated-header": (b"\x30", "truncated", 0, "identifier without length"),
    "tag-high-form-below-31": (b"\x1f\x1e\x00", "non_minimal_tag_number", 0, "tag 30 written in the high-tag-number form"),
    "tag-leading-0x80": (b"\x9f\x80\x21\x00", "non_minimal_tag_number", 0, "high tag number with a leading 0x80 octet"),
    "tag-too-large": (b"\x9f\x81\x80\x80\x80\x00\x00", "tag_number_too_large", 0, "tag number of five octets"),
    "trailing-data": (b"\x05\x00\x00", "trailing_data", 2, "a byte after the top-level element"),
    "boolean-not-ff": (b"\x01\x01\x01", "invalid_boolean", 0, "BOOLEAN 0x01 (DER requires 0xFF, X.690 11.1)"),
    "boolean-two-octets": (b"\x01\x02\xff\xff", "invalid_boolean", 0, "BOOLEAN with two contents octets"),
    "null-with-contents": (b"\x05\x01\x00", "invalid_null", 0, "NULL with a contents octet"),
    "integer-empty": (b"\x02\x00", "empty_integer", 0, "INTEGER with no contents"),
    "integer-leading-zero": (b"\x02\x02\x00\x7f", "non_minimal_integer", 0, "INTEGER 127 with a redundant 0x00"),
    "integer-leading-ff": (b"\x02\x02\xff\x80", "non_minimal_integer", 0, "INTEGER -128 with a redundant 0xFF"),
    "integer-nested-offset": (seq(tlv(0x02, b"\x00\x01")), "non_minimal_integer", 2, "non-minimal INTEGER inside a SEQUENCE: offset of the INTEGER"),
    "bit-string-empty-contents": (b"\x03\x00", "invalid_bit_string_unused_bits", 0, "BIT STRING without the unused-bits octet"),
    "bit-string-unused-8": (b"\x03\x02\x08\x00", "invalid_bit_string_unused_bits", 0, "8 unused bits"),
    "bit-string-unused-in-empty": (b"\x03\x01\x01", "invalid_bit_string_unused_bits", 0, "unused bits in an empty BIT STRING"),
    "bit-string-nonzero-padding": (b"\x03\x02\x01\x01", "non_zero_bit_string_padding", 0, "padding bit set (X.690 11.2.1)"),
    "oid-empty": (b"\x06\x00", "empty_object_identifier", 0, "OBJECT IDENTIFIER with no contents"),
    "oid-nonminimal-arc": (b"\x06\x03\x2a\x80\x01", "non_minimal_object_identifier_arc", 0, "subidentifier with a leading 0x80"),
    "oid-truncated-arc": (b"\x06\x02\x2a\x86", "truncated_object_identifier", 0, "last octet has the continuation bit"),
    "oid-arc-33-octets": (tlv(0x06, b"\x2a" + b"\x81" * 32 + b"\x01"), "object_identifier_arc_too_long", 0, "an arc of 33 octets (Tack's limit is 32)"),
    "utctime-no-seconds": (tlv(0x17, b"2503011200Z"), "invalid_time_format", 0, "UTCTime without seconds (RFC 5280 4.1.2.5.1)"),
    "utctime-offset": (tlv(0x17, b"250301120000+0100"), "invalid_time_format", 0, "UTCTime with a time-zone offset instead of Z"),
    "utctime-feb-30": (tlv(0x17, b"250230120000Z"), "invalid_date", 0, "February 30"),
    "generalizedtime-fraction": (tlv(0x18, b"20250301120000.5Z"), "fractional_seconds_not_allowed", 0, "fractional seconds (RFC 5280 4.1.2.5.2)"),
    "generalizedtime-local": (tlv(0x18, b"20250301120000"), "invalid_time_format", 0, "GeneralizedTime without Z"),
    "generalizedtime-hour-24": (tlv(0x18, b"20250301240000Z"), "invalid_date", 0, "hour 24"),
    "printable-asterisk": (tlv(0x13, b"*.example.com"), "invalid_printable_string", 0, "'*' is not in the PrintableString alphabet"),
    "ia5-high-octet": (tlv(0x16, b"caf\xe9"), "invalid_ia5_string", 0, "octet 0xE9 in an IA5String"),
    "utf8-overlong": (tlv(0x0C, b"\xc0\x80"), "invalid_utf8_string", 0, "overlong UTF-8 encoding of U+0000"),
    "utf8-surrogate": (tlv(0x0C, b"\xed\xa0\x80"), "invalid_utf8_string", 0, "UTF-8 encoded surrogate"),
    "bmp-odd-length": (tlv(0x1E, b"\x00\x41\x00"), "invalid_bmp_string", 0, "BMPString of odd length"),
    "bmp-surrogate": (tlv(0x1E, b"\xd8\x00"), "invalid_bmp_string", 0, "surrogate code unit in a BMPString"),
    "universal-length-3": (tlv(0x1C, b"\x00\x00\x41"), "invalid_universal_string", 0, "UniversalString length not a multiple of 4"),
    "universal-beyond-unicode": (tlv(0x1C, b"\x00\x11\x00\x00"), "invalid_universal_string", 0, "value above U+10FFFF"),
    "numeric-letter": (tlv(0x12, b"12a"), "invalid_numeric_string", 0, "letter in a NumericString"),
    "visible-control": (tlv(0x1A, b"a\x07"), "invalid_visible_string", 0, "control character in a VisibleString"),
    "constructed-octet-string": (b"\x24\x03\x04\x01\x00", "wrong_constructed_bit", 0, "constructed OCTET STRING (BER only, X.690 10.2)"),
    "primitive-sequence": (b"\x10\x00", "wrong_constructed_bit", 0, "SEQUENCE without the constructed bit"),
    "nesting-33-deep": (None, "nesting_too_deep", 32 * 2, "33 nested SEQUENCEs (default limit 32)"),
}


def nested(depth):
    out = b""
    for _ in range(depth):
        out = tlv(0x30, out)
    return out


def dump(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main():
    for sub in ("valid", "malformed"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
        os.makedirs(os.path.join(HERE, sub))
    has_openssl = shutil.which("openssl") is not None
    for name, data in sorted(VALID.items()):
        path = os.path.join(HERE, "valid", name + ".der")
        dump(path, data)
        text = "hex: " + data.hex(" ") + "\n"
        if has_openssl:
            result = subprocess.run(["openssl", "asn1parse", "-inform", "DER", "-in", path, "-i"],
                                    capture_output=True, text=True)
            text += result.stdout
        with open(path + ".txt", "w") as f:
            f.write(text)
    manifest = ["# file\treason\toffset\tdescription"]
    for name, (data, reason, offset, description) in sorted(MALFORMED.items()):
        if data is None:
            data = nested(33)
        path = os.path.join(HERE, "malformed", name + ".der")
        dump(path, data)
        with open(path + ".txt", "w") as f:
            f.write(f"{description}\nexpected: {reason} at byte {offset}\nhex: {data.hex(' ')}\n")
        manifest.append(f"{name}.der\t{reason}\t{offset}\t{description}")
    with open(os.path.join(HERE, "malformed", "manifest.tsv"), "w") as f:
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()

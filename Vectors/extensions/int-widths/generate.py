#!/usr/bin/env python3
"""Writes the extension values of Vectors/extensions/int-widths and manifest.tsv.

Each file is one DER extension value (the extnValue contents) whose INTEGER sits at
a 32- or 64-bit boundary. RFC 5280 gives pathLenConstraint (§4.2.1.9) and SkipCerts
(§4.2.1.11, §4.2.1.14) as INTEGER (0..MAX); Tack reads them into Swift `Int`, 32 bits
on armv7 and riscv32, so a value at or above 2^31 must come back as the typed error
`integer_overflow` at the INTEGER's offset there, and as the value on 64-bit targets.
Standard library only; run from anywhere: python3 Vectors/extensions/int-widths/generate.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def integer(value, tag=0x02):
    """A minimal DER INTEGER (non-negative values only) with the given tag."""
    body = value.to_bytes(max(1, (value.bit_length() + 8) // 8), "big")
    assert len(body) < 128
    return bytes([tag, len(body)]) + body


def sequence(*parts):
    body = b"".join(parts)
    assert len(body) < 128
    return bytes([0x30, len(body)]) + body


CA_TRUE = bytes([0x01, 0x01, 0xFF])
# (file, extension, value, DER, offset of the INTEGER's identifier octet)
VECTORS = []
for label, value in [("2-31-minus-1", 2**31 - 1), ("2-31", 2**31), ("2-32", 2**32),
                     ("2-63-minus-1", 2**63 - 1), ("2-63", 2**63)]:
    VECTORS.append((f"basic-constraints-pathlen-{label}.der", "basicConstraints", value,
                    sequence(CA_TRUE, integer(value)), 2 + len(CA_TRUE)))
VECTORS.append(("inhibit-any-policy-2-31.der", "inhibitAnyPolicy", 2**31, integer(2**31), 0))
# PolicyConstraints ::= SEQUENCE { requireExplicitPolicy [0] SkipCerts OPTIONAL,
#                                  inhibitPolicyMapping  [1] SkipCerts OPTIONAL }
VECTORS.append(("policy-constraints-inhibit-2-31.der", "policyConstraints.inhibitPolicyMapping", 2**31,
                sequence(integer(0, tag=0x80), integer(2**31, tag=0x81)), 5))


def main():
    lines = ["# file\textension\tvalue\toffset of the INTEGER (integer_overflow where the value does not fit Int)"]
    for name, extension, value, der, offset in VECTORS:
        assert der[offset] in (0x02, 0x80, 0x81)
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(der)
        lines.append(f"{name}\t{extension}\t{value}\t{offset}")
    with open(os.path.join(HERE, "manifest.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

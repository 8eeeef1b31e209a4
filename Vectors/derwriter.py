"""The small DER writer the vector generators share (imported by
Vectors/der, leniencies, pkcs12, private-keys and apple-profile's generate.py).

Each function returns the complete encoding of one element, with the minimal
(definite, shortest) length X.690 §10.1 requires. Standard library only.
"""


def length(n):
    """The DER length octets for a content of n bytes (X.690 §8.1.3, §10.1)."""
    if n < 0x80:
        return bytes([n])
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw


def tlv(tag, content):
    """One element: a single identifier octet, the minimal length, the content."""
    return bytes([tag]) + length(len(content)) + content


def seq(*children):
    return tlv(0x30, b"".join(children))


def integer(value):
    """An INTEGER in the fewest two's-complement octets (X.690 §8.3.2)."""
    return tlv(0x02, value.to_bytes(max(1, (value.bit_length() + 8) // 8), "big", signed=True))


def octets(content):
    return tlv(0x04, content)


def bits(content, tag=0x03):
    """A BIT STRING of whole octets (no unused bits)."""
    return tlv(tag, b"\x00" + content)


def oid_content(dotted):
    """The content octets of an OBJECT IDENTIFIER (X.690 §8.19): the first two arcs
    as 40 * a + b, then base-128 arcs, high bit set on all but each arc's last octet."""
    arcs = [int(a) for a in dotted.split(".")]
    out = bytearray()
    for value in [arcs[0] * 40 + arcs[1]] + arcs[2:]:
        septets = [value & 0x7F]
        value >>= 7
        while value:
            septets.append(0x80 | (value & 0x7F))
            value >>= 7
        out += bytes(reversed(septets))
    return bytes(out)


def oid(dotted):
    return tlv(0x06, oid_content(dotted))

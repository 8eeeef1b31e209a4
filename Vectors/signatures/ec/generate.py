#!/usr/bin/env python3
"""Generate the ECDSA and Ed25519 verification vectors in this folder.

Uses only Python `cryptography` (pyca, tested with 48.0) and `hashlib`.
Keys are derived from fixed integers / seeds and ECDSA signatures use
deterministic nonces (RFC 6979), so re-running reproduces the files byte for
byte.

    python3 Vectors/signatures/ec/generate.py

Every case has: "comment", "key" (hex encoded public key: SEC 1 point for
ECDSA, 32 raw bytes for Ed25519), "message" (hex), "signature" (hex; DER for
ECDSA, 64 raw bytes for Ed25519), "result" ("valid" or "invalid") and
"error" (the SignatureError case Tack must throw for an invalid case:
"invalid_signature", "malformed_signature" or "malformed_public_key").
ECDSA files also carry "hash" (the hash the verifier is told to use) and
"digest" (that hash of "message", hex), so that tests can check the digest
API and the message API.
"""
import hashlib
import json
import os

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)

HERE = os.path.dirname(os.path.abspath(__file__))

CURVES = {
    # name: (curve, hash name, hash object, order n)
    "p256": (ec.SECP256R1(), "SHA-256", hashes.SHA256(),
             0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551),
    "p384": (ec.SECP384R1(), "SHA-384", hashes.SHA384(),
             0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973),
    "p521": (ec.SECP521R1(), "SHA-512", hashes.SHA512(),
             0x01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409),
}
WRONG_HASH = {"SHA-256": ("SHA-384", hashes.SHA384()), "SHA-384": ("SHA-256", hashes.SHA256()),
              "SHA-512": ("SHA-256", hashes.SHA256())}
HASHLIB = {"SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"}

MESSAGES = [b"", b"abc", b"Tack verifies signatures", bytes(range(256)), b"\x00" * 1000]


def flip(data: bytes, index: int, bit: int = 0) -> bytes:
    out = bytearray(data)
    out[index] ^= 1 << bit
    return bytes(out)


def point(public_key, compressed=False) -> bytes:
    fmt = serialization.PublicFormat.CompressedPoint if compressed else serialization.PublicFormat.UncompressedPoint
    return public_key.public_bytes(serialization.Encoding.X962, fmt)


def raw_der(r: int, s: int) -> bytes:
    """DER of SEQUENCE { INTEGER r, INTEGER s } for any non-negative r, s."""
    def integer(v):
        body = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big")
        return b"\x02" + bytes([len(body)]) + body
    body = integer(r) + integer(s)
    length = bytes([len(body)]) if len(body) < 128 else b"\x81" + bytes([len(body)])
    return b"\x30" + length + body


def ecdsa_cases(name):
    curve, hash_name, hash_obj, n = CURVES[name]
    key = ec.derive_private_key(0x7AC1 * 1_000_003 + len(name) * 77 + n % 1_000_000, curve)
    other = ec.derive_private_key(0xBEEF * 1_000_033 + n % 999_983, curve)
    pub = point(key.public_key())
    cases = []

    def case(comment, message, signature, result, error=None, key_bytes=pub, hash_used=hash_name):
        digest = hashlib.new(HASHLIB[hash_used], message).hexdigest()
        c = {"comment": comment, "key": key_bytes.hex(), "hash": hash_used, "message": message.hex(),
             "digest": digest, "signature": signature.hex(), "result": result}
        if error:
            c["error"] = error
        cases.append(c)

    def sign(message, h=hash_obj):
        return key.sign(message, ec.ECDSA(h, deterministic_signing=True))

    for i, m in enumerate(MESSAGES):
        case(f"valid signature, message {i}", m, sign(m), "valid")
    m = b"Tack verifies signatures"
    sig = sign(m)
    r, s = decode_dss_signature(sig)
    case("valid signature, compressed public key", m, sig, "valid", key_bytes=point(key.public_key(), True))
    case("s replaced with n - s (ECDSA malleability: still valid)", m, encode_dss_signature(r, n - s), "valid")
    case("flipped bit in the message", flip(m, 3), sig, "invalid", "invalid_signature")
    # Flip the lowest bit of r's last byte (DER stays well-formed).
    header = 3 if sig[1] == 0x81 else 2
    r_end = header + 2 + sig[header + 1]
    case("flipped bit in r", m, flip(sig, r_end - 1), "invalid", "invalid_signature")
    case("flipped bit in s", m, flip(sig, len(sig) - 1), "invalid", "invalid_signature")
    case("flipped bit in the public key (off the curve)", m, sig, "invalid", "malformed_public_key",
         key_bytes=flip(pub, len(pub) - 1))
    case("another valid public key", m, sig, "invalid", "invalid_signature", key_bytes=point(other.public_key()))
    wrong_name, wrong_obj = WRONG_HASH[hash_name]
    case(f"signed with {wrong_name}, verified with {hash_name}", m, sign(m, wrong_obj), "invalid", "invalid_signature")
    case("r = 0", m, raw_der(0, s), "invalid", "malformed_signature")
    case("s = 0", m, raw_der(r, 0), "invalid", "malformed_signature")
    case("r = n", m, raw_der(n, s), "invalid", "malformed_signature")
    case("s = n", m, raw_der(r, n), "invalid", "malformed_signature")
    case("r = r + n", m, raw_der(r + n, s), "invalid", "malformed_signature")
    case("trailing byte after the DER SEQUENCE", m, sig + b"\x00", "invalid", "malformed_signature")
    case("r with a superfluous leading zero", m,
         b"\x30" + bytes([sig[1] + 1]) + b"\x02" + bytes([sig[3] + 1]) + b"\x00" + sig[4:],
         "invalid", "malformed_signature") if sig[1] < 127 and sig[4] < 0x80 else None
    return {"algorithm": "ECDSA", "curve": name.upper().replace("P", "P-"), "hash": hash_name,
            "generator": "Vectors/signatures/ec/generate.py", "cases": cases}


L = 2**252 + 27742317777372353535851937790883648493


def ed25519_cases():
    key = ed25519.Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"Tack Ed25519 key").digest())
    other = ed25519.Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"Tack Ed25519 other").digest())
    raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
    pub = key.public_key().public_bytes(*raw)
    cases = []

    def case(comment, message, signature, result, error=None, key_bytes=pub):
        c = {"comment": comment, "key": key_bytes.hex(), "message": message.hex(),
             "signature": signature.hex(), "result": result}
        if error:
            c["error"] = error
        cases.append(c)

    for i, m in enumerate(MESSAGES):
        case(f"valid signature, message {i}", m, key.sign(m), "valid")
    m = b"Tack verifies signatures"
    sig = key.sign(m)
    s = int.from_bytes(sig[32:], "little")
    case("flipped bit in the message", flip(m, 3), sig, "invalid", "invalid_signature")
    case("flipped bit in R", m, flip(sig, 5), "invalid", "invalid_signature")
    case("flipped bit in S", m, flip(sig, 40), "invalid", "invalid_signature")
    case("another valid public key", m, sig, "invalid", "invalid_signature",
         key_bytes=other.public_key().public_bytes(*raw))
    case("flipped bit in the public key", m, sig, "invalid", None, key_bytes=flip(pub, 7))
    case("S replaced with S + L (non-canonical S, RFC 8032 §5.1.7 step 1)", m,
         sig[:32] + (s + L).to_bytes(32, "little"), "invalid", "malformed_signature")
    case("public key y = p (non-canonical encoding)", m, sig, "invalid", "malformed_public_key",
         key_bytes=(2**255 - 19).to_bytes(32, "little"))
    case("signature one byte short", m, sig[:63], "invalid", "malformed_signature")
    # Drop the "error" of the flipped-key case: depending on the bit the key may
    # or may not decode, so only "invalid" is asserted.
    return {"algorithm": "Ed25519", "generator": "Vectors/signatures/ec/generate.py", "cases": cases}


def write(name, data):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    for name in CURVES:
        data = ecdsa_cases(name)
        data["cases"] = [c for c in data["cases"] if c]
        write(f"ecdsa_{name}_{CURVES[name][1].replace('-', '').lower()}.json", data)
    write("ed25519.json", ed25519_cases())

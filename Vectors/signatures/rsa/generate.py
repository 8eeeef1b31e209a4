#!/usr/bin/env python3
"""Generates Tack's RSA signature vectors (Vectors/signatures/rsa/).

Writes two files next to this script:

- signatures.json: RSA keys of 1024, 2048, 3072, 4096 and 8192 bits (e = 65537)
  and one 2048-bit key with e = 3, signatures made with Python `cryptography`
  (OpenSSL underneath) for PKCS #1 v1.5 and RSASSA-PSS with SHA-256/384/512,
  and corrupted variants that must not verify.
- modexp.json: arithmetic known answers s^e mod n computed with Python's pow,
  for moduli of awkward sizes, to test the Montgomery code directly.

Usage: python3 Vectors/signatures/rsa/generate.py
Every run draws new keys and messages; the committed files are one such run.
"""

import hashlib
import json
import os
import random
import secrets

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

HERE = os.path.dirname(os.path.abspath(__file__))

HASHES = {
    "sha256": (hashes.SHA256, 32),
    "sha384": (hashes.SHA384, 48),
    "sha512": (hashes.SHA512, 64),
}


def flip_bit(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 0x80 >> (bit % 8)
    return bytes(out)


def key_entry(public_numbers):
    n, e = public_numbers.n, public_numbers.e
    key = rsa.RSAPublicNumbers(e, n).public_key()
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.PKCS1)
    return {
        "bits": n.bit_length(),
        "n": format(n, "x").rjust((n.bit_length() + 7) // 8 * 2, "0"),
        "e": e,
        "pkcs1Der": der.hex(),
    }


def corrupted_modulus(n: int) -> int:
    # Flip a bit in the middle of n: same length, still odd, not the key.
    return n ^ (1 << (n.bit_length() // 2))


def sign(private_key, scheme, hash_name, message, salt_length=None):
    hash_class, _ = HASHES[hash_name]
    if scheme == "pkcs1v15":
        pad = padding.PKCS1v15()
    else:
        pad = padding.PSS(mgf=padding.MGF1(hash_class()), salt_length=salt_length)
    return private_key.sign(message, pad, hash_class())


def main():
    keys = {}
    cases = []

    def add(key, scheme, hash_name, message, signature, valid, comment, salt=None, mgf=None):
        case = {
            "key": key,
            "scheme": scheme,
            "hash": hash_name,
            "msg": message.hex(),
            "digest": hashlib.new(hash_name, message).hexdigest(),
            "sig": signature.hex(),
            "valid": valid,
            "comment": comment,
        }
        if scheme == "pss":
            case["mgf1Hash"] = mgf or hash_name
            case["saltLength"] = salt
        cases.append(case)

    specs = [(1024, 65537), (2048, 65537), (3072, 65537), (4096, 65537), (8192, 65537), (2048, 3)]
    for bits, e in specs:
        name = f"rsa{bits}" if e == 65537 else f"rsa{bits}-e{e}"
        private_key = rsa.generate_private_key(public_exponent=e, key_size=bits)
        numbers = private_key.public_key().public_numbers()
        keys[name] = key_entry(numbers)
        flipped_name = name + "-flipped"
        keys[flipped_name] = key_entry(rsa.RSAPublicNumbers(e, corrupted_modulus(numbers.n)))

        for hash_name, (_, hlen) in HASHES.items():
            # RFC 8017 §9.1.1 step 3: emLen ≥ hLen + sLen + 2. Only SHA-512
            # with a 1024-bit key needs a salt shorter than hLen.
            em_len = (bits - 1 + 7) // 8
            schemes = [("pkcs1v15", None), ("pss", min(hlen, em_len - hlen - 2))]
            if bits == 2048 and e == 65537:
                schemes += [("pss", 0), ("pss", 20)]
            for scheme, salt in schemes:
                label = scheme if salt is None else f"{scheme} salt {salt}"
                message = secrets.token_bytes(random.choice([0, 1, 55, 64, 200, 1000]))
                signature = sign(private_key, scheme, hash_name, message, salt)
                add(name, scheme, hash_name, message, signature, True, f"{label}: valid", salt)
                if message:
                    bit = random.randrange(len(message) * 8)
                    add(name, scheme, hash_name, flip_bit(message, bit), signature, False,
                        f"{label}: bit {bit} of the message flipped", salt)
                else:
                    add(name, scheme, hash_name, b"\x00", signature, False,
                        f"{label}: one byte appended to the empty message", salt)
                for bit in (0, 8 * len(signature) // 2, 8 * len(signature) - 1):
                    add(name, scheme, hash_name, message, flip_bit(signature, bit), False,
                        f"{label}: bit {bit} of the signature flipped", salt)
                add(flipped_name, scheme, hash_name, message, signature, False,
                    f"{label}: verified under a key with one modulus bit flipped", salt)
                for other in HASHES:
                    if other != hash_name:
                        add(name, scheme, other, message, signature, False,
                            f"{label}: made with {hash_name}, verified with {other}", salt)
                if scheme == "pss":
                    for wrong_salt in (salt + 1, max(salt - 1, 0) if salt else 1):
                        add(name, scheme, hash_name, message, signature, False,
                            f"{label}: verified with salt length {wrong_salt}", wrong_salt)
                    other_mgf = "sha512" if hash_name != "sha512" else "sha256"
                    add(name, scheme, hash_name, message, signature, False,
                        f"{label}: verified with MGF1-{other_mgf}", salt, other_mgf)
                    add(name, "pkcs1v15", hash_name, message, signature, False,
                        f"{label}: PSS signature verified as PKCS #1 v1.5")
                else:
                    add(name, "pss", hash_name, message, signature, False,
                        f"{label}: PKCS #1 v1.5 signature verified as PSS", hlen)
                # Truncated and extended signatures: wrong length.
                add(name, scheme, hash_name, message, signature[1:], False,
                    f"{label}: first signature byte removed", salt)
                add(name, scheme, hash_name, message, b"\x00" + signature, False,
                    f"{label}: zero byte prepended to the signature", salt)

        # s = n and s = n + small: out of range; s = 0 and s = 1: never valid.
        n = numbers.n
        k = (n.bit_length() + 7) // 8
        for value, comment in ((n, "s = n"), (n + 1, "s = n + 1"), (0, "s = 0"), (1, "s = 1"), (n - 1, "s = n - 1")):
            if value.bit_length() <= 8 * k:
                message = b"edge"
                add(name, "pkcs1v15", "sha256", message, value.to_bytes(k, "big"), False, f"pkcs1v15: {comment}")

    with open(os.path.join(HERE, "signatures.json"), "w") as f:
        json.dump({"keys": keys, "cases": cases}, f, indent=0)
        f.write("\n")

    # Arithmetic known answers.
    rng = random.Random(secrets.randbits(64))
    modexp = []
    for bits in (1024, 1025, 1087, 1088, 1500, 2047, 2048, 2049, 3072, 4095, 4096, 6000, 8191, 8192):
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        # n - 1 is all ones except bit 0, so every limb of the Montgomery
        # code sees its maximum; 2^64 - 1 and random bases fill the rest.
        if bits in (2048, 4096):
            n = (1 << bits) - 1
        answers = []
        for exponent in (3, 17, 65537, 0x1_0000_0001, (1 << 33) - 1):
            bases = (0, 1, 2, n - 1, (1 << 64) - 1, rng.randrange(n))
            for base in bases:
                answers.append([exponent, format(base, "x"), format(pow(base, exponent, n), "x")])
        modexp.append({"n": format(n, "x"), "cases": answers})
    with open(os.path.join(HERE, "modexp.json"), "w") as f:
        json.dump(modexp, f, indent=0)
        f.write("\n")
    print(f"{len(keys)} keys, {len(cases)} signature cases, {sum(len(m['cases']) for m in modexp)} modexp cases")


if __name__ == "__main__":
    main()

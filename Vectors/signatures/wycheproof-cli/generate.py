#!/usr/bin/env python3
"""Generate the synthetic Wycheproof-format file that checks the failure path of
`tack vectors wycheproof` (scripts/wycheproof-cli-check.sh).

Uses only Python `cryptography` (pyca, tested with 48.0). Ed25519 and Ed448
signatures are deterministic (RFC 8032) and the keys come from fixed seeds, so
re-running reproduces the file byte for byte:

    python3 Vectors/signatures/wycheproof-cli/generate.py

The file follows `eddsa_verify_schema_v1` and holds two groups:

1. An Ed25519 key with four vectors:
   - tcId 1: a correct signature, result "valid" (Tack must agree);
   - tcId 2: a correct signature whose result is flipped to "invalid": Tack
     verifies it, so the command must report a disagreement on tcId 2 and
     exit 1;
   - tcId 3: the signature of tcId 1 with one bit of S flipped, result
     "invalid" (Tack must agree);
   - tcId 4: a correct signature rated "acceptable": counted apart, never a
     failure.
2. An Ed448 key (tcId 5, a correct signature, "valid"): Tack has no Ed448, so
   the group must be reported as skipped.

Expected summary: 2 passed, 1 failed, 1 acceptable, 1 skipped group.
"""
import json
import os

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed448, ed25519

HERE = os.path.dirname(os.path.abspath(__file__))
RAW = (serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def vector(tc_id, comment, msg, sig, result, flags=()):
    return {"tcId": tc_id, "comment": comment, "flags": list(flags),
            "msg": msg.hex(), "sig": sig.hex(), "result": result}


def main():
    key = ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    pk = key.public_key().public_bytes(*RAW)
    msg1 = b"tack vectors wycheproof: agreeing vector"
    msg2 = b"tack vectors wycheproof: flipped result"
    msg4 = b"tack vectors wycheproof: acceptable vector"
    sig1 = key.sign(msg1)
    corrupted = bytearray(sig1)
    corrupted[40] ^= 0x01  # one bit of S; S stays below L (its top byte is untouched)
    ed25519_group = {
        "type": "EddsaVerify",
        "publicKey": {"type": "EDDSAPublicKey", "curve": "edwards25519", "keySize": 255, "pk": pk.hex()},
        "tests": [
            vector(1, "correct signature", msg1, sig1, "valid", ["Valid"]),
            vector(2, "correct signature, result flipped to invalid", msg2, key.sign(msg2), "invalid",
                   ["FlippedResult"]),
            vector(3, "bit of S flipped", msg1, bytes(corrupted), "invalid", ["ModifiedSignature"]),
            vector(4, "correct signature rated acceptable", msg4, key.sign(msg4), "acceptable", ["Synthetic"]),
        ],
    }

    key448 = ed448.Ed448PrivateKey.from_private_bytes(bytes(range(57)))
    msg5 = b"tack vectors wycheproof: Ed448 is skipped"
    ed448_group = {
        "type": "EddsaVerify",
        "publicKey": {"type": "EDDSAPublicKey", "curve": "edwards448", "keySize": 456,
                      "pk": key448.public_key().public_bytes(*RAW).hex()},
        "tests": [vector(5, "correct Ed448 signature", msg5, key448.sign(msg5), "valid", ["Valid"])],
    }

    document = {
        "algorithm": "EDDSA",
        "schema": "eddsa_verify_schema_v1.json",
        "numberOfTests": 5,
        "header": ["Synthetic file for the failure path of `tack vectors wycheproof`; see README.md."],
        "notes": {
            "FlippedResult": {"bugType": "NONE", "description": "A correct signature rated invalid on purpose."},
        },
        "testGroups": [ed25519_group, ed448_group],
    }
    with open(os.path.join(HERE, "eddsa_flipped_result_test.json"), "w") as out:
        json.dump(document, out, indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()

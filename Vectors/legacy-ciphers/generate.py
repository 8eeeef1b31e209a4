#!/usr/bin/env python3
"""Writes vectors.txt: DES-EDE3-CBC and RC2-CBC known answers made by OpenSSL.

Each case is encrypted by the `openssl enc` command line (OpenSSL 3; RC2 needs
its legacy provider) with PKCS #7 padding, from fixed keys, IVs and plaintexts
derived from SHA-256 of a label, so that the file is reproducible:

    python3 Vectors/legacy-ciphers/generate.py > Vectors/legacy-ciphers/vectors.txt

Line format (fields separated by one space, hex lower case, `-` for empty):
    ALGORITHM KEY EFFECTIVE_BITS IV PLAINTEXT CIPHERTEXT
ALGORITHM is des-ede3-cbc (24-byte key), des-ede-cbc (16-byte two-key) or
rc2-cbc (EFFECTIVE_BITS is RFC 2268's T1; 0 for DES).
"""
import hashlib
import subprocess


def derive(label: str, count: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < count:
        out += hashlib.sha256(f"{label}/{counter}".encode()).digest()
        counter += 1
    return out[:count]


def openssl(cipher: str, key: bytes, iv: bytes, plaintext: bytes, extra=()) -> bytes:
    command = ["openssl", "enc", "-e", f"-{cipher}", "-K", key.hex(), "-iv", iv.hex(), *extra]
    return subprocess.run(command, input=plaintext, capture_output=True, check=True).stdout


def main() -> None:
    print("# DES-EDE3-CBC and RC2-CBC known answers from `openssl enc` (generate.py)")
    for length in (0, 1, 7, 8, 9, 16, 31, 64):
        key = derive(f"3des-key-{length}", 24)
        iv = derive(f"3des-iv-{length}", 8)
        plaintext = derive(f"3des-pt-{length}", length)
        ct = openssl("des-ede3-cbc", key, iv, plaintext)
        print("des-ede3-cbc", key.hex(), 0, iv.hex(), plaintext.hex() or "-", ct.hex())
        two = key[:16]
        ct = openssl("des-ede-cbc", two, iv, plaintext)
        print("des-ede-cbc", two.hex(), 0, iv.hex(), plaintext.hex() or "-", ct.hex())
    legacy = ("-provider", "legacy", "-provider", "default")
    for length in (0, 5, 8, 13, 40):
        iv = derive(f"rc2-iv-{length}", 8)
        plaintext = derive(f"rc2-pt-{length}", length)
        key40 = derive(f"rc2-key40-{length}", 5)
        ct = openssl("rc2-40-cbc", key40, iv, plaintext, legacy)
        print("rc2-cbc", key40.hex(), 40, iv.hex(), plaintext.hex() or "-", ct.hex())
        key128 = derive(f"rc2-key128-{length}", 16)
        ct = openssl("rc2-cbc", key128, iv, plaintext, legacy)
        print("rc2-cbc", key128.hex(), 128, iv.hex(), plaintext.hex() or "-", ct.hex())


if __name__ == "__main__":
    main()

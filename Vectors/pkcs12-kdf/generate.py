#!/usr/bin/env python3
"""Generates vectors.txt: PKCS #12 key derivation (RFC 7292 appendix B.2)
known answers computed by OpenSSL 3's PKCS12KDF (`openssl kdf ... PKCS12KDF`).

Each line: digest id iterations key-length password salt-hex key-hex, where
password is the UTF-8 password in hex, "-" for the empty string and "absent"
for no password; the BMPString bytes the derivation reads are computed by the
test from it (PKCS12KeyDerivation.passwordBytes) and here from the same rule,
UTF-16BE plus two zero bytes (nothing at all when absent).

Usage: python3 generate.py > vectors.txt   (needs openssl 3 on PATH)
"""
import subprocess

DIGESTS = ["SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA512-224", "SHA512-256"]
NAMES = {"SHA1": "sha1", "SHA224": "sha224", "SHA256": "sha256", "SHA384": "sha384",
         "SHA512": "sha512", "SHA512-224": "sha512_224", "SHA512-256": "sha512_256"}
PASSWORDS = [None, "", "smeg", "queeg", "p\u00e4ssw\u00f6rd \U0001F511 \u6f22\u5b57",
             "a much longer passphrase that spans more than one sixty-four byte block when encoded as UTF-16"]
SALTS = ["0a58cf64530d823f", "05dec959acff72f7", "00" * 1 + "ff" * 19,
         bytes(range(65)).hex()]
CASES = [  # (iterations, key length)
    (1, 24), (1000, 24), (2048, 20), (2, 8), (3, 100), (1, 0),
]


def bmp(password):
    if password is None:
        return b""
    return password.encode("utf-16-be") + b"\x00\x00"


def derive(digest, ident, iterations, length, password, salt_hex):
    if length == 0:
        return ""
    args = ["openssl", "kdf", "-keylen", str(length), "-kdfopt", "digest:" + digest,
            "-kdfopt", "iter:%d" % iterations, "-kdfopt", "id:%d" % ident]
    pw = bmp(password)
    if pw:
        args += ["-kdfopt", "hexpass:" + pw.hex()]
    else:
        args += ["-kdfopt", "pass:"]
    args += ["-kdfopt", ("hexsalt:" + salt_hex) if salt_hex else "salt:"]
    args.append("PKCS12KDF")
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return out.strip().replace(":", "").lower()


def password_field(password):
    if password is None:
        return "absent"
    if password == "":
        return "-"
    return password.encode("utf-8").hex()


print("# PKCS #12 KDF (RFC 7292 appendix B.2) answers from OpenSSL 3 PKCS12KDF; see README.md.")
print("# digest id iterations key-length password(utf-8 hex | - empty | absent) salt-hex(- empty) key-hex(- empty)")
index = 0
for digest in DIGESTS:
    for ident in (1, 2, 3):
        for iterations, length in CASES:
            password = PASSWORDS[index % len(PASSWORDS)]
            salt = SALTS[index % len(SALTS)]
            index += 1
            key = derive(digest, ident, iterations, length, password, salt)
            print(NAMES[digest], ident, iterations, length, password_field(password), salt or "-", key or "-")

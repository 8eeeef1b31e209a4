#!/usr/bin/env python3
"""Writes Tests/Embedded/Generated/KnownAnswers*.swift: the known answers the
Embedded Swift test program (Tests/Embedded) checks, compiled into it because a
bare-metal program has no file system.

Usage: python3 Tests/Embedded/generate-vectors.py [--check]
  (from anywhere; standard library only). With --check, exits 1 if the committed
  file differs from what the script would write (scripts/embedded-check.sh runs
  this, so the compiled-in answers cannot drift from Vectors/).

Sources, all committed in this repository:
  - SHA-2: FIPS 180-4 / NIST "Cryptographic Standards and Guidelines: Examples
    with Intermediate Values" digests of "abc", the 448-bit and 896-bit messages
    (checked here against hashlib before they are written), and
    Vectors/sha2/lengths.txt (lengths 0...300 of four functions).
  - DER: Vectors/der/malformed (bytes, DERError.Reason, offset, from manifest.tsv)
    and Vectors/der/valid (bytes, which must parse and re-encode identically).
  - Certificates: every file of Vectors/certs/manifest.txt (DER from the PEM,
    the OpenSSL pin, the SHA-256 fingerprint, notAfter in seconds since 1970).
  - Signatures: leaf-under-CA pairs of Vectors/certs (and mutated copies), every
    case of Vectors/signatures/ec/*.json, and the RSA-2048 cases of
    Vectors/signatures/rsa/signatures.json.
  - Primitives (Generated/KnownAnswersPrimitives.swift): SHA-1 (FIPS 180-4 examples
    with NIST's digests, and hashlib's digests of the pattern messages 0...129);
    HMAC over every hash on the RFC 4231 / RFC 2202 inputs (hmac module, checked
    against three published codes); PBKDF2 (RFC 6070's keys, checked with hashlib,
    and hashlib's SHA-256/512 keys of the same inputs); a selection of
    Vectors/pkcs12-kdf/vectors.txt; AES: FIPS 197 appendix C blocks and AES-CBC
    with PKCS #7 padding from Python's cryptography (which must be installed); one
    small Vectors/pkcs12 file with what cryptography reads from it.

The generated file uses only stable public API names: DERError.Reason cases,
ECCurve cases, DigestAlgorithm cases. Hex strings are StaticString literals
(fast to compile, decoded by the program at run time).
"""
import base64
import calendar
import hashlib
import ipaddress
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VECTORS = os.path.join(ROOT, "Vectors")
# Two files: the SHA-2 and DER answers need only TackDER and TackDigest, so the
# program can also be built against those two modules alone (-D CORE_ONLY).
OUTPUT = os.path.join(HERE, "Generated", "KnownAnswers.swift")
OUTPUT_X509 = os.path.join(HERE, "Generated", "KnownAnswersX509.swift")
OUTPUT_TRUST = os.path.join(HERE, "Generated", "KnownAnswersTrust.swift")
# The primitives under PKCS #12 (SHA-1, HMAC, PBKDF2, the PKCS #12 KDF: TackDigest;
# AES-CBC: TackCipher).
OUTPUT_PRIMITIVES = os.path.join(HERE, "Generated", "KnownAnswersPrimitives.swift")
OUTPUT_CT = os.path.join(HERE, "Generated", "KnownAnswersCT.swift")

# FIPS 180-4 example messages with NIST's published digests
# (csrc.nist.gov, "Examples with Intermediate Values", SHA224/256/384/512.pdf).
FIPS_MESSAGES = {
    "abc": b"abc",
    "448-bit": b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "896-bit": b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
}
FIPS_DIGESTS = {
    ("sha224", "abc"): "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
    ("sha256", "abc"): "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ("sha384", "abc"): "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    ("sha512", "abc"): "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ("sha224", "448-bit"): "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
    ("sha256", "448-bit"): "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ("sha384", "896-bit"): "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
    ("sha512", "896-bit"): "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
}
# One million "a" (FIPS 180-4 examples); the program builds the message itself.
MILLION_A = {
    "sha224": "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
    "sha256": "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    "sha384": "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
    "sha512": "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
}


def der_reason_case(code):
    """The `DERError.Reason` case whose stable code (manifest.tsv's column) is `code`,
    read from the code switch of Sources/TackDER/DERError.swift."""
    with open(os.path.join(ROOT, "Sources", "TackDER", "DERError.swift")) as f:
        cases = {c: name for name, c in re.findall(r'case \.(\w+): "(\w+)"', f.read())}
    assert code in cases, f"no DERError.Reason has the code {code}"
    return cases[code]


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def pem_to_der(text):
    body = re.search(r"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", text, re.S)
    return base64.b64decode("".join(body.group(1).split()))


def der_children(data, offset):
    """(tag, header length, contents length) at offset: enough to find fields."""
    tag = data[offset]
    first = data[offset + 1]
    if first < 0x80:
        return tag, 2, first
    count = first & 0x7F
    return tag, 2 + count, int.from_bytes(data[offset + 2:offset + 2 + count], "big")


def not_after_seconds(der):
    """notAfter of a certificate, in seconds since 1970, read by a tiny DER walk
    (independent of Tack): Certificate > TBSCertificate > validity > notAfter."""
    _, h, _ = der_children(der, 0)
    tbs = h
    _, h, _ = der_children(der, tbs)
    pos = tbs + h
    tag, h, n = der_children(der, pos)
    if tag == 0xA0:  # version
        pos += h + n
    for _ in range(2):  # serialNumber, signature
        _, h, n = der_children(der, pos)
        pos += h + n
    _, h, n = der_children(der, pos)  # issuer
    pos += h + n
    _, h, _ = der_children(der, pos)  # validity
    pos += h
    _, h, n = der_children(der, pos)  # notBefore
    pos += h + n
    tag, h, n = der_children(der, pos)
    text = der[pos + h:pos + h + n].decode()
    if tag == 0x17:
        year = int(text[:2])
        text = str(1900 + year if year >= 50 else 2000 + year) + text[2:]
    fields = (int(text[0:4]), int(text[4:6]), int(text[6:8]), int(text[8:10]), int(text[10:12]), int(text[12:14]))
    return calendar.timegm(fields + (0, 0, 0))


def tbs_fields(der):
    """Offsets of the TBSCertificate fields up to subjectPublicKeyInfo: a list of
    (offset, total length) for version?, serial, signature, issuer, validity,
    subject, subjectPublicKeyInfo (a tiny DER walk, independent of Tack)."""
    _, h, _ = der_children(der, 0)
    tbs = h
    _, h, _ = der_children(der, tbs)
    pos = tbs + h
    fields = []
    tag, h, n = der_children(der, pos)
    if tag == 0xA0:
        pos += h + n
    for _ in range(6):  # serial, signature, issuer, validity, subject, SPKI
        _, h, n = der_children(der, pos)
        fields.append((pos, h + n))
        pos += h + n
    return fields


def spki_pin(der):
    """The SPKI pin: Base64 of SHA-256 over the DER SubjectPublicKeyInfo."""
    start, length = tbs_fields(der)[5]
    return base64.b64encode(hashlib.sha256(der[start:start + length]).digest()).decode()


def generate():
    out = []
    w = out.append
    w("// Generated by Tests/Embedded/generate-vectors.py from Vectors/; do not edit.")
    w("// Regenerate: python3 Tests/Embedded/generate-vectors.py")
    w("")
    w("import TackDER")
    w("")

    # SHA-2.
    for (name, label), digest in FIPS_DIGESTS.items():
        assert hashlib.new(name, FIPS_MESSAGES[label]).hexdigest() == digest, (name, label)
    for name, digest in MILLION_A.items():
        assert hashlib.new(name, b"a" * 1_000_000).hexdigest() == digest, name
    w("/// FIPS 180-4 example messages: (algorithm, message, expected digest in hex).")
    w("let fipsExamples: [(SHA2Name, StaticString, StaticString)] = [")
    for (name, label), digest in FIPS_DIGESTS.items():
        w(f"    (.{name}, {swift_string(FIPS_MESSAGES[label].decode())}, \"{digest}\"),")
    w("]")
    w("")
    w("/// The digest of one million \"a\" (FIPS 180-4 examples), per algorithm.")
    w("let millionADigests: [(SHA2Name, StaticString)] = [")
    for name, digest in MILLION_A.items():
        w(f"    (.{name}, \"{digest}\"),")
    w("]")
    w("")
    lengths = {}
    with open(os.path.join(VECTORS, "sha2", "lengths.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, length, digest = line.split()
            lengths.setdefault(name, []).append((int(length), digest))
    w("/// Vectors/sha2/lengths.txt: the digests of the messages of lengths 0, 1, 2, ...")
    w("/// (byte i is (i * 7 + 3) mod 256), concatenated in hex, per algorithm.")
    w("let lengthDigests: [(SHA2Name, StaticString)] = [")
    for name in ("sha224", "sha256", "sha384", "sha512"):
        rows = lengths[name]
        assert [n for n, _ in rows] == list(range(len(rows))), name
        for n, digest in rows[:3]:  # spot-check the committed file against hashlib
            assert hashlib.new(name, bytes((i * 7 + 3) % 256 for i in range(n))).hexdigest() == digest
        w(f"    (.{name}, \"{''.join(d for _, d in rows)}\"),")
    w("]")
    w("")

    # DER.
    malformed = []
    with open(os.path.join(VECTORS, "der", "malformed", "manifest.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, reason, offset, note = line.rstrip("\n").split("\t")
            with open(os.path.join(VECTORS, "der", "malformed", name), "rb") as g:
                malformed.append((name, g.read().hex(), reason, int(offset)))
    w("/// Vectors/der/malformed: (file, DER, expected reason, expected offset).")
    w("let malformedDER: [(StaticString, StaticString, DERError.Reason, Int)] = [")
    for name, data, reason, offset in malformed:
        w(f"    (\"{name}\", \"{data}\", .{der_reason_case(reason)}, {offset}),")
    w("]")
    w("")
    valid_dir = os.path.join(VECTORS, "der", "valid")
    w("/// Vectors/der/valid: (file, DER) that parses and re-encodes byte for byte.")
    w("let validDER: [(StaticString, StaticString)] = [")
    for name in sorted(os.listdir(valid_dir)):
        if name.endswith(".der"):
            with open(os.path.join(valid_dir, name), "rb") as g:
                w(f"    (\"{name}\", \"{g.read().hex()}\"),")
    w("]")
    w("")

    first = "\n".join(out) + "\n"
    out.clear()
    w("// Generated by Tests/Embedded/generate-vectors.py from Vectors/; do not edit.")
    w("// Regenerate: python3 Tests/Embedded/generate-vectors.py")
    w("")
    w("#if !CORE_ONLY")
    w("import TackDigest")
    w("import TackSignature")
    w("import TackX509")
    w("")

    # Certificates.
    certs = []
    with open(os.path.join(VECTORS, "certs", "manifest.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            name, pin, fingerprint = fields[0], fields[4], fields[5]
            with open(os.path.join(VECTORS, "certs", name)) as g:
                der = pem_to_der(g.read())
            assert hashlib.sha256(der).hexdigest() == fingerprint.replace(":", "").lower(), name
            certs.append((name, der, pin, fingerprint.replace(":", "").lower(), not_after_seconds(der)))
    w("/// Vectors/certs/manifest.txt: (file, DER, OpenSSL pin in Base64, SHA-256")
    w("/// fingerprint in hex, notAfter in seconds since 1970).")
    w("let certificates: [(StaticString, StaticString, StaticString, StaticString, Int64)] = [")
    for name, der, pin, fingerprint, not_after in certs:
        w(f"    (\"{name}\", \"{der.hex()}\", \"{pin}\", \"{fingerprint}\", {not_after}),")
    w("]")
    w("")

    # Certificate signatures: indices into `certificates`.
    index = {name: i for i, (name, *_rest) in enumerate(certs)}
    pairs = []
    for kind in ("rsa2048", "rsa3072", "rsa4096", "p256", "p384", "p521", "ed25519"):
        pairs.append((f"{kind}-leaf.pem", f"{kind}-ca.pem", True))
        pairs.append((f"{kind}-ca.pem", f"{kind}-ca.pem", True))
    pairs += [
        ("chain-leaf.pem", "chain-intermediate.pem", True),
        ("chain-intermediate.pem", "chain-root.pem", True),
        ("chain-leaf.pem", "chain-root.pem", False),
        ("p256-leaf.pem", "p384-ca.pem", False),
        ("rsa2048-leaf.pem", "rsa4096-ca.pem", False),
        ("ed25519-leaf.pem", "p256-ca.pem", False),
    ]
    w("/// Certificate signatures: (subject index, issuer index into `certificates`,")
    w("/// whether the subject's signature verifies under the issuer's key).")
    w("let certificateSignatures: [(Int, Int, Bool)] = [")
    for subject, issuer, valid in pairs:
        w(f"    ({index[subject]}, {index[issuer]}, {'true' if valid else 'false'}),  // {subject} under {issuer}")
    w("]")
    w("")

    # ECDSA and Ed25519 (Vectors/signatures/ec).
    curves = {"P-256": "p256", "P-384": "p384", "P-521": "p521"}
    w("/// Vectors/signatures/ec/ecdsa_*.json: (curve, X9.62 key, message, hash,")
    w("/// DER signature, valid).")
    w("let ecdsaVectors: [(ECCurve, StaticString, StaticString, SHA2Name, StaticString, Bool)] = [")
    for file in ("ecdsa_p256_sha256.json", "ecdsa_p384_sha384.json", "ecdsa_p521_sha512.json"):
        with open(os.path.join(VECTORS, "signatures", "ec", file)) as f:
            data = json.load(f)
        for case in data["cases"]:
            hash_name = case["hash"].replace("-", "").lower()
            # The program hashes the message itself; the file's digest must agree.
            assert hashlib.new(hash_name, bytes.fromhex(case["message"])).hexdigest() == case["digest"], case["comment"]
            w(f"    (.{curves[data['curve']]}, \"{case['key']}\", \"{case['message']}\", .{hash_name}, "
              f"\"{case['signature']}\", {'true' if case['result'] == 'valid' else 'false'}),  // {case['comment']}")
    w("]")
    w("")
    with open(os.path.join(VECTORS, "signatures", "ec", "ed25519.json")) as f:
        data = json.load(f)
    w("/// Vectors/signatures/ec/ed25519.json: (key, message, signature, valid).")
    w("let ed25519Vectors: [(StaticString, StaticString, StaticString, Bool)] = [")
    for case in data["cases"]:
        w(f"    (\"{case['key']}\", \"{case['message']}\", \"{case['signature']}\", "
          f"{'true' if case['result'] == 'valid' else 'false'}),  // {case['comment']}")
    w("]")
    w("")

    # RSA (Vectors/signatures/rsa/signatures.json), the 2048-bit keys.
    with open(os.path.join(VECTORS, "signatures", "rsa", "signatures.json")) as f:
        data = json.load(f)
    keys = ["rsa2048", "rsa2048-flipped", "rsa2048-e3"]
    w("/// Vectors/signatures/rsa/signatures.json, keys of 2048 bits: PKCS #1 RSAPublicKey DER.")
    w("let rsaKeys: [StaticString] = [")
    for key in keys:
        w(f"    \"{data['keys'][key]['pkcs1Der']}\",  // {key}")
    w("]")
    w("")
    w("/// (key index, PSS (else PKCS #1 v1.5), hash, MGF1 hash, salt length, message,")
    w("/// signature, valid).")
    w("let rsaVectors: [(Int, Bool, DigestAlgorithm, DigestAlgorithm, Int, StaticString, StaticString, Bool)] = [")
    for case in data["cases"]:
        if case["key"] not in keys:
            continue
        pss = case["scheme"] == "pss"
        mgf = case.get("mgf1Hash") or case["hash"]
        salt = case.get("saltLength")
        salt = salt if isinstance(salt, int) else 0
        w(f"    ({keys.index(case['key'])}, {'true' if pss else 'false'}, .{case['hash']}, .{mgf}, {salt}, "
          f"\"{case['msg']}\", \"{case['sig']}\", {'true' if case['valid'] else 'false'}),  // {case['comment']}")
    w("]")
    w("#endif")
    second = "\n".join(out) + "\n"
    return first, second, generate_trust(), generate_primitives(), generate_ct()


def generate_ct():
    """Certificate Transparency (issue 33): Vectors/ct's log list, its CA, and every
    case of Vectors/ct/manifest.txt whose SCTs are all embedded (no OCSP, no TLS
    list), with the status of each SCT and the verdict of each policy."""
    folder = os.path.join(VECTORS, "ct")
    cases, current = [], None
    with open(os.path.join(folder, "manifest.txt")) as f:
        for line in f:
            line = line.strip()
            if line.startswith("[case "):
                current = {"name": line[len("[case "):-1]}
                cases.append(current)
            elif current is not None and " = " in line:
                key, value = line.split(" = ", 1)
                current[key] = value
            elif current is not None and line.endswith(" ="):
                current[line[:-2]] = ""
    embedded = [c for c in cases if c.get("chain") and not c.get("ocsp") and not c.get("tls")]
    assert embedded, "no embedded-only CT case in Vectors/ct/manifest.txt"
    def read_hex(name):
        with open(os.path.join(folder, name), "rb") as f:
            return f.read().hex()
    with open(os.path.join(folder, "loglist.json"), encoding="utf-8") as f:
        log_list = f.read()
    out = []
    w = out.append
    w("// Generated by Tests/Embedded/generate-vectors.py from Vectors/ct; do not edit.")
    w("// Regenerate: python3 Tests/Embedded/generate-vectors.py")
    w("")
    w("#if !CORE_ONLY")
    w("/// Vectors/ct/loglist.json, the generated logs' v3 log list.")
    w("let ctLogListJSON: StaticString = " + swift_string(log_list.replace("\n", "\\n")).replace("\\\\n", "\\n"))
    w("")
    w("/// Vectors/ct/ca.der, the issuer of every case.")
    w(f"let ctIssuerDER: StaticString = \"{read_hex('ca.der')}\"")
    w("")
    w("/// (case, leaf DER, check time, each SCT's status, the apple and chrome verdicts).")
    w("let ctCases: [(StaticString, StaticString, Int64, StaticString, StaticString, StaticString)] = [")
    for c in embedded:
        w(f"    (\"{c['name']}\", \"{read_hex(c['chain'])}\", {int(c['time'])}, \"{c['statuses']}\", "
          f"\"{c['apple']}\", \"{c['chrome']}\"),")
    w("]")
    w("#endif")
    return "\n".join(out) + "\n"


# Chain cases beyond Vectors/chains/manifest.txt, on certificates of Vectors/certs:
# validation times past 2^31 s (2038-01-19), 2^32 s (2106-02-07) and at
# 9999-12-31T23:59:59Z, which a 32-bit time would wrap (the leaf is valid
# 2025..2035, its CA to 2050). The verdicts were checked with TackTrust on x86-64.
Y2038_CASES = [
    ("certs-p256-valid", 1748736000, "trusted"),
    ("certs-p256-at-2-31", 2**31, "expired"),
    ("certs-p256-at-2-32", 2**32, "expired"),
    ("certs-p256-at-9999", 253402300799, "expired"),
]


def generate_trust():
    out = []
    w = out.append
    w("// Generated by Tests/Embedded/generate-vectors.py from Vectors/; do not edit.")
    w("// Regenerate: python3 Tests/Embedded/generate-vectors.py")
    w("")
    w("#if !CORE_ONLY")
    w("")

    # Integers at the 32- and 64-bit boundaries (Vectors/extensions/int-widths).
    widths = os.path.join(VECTORS, "extensions", "int-widths")
    w("/// Vectors/extensions/int-widths/manifest.tsv: (file, extension, DER extension value,")
    w("/// the INTEGER's value as two 64-bit halves (high, low), offset of the INTEGER).")
    w("let intWidthVectors: [(StaticString, StaticString, StaticString, UInt64, UInt64, Int)] = [")
    with open(os.path.join(widths, "manifest.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, extension, value, offset = line.rstrip("\n").split("\t")
            value = int(value)
            with open(os.path.join(widths, name), "rb") as g:
                der = g.read()
            w(f"    (\"{name}\", \"{extension}\", \"{der.hex()}\", {value >> 64}, {value & (2**64 - 1)}, {offset}),")
    w("]")
    w("")

    # Chains (Vectors/chains/manifest.txt), every case but the 500-decoy ones (their
    # speed is tack-bench's; the budget is tested on the host).
    cases = []
    for section in open(os.path.join(VECTORS, "chains", "manifest.txt")).read().split("\n[case ")[1:]:
        name = section.split("]")[0]
        if name.startswith("decoys"):
            continue
        fields = {}
        for line in section.splitlines()[1:]:
            if "=" in line and not line.startswith("#"):
                key, value = (part.strip() for part in line.split("=", 1))
                fields[key] = value
        cases.append((name, fields))
    files = []

    def file_index(path):
        if path not in files:
            files.append(path)
        return files.index(path)

    def read_vector(path):
        if path.startswith("certs/"):
            with open(os.path.join(VECTORS, path)) as f:
                return pem_to_der(f.read())
        with open(os.path.join(VECTORS, "chains", path), "rb") as f:
            return f.read()

    def host(text):
        if text.startswith("dns:"):
            return ".dns", text[4:]
        if text.startswith("ip:"):
            return ".ip", ipaddress.ip_address(text[3:]).packed.hex()
        assert text == "none", text
        return ".none", ""

    rows = []
    for name, fields in cases:
        indices = {key: [file_index(p) for p in fields.get(key, "").split()] for key in ("anchors", "chain", "crls")}
        kind, value = host(fields.get("host", "none"))
        client = "true" if fields.get("purpose") == "client" else "false"
        expected = ", ".join(f'"{e}"' for e in fields["expect"].split("|"))
        rows.append(f'    ("{name}", {indices["anchors"]}, {indices["chain"]}, {indices["crls"]}, {int(fields["time"])}, '
                    f'{kind}, "{value}", {client}, [{expected}]),')
    for name, time, expect in Y2038_CASES:
        anchors, chain = [file_index("certs/p256-ca.pem")], [file_index("certs/p256-leaf.pem")]
        rows.append(f'    ("{name}", {anchors}, {chain}, [], {time}, .dns, "p256.example.com", false, ["{expect}"]),')

    # Pins over the rsa family of Vectors/chains (trust first, pins second).
    ders = {p: read_vector(p) for p in ("rsa/root.der", "rsa/intermediate.der", "rsa/leaf.der",
                                        "ecdsa/root.der", "ecdsa/intermediate.der", "ecdsa/leaf.der")}
    pin = {p: spki_pin(d) for p, d in ders.items()}
    rsa_anchor = [file_index("rsa/root.der")]
    rsa_chain = [file_index("rsa/leaf.der"), file_index("rsa/intermediate.der")]
    pin_cases = [
        # (name, anchors, chain, host, rule domain, CA pins, leaf pins, outcome, success)
        ("ca-pin-intermediate", rsa_anchor, rsa_chain, "example.com", "example.com",
         [pin["rsa/intermediate.der"], pin["ecdsa/intermediate.der"]], [], "satisfied", True),
        ("ca-pin-anchor", rsa_anchor, rsa_chain, "example.com", "example.com",
         [pin["ecdsa/root.der"], pin["rsa/root.der"]], [], "satisfied", True),
        ("leaf-pin", rsa_anchor, rsa_chain, "example.com", "example.com",
         [], [pin["rsa/leaf.der"], pin["ecdsa/leaf.der"]], "satisfied", True),
        ("pin-mismatch", rsa_anchor, rsa_chain, "example.com", "example.com",
         [pin["ecdsa/intermediate.der"], pin["ecdsa/root.der"]], [], "failed", False),
        ("leaf-pin-in-ca-list", rsa_anchor, rsa_chain, "example.com", "example.com",
         [pin["rsa/leaf.der"], pin["ecdsa/root.der"]], [], "failed", False),
        ("ca-and-leaf-lists-and", rsa_anchor, rsa_chain, "example.com", "example.com",
         [pin["rsa/intermediate.der"], pin["ecdsa/root.der"]], [pin["ecdsa/leaf.der"], pin["ecdsa/intermediate.der"]],
         "failed", False),
        ("untrusted-chain-not-evaluated", rsa_anchor, [file_index("rsa/leaf.der")], "example.com", "example.com",
         [pin["rsa/intermediate.der"], pin["rsa/root.der"]], [], "not_evaluated", False),
        ("other-host-not-pinned", rsa_anchor, rsa_chain, "example.com", "example.org",
         [pin["ecdsa/intermediate.der"], pin["ecdsa/root.der"]], [], "not_pinned", True),
    ]

    w("/// DER files of Vectors/chains (and two of Vectors/certs, from PEM), indexed by the cases.")
    w("let chainFiles: [(StaticString, StaticString)] = [")
    for path in files:
        w(f'    ("{path}", "{read_vector(path).hex()}"),')
    w("]")
    w("")
    w("/// How a case names the peer.")
    w("enum HostKind { case dns, ip, none }")
    w("")
    w("/// Vectors/chains/manifest.txt without the decoy cases, then the cases past 2038:")
    w("/// (case, anchors, chain as sent (leaf first), CRLs (indices into `chainFiles`),")
    w("/// validation time in seconds since 1970, host kind, host (a name, or the address in")
    w("/// hex), client purpose (else server), the verdicts accepted: trusted or a")
    w("/// TrustFailure.Reason case name).")
    w("let chainCases: [(StaticString, [Int], [Int], [Int], Int64, HostKind, StaticString, Bool, [StaticString])] = [")
    out.extend(rows)
    w("]")
    w("")
    w("/// Pin policies over the rsa chain of Vectors/chains at 2025-06-01 (1748736000):")
    w("/// (case, anchors, chain, host, rule domain, NSPinnedCAIdentities,")
    w("/// NSPinnedLeafIdentities, PinOutcome code, TrustDecision.isTrusted).")
    w("let pinCases: [(StaticString, [Int], [Int], StaticString, StaticString, [StaticString], [StaticString], StaticString, Bool)] = [")
    for name, anchors, chain, hostname, domain, ca, leaf, outcome, success in pin_cases:
        ca_list = ", ".join(f'"{p}"' for p in ca)
        leaf_list = ", ".join(f'"{p}"' for p in leaf)
        w(f'    ("{name}", {anchors}, {chain}, "{hostname}", "{domain}", [{ca_list}], [{leaf_list}], "{outcome}", '
          f'{"true" if success else "false"}),')
    w("]")
    w("")

    # Stapled OCSP responses (Vectors/ocsp/manifest.txt): every case.
    ocsp_files = []

    def ocsp_index(path):
        if path not in ocsp_files:
            ocsp_files.append(path)
        return ocsp_files.index(path)
    ocsp_rows = []
    for section in open(os.path.join(VECTORS, "ocsp", "manifest.txt")).read().split("\n[case ")[1:]:
        name = section.split("]")[0]
        fields = {}
        for line in section.splitlines()[1:]:
            if "=" in line and not line.startswith("#"):
                key, value = (part.strip() for part in line.split("=", 1))
                fields[key] = value
        indices = {key: [ocsp_index(p) for p in fields.get(key, "").split()] for key in ("anchors", "chain", "ocsp", "crls")}
        ocsp_rows.append(f'    ("{name}", {indices["anchors"]}, {indices["chain"]}, {indices["ocsp"]}, {indices["crls"]}, '
                         f'{int(fields["time"])}, "{fields["revocation"]}", "{fields["expect"]}"),')
    w("/// DER files of Vectors/ocsp, indexed by the OCSP cases.")
    w("let ocspFiles: [(StaticString, StaticString)] = [")
    for path in ocsp_files:
        with open(os.path.join(VECTORS, "ocsp", path), "rb") as f:
            w(f'    ("{path}", "{f.read().hex()}"),')
    w("]")
    w("")
    w("/// Vectors/ocsp/manifest.txt: (case, anchors, chain as sent, OCSP responses, CRLs (indices")
    w("/// into `ocspFiles`), validation time, revocation policy (none, soft, hard), TrustDecision code);")
    w("/// host example.com.")
    w("let ocspCases: [(StaticString, [Int], [Int], [Int], [Int], Int64, StaticString, StaticString)] = [")
    out.extend(ocsp_rows)
    w("]")
    w("#endif")
    return "\n".join(out) + "\n"


# SHA-1 (FIPS 180-4 examples, NIST's published digests).
SHA1_EXAMPLES = [
    (b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    (FIPS_MESSAGES["448-bit"], "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    (FIPS_MESSAGES["896-bit"], "a49b2446a02c645bf419f995b67091253a04a259"),
]
SHA1_MILLION_A = "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
# The SHA-1 pattern messages (byte i = (i * 7 + 3) mod 256) of lengths 0...SHA1_LENGTHS - 1.
SHA1_LENGTHS = 130

# RFC 4231 §4.2-4.8 inputs (key, data, truncated output bytes or None); RFC 2202 §3's
# for HMAC-SHA-1. Outputs from Python's hmac, checked against the RFCs' for two cases.
RFC4231 = [
    (b"\x0b" * 20, b"Hi There", None),
    (b"Jefe", b"what do ya want for nothing?", None),
    (b"\xaa" * 20, b"\xdd" * 50, None),
    (bytes(range(1, 26)), b"\xcd" * 50, None),
    (b"\x0c" * 20, b"Test With Truncation", 16),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First", None),
    (b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger than block-size data. "
     b"The key needs to be hashed before being used by the HMAC algorithm.", None),
]
RFC2202 = [
    (b"\x0b" * 20, b"Hi There", None),
    (b"Jefe", b"what do ya want for nothing?", None),
    (b"\xaa" * 20, b"\xdd" * 50, None),
    (bytes(range(1, 26)), b"\xcd" * 50, None),
    (b"\x0c" * 20, b"Test With Truncation", 12),
    (b"\xaa" * 80, b"Test Using Larger Than Block-Size Key - Hash Key First", None),
    (b"\xaa" * 80, b"Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data", None),
]
RFC_HMAC_SPOT_CHECKS = {
    ("sha1", 0): "b617318655057264e28bc0b6fb378c8ef146be00",
    ("sha256", 0): "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    ("sha512", 1): "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
}
# DigestAlgorithm case names and hashlib names.
HMAC_HASHES = [("sha1", "sha1"), ("sha224", "sha224"), ("sha256", "sha256"), ("sha384", "sha384"),
               ("sha512", "sha512"), ("sha512_224", "sha512_224"), ("sha512_256", "sha512_256")]

# RFC 6070 (PBKDF2-HMAC-SHA-1; the 16,777,216-iteration case left out), with its published keys;
# the same inputs under SHA-256 and SHA-512 from hashlib.pbkdf2_hmac.
RFC6070 = [
    (b"password", b"salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
    (b"password", b"salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
    (b"password", b"salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"),
    (b"passwordPASSWORDpassword", b"saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25,
     "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"),
    (b"pass\x00word", b"sa\x00lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"),
]
PBKDF2_SHA2 = [("sha256", 0), ("sha256", 1), ("sha256", 3), ("sha256", 4), ("sha512", 1), ("sha512", 3)]

# AES: FIPS 197 appendix C (plaintext 00112233...ff, key 000102...), and CBC with PKCS #7
# padding for these plaintext lengths under each key size (keys, IVs and plaintexts are the
# SHA-256 of a label, so the script can make them again).
FIPS197_PLAINTEXT = "00112233445566778899aabbccddeeff"
FIPS197 = [
    (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
    (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
    (32, "8ea2b7ca516745bfeafc49904b496089"),
]
AES_CBC_LENGTHS = [0, 1, 15, 16, 17, 33, 64]
# One small OpenSSL 3 default file (PBES2 AES-256-CBC, HMAC-SHA-256) of Vectors/pkcs12.
PKCS12_FILE = "openssl-ed25519-default.p12"


def derived_bytes(label, count):
    out = b""
    block = 0
    while len(out) < count:
        out += hashlib.sha256(f"{label}/{block}".encode()).digest()
        block += 1
    return out[:count]


def generate_primitives():
    import hmac
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    def aes_cbc_raw(key, iv, data):
        encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        return encryptor.update(data) + encryptor.finalize()

    def pkcs7(data):
        n = 16 - len(data) % 16
        return data + bytes([n]) * n

    out = []
    w = out.append
    w("// Generated by Tests/Embedded/generate-vectors.py from Vectors/; do not edit.")
    w("// Regenerate: python3 Tests/Embedded/generate-vectors.py")
    w("")
    w("import TackDigest")
    w("")
    w("/// SHA-1, FIPS 180-4 examples: (message, digest).")
    w("let sha1Examples: [(StaticString, StaticString)] = [")
    for message, digest in SHA1_EXAMPLES:
        assert hashlib.sha1(message).hexdigest() == digest
        w(f'    ("{message.decode()}", "{digest}"),')
    w("]")
    w("")
    assert hashlib.sha1(b"a" * 1_000_000).hexdigest() == SHA1_MILLION_A
    w("/// SHA-1 of one million \"a\" (FIPS 180-4 examples).")
    w(f'let sha1MillionA: StaticString = "{SHA1_MILLION_A}"')
    w("")
    w(f"/// SHA-1 of the pattern messages of lengths 0...{SHA1_LENGTHS - 1} (byte i is (i * 7 + 3) mod 256),")
    w("/// concatenated in hex (Python's hashlib).")
    concatenated = "".join(hashlib.sha1(bytes((i * 7 + 3) % 256 for i in range(n))).hexdigest()
                           for n in range(SHA1_LENGTHS))
    w(f'let sha1LengthDigests: StaticString = "{concatenated}"')
    w("")

    w("/// HMAC: RFC 4231 §4.2-4.8 (every SHA-2 function) and RFC 2202 §3 (SHA-1) inputs:")
    w("/// (case, hash, key, data, expected code, possibly truncated as the RFCs do).")
    w("let hmacCases: [(StaticString, DigestAlgorithm, StaticString, StaticString, StaticString)] = [")
    for swift_name, hashlib_name in HMAC_HASHES:
        cases = RFC2202 if swift_name == "sha1" else RFC4231
        rfc = "RFC 2202" if swift_name == "sha1" else "RFC 4231"
        for index, (key, data, truncation) in enumerate(cases):
            code = hmac.new(key, data, hashlib_name).hexdigest()
            if (swift_name, index) in RFC_HMAC_SPOT_CHECKS:
                assert code == RFC_HMAC_SPOT_CHECKS[(swift_name, index)], (swift_name, index)
            if truncation:
                code = code[:2 * truncation]
            w(f'    ("{rfc} case {index + 1}", .{swift_name}, "{key.hex()}", "{data.hex()}", "{code}"),')
    w("]")
    w("")

    w("/// PBKDF2: RFC 6070 (SHA-1, published keys) and the same inputs under SHA-256 and")
    w("/// SHA-512 (Python's hashlib.pbkdf2_hmac): (hash, password, salt, iterations, key).")
    w("let pbkdf2Cases: [(DigestAlgorithm, StaticString, StaticString, Int, StaticString)] = [")
    for password, salt, count, length, key in RFC6070:
        assert hashlib.pbkdf2_hmac("sha1", password, salt, count, length).hex() == key
        w(f'    (.sha1, "{password.hex()}", "{salt.hex()}", {count}, "{key}"),')
    for name, index in PBKDF2_SHA2:
        password, salt, count, length, _ = RFC6070[index]
        length = {"sha256": 32, "sha512": 64}[name] + (8 if index == 3 else 0)
        key = hashlib.pbkdf2_hmac(name, password, salt, count, length).hex()
        w(f'    (.{name}, "{password.hex()}", "{salt.hex()}", {count}, "{key}"),')
    w("]")
    w("")

    w("/// The PKCS #12 KDF (RFC 7292 appendix B.2): a selection of Vectors/pkcs12-kdf/vectors.txt")
    w("/// (OpenSSL 3's PKCS12KDF): every SHA-1 line with a non-empty key and, for the SHA-2")
    w("/// functions, the key (ID 1) lines of at most 3 iterations. (hash, ID, iterations,")
    w("/// password as BMPString bytes (UTF-16BE and two zero bytes; none when absent), salt, key.)")
    w("let pkcs12KDFCases: [(DigestAlgorithm, UInt8, Int, StaticString, StaticString, StaticString)] = [")
    kdf_count = 0
    for line in open(os.path.join(VECTORS, "pkcs12-kdf", "vectors.txt")):
        if line.startswith("#") or not line.strip():
            continue
        digest, ident, iterations, length, password, salt, key = line.split()
        if key == "-" or (digest != "sha1" and (ident != "1" or int(iterations) > 3)):
            continue
        if password == "absent":
            bmp = b""
        else:
            text = "" if password == "-" else bytes.fromhex(password).decode("utf-8")
            bmp = text.encode("utf-16-be") + b"\x00\x00"
        salt = "" if salt == "-" else salt
        assert len(bytes.fromhex(key)) == int(length)
        w(f'    (.{digest.replace("/", "_").replace("-", "_")}, {ident}, {iterations}, "{bmp.hex()}", "{salt}", "{key}"),')
        kdf_count += 1
    assert 20 <= kdf_count <= 60, kdf_count
    w("]")
    w("")

    w("#if !CORE_ONLY")
    w("/// AES, FIPS 197 appendix C: (key, the CBC-PKCS #7 encryption of the plaintext")
    w(f"/// {FIPS197_PLAINTEXT} under a zero IV: its first block is appendix C's ciphertext,")
    w("/// the second the padding block (Python's cryptography)).")
    w(f'let fips197Plaintext: StaticString = "{FIPS197_PLAINTEXT}"')
    w("let fips197Cases: [(StaticString, StaticString)] = [")
    for key_length, block in FIPS197:
        key = bytes(range(key_length))
        ciphertext = aes_cbc_raw(key, bytes(16), pkcs7(bytes.fromhex(FIPS197_PLAINTEXT)))
        assert ciphertext[:16].hex() == block
        w(f'    ("{key.hex()}", "{ciphertext.hex()}"),')
    w("]")
    w("")
    w("/// AES-CBC with PKCS #7 padding (Python's cryptography): (key, IV, plaintext, ciphertext).")
    w("let aesCBCCases: [(StaticString, StaticString, StaticString, StaticString)] = [")
    for key_length in (16, 24, 32):
        for length in AES_CBC_LENGTHS:
            label = f"tack-embedded-aes-{key_length}-{length}"
            key = derived_bytes(label + "/key", key_length)
            iv = derived_bytes(label + "/iv", 16)
            plaintext = derived_bytes(label + "/plaintext", length)
            ciphertext = aes_cbc_raw(key, iv, pkcs7(plaintext))
            w(f'    ("{key.hex()}", "{iv.hex()}", "{plaintext.hex()}", "{ciphertext.hex()}"),')
    w("]")
    w("")
    w("/// AES-CBC ciphertexts whose last block decrypts to bad PKCS #7 padding: (key, IV, ciphertext,")
    w("/// what the last plaintext block ends with). Each must be refused with CipherError.badPadding.")
    w("let aesBadPaddingCases: [(StaticString, StaticString, StaticString, StaticString)] = [")
    bad_endings = [
        ("a zero byte", bytes(15) + b"\x00"),
        ("17 (above the block size)", bytes(15) + b"\x11"),
        ("03 03 after a 02", bytes(13) + b"\x02\x03\x03"),
        ("a full block of 16 but one byte 15", b"\x0f" + b"\x10" * 15),
    ]
    for index, (what, block) in enumerate(bad_endings):
        key_length = (16, 24, 32, 16)[index]
        key = derived_bytes(f"tack-embedded-aes-bad-{index}/key", key_length)
        iv = derived_bytes(f"tack-embedded-aes-bad-{index}/iv", 16)
        ciphertext = aes_cbc_raw(key, iv, derived_bytes(f"tack-embedded-aes-bad-{index}/text", 16 * index) + block)
        w(f'    ("{key.hex()}", "{iv.hex()}", "{ciphertext.hex()}", "{what}"),')
    w("]")
    w("")
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat, pkcs12
    manifest = json.load(open(os.path.join(VECTORS, "pkcs12", "manifest.json")))
    entry = next(e for e in (manifest if isinstance(manifest, list) else manifest["files"]) if e["file"] == PKCS12_FILE)
    data = open(os.path.join(VECTORS, "pkcs12", PKCS12_FILE), "rb").read()
    assert len(data) <= 4096
    passphrase = entry["passphrase"]
    loaded = pkcs12.load_pkcs12(data, passphrase.encode())
    leaf_spki = loaded.cert.certificate.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    raw = loaded.cert.certificate.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)  # Ed25519: the bit string
    assert leaf_spki.endswith(raw)
    certificates = [c["sha256"] for c in entry["cryptography"]["certificates"]]
    assert certificates[0] == hashlib.sha256(loaded.cert.certificate.public_bytes(Encoding.DER)).hexdigest()
    w(f"/// Vectors/pkcs12/{PKCS12_FILE} (openssl pkcs12 -export, OpenSSL 3 defaults) and what")
    w("/// Python's cryptography reads from it: (passphrase, file, SHA-256 of each certificate's DER,")
    w("/// the leaf first, key ID (SHA-1 of the leaf's subjectPublicKey bits), leaf friendly name).")
    certificate_list = ", ".join(f'"{c}"' for c in certificates)
    w(f'let pkcs12Case: (StaticString, StaticString, [StaticString], StaticString, StaticString) = (')
    w(f'    "{passphrase}", "{data.hex()}",')
    w(f'    [{certificate_list}],')
    w(f'    "{hashlib.sha1(raw).hexdigest()}", "{loaded.cert.friendly_name.decode()}")')
    w("#endif")
    return "\n".join(out) + "\n"


def main():
    texts = dict(zip((OUTPUT, OUTPUT_X509, OUTPUT_TRUST, OUTPUT_PRIMITIVES, OUTPUT_CT), generate()))
    if "--check" in sys.argv[1:]:
        for path, text in texts.items():
            try:
                with open(path) as f:
                    current = f.read()
            except FileNotFoundError:
                current = None
            if current != text:
                print(f"{os.path.relpath(path, ROOT)} is out of date; run python3 Tests/Embedded/generate-vectors.py")
                sys.exit(1)
        return
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    for path, text in texts.items():
        with open(path, "w") as f:
            f.write(text)
        print(f"wrote {os.path.relpath(path, ROOT)} ({len(text)} bytes)")


if __name__ == "__main__":
    main()

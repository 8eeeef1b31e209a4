#!/usr/bin/env python3
"""Differential check of `tack pin` against the OpenSSL pipeline (run by scripts/check.sh).

For every certificate in the PEM files under Vectors/ (and, when present, the system CA
bundle), `tack pin` must print the same Base64 pin as

    openssl x509 -pubkey -noout | openssl pkey -pubin -outform der \
        | openssl dgst -sha256 -binary | base64

and for keys of each supported type, `tack pin --raw-key` on the raw bytes that
SecKeyCopyExternalRepresentation would return must print that pin too. Also checks the
error contract by code and fields: a malformed input exits 1 with one error object
{code, message} whose code is `malformed_certificate` (and listed by the schema). This is
the one comparison with the OpenSSL pipeline (the library's pins are the CLI's: `tack pin`
prints `Certificate.spkiPin`).

Usage: scripts/cli-check.py PATH-TO-tack
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEM_RE = re.compile(rb"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", re.S)


def openssl(args, data):
    return subprocess.run(["openssl"] + args, input=data, capture_output=True, check=True).stdout


def openssl_pin(pem_block):
    public_pem = openssl(["x509", "-pubkey", "-noout"], pem_block)
    der = openssl(["pkey", "-pubin", "-outform", "der"], public_pem)
    digest = openssl(["dgst", "-sha256", "-binary"], der)
    return openssl(["base64"], digest).decode().strip(), der


def raw_key(spki_der, pem_block):
    """The bytes SecKeyCopyExternalRepresentation returns, and Tack's key type, or None."""
    text = openssl(["x509", "-noout", "-text"], pem_block).decode()
    # Only the subject key's algorithm counts (the signature algorithm is the issuer's).
    match = re.search(r"Public Key Algorithm: (\S+)", text)
    algorithm = match.group(1) if match else ""
    if algorithm == "rsaEncryption":
        public_pem = openssl(["x509", "-pubkey", "-noout"], pem_block)
        return openssl(["rsa", "-pubin", "-RSAPublicKey_out", "-outform", "der"], public_pem), "rsa"
    for curve, name, size in (("prime256v1", "p256", 65), ("secp384r1", "p384", 97), ("secp521r1", "p521", 133)):
        if algorithm == "id-ecPublicKey" and "ASN1 OID: " + curve in text:
            return spki_der[-size:], name
    if algorithm == "ED25519":
        return spki_der[-32:], "ed25519"
    if algorithm == "X25519":
        return spki_der[-32:], "x25519"
    return None


def main():
    tack = sys.argv[1]
    files = sorted(glob.glob(os.path.join(ROOT, "Vectors", "**", "*.pem"), recursive=True))
    # Deliberately broken inputs (Vectors/certs/malformed, and Vectors/cli-inputs'
    # *.bad-*.pem: a name that does not decode) are the error tests' business.
    files = [f for f in files if "malformed" not in f and ".bad-" not in os.path.basename(f)]
    bundle = "/etc/ssl/certs/ca-certificates.crt"
    if os.path.exists(bundle):
        files.append(bundle)
    checked = raw_checked = failures = 0
    raw_types = set()
    for path in files:
        blocks = PEM_RE.findall(open(path, "rb").read())
        if not blocks:
            continue
        result = subprocess.run([tack, "pin", path], capture_output=True, text=True)
        if result.returncode != 0:
            print(f"FAIL {path}: tack exited {result.returncode}: {result.stderr.strip()}")
            failures += 1
            continue
        # Only the certificates' lines: keys and signing requests in the file are marked.
        pins = [line.split()[0] for line in result.stdout.splitlines()
                if not any(mark in line for mark in ("(public key:", "(private key:", "(certificate request:"))]
        if len(pins) != len(blocks):
            print(f"FAIL {path}: tack printed {len(pins)} pins for {len(blocks)} certificates")
            failures += 1
            continue
        for index, (block, pin) in enumerate(zip(blocks, pins)):
            expected, spki = openssl_pin(block)
            checked += 1
            if pin != expected:
                print(f"FAIL {path} #{index + 1}: tack {pin} openssl {expected}")
                failures += 1
            raw = raw_key(spki, block)
            if raw is None or (raw[1] in raw_types and path == bundle):
                continue
            raw_types.add(raw[1])
            with tempfile.NamedTemporaryFile(suffix=".key") as handle:
                handle.write(raw[0])
                handle.flush()
                out = subprocess.run([tack, "pin", "--raw-key", handle.name, "--key-type", raw[1]],
                                     capture_output=True, text=True)
            raw_checked += 1
            got = out.stdout.split()[0] if out.returncode == 0 and out.stdout else out.stderr.strip()
            if got != expected:
                print(f"FAIL {path} #{index + 1}: raw {raw[1]} key gives {got}, openssl {expected}")
                failures += 1
    # The error contract, by code and fields (never by the message's words): exit status
    # 1, no pin, one error object of exactly {code, message} whose code is the malformed
    # certificate's and one the schema lists (Vectors/cli-schemas/pin.schema.json,
    # $defs/code), with a non-empty message.
    bad = os.path.join(ROOT, "Vectors", "der", "malformed", "integer-leading-zero.der")
    out = subprocess.run([tack, "pin", "--format", "json", bad], capture_output=True, text=True)
    schema = json.load(open(os.path.join(ROOT, "Vectors", "cli-schemas", "pin.schema.json")))
    listed = set(schema["$defs"]["code"]["enum"])
    try:
        document = json.loads(out.stdout)
        errors = document["errors"]
        contract = (out.returncode == 1 and document["pins"] == [] and len(errors) == 1
                    and set(errors[0]) == {"code", "message"}
                    and errors[0]["code"] == "malformed_certificate" and errors[0]["code"] in listed
                    and isinstance(errors[0]["message"], str) and errors[0]["message"] != "")
    except (ValueError, KeyError, TypeError, IndexError):
        contract = False
    if not contract:
        print(f"FAIL error contract: exit {out.returncode}, output {out.stdout.strip()!r}")
        failures += 1
    print(f"cli-check: {checked} certificate pins and {raw_checked} raw-key pins ({', '.join(sorted(raw_types))}) "
          f"compared with the OpenSSL pipeline, {failures} failures")
    sys.exit(1 if failures or checked == 0 else 0)


if __name__ == "__main__":
    main()

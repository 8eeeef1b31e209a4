#!/usr/bin/env python3
"""The Python `cryptography` peer of tack-bench's x509 benchmarks.

    pyca-x509.py MODE BUNDLE.pem MIN_SECONDS

Loads the certificates of BUNDLE.pem as DER (outside the timed region), then repeats
MODE over the corpus, timed inside Python, until MIN_SECONDS have passed, and prints
certificates per second. MODE: `parse` (load_der_x509_certificate, pyca's lazy load),
`parse-pin` (load, public_bytes(DER, SubjectPublicKeyInfo), SHA-256), `spki-rebuild-pin`
(load_der_public_key of the SPKI, re-serialise, SHA-256: pyca has no raw-key entry that
covers RSA, so this is its closest operation).
"""
import hashlib
import sys
import time
import warnings

from cryptography import x509
from cryptography.hazmat.primitives import serialization


def main():
    # Some bundle roots have non-positive serials; pyca warns on each load.
    warnings.filterwarnings("ignore")
    mode, path, minimum = sys.argv[1], sys.argv[2], float(sys.argv[3])
    ders = [c.public_bytes(serialization.Encoding.DER)
            for c in x509.load_pem_x509_certificates(open(path, "rb").read())]
    spkis = [x509.load_der_x509_certificate(d).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo) for d in ders]
    der_spki = serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    load = x509.load_der_x509_certificate
    done, start = 0, time.perf_counter()
    while True:
        if mode == "parse":
            for d in ders:
                load(d)
            done += len(ders)
        elif mode == "parse-pin":
            for d in ders:
                hashlib.sha256(load(d).public_key().public_bytes(*der_spki)).digest()
            done += len(ders)
        elif mode == "spki-rebuild-pin":
            for s in spkis:
                hashlib.sha256(serialization.load_der_public_key(s).public_bytes(*der_spki)).digest()
            done += len(spkis)
        else:
            sys.exit("unknown mode " + mode)
        elapsed = time.perf_counter() - start
        if elapsed >= minimum:
            break
    print(f"{done / elapsed:.1f}")


if __name__ == "__main__":
    main()

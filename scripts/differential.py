#!/usr/bin/env python3
"""Differential check of certificate parse verdicts: Tack against OpenSSL and
Python's `cryptography`, over every file of the fuzz corpora.

    scripts/differential.py VERDICT_BINARY [--known FILE] [--report FILE] DIR...

VERDICT_BINARY is Tests/Differential/CertificateVerdict.swift built by
`scripts/fuzz.sh --build` (scripts/differential.sh does both). Each file in the
DIRs (recursively; identical contents counted once), and the DER of each PEM
certificate block in them, is parsed as one DER
certificate by

* Tack: `Certificate(derEncoded:)` (accept, or reject with X509Error.code);
* OpenSSL: `d2i_X509` through libcrypto, the call `openssl x509 -inform DER`
  makes, in-process for speed (`--openssl-cli` runs the command per file
  instead); a parse that stops before the end of the input is recorded as
  accepted with trailing data, since `openssl x509` ignores what follows;
* cryptography: `x509.load_der_x509_certificate` (Rust, strict DER).

Each disagreement gets a class: `<peer> accepts, tack rejects: <Tack code>` or
`<peer> rejects (<peer reason>), tack accepts`. Every class must be listed in
Vectors/differential/known.md (a table row whose first cell is the class in
backticks; `*` matches any run of characters) with the rule that justifies
it; an unlisted class fails the check (exit 1), as does an input Tack's
verdict program crashes on or leaves without a verdict.
"""

import argparse
import base64
import collections
import ctypes
import ctypes.util
import fnmatch
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import warnings

from cryptography import x509

# cryptography warns about what it will reject in a future release (a NULL in an
# ECDSA AlgorithmIdentifier, a serial that is not positive); the verdict is today's.
warnings.simplefilter("ignore")


def fnv64(data):
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


PEM_BLOCK = re.compile(rb"-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*?)-----END CERTIFICATE-----")


def collect(dirs):
    """Distinct inputs under dirs: {sha256: (label, bytes)}, first label wins. A file
    holding PEM certificates also contributes each block's DER (label FILE#N), so
    the PEM seeds count as certificates too."""
    files = {}
    for top in dirs:
        if not os.path.isdir(top):
            continue
        for base, subdirs, names in os.walk(top):
            subdirs.sort()
            for name in sorted(names):
                path = os.path.join(base, name)
                with open(path, "rb") as handle:
                    data = handle.read()
                files.setdefault(hashlib.sha256(data).hexdigest(), (path, data))
                for index, block in enumerate(PEM_BLOCK.findall(data)):
                    try:
                        der = base64.b64decode(b"".join(block.split()), validate=True)
                    except ValueError:
                        continue
                    files.setdefault(hashlib.sha256(der).hexdigest(), ("%s#%d" % (path, index + 1), der))
    return files


def tack_verdicts(binary, files, scratch):
    """{fnv64: (accepted, code)} from the verdict program, run over chunks of inputs
    written to scratch (one file per input, named by its SHA-256)."""
    paths = []
    for digest, (_, data) in files.items():
        path = os.path.join(scratch, digest)
        with open(path, "wb") as handle:
            handle.write(data)
        paths.append(path)
    verdicts = {}
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    for start in range(0, len(paths), 400):
        chunk = paths[start:start + 400]
        run = subprocess.run([binary] + chunk, capture_output=True, env=env)
        for line in run.stdout.decode("utf-8", "replace").splitlines():
            fields = line.split()
            if len(fields) >= 4 and fields[0] == "tack-verdict":
                rejected = fields[3] == "reject" and len(fields) >= 6
                verdicts[fields[1]] = (not rejected, (fields[4], int(fields[5])) if rejected else None)
        if run.returncode != 0:
            sys.stderr.write(run.stderr.decode("utf-8", "replace")[-4000:])
            names = [files[os.path.basename(path)][0] for path in chunk]
            sys.exit("differential: the verdict program failed (exit %d) on a chunk of %d inputs from %s"
                     % (run.returncode, len(chunk), names[0]))
    return verdicts


class OpenSSL:
    """d2i_X509 through libcrypto: (accepted, reason, consumed bytes)."""

    def __init__(self):
        name = ctypes.util.find_library("crypto") or "libcrypto.so.3"
        self.lib = ctypes.CDLL(name)
        self.lib.d2i_X509.restype = ctypes.c_void_p
        self.lib.d2i_X509.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_long]
        self.lib.X509_free.argtypes = [ctypes.c_void_p]
        self.lib.ERR_get_error.restype = ctypes.c_ulong
        self.lib.ERR_reason_error_string.restype = ctypes.c_char_p
        self.lib.ERR_reason_error_string.argtypes = [ctypes.c_ulong]
        self.lib.ERR_clear_error.restype = None

    def parse(self, data):
        self.lib.ERR_clear_error()
        buffer = ctypes.create_string_buffer(data, len(data))
        pointer = ctypes.c_char_p(ctypes.addressof(buffer))
        start = ctypes.cast(pointer, ctypes.c_void_p).value
        cert = self.lib.d2i_X509(None, ctypes.byref(pointer), len(data))
        if cert:
            consumed = ctypes.cast(pointer, ctypes.c_void_p).value - start
            self.lib.X509_free(cert)
            return True, None, consumed
        # The first error queued is the innermost cause (ERR_get_error pops oldest first).
        code = self.lib.ERR_get_error()
        reason = self.lib.ERR_reason_error_string(code) if code else None
        self.lib.ERR_clear_error()
        return False, (reason.decode() if reason else "unknown"), 0


def openssl_cli(path):
    run = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-in", path],
                         capture_output=True, text=True)
    if run.returncode == 0:
        return True, None
    match = re.search(r"error:[0-9A-F]+:[^:]*:[^:]*:([^:\n]+)", run.stderr)
    return False, (match.group(1) if match else "unknown")


def cryptography_verdict(data):
    try:
        x509.load_der_x509_certificate(data)
        return True, None
    except x509.InvalidVersion:
        return False, "InvalidVersion"
    except ValueError as error:
        text = str(error)
        # "error parsing asn1 value: ParseError { kind: InvalidLength, location: [...] }"
        kind = re.search(r"kind: (\w+)", text)
        if kind:
            return False, kind.group(1)
        return False, re.sub(r"[^A-Za-z ]+", " ", text).strip()[:60] or "ValueError"


def header(data, offset, end):
    """(tag, contents start, contents end) of the element at offset, or None."""
    if offset + 2 > end:
        return None
    tag, first = data[offset], data[offset + 1]
    if tag & 0x1F == 0x1F:
        return None
    if first < 0x80:
        start, length = offset + 2, first
    else:
        count = first & 0x7F
        if count == 0 or count > 4 or offset + 2 + count > end:
            return None
        start, length = offset + 2 + count, int.from_bytes(data[offset + 2:offset + 2 + count], "big")
    return (tag, start, start + length) if start + length <= end else None


def public_key_range(data):
    """The contents range of the subjectPublicKey BIT STRING, found by a tolerant
    walk (Certificate → tbsCertificate → optional [0] version, then the 6th field's
    second element), or None."""
    cert = header(data, 0, len(data))
    tbs = cert and header(data, cert[1], cert[2])
    if not tbs:
        return None
    position, fields = tbs[1], []
    while position < tbs[2] and len(fields) < 8:
        element = header(data, position, tbs[2])
        if not element:
            return None
        fields.append(element)
        position = element[2]
    if fields and fields[0][0] == 0xA0:
        fields = fields[1:]
    if len(fields) < 6 or fields[5][0] != 0x30:
        return None
    algorithm = header(data, fields[5][1], fields[5][2])
    key = algorithm and header(data, algorithm[2], fields[5][2])
    return (key[1], key[2]) if key and key[0] == 0x03 else None


def load_known(path):
    classes = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            match = re.match(r"\|\s*`([^`]+)`\s*\|", line)
            if match:
                classes.append(match.group(1))
    return classes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--known", default="Vectors/differential/known.md")
    parser.add_argument("--openssl-cli", action="store_true",
                        help="run `openssl x509 -inform DER -noout` per file instead of d2i_X509")
    parser.add_argument("--report", help="write every disagreement (class, file) here")
    parser.add_argument("--examples", type=int, default=2, help="files shown per class")
    args = parser.parse_args()

    files = collect(args.dirs)
    scratch = tempfile.TemporaryDirectory(prefix="tack-differential-")
    verdicts = tack_verdicts(args.binary, files, scratch.name)
    openssl = None if args.openssl_cli else OpenSSL()
    known = load_known(args.known)

    counts = collections.Counter()
    classes = collections.defaultdict(list)
    missing = []
    for digest, (path, data) in sorted(files.items(), key=lambda item: item[1][0]):
        verdict = verdicts.get(fnv64(data))
        if verdict is None:
            missing.append(path)
            continue
        tack_ok, failure = verdict
        tack_code = None
        if failure:
            # Tack decodes the key inside subjectPublicKey at parse time; the peers
            # only when it is used. A DER fault in there is named as such.
            tack_code, offset = failure
            key = public_key_range(data)
            if key and key[0] <= offset < key[1] and tack_code.startswith("der."):
                tack_code = "subjectPublicKey " + tack_code
        if openssl is None:
            ssl_ok, ssl_reason = openssl_cli(os.path.join(scratch.name, digest))
            ssl_trailing = False
        else:
            ssl_ok, ssl_reason, consumed = openssl.parse(data)
            ssl_trailing = ssl_ok and consumed < len(data)
        peers = {"openssl": (ssl_ok, ssl_reason), "cryptography": cryptography_verdict(data)}
        counts["files"] += 1
        counts["tack accepts" if tack_ok else "tack rejects"] += 1
        for peer, (peer_ok, peer_reason) in peers.items():
            if peer_ok == tack_ok:
                counts[peer + " agrees"] += 1
                continue
            counts[peer + " disagrees"] += 1
            if peer_ok:
                detail = " (trailing data)" if peer == "openssl" and ssl_trailing else ""
                label = "%s accepts%s, tack rejects: %s" % (peer, detail, tack_code)
            else:
                label = "%s rejects (%s), tack accepts" % (peer, peer_reason)
            classes[label].append(path)

    print("differential: %d distinct files (%d Tack accepts, %d Tack rejects)"
          % (counts["files"], counts["tack accepts"], counts["tack rejects"]))
    for peer in ("openssl", "cryptography"):
        print("  %-12s agrees on %d, disagrees on %d" % (peer, counts[peer + " agrees"], counts[peer + " disagrees"]))
    unlisted = []
    for label in sorted(classes):
        listed = any(fnmatch.fnmatchcase(label, pattern) for pattern in known)
        print("  %5d  %s%s" % (len(classes[label]), label, "" if listed else "   <- NOT IN known.md"))
        for path in classes[label][:args.examples]:
            print("           e.g. %s" % path)
        if not listed:
            unlisted.append(label)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as out:
            for label in sorted(classes):
                for path in classes[label]:
                    out.write("%s\t%s\n" % (label, path))
    if missing:
        print("differential: no Tack verdict for %d files, e.g. %s" % (len(missing), missing[0]))
        return 1
    if unlisted:
        print("differential: %d disagreement class(es) not in %s: each is a Tack bug or a deliberate"
              " difference to document there" % (len(unlisted), args.known))
        return 1
    print("differential: every disagreement is a documented deliberate difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# The public API of the core modules (the library products of Package.swift, from
# TackDER to TackTLS) takes and returns safe types only
# (brief: "no raw pointers at the surface, outside a clearly separated low-level
# layer"; issues 13 and 20). This reads the modules' symbol graphs (public and open
# symbols, scripts/symbol-graphs.sh, from the check's own release build, or from the
# build TACK_BIN_PATH names) and fails if a declaration mentions an `Unsafe…` type
# (UnsafePointer, UnsafeBufferPointer, UnsafeRawBufferPointer, their mutable forms)
# unless the ALLOWED list below names it. Default implementations inherited from
# standard-library protocols (Sequence's withContiguousStorageIfAvailable) are not
# Tack's API and are skipped. An ALLOWED entry that matches nothing fails too, so the
# list stays exactly the low-level layer.
#
#   scripts/check-public-api.sh
#   swift build && TACK_BIN_PATH="$(swift build --show-bin-path)" scripts/check-public-api.sh
#                                         # a debug build's modules
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Every core module: the package graph's (scripts/lib/common.sh), so a new core
# module joins the check by being a library product in Package.swift.
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
read -ra MODULES <<<"$(core_modules)"
[ "${#MODULES[@]}" -gt 0 ] || { echo "check-public-api: no core modules (the package graph could not be read)" >&2; exit 1; }

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
scripts/symbol-graphs.sh "$dir" "${MODULES[@]}"

python3 - "$dir" "${MODULES[@]}" <<'PY'
import fnmatch, json, os, sys

# The documented low-level layers: "Module Type.member(labels:)" patterns (fnmatch) over
# the symbol's path, each with the doc that makes it a layer of its own.
ALLOWED = [
    # TackDER's buffer-pointer layer, Sources/TackDER/DERUnsafe.swift and
    # DERUnsafeStrings.swift: parsing straight from caller-owned memory, the
    # catalog's article "The low-level layer" (TackDER.docc/TackDER.md).
    ("TackDER", "DER.read(*)"),
    ("TackDER", "DER.walk(*)"),
    ("TackDER", "DERReader.withBytes(*)"),
    ("TackDER", "OID.withContents(*)"),
    ("TackDER", "DERElement.parseHeader(*)"),
    ("TackDER", "DERStringKind.validate(*)"),
    ("TackDER", "DERStringKind.isPrintable(*)"),
    ("TackDER", "DERStringKind.isASCII(*)"),
    ("TackDER", "DERStringKind.isValidUTF8(*)"),
    ("TackDER", "DERStringKind.decode(*)"),
    # TackDigest's contiguous-memory entry points: hashing bytes the caller holds
    # without copying them into an Array (each beside its Array/ArraySlice form).
    ("TackDigest", "*.update(_:)"),
    ("TackDigest", "*.hash(_:)"),
    ("TackDigest", "SHA256.hash(_:_:)"),
    ("TackDigest", "HMAC*.init(key:)"),
    ("TackDigest", "*Digest.withUnsafeBytes(_:)"),
    # The standard library's Sequence requirement, implemented so that code generic over
    # collections of bytes reads a digest in place (issue 35); the digest itself is the
    # safe surface.
    ("TackDigest", "HashDigest.withContiguousStorageIfAvailable(_:)"),
]

directory, modules = sys.argv[1], sys.argv[2:]
failures, used = [], set()
checked = allowed = 0
for name in sorted(os.listdir(directory)):
    if not name.endswith(".symbols.json"):
        continue
    module = name.split(".")[0].split("@")[0]
    if module not in modules:
        continue
    with open(os.path.join(directory, name)) as f:
        graph = json.load(f)
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        # Default implementations a Tack type inherits from a standard-library
        # protocol (Sequence.withContiguousStorageIfAvailable, ...) are the
        # standard library's API, listed as synthesized symbols: not Tack's.
        if "::SYNTHESIZED::" in symbol.get("identifier", {}).get("precise", ""):
            continue
        checked += 1
        text = "".join(fragment.get("spelling", "") for fragment in symbol.get("declarationFragments", []))
        if "Unsafe" not in text:
            continue
        path = ".".join(symbol.get("pathComponents", []))
        hits = [entry for entry in ALLOWED if entry[0] == module and fnmatch.fnmatchcase(path, entry[1])]
        if hits:
            used.update(hits)
            allowed += 1
        else:
            failures.append("%s %s: %s" % (module, path, text))
if checked == 0:
    print("check-public-api: no public symbol of %s found in %s" % (", ".join(modules), directory))
    sys.exit(1)
for line in failures:
    print("check-public-api: unsafe type in public API, not on the low-level list: " + line)
stale = [entry for entry in ALLOWED if entry[0] in modules and entry not in used]
for module, pattern in stale:
    print("check-public-api: low-level list entry matches no unsafe public symbol: %s %s" % (module, pattern))
print("check-public-api: %d public symbols of %s checked; %d on the low-level list, %d outside it"
      % (checked, ", ".join(modules), allowed, len(failures)))
sys.exit(1 if failures or stale else 0)
PY

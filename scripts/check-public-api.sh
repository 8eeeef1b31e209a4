#!/usr/bin/env bash
# The public API of TackCipher, TackX509, TackSignature and TackTrust takes and returns safe
# types only (brief: "no raw pointers in public API"; issue 13). This dumps the
# symbol graphs of those modules (public and open symbols, as
# `swift package dump-symbol-graph` lists them) and fails if any declaration
# mentions an `Unsafe…` type (UnsafePointer, UnsafeBufferPointer, UnsafeRawBufferPointer,
# their mutable forms). Default implementations inherited from standard-library
# protocols (Sequence's withContiguousStorageIfAvailable) are not Tack's API and
# are skipped. TackDER keeps a documented
# low-level layer and is not checked here.
#
#   scripts/check-public-api.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# The library modules are built and their symbol graphs extracted one by one:
# `swift package dump-symbol-graph` also extracts the test modules, which fails
# on a clean clone where only the release tests have been built.
swift build --target TackTrust >/dev/null
swift build --target TackCipher >/dev/null
bin="$(swift build --show-bin-path)"
extract="$(dirname "$(command -v swift)")/swift-symbolgraph-extract"
[ -x "$extract" ] || extract="$(command -v swift-symbolgraph-extract)"
triple="$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
for module in TackCipher TackX509 TackSignature TackTrust; do
  "$extract" -module-name "$module" -target "$triple" -I "$bin/Modules" \
    -module-cache-path "$bin/ModuleCache" -minimum-access-level public \
    -omit-extension-block-symbols -output-dir "$dir" \
    || { echo "check-public-api: symbol graph extraction failed for $module"; exit 1; }
done

python3 - "$dir" <<'PY'
import json, os, sys
directory = sys.argv[1]
modules = ["TackX509", "TackSignature", "TackTrust"]
failures = []
checked = 0
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
        if "Unsafe" in text:
            failures.append("%s: %s" % (module, text))
if checked == 0:
    print("check-public-api: no public symbol of %s found in %s" % (", ".join(modules), directory))
    sys.exit(1)
for line in failures:
    print("check-public-api: unsafe type in public API: " + line)
print("check-public-api: %d public symbols of %s checked, %d mention an Unsafe type"
      % (checked, ", ".join(modules), len(failures)))
sys.exit(1 if failures else 0)
PY

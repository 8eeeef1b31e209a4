#!/usr/bin/env bash
# DocC: each core module's catalog (Sources/<Module>/<Module>.docc) builds with the
# toolchain's `docc` with no warning (--warnings-as-errors), and with --analyze, which
# adds the notes about undocumented parameters and return values of public symbols;
# and every public function's comment has the - Parameters, - Returns and - Throws
# its signature calls for (docc checks those only in comments that have some).
#
#   scripts/docc-check.sh                 # every core module
#   scripts/docc-check.sh TackDER         # some modules
#   swift build && TACK_BIN_PATH="$(swift build --show-bin-path)" scripts/docc-check.sh
#                                         # a debug build's modules (build after editing
#                                         # doc comments: nothing is rebuilt here)
#
# SwiftPM has no docc command without the swift-docc-plugin dependency (and the package
# has none, ever), so the symbol graphs come from scripts/symbol-graphs.sh (the
# check's own release build, or the build TACK_BIN_PATH names) and `docc convert`
# reads them beside the catalog. `--output DIR` (first) keeps the archives (default: discarded).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

OUTPUT=""
if [ "${1:-}" = --output ]; then OUTPUT="${2:?--output needs a directory}"; shift 2; fi
# Every core module by default: the package graph's (scripts/lib/common.sh), so a
# new core module joins the check by being a library product in Package.swift.
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
if [ "$#" -gt 0 ]; then MODULES=("$@"); else read -ra MODULES <<<"$(core_modules)"; fi
[ "${#MODULES[@]}" -gt 0 ] || { echo "docc-check: no core modules (the package graph could not be read)" >&2; exit 1; }

docc="$(dirname "$(command -v swift)")/docc"
[ -x "$docc" ] || docc="$(command -v docc)" || { echo "docc-check: docc not found" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scripts/symbol-graphs.sh "$work/graphs" "${MODULES[@]}"

failed=0
for module in "${MODULES[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "docc-check: $module has no catalog $catalog"; failed=1; continue; }
    # Only this module's graphs (its own and its extensions of lower modules' types).
    mkdir -p "$work/$module"
    cp "$work/graphs/$module".symbols.json "$work/$module/"
    cp "$work/graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
    out="${OUTPUT:+$OUTPUT/$module.doccarchive}"
    if "$docc" convert "$catalog" --additional-symbol-graph-dir "$work/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.tack.$module" \
        --output-path "${out:-$work/$module.doccarchive}" \
        --analyze --warnings-as-errors >"$work/$module.log" 2>&1 \
        && ! grep -qE "^(warning|error|note):|: (warning|error|note):" "$work/$module.log" \
        && python3 - "$module" "$work/$module" >>"$work/$module.log" <<'PY'; then
# docc checks a symbol's - Parameters against its signature only when the comment has
# some; it says nothing of a function documented by a summary alone. The brief asks
# every public function for - Parameters, - Returns and - Throws: this reads the same
# graphs and names each one a section short (as docc's diagnostics, file:line). Exempt:
# comments inherited from another module, and the witnesses of Equatable, Hashable,
# Comparable, Sequence and IteratorProtocol (==, <, hash(into:), makeIterator(),
# next()), whose contract is the protocol's.
import json, os, sys
module, directory = sys.argv[1], sys.argv[2]
functions = {"swift.func", "swift.func.op", "swift.method", "swift.type.method",
             "swift.init", "swift.subscript", "swift.type.subscript"}
witnesses = {"==(_:_:)", "<(_:_:)", "hash(into:)", "makeIterator()", "next()"}
problems = []
for name in sorted(os.listdir(directory)):
    with open(os.path.join(directory, name)) as f:
        graph = json.load(f)
    for symbol in graph.get("symbols", []):
        kind = symbol["kind"]["identifier"]
        if symbol.get("accessLevel") not in ("public", "open") or kind == "swift.extension":
            continue
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        path = "/".join(symbol["pathComponents"])
        where = symbol.get("location", {})
        site = "%s:%d" % (os.path.basename(where.get("uri", "?")), where.get("position", {}).get("line", -1) + 1)
        comment = symbol.get("docComment")
        if comment is None:
            problems.append("%s: error: %s has no doc comment" % (site, path))
            continue
        if comment.get("module", module) != module or kind not in functions:
            continue
        if symbol["pathComponents"][-1] in witnesses:
            continue
        text = "\n".join(line["text"] for line in comment.get("lines", []))
        signature = symbol.get("functionSignature", {})
        declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
        returns = "".join(fragment["spelling"] for fragment in signature.get("returns", []))
        missing = []
        if signature.get("parameters") and "- Parameter" not in text:
            missing.append("- Parameters")
        if kind != "swift.init" and returns not in ("", "()", "Void") and "- Returns:" not in text:
            missing.append("- Returns")
        if " throws" in declaration and "- Throws:" not in text:
            missing.append("- Throws")
        if missing:
            problems.append("%s: error: %s has no %s" % (site, path, ", ".join(missing)))
for line in problems:
    print(line)
sys.exit(1 if problems else 0)
PY
        echo "docc-check: $module clean"
    else
        echo "docc-check: $module has documentation diagnostics:"
        grep -vE "^(Finished|Generated|Progress)|^$" "$work/$module.log" || true
        failed=1
    fi
done
exit "$failed"

#!/usr/bin/env bash
# DocC: each core module's catalog (Sources/<Module>/<Module>.docc) builds with the
# toolchain's `docc` with no warning (--warnings-as-errors), and with --analyze, which
# adds the notes about undocumented parameters and return values of public symbols.
#
#   scripts/docc-check.sh                 # the modules below
#   scripts/docc-check.sh TackDER         # some modules
#   swift build && TACK_BIN_PATH="$(swift build --show-bin-path)" scripts/docc-check.sh
#                                         # a debug build's modules (build after editing
#                                         # doc comments: nothing is rebuilt here)
#
# SwiftPM has no docc command without the swift-docc-plugin dependency (and the package
# has none, ever), so the symbol graphs come from scripts/symbol-graphs.sh (the
# check's own release build, or the build TACK_BIN_PATH names) and `docc convert`
# reads them beside the catalog. Set DOCC_OUTPUT=DIR to keep the archives (default: discarded).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MODULES=(TackDER TackFormats TackSHA2 TackCipher TackX509 TackSignature TackTrust TackPKCS12)
if [ "$#" -gt 0 ]; then MODULES=("$@"); fi

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
    out="${DOCC_OUTPUT:+$DOCC_OUTPUT/$module.doccarchive}"
    if "$docc" convert "$catalog" --additional-symbol-graph-dir "$work/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.tack.$module" \
        --output-path "${out:-$work/$module.doccarchive}" \
        --analyze --warnings-as-errors >"$work/$module.log" 2>&1 \
        && ! grep -qE "^(warning|error|note):|: (warning|error|note):" "$work/$module.log"; then
        echo "docc-check: $module clean"
    else
        echo "docc-check: $module has documentation diagnostics:"
        grep -vE "^(Finished|Generated|Progress)" "$work/$module.log" || true
        failed=1
    fi
done
exit "$failed"

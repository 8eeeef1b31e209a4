#!/usr/bin/env bash
# Extracts the public symbol graphs of modules from the check's release build, for
# scripts/check-public-api.sh and scripts/docc-check.sh.
#
#   scripts/symbol-graphs.sh OUTDIR MODULE...
#
# The modules come from the build scripts/check.sh made (release, scratch directory
# $TACK_CHECK_SCRATCH, default .build/check): no second build into .build. Given
# TACK_BIN_PATH (check.sh exports its `--show-bin-path`), nothing is built; otherwise
# `swift build -c release -Xswiftc -enable-testing --target MODULE` into that scratch
# brings the modules up to date first (a no-op after check.sh's build).
# swift-symbolgraph-extract reads the .swiftmodule, .swiftdoc and .swiftsourceinfo
# files SwiftPM wrote, so the graphs carry the doc comments and source locations;
# extension block symbols are kept (DocC shows them as extensions of the other
# module's types).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ "$#" -ge 2 ] || { echo "usage: symbol-graphs.sh OUTDIR MODULE..." >&2; exit 2; }
out="$1"; shift
SCRATCH="${TACK_CHECK_SCRATCH:-$ROOT/.build/check}"
bin="${TACK_BIN_PATH:-}"
if [ -z "$bin" ]; then
    for module in "$@"; do
        # The flags of scripts/check.sh's build, so neither rebuilds the other's work.
        swift build -c release -Xswiftc -enable-testing --scratch-path "$SCRATCH" --target "$module" 2>&1 | grep -E "error:" || true
    done
    bin="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"
fi
[ -d "$bin/Modules" ] || { echo "symbol-graphs: no $bin/Modules (build first)" >&2; exit 1; }
extract="$(dirname "$(command -v swift)")/swift-symbolgraph-extract"
[ -x "$extract" ] || extract="$(command -v swift-symbolgraph-extract)"
triple="$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')"
mkdir -p "$out"
for module in "$@"; do
    "$extract" -module-name "$module" -target "$triple" -I "$bin/Modules" \
        -module-cache-path "$bin/ModuleCache" -minimum-access-level public \
        -emit-extension-block-symbols -output-dir "$out" \
        || { echo "symbol-graphs: extraction failed for $module" >&2; exit 1; }
done

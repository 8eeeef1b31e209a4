#!/usr/bin/env bash
# Compiles every core module that has sources as Embedded Swift for a bare-metal
# ARMv7E-M target, so that Foundation, `any` existentials, untyped throws and
# other runtime-dependent features never creep into the core.
#
#   scripts/embedded-check.sh            # all core modules that exist
#   SWIFTC=/path/to/swiftc scripts/embedded-check.sh
#
# Each module is compiled whole-module (-wmo) into a scratch directory with
# -emit-module, in dependency order, so the next module can import it. Nothing
# is linked: the check is that the code type-checks and lowers under the
# Embedded restrictions. Exits non-zero on the first failing module.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SWIFTC="${SWIFTC:-swiftc}"
TARGET="armv7em-none-none-eabi"

# The core modules, lowest first (the dependency order of Package.swift).
# A new core module joins the check by being added here.
MODULES=(TackDER TackSHA2 TackX509 TackSignature TackTrust)

# The same language settings as Package.swift's strictSettings.
FLAGS=(
    -target "$TARGET"
    -enable-experimental-feature Embedded
    -wmo -parse-as-library -Osize
    -swift-version 6
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature InternalImportsByDefault
)

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/tack-embedded.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

failed=0
for module in "${MODULES[@]}"; do
    dir="$ROOT/Sources/$module"
    mapfile -t sources < <(find "$dir" -name '*.swift' 2>/dev/null | LC_ALL=C sort)
    if [ "${#sources[@]}" -eq 0 ]; then
        echo "embedded: $module skipped (no sources)"
        continue
    fi
    start=$(date +%s)
    if "$SWIFTC" "${FLAGS[@]}" \
        -module-name "$module" \
        -I "$SCRATCH" \
        -emit-module -emit-module-path "$SCRATCH/$module.swiftmodule" \
        -c -o "$SCRATCH/$module.o" \
        "${sources[@]}" >"$SCRATCH/$module.log" 2>&1; then
        size=$(wc -c <"$SCRATCH/$module.o" | tr -d ' ')
        echo "embedded: $module ok (${#sources[@]} files, $size-byte object, $(( $(date +%s) - start )) s)"
        # Warnings are not failures here (swift build enforces none), but show them.
        grep -E 'warning:' "$SCRATCH/$module.log" || true
    else
        echo "embedded: $module FAILED"
        cat "$SCRATCH/$module.log"
        failed=1
        break
    fi
done
exit "$failed"

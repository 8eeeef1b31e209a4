#!/usr/bin/env bash
# The test command (README "Run the tests"; CI runs exactly this through .ci/run).
#
#   scripts/check.sh              # build (no warnings), tests, Embedded check, fuzz smoke
#   FUZZ_SECONDS=0 scripts/check.sh   # skip the fuzz smoke
#
# Steps, each fatal on failure:
#   1. `swift build` of every target, failing on any compiler warning;
#   2. `swift test` (Swift Testing) in release mode: the signature and hash
#      conformance suites run thousands of vectors and are slow unoptimised;
#   3. scripts/cli-check.py: `tack pin` equals the OpenSSL pin pipeline on every
#      certificate under Vectors/ and in the system CA bundle, raw keys included;
#   4. scripts/wycheproof-cli-check.sh: `tack vectors wycheproof` agrees with every
#      shared Wycheproof file and reports a flipped verdict as a failure;
#   5. scripts/embedded-check.sh: the core modules compile as Embedded Swift;
#   6. scripts/check-public-api.sh: no Unsafe type in the public API of TackX509,
#      TackSignature and TackTrust (symbol graphs);
#   7. scripts/fuzz.sh all $FUZZ_SECONDS: every libFuzzer target, 30 s each.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"

step() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "build (warnings are errors)"
log="$(mktemp)"
swift build --build-tests 2>&1 | tee "$log" | grep -E "warning:|error:|Compiling|Build" | grep -v "^\[" || true
if grep -q "error:" "$log"; then echo "check: build failed"; exit 1; fi
if grep -E "warning:" "$log" | grep -v "^warning: 'main'" | grep -q .; then
    echo "check: the build has warnings:"; grep -E "warning:" "$log" | sort -u; exit 1
fi
rm -f "$log"

step "tests (release)"
log="$(mktemp)"
set +e
swift test -c release >"$log" 2>&1
status=$?
set -e
# Suite results, every failure, and the per-file vector counts the suites print.
grep -E "✘|✔ Suite|Test run|error:|vectors" "$log" | grep -v "^\[" | head -n 300 || true
rm -f "$log"
if [ "$status" -ne 0 ]; then echo "check: tests failed"; exit "$status"; fi

step "tack pin against the OpenSSL pipeline"
if command -v openssl >/dev/null; then
    swift build --product tack 2>&1 | grep -E "error:" || true
    python3 scripts/cli-check.py "$(swift build --show-bin-path)/tack"
else
    echo "check: openssl not found; the CLI differential check needs it"; exit 1
fi

step "tack vectors wycheproof against every shared Wycheproof file"
scripts/wycheproof-cli-check.sh

step "Embedded Swift check"
scripts/embedded-check.sh

step "public API of TackX509, TackSignature and TackTrust has no Unsafe type"
scripts/check-public-api.sh

if [ "$FUZZ_SECONDS" -gt 0 ]; then
    step "fuzz smoke (${FUZZ_SECONDS} s per target)"
    scripts/fuzz.sh all "$FUZZ_SECONDS"
fi

step "all checks passed"

#!/usr/bin/env bash
# The test command (README "Two commands on a fresh machine"; CI runs exactly this through .ci/run).
#
# Everything builds into its own scratch directory, .build/check (override with
# TACK_CHECK_SCRATCH): test builds use other compiler flags than `swift build` and
# `swift run -c release tack`, and sharing .build made each rebuild the package.
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
#      scripts/cli-e2e.py: what only the built binary shows (its exit statuses, which
#      stream each output goes to, piped standard input, scan streaming); every
#      command's behaviour is tested in-process by Tests/TackCLITests;
#   4. scripts/wycheproof-cli-check.sh: `tack vectors wycheproof` agrees with every
#      shared Wycheproof file and reports a flipped verdict as a failure;
#   5. scripts/limbo-cli-check.sh: `tack vectors limbo` keeps the x509-limbo harness
#      contract (the agreement of every case is a Swift test);
#   6. scripts/embedded-check.sh: the core modules compile as Embedded Swift for
#      armv7em and riscv32 (object sizes printed), and the known-answer program
#      (Tests/Embedded: SHA-2, DER, times, certificate pins, signatures, 32/64-bit
#      integers, chain verdicts, pin policies) runs on aarch64, armv7 and riscv64
#      under user-mode QEMU;
#   7. scripts/check-public-api.sh: no Unsafe type in the public API of TackX509,
#      TackSignature and TackTrust (symbol graphs);
#   8. scripts/fuzz.sh all $FUZZ_SECONDS: every libFuzzer target, 24 s each;
#   9. scripts/differential.sh: Tack's certificate parse verdict against OpenSSL's and
#      cryptography's on every committed fuzz seed (about 300 inputs, seconds once the
#      fuzz step has built the modules); any disagreement not listed in
#      Vectors/differential/known.md fails. Bounded at 10 minutes, build included.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# 24 s per target: ten targets keep the four minutes of fuzzing that eight targets
# at 30 s had (the whole fuzz step, module builds included, stays under ~8 minutes).
FUZZ_SECONDS="${FUZZ_SECONDS:-24}"
SCRATCH="${TACK_CHECK_SCRATCH:-$ROOT/.build/check}"

step() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "build (warnings are errors)"
log="$(mktemp)"
swift build --scratch-path "$SCRATCH" --build-tests 2>&1 | tee "$log" | grep -E "warning:|error:|Compiling|Build" | grep -v "^\[" || true
if grep -q "error:" "$log"; then echo "check: build failed"; exit 1; fi
if grep -E "warning:" "$log" | grep -v "^warning: 'main'" | grep -q .; then
    echo "check: the build has warnings:"; grep -E "warning:" "$log" | sort -u; exit 1
fi
rm -f "$log"

step "tests (release)"
log="$(mktemp)"
set +e
swift test --scratch-path "$SCRATCH" -c release >"$log" 2>&1
status=$?
set -e
# Suite results, every failure, and the per-file vector counts the suites print.
grep -E "✘|✔ Suite|Test run|error:|vectors" "$log" | grep -v "^\[" | head -n 300 || true
rm -f "$log"
if [ "$status" -ne 0 ]; then echo "check: tests failed"; exit "$status"; fi

step "tack pin against the OpenSSL pipeline"
if command -v openssl >/dev/null; then
    swift build --scratch-path "$SCRATCH" --product tack 2>&1 | grep -E "error:" || true
    TACK="$(swift build --scratch-path "$SCRATCH" --show-bin-path)/tack"
    python3 scripts/cli-check.py "$TACK"
else
    echo "check: openssl not found; the CLI differential check needs it"; exit 1
fi

step "the tack binary's exit statuses and standard streams"
python3 scripts/cli-e2e.py "$TACK"

step "tack vectors wycheproof against every shared Wycheproof file"
scripts/wycheproof-cli-check.sh --scratch-path "$SCRATCH"

step "tack vectors limbo harness contract"
scripts/limbo-cli-check.sh

step "Embedded Swift: compile for armv7em/riscv32, run known answers on aarch64/armv7/riscv64 (QEMU)"
scripts/embedded-check.sh

step "public API of TackX509, TackSignature and TackTrust has no Unsafe type"
scripts/check-public-api.sh

if [ "$FUZZ_SECONDS" -gt 0 ]; then
    step "fuzz smoke (${FUZZ_SECONDS} s per target)"
    scripts/fuzz.sh all "$FUZZ_SECONDS"
fi

step "differential: certificate parse verdicts against OpenSSL and cryptography"
timeout 600 scripts/differential.sh

step "all checks passed"

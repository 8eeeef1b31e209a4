#!/usr/bin/env bash
# The test command (README "Two commands on a fresh machine"; CI runs exactly this through .ci/run).
#
#   scripts/check.sh                      # everything, fuzz smoke 3 s per target
#   scripts/check.sh --fuzz-seconds 0     # skip the fuzz smoke
#   scripts/check.sh --serial             # the Embedded step in line, not beside the others
#
# The Embedded, bare-metal and fuzz steps run the package's command plugins, the
# entry points a user runs (`swift package embedded-check`, `swift package fuzz`;
# each plugin, compiled once into $TACK_CHECK_SCRATCH/plugins-*, hands its script
# the core modules from the package graph).
#
# One build, into one scratch directory (.build/check, override with TACK_CHECK_SCRATCH):
# `swift build -c release --build-tests -Xswiftc -enable-testing` compiles every target
# once, with the flags of `swift test -c release`, which then runs without building; the `tack` binary of the CLI
# checks, the wycheproof and limbo checks, and the symbol graphs of the public-API and
# DocC checks all come from that build. Only the Embedded step (other targets) and the
# fuzz/differential harnesses (sanitizers) compile the modules again, each with the
# flags it exists for.
#
# Steps, each fatal on failure; the fast gate (1-3) comes first:
#   1. generated sources are current: scripts/generate-ec-limb-arithmetic.py --check,
#      and the catalogue of error codes (scripts/generate-code-catalogue.py --check:
#      a code added without its entry fails here)
#      (Tests/Embedded/generate-vectors.py --check runs in step 9);
#   2. `swift build -c release --build-tests -Xswiftc -enable-testing` of every target,
#      failing on any warning;
#   3. `swift test -c release --skip-build` (Swift Testing), in release mode because the
#      signature and hash conformance suites run thousands of vectors;
#   4. scripts/cli-check.py: `tack pin` equals the OpenSSL pin pipeline on every
#      certificate under Vectors/ and in the system CA bundle, raw keys included;
#      scripts/cli-e2e.py: what only the built binary shows (its exit statuses, which
#      stream each output goes to, piped standard input, scan streaming); every
#      command's behaviour is tested in-process by Tests/TackCLITests;
#   5. scripts/wycheproof-cli-check.sh: `tack vectors wycheproof` agrees with every
#      shared Wycheproof file and reports a flipped verdict as a failure;
#   6. scripts/limbo-cli-check.sh: `tack vectors limbo` keeps the x509-limbo harness
#      contract (the agreement of every case is a Swift test);
#   7. scripts/check-public-api.sh: no Unsafe type in the public API of the core
#      modules outside the documented low-level layers (symbol graphs);
#   8. scripts/docc-check.sh: the core modules' DocC catalogs build with no warning,
#      and every public function documents its parameters, result and errors;
#   9. `swift package embedded-check` (scripts/embedded-check.sh): the core modules compile as Embedded Swift for
#      armv7em (-Osize) and riscv32 (-Onone), the known-answer program
#      (Tests/Embedded) runs on aarch64 (with one recorded TLS 1.3 handshake
#      replayed) and armv7 under user-mode QEMU, and (target cortex-m4)
#      scripts/baremetal-check.sh links the armv7em objects into Cortex-M4 images
#      (no C library) and runs them under qemu-system-arm, printing flash, RAM,
#      allocations and instructions per verdict and per TLS handshake. riscv64 (a
#      second 64-bit little-endian run of the same program, aarch64's coverage)
#      is left to local runs: Tests/Embedded/README.md says why. It starts
#      before the build, in the background at the lowest priority (its compiles
#      fill the CPU the build and the single-threaded steps 4-11 leave idle), and
#      its output is printed when it ends;
#  10. `swift package fuzz --optimization -Onone all SECONDS` (scripts/fuzz.sh): every
#      libFuzzer target over its seeds and briefly beyond, built with -Onone: half the compile time
#      of -O, and the bounds checks of UnsafeBufferPointer subscripts, which -O
#      compiles out, are on (the long runs are local, at -O: swift package fuzz TARGET 600);
#  11. scripts/differential.sh: Tack's certificate parse verdict against OpenSSL's and
#      cryptography's on every committed fuzz seed, reusing the fuzz step's module
#      objects; any disagreement not in Vectors/differential/known.md fails.
# At the end (pass or fail) a table gives each step's wall time and CPU time (user +
# system of the step's processes).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# A smoke run: a few seconds per target show that each harness builds, links the
# sanitizers and survives the seed corpus plus some mutations.
FUZZ_SECONDS=3
SERIAL=0
while [ "$#" -gt 0 ]; do
    case "$1" in
        --fuzz-seconds) FUZZ_SECONDS="${2:?--fuzz-seconds needs a number}"; shift 2 ;;
        --serial) SERIAL=1; shift ;;
        *) echo "check: unknown argument $1 (--fuzz-seconds N, --serial)" >&2; exit 2 ;;
    esac
done
SCRATCH="${TACK_CHECK_SCRATCH:-$ROOT/.build/check}"
export TACK_CHECK_SCRATCH="$SCRATCH"
WORK="$(mktemp -d)"

# Sets CPU_NOW to the CPU seconds (user + system) of this shell's finished children
# so far. `times` must run in this shell, not in a $(...) subshell.
read_cpu() {
    times >"$WORK/times"
    CPU_NOW="$(awk 'NR == 2 {
        total = 0
        for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); total += p[1] * 60 + p[2] }
        printf "%.1f\n", total }' "$WORK/times")"
}

SUMMARY=()
CURRENT=""
step_start() {
    read_cpu
    CURRENT="$1"; STEP_WALL=$SECONDS; STEP_CPU="$CPU_NOW"
    printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"
}
step_end() {
    read_cpu
    SUMMARY+=("$(printf '%-44s %6d s %8.1f CPU-s' "$CURRENT" $((SECONDS - STEP_WALL)) \
        "$(awk -v a="$CPU_NOW" -v b="$STEP_CPU" 'BEGIN { print a - b }')")")
    CURRENT=""
}
summary() {
    local status=$?
    # An early failure stops the background Embedded run (its own process group).
    if [ -n "$EMBEDDED_PID" ]; then
        # The background step is a session of its own (setsid), and the embedded-check
        # plugin starts its script in another process group inside it: end every group
        # of that session, by number, not only the first. SIGKILL: the plugin is a Swift
        # program whose Foundation-spawned script inherits a blocked SIGTERM (a stopped CI
        # run's Embedded compiles went on after a TERM to their group).
        for group in $(ps -o pgid= --sid "$EMBEDDED_PID" 2>/dev/null | sort -u); do
            kill -KILL -- "-$group" 2>/dev/null || true
        done
        kill -KILL -- "-$EMBEDDED_PID" 2>/dev/null || true
    fi
    [ -n "$CURRENT" ] && SUMMARY+=("$(printf '%-44s %6d s  FAILED' "$CURRENT" $((SECONDS - STEP_WALL)))")
    printf '\n=== step times (wall, CPU) %s\n' "$(date -u +%H:%M:%S)"
    printf '%s\n' "${SUMMARY[@]}"
    read_cpu
    printf '%-44s %6d s %8.1f CPU-s\n' "total" "$SECONDS" "$CPU_NOW"
    rm -rf "$WORK"
    exit "$status"
}
EMBEDDED_PID=""
trap summary EXIT

step_start "generated sources are current"
python3 scripts/generate-ec-limb-arithmetic.py --check
python3 scripts/generate-ec-curve-constants.py --check
python3 scripts/generate-code-catalogue.py --check
step_end

# The Embedded step needs no artefact of the others: it starts now, beside the
# build, at the lowest CPU priority, so that the fast gate (steps 2-3) runs about
# as fast as alone while the Embedded compiles take the CPU it leaves idle (the
# release build keeps about 1.6 of the 2 cores busy, steps 4-11 one). It is its
# own session (setsid, so that an early failure can stop all of it), and Linux
# then schedules it as its own autogroup, in which a process's nice value does not
# count against the foreground: the autogroup's nice value is set instead
# (/proc/self/autogroup; measured 2026-12-02: with only `nice -n 19` the build
# took 665 s instead of 420, sharing the cores half and half).
# One queue of targets (scripts/embedded-check.sh, two at a time): armv7em first
# (armv7 and the Cortex-M4 images use its modules), the longest next, the short
# ones that wait for armv7em last, so that no core idles at the end of the job.
# No riscv64: its run duplicates aarch64's (Tests/Embedded/README.md, "CI").
embedded_log="$WORK/embedded.log"
# The fuzz plugin writes inside the package (.fuzz/), which SwiftPM asks about; a
# non-interactive run grants it here (the flag is harmless for the other plugins).
plugin() {  # plugin NAME ARGUMENTS...: `swift package NAME ARGUMENTS...`, its own scratch path
    local name="$1"; shift
    swift package --scratch-path "$SCRATCH/plugins-$name" --allow-writing-to-package-directory "$name" "$@"
}
if [ "$SERIAL" != 1 ]; then
    printf '\n=== Embedded Swift started in the background (%s)\n' "$(date -u +%H:%M:%S)"
    timer=()
    [ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%e %U %S' -o "$WORK/embedded.time")
    setsid "${timer[@]}" nice -n 19 bash -c '
        echo 19 >/proc/self/autogroup 2>/dev/null || true
        exec swift package --scratch-path "$1/plugins-embedded-check" --allow-writing-to-package-directory \
            embedded-check --build-dir "$1/embedded" armv7em aarch64 riscv32 cortex-m4 armv7' _ "$SCRATCH" \
        >"$embedded_log" 2>&1 &
    EMBEDDED_PID=$!
fi

step_start "build (release, tests included; warnings are errors)"
log="$WORK/build.log"
set +e
# -enable-testing: what `swift test` adds for @testable imports (`swift build
# --build-tests` adds it only in debug); scripts/symbol-graphs.sh builds the same way.
swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path "$SCRATCH" >"$log" 2>&1
status=$?
set -e
grep -E "warning:|error:|Compiling|Build" "$log" | grep -v "^\[" || true
if [ "$status" -ne 0 ] || grep -q "error:" "$log"; then echo "check: build failed"; exit 1; fi
if grep -E "warning:" "$log" | grep -v "^warning: 'main'" | grep -q .; then
    echo "check: the build has warnings:"; grep -E "warning:" "$log" | sort -u; exit 1
fi
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"
TACK="$BIN/tack"
export TACK_BIN_PATH="$BIN"
[ -x "$TACK" ] || { echo "check: no tack binary at $TACK"; exit 1; }
step_end

step_start "tests (release, no rebuild)"
log="$WORK/test.log"
set +e
swift test -c release --skip-build --scratch-path "$SCRATCH" >"$log" 2>&1
status=$?
set -e
# Suite results, every failure, and the per-file vector counts the suites print.
grep -E "✘|✔ Suite|Test run|error:|vectors" "$log" | grep -v "^\[" | head -n 300 || true
if [ "$status" -ne 0 ]; then echo "check: tests failed"; exit "$status"; fi
step_end


step_start "tack pin against the OpenSSL pipeline"
command -v openssl >/dev/null || { echo "check: openssl not found; the CLI differential check needs it"; exit 1; }
python3 scripts/cli-check.py "$TACK"
step_end

step_start "the tack binary's exit statuses and standard streams"
python3 scripts/cli-e2e.py "$TACK"
step_end

step_start "tack vectors wycheproof, every shared file"
scripts/wycheproof-cli-check.sh
step_end

step_start "tack vectors limbo harness contract"
scripts/limbo-cli-check.sh
step_end

step_start "public API: no Unsafe type outside the low-level layers"
scripts/check-public-api.sh
step_end

step_start "DocC catalogs build without warnings"
scripts/docc-check.sh
step_end

# Steps 10 and 11 share their module objects (.fuzz/build), so one level for both.
if [ "$FUZZ_SECONDS" -gt 0 ]; then
    step_start "fuzz smoke (${FUZZ_SECONDS} s per target)"
    plugin fuzz --optimization -Onone all "$FUZZ_SECONDS"
    step_end
fi

step_start "differential: parse verdicts against OpenSSL and cryptography"
timeout 600 scripts/differential.sh --optimization -Onone
step_end

if [ -n "$EMBEDDED_PID" ]; then
    printf '\n=== Embedded Swift (waiting for the background run, %s)\n' "$(date -u +%H:%M:%S)"
    waited=$SECONDS
    set +e
    wait "$EMBEDDED_PID"
    status=$?
    set -e
    EMBEDDED_PID=""
    cat "$embedded_log"
    # Its own wall and CPU time: it ran beside the steps above.
    read -r wall user sys <"$WORK/embedded.time" 2>/dev/null || true
    SUMMARY+=("$(printf '%-44s %6d s %8s' "waiting for the Embedded step" $((SECONDS - waited)) "-")")
    SUMMARY+=("$(printf '%-44s %6.0f s %8.1f CPU-s' "Embedded + bare metal (background, from 2.)" "${wall:-0}" \
        "$(awk -v u="${user:-0}" -v s="${sys:-0}" 'BEGIN { print u + s }')")")
    [ "$status" -eq 0 ] || { echo "check: Embedded Swift failed"; exit "$status"; }
else
    step_start "Embedded Swift: armv7em/riscv32 compiled, known answers on aarch64/armv7 and Cortex-M4 (QEMU)"
    plugin embedded-check --build-dir "$SCRATCH/embedded" armv7em aarch64 riscv32 cortex-m4 armv7
    step_end
fi

echo
echo "=== all checks passed"

#!/usr/bin/env bash
# Counts the instructions one item of a benchmark costs, with valgrind's
# callgrind: a figure that does not drift with the machine's speed, for
# measuring a change before and after (the timed ratios stay in tack-bench).
#
#   Benchmarks/count-instructions.sh x509-parse [x509-parse-pin ...]
#   Benchmarks/count-instructions.sh --allocations e2e-rsa2048 [...]
#
# Each name is a whole benchmark name (tack-bench --list). For each,
# tack-bench runs the body 1 and 51 times
# (--iterations); the setup is the same in both runs, so
#   (instructions(51) - instructions(1)) / (50 * items per iteration)
# is the cost of one item: a certificate, a key, a byte or an operation.
# SWIFT_DETERMINISTIC_HASHING=1 fixes the seed of Set and Dictionary hashing, which
# otherwise changes per process and moves the setup's count by more than the
# difference of 10 iterations (measured: verify-p256 691,242 and 737,835 on the same
# binary with 1 and 11; 749,299 twice with a fixed seed and 1 and 101).
# Needs valgrind (apt-get install valgrind). The build is tack-bench's release
# build, but valgrind's virtual CPU does not report the SHA extensions, so
# SHA-256 takes the portable path here (sha256-hw-* count as portable too).
#
# With --allocations, the same difference counts heap allocations instead
# (valgrind memcheck's "total heap usage: N allocs"): malloc, calloc, realloc,
# posix_memalign and friends, which is every allocation Swift's runtime makes.
set -euo pipefail
export SWIFT_DETERMINISTIC_HASHING=1

MODE=instructions
if [ "${1:-}" = "--allocations" ]; then MODE=allocations; shift; fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ $# -ge 1 ] || { echo "usage: $0 [--allocations] BENCHMARK..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is not installed" >&2; exit 1; }
swift build -c release --product tack-bench >/dev/null
BENCH="$(swift build -c release --show-bin-path)/tack-bench"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

count() {  # count NAME N -> "instructions-or-allocations items"
    local out tool=(--tool=callgrind --callgrind-out-file="$WORK/cg.out")
    [ "$MODE" = allocations ] && tool=(--tool=memcheck --leak-check=no)
    out="$(valgrind "${tool[@]}" "$BENCH" --iterations "$2" --filter "=$1" 2>"$WORK/valgrind.log")" || true
    local lines
    lines="$(printf '%s\n' "$out" | wc -l)"
    [ -n "$out" ] && [ "$lines" -eq 1 ] || { echo "count-instructions: no benchmark is named '$1'" >&2; exit 1; }
    local refs
    if [ "$MODE" = allocations ]; then
        refs="$(sed -n 's/.*total heap usage: *\([0-9,]*\) allocs.*/\1/p' "$WORK/valgrind.log" | tr -d ,)"
    else
        refs="$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$WORK/valgrind.log" | tr -d ,)"
    fi
    echo "$refs ${out##* }"
}

for name in "$@"; do
    read -r one items < <(count "$name" 1)
    read -r many _ < <(count "$name" 51)
    echo "$name: $(( (many - one) / (50 * items) )) $MODE per item ($items items per iteration)"
done

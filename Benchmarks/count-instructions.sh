#!/usr/bin/env bash
# Counts the instructions one item of a benchmark costs, with valgrind's
# callgrind: a figure that does not drift with the machine's speed, for
# measuring a change before and after (the timed ratios stay in tack-bench).
#
#   Benchmarks/count-instructions.sh x509-parse [x509-parse-pin ...]
#
# Each name is a whole benchmark name (tack-bench --list). For each,
# tack-bench runs the body 1 and 11 times
# (--iterations); the setup is the same in both runs, so
#   (instructions(11) - instructions(1)) / (10 * items per iteration)
# is the cost of one item: a certificate, a key, a byte or an operation.
# Needs valgrind (apt-get install valgrind). The build is tack-bench's release
# build, but valgrind's virtual CPU does not report the SHA extensions, so
# SHA-256 takes the portable path here (sha256-hw-* count as portable too).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ $# -ge 1 ] || { echo "usage: $0 BENCHMARK..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is not installed" >&2; exit 1; }
swift build -c release --product tack-bench >/dev/null
BENCH="$(swift build -c release --show-bin-path)/tack-bench"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

count() {  # count NAME N -> "instructions items"
    local out
    out="$(valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" \
        "$BENCH" --iterations "$2" --filter "=$1" 2>"$WORK/valgrind.log")" || true
    local lines
    lines="$(printf '%s\n' "$out" | wc -l)"
    [ -n "$out" ] && [ "$lines" -eq 1 ] || { echo "count-instructions: no benchmark is named '$1'" >&2; exit 1; }
    local refs
    refs="$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$WORK/valgrind.log" | tr -d ,)"
    echo "$refs ${out##* }"
}

for name in "$@"; do
    read -r one items < <(count "$name" 1)
    read -r eleven _ < <(count "$name" 11)
    echo "$name: $(( (eleven - one) / (10 * items) )) instructions per item ($items items per iteration)"
done

#!/usr/bin/env bash
# `tack vectors limbo` end to end, over the shared x509-limbo set when present
# (../shared/vectors/x509-limbo/limbo-shared.json; a failure when CI=true and it is
# missing). Checks the harness contract on a subset read from standard input: the
# result document (version 1, harness tack-*, one result per selected case, only
# SUCCESS/FAILURE/SKIPPED, a context on every SKIPPED), exit status 0 with the
# exceptions file, and the plain last line of standard error. The agreement of every
# case is the conformance test's job (Tests/TackTrustTests/LimboConformanceTests.swift).
#
#   scripts/limbo-cli-check.sh                        # builds tack (debug, .build)
#   TACK_BIN_PATH=DIR scripts/limbo-cli-check.sh # DIR/tack, nothing built
#                                                     # (scripts/check.sh passes its own)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# The nearest shared/vectors beside the checkout or one of its parents, as
# RepositoryPaths.sharedVectors finds it (a worktree sits deeper than a clone).
SUITE="${ROOT}/../shared/vectors/x509-limbo/limbo-shared.json"
dir="$(dirname "$ROOT")"
while [ "$dir" != "/" ]; do
    if [ -f "$dir/shared/vectors/x509-limbo/limbo-shared.json" ]; then
        SUITE="$dir/shared/vectors/x509-limbo/limbo-shared.json"; break
    fi
    dir="$(dirname "$dir")"
done
if [ ! -f "$SUITE" ]; then
    if [ "${CI:-}" = "true" ]; then echo "limbo-cli-check: missing $SUITE" >&2; exit 1; fi
    echo "limbo-cli-check: $SUITE not present; skipped"; exit 0
fi
if [ -n "${TACK_BIN_PATH:-}" ]; then
    TACK="$TACK_BIN_PATH/tack"
else
    swift build --product tack 2>&1 | grep -E "error:" || true
    TACK="$(swift build --show-bin-path)/tack"
fi
[ -x "$TACK" ] || { echo "limbo-cli-check: no tack binary at $TACK" >&2; exit 1; }
out="$(mktemp)"; err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
"$TACK" vectors limbo --include 'webpki::*' --exclude 'webpki::cn::*' --include 'crl::*' \
    --exceptions Vectors/limbo/exceptions.json - <"$SUITE" >"$out" 2>"$err"
python3 - "$SUITE" "$out" "$err" <<'PY'
import fnmatch, json, re, sys
suite, out, err = (open(p).read() for p in sys.argv[1:])
cases = [c["id"] for c in json.loads(suite)["testcases"]
         if (fnmatch.fnmatchcase(c["id"], "webpki::*") or fnmatch.fnmatchcase(c["id"], "crl::*"))
         and not fnmatch.fnmatchcase(c["id"], "webpki::cn::*")]
doc = json.loads(out)
assert doc["version"] == 1 and doc["harness"].startswith("tack-"), doc.keys()
ids = [r["id"] for r in doc["results"]]
assert ids == cases, "results do not follow the selected cases"
for r in doc["results"]:
    assert r["actual_result"] in ("SUCCESS", "FAILURE", "SKIPPED"), r
    if r["actual_result"] == "SKIPPED":
        assert r.get("context"), f"{r['id']} skipped without a reason"
last = err.strip().splitlines()[-1]
assert re.fullmatch(r"\d+ passed, \d+ failed, \d+ skipped", last), last
print(f"limbo-cli-check: {len(ids)} cases; {last}")
PY

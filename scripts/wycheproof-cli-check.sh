#!/usr/bin/env bash
# End-to-end check of `tack vectors wycheproof` (run by scripts/check.sh).
#
#   scripts/wycheproof-cli-check.sh               # debug build of tack
#   scripts/wycheproof-cli-check.sh -c release    # extra arguments go to `swift build`
#   TACK_BIN_PATH=DIR scripts/wycheproof-cli-check.sh # DIR/tack, nothing built
#                                                  # (scripts/check.sh passes its own)
#
# 1. Every Wycheproof file in <repo>/../shared/vectors/wycheproof (read there,
#    never copied into the repo; TACK_WYCHEPROOF_DIR overrides the folder, as
#    for the Swift test suites) must agree: exit status 0, last line
#    `N passed, 0 failed` with N > 0. Skipped, with a message, when the folder
#    is absent, except in CI (CI=true), where a missing set is a failure.
#    The primitive files of <repo>/../shared/vectors/wycheproof-primitives
#    (AES-CBC, HMAC, PBKDF2, PBES2; beside TACK_WYCHEPROOF_DIR when it is set)
#    run the same way, and none of their vectors may be skipped: Tack has
#    every hash and key size they use.
# 2. The failure path: Vectors/signatures/wycheproof-cli/eddsa_flipped_result_test.json
#    (a correct Ed25519 signature rated `invalid`, tcId 2; see its README) must
#    make the command exit 1, list tcId 2, and end with `2 passed, 1 failed`.
# 3. A usage error exits 2 (no FILE); file errors exit 1, as for every command's
#    inputs (issue 31): an unreadable file, an unknown schema.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

fail() { echo "wycheproof-cli-check: $*" >&2; exit 1; }

if [ -n "${TACK_BIN_PATH:-}" ]; then
    TACK="$TACK_BIN_PATH/tack"
else
    swift build --product tack "$@" 2>&1 | grep -E "error:|warning:" || true
    TACK="$(swift build --show-bin-path "$@")/tack"
fi
[ -x "$TACK" ] || fail "no tack binary at $TACK"

out="$(mktemp)"
work="$(mktemp -d)"
trap 'rm -rf "$out" "$work"' EXIT

# Runs tack with the given arguments; sets $status, output in $out.
run() {
    set +e
    "$TACK" "$@" >"$out" 2>"$work/stderr"
    status=$?
    set -e
}

# 1. The real Wycheproof files.
WYCHEPROOF="${TACK_WYCHEPROOF_DIR:-$(dirname "$ROOT")/shared/vectors/wycheproof}"
if [ -d "$WYCHEPROOF" ]; then
    shopt -s nullglob
    files=("$WYCHEPROOF"/*.json)
    shopt -u nullglob
    [ "${#files[@]}" -gt 0 ] || fail "no .json file in $WYCHEPROOF"
    start=$SECONDS
    run vectors wycheproof "${files[@]}"
    cat "$out"
    echo "(${#files[@]} files in $((SECONDS - start)) s)"
    last="$(tail -n 1 "$out")"
    [[ "$last" =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] || fail "Wycheproof disagreements: last line is '$last'"
    [ "${BASH_REMATCH[1]}" -gt 0 ] || fail "no Wycheproof vector ran"
    [ "$status" -eq 0 ] || fail "exit status $status with '$last'"
elif [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
    fail "$WYCHEPROOF is absent, and CI=true makes a missing vector set a failure"
else
    echo "wycheproof-cli-check: $WYCHEPROOF is absent; skipping the Wycheproof files"
fi

# Runs the files "$@" (after the label naming them): every vector must agree and
# none may be skipped.
run_without_skips() {
    local label="$1"
    shift
    local start=$SECONDS
    run vectors wycheproof "$@"
    tail -n 2 "$out"
    echo "($# $label files in $((SECONDS - start)) s)"
    local last total
    last="$(tail -n 1 "$out")"
    total="$(tail -n 2 "$out" | head -n 1)"
    [[ "$total" == *", 0 vectors skipped" ]] || { cat "$out"; fail "Wycheproof $label vectors skipped: '$total'"; }
    [[ "$last" =~ ^([0-9]+)\ passed,\ 0\ failed$ ]] || { cat "$out"; fail "Wycheproof $label disagreements: last line is '$last'"; }
    [ "${BASH_REMATCH[1]}" -gt 0 ] || fail "no Wycheproof $label vector ran"
    [ "$status" -eq 0 ] || fail "$label files: exit status $status with '$last'"
}

# 1b. The primitive files (AES-CBC, HMAC, PBKDF2, PBES2) beside it, the same way.
PRIMITIVES="$(dirname "$WYCHEPROOF")/wycheproof-primitives"
if [ -d "$PRIMITIVES" ]; then
    shopt -s nullglob
    files=("$PRIMITIVES"/*_test.json)
    shopt -u nullglob
    [ "${#files[@]}" -gt 0 ] || fail "no _test.json file in $PRIMITIVES"
    run_without_skips primitive "${files[@]}"
elif [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
    fail "$PRIMITIVES is absent, and CI=true makes a missing vector set a failure"
else
    echo "wycheproof-cli-check: $PRIMITIVES is absent; skipping the primitive files"
fi

# 1c. The TLS primitive files (AES-GCM, P-256 ECDH on points, X25519, ChaCha20-Poly1305,
#     HKDF-SHA-256) of
#     <repo>/../shared/vectors/wycheproof-tls (beside TACK_WYCHEPROOF_DIR when it is set),
#     the same way: every vector agrees, none skipped.
TLS="$(dirname "$WYCHEPROOF")/wycheproof-tls"
TLS_FILES=(aes_gcm_test.json ecdh_secp256r1_ecpoint_test.json x25519_test.json chacha20_poly1305_test.json hkdf_sha256_test.json)
if [ -d "$TLS" ]; then
    files=()
    for name in "${TLS_FILES[@]}"; do
        [ -f "$TLS/$name" ] || fail "$TLS/$name is missing"
        files+=("$TLS/$name")
    done
    run_without_skips "TLS primitive" "${files[@]}"
elif [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
    fail "$TLS is absent, and CI=true makes a missing vector set a failure"
else
    echo "wycheproof-cli-check: $TLS is absent; skipping the TLS primitive files"
fi

# 2. A disagreement must fail the run and name its tcId.
FLIPPED="Vectors/signatures/wycheproof-cli/eddsa_flipped_result_test.json"
run vectors wycheproof "$FLIPPED"
[ "$status" -eq 1 ] || { cat "$out"; fail "flipped-result file: exit status $status, expected 1"; }
grep -q "^  disagreeing tcIds: 2$" "$out" || { cat "$out"; fail "flipped-result file: tcId 2 not listed"; }
grep -q "^  DISAGREE tcId 2: expected invalid, Tack accepts" "$out" || { cat "$out"; fail "flipped-result file: no DISAGREE line"; }
grep -q "Ed448 not supported" "$out" || { cat "$out"; fail "flipped-result file: Ed448 group not reported as skipped"; }
[ "$(tail -n 1 "$out")" = "2 passed, 1 failed" ] || { cat "$out"; fail "flipped-result file: wrong summary line"; }
echo "failure path: exit 1, tcId 2 listed, '$(tail -n 1 "$out")'"

# 3. Usage and file errors.
run vectors wycheproof
[ "$status" -eq 2 ] || fail "no FILE: exit status $status, expected 2"
run vectors wycheproof "$work/absent.json"
[ "$status" -eq 1 ] || fail "unreadable file: exit status $status, expected 1"
printf '{"algorithm": "AES-WRAP", "schema": "keywrap_test_schema_v1.json", "testGroups": []}\n' >"$work/keywrap.json"
run vectors wycheproof "$work/keywrap.json"
[ "$status" -eq 1 ] || fail "unknown schema: exit status $status, expected 1"
grep -q "is not a schema Tack runs" "$work/stderr" || fail "unknown schema: no message naming it"
echo "usage error: exit 2; file errors: exit 1"

echo "wycheproof-cli-check: passed"

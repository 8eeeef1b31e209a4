#!/usr/bin/env bash
# The constant-time check: every routine that handles a secret (X25519, the Ed25519
# public key of a seed, P-256/P-384 ECDH, ChaCha20-Poly1305, Poly1305, AES-GCM on
# the portable path and on AES-NI with the PCLMULQDQ GHASH, HKDF) runs under
# valgrind's memcheck on secrets it sees as
# undefined (Tests/ConstantTime/main.swift: heap bytes nothing wrote, ctgrind's
# idea without client requests). memcheck then reports each conditional jump and
# each memory address computed from a secret. A control routine that branches on
# its secret must be reported, so the check cannot pass by seeing nothing.
#
#   scripts/constant-time-check.sh              # uses (or makes) the release build of .build/check
#   scripts/constant-time-check.sh x25519       # one routine
#
# The program is compiled with -O against the release objects of the check build
# (`swift build -c release --build-tests -Xswiftc -enable-testing`, as
# scripts/check.sh makes them), so what is measured is the optimised code that
# ships. Exit status: 0 when no routine but the control is reported, 1 otherwise
# (each report is printed with its demangled stack). Not part of scripts/check.sh:
# a documented check, run by hand and in the closing notes (valgrind multiplies the
# run time by about 50).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="${TACK_CHECK_SCRATCH:-$ROOT/.build/check}"
RELEASE="$SCRATCH/x86_64-unknown-linux-gnu/release"
command -v valgrind >/dev/null || { echo "constant-time: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
if [ ! -d "$RELEASE/TackSignature.build" ]; then
    echo "constant-time: building the release objects into $SCRATCH"
    swift build -c release --build-tests -Xswiftc -enable-testing --scratch-path "$SCRATCH" >/dev/null
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
objects=()
# TackCipherAVX512: linked for TackCipher's wide ChaCha20, which never runs here (valgrind's
# CPU has no AVX-512, so chaCha20WideIsAvailable is false under it).
for module in TackDER TackDigest TackCipherAVX512 TackCipher TackX509 TackSignature; do
    objects+=("$RELEASE/$module.build/"*.o)
done
swiftc -O -swift-version 6 -I "$RELEASE/Modules" -o "$WORK/constant-time" \
    "$ROOT/Tests/ConstantTime/main.swift" "${objects[@]}" -lm

routines=("$@")
[ "${#routines[@]}" -gt 0 ] || routines=(x25519 ed25519-public-key ecdh-p256 ecdh-p384 chacha20poly1305 poly1305
    aes128gcm-portable aes256gcm-portable aes128gcm-hardware hkdf-sha256)
status=0
report() {
    valgrind --tool=memcheck --error-limit=no --num-callers=6 "$WORK/constant-time" "$1" 2>"$WORK/$1.log" >/dev/null
    grep -c "depends on uninitialised\|Use of uninitialised" "$WORK/$1.log" || true
}
control="$(report control)"
if [ "$control" -eq 0 ]; then
    echo "constant-time: the control's branch on its secret was not reported: the check sees nothing" >&2
    exit 1
fi
echo "constant-time: control reported ($control), as it must be"
for routine in "${routines[@]}"; do
    count="$(report "$routine")"
    if [ "$count" -eq 0 ]; then
        echo "constant-time: $routine: no branch or address depends on the secret"
    else
        status=1
        echo "constant-time: $routine: $count reports of a branch or address that depends on the secret:"
        grep -A4 "uninitialised" "$WORK/$routine.log" | grep -E "uninitialised|at 0x|by 0x" \
            | swift demangle --simplified | sed 's/^==[0-9]*==/   /' | sort | uniq -c | sort -rn | head -12
    fi
done
exit "$status"

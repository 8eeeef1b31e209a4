#!/usr/bin/env bash
# The differential check: Tack's certificate parse verdict against OpenSSL's
# (d2i_X509, as `openssl x509 -inform DER` parses) and Python cryptography's on
# every file of the fuzz corpora; see scripts/differential.py and
# Vectors/differential/ (known.md lists the deliberate differences).
#
#   scripts/differential.sh             # the committed seed corpora (what check.sh runs)
#   scripts/differential.sh --local     # plus the local corpora .fuzz/*/corpus of earlier
#                                       # fuzz runs (scripts/fuzz.sh TARGET SECONDS)
#   scripts/differential.sh DIR...      # these directories only
#
#   scripts/differential.sh --optimization -Onone   # at the fuzz smoke's level (check.sh)
#
# Builds Tests/Differential/CertificateVerdict.swift with scripts/fuzz.sh --build
# (reusing the module objects of a fuzz run at the same --optimization, default -O).
# Exit status: 0 if every disagreement is in known.md, 1 otherwise; 2 on a setup
# error. differential.py's own flags (--openssl-cli, --report FILE): run it directly
# on the binary this prints.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

command -v openssl >/dev/null || { echo "differential: openssl not found" >&2; exit 2; }
python3 -c 'import cryptography' 2>/dev/null || { echo "differential: Python cryptography not found" >&2; exit 2; }

optimization=()
if [ "${1:-}" = --optimization ]; then optimization=(--optimization "${2:?--optimization needs a level}"); shift 2; fi
mapfile -t dirs < <(scripts/fuzz.sh --seeds)
case "${1:-}" in
    "") ;;
    --local)
        for corpus in .fuzz/*/corpus; do [ -d "$corpus" ] && dirs+=("$corpus"); done
        ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    *) dirs=("$@") ;;
esac

binary="$(scripts/fuzz.sh "${optimization[@]}" --build verdict TackX509 Tests/Differential/CertificateVerdict.swift)"
echo "differential: $binary" >&2
python3 scripts/differential.py "$binary" --known Vectors/differential/known.md "${dirs[@]}"

#!/usr/bin/env bash
# Regenerates the PEM vectors in this directory with openssl (3.x). See README.md.
#
#   Vectors/pem/generate.sh
#
# Keys are fresh on every run, so regenerating changes every file; the tests
# only rely on relations between files (the certificates inside the PEM files
# equal the .der files), never on specific bytes.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tackpemXXXXXX")"
# (Letters only: openssl 3.0 fails on "-unix" socket paths with "-" or ".".)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# 1. A three-level chain: RSA-2048 root, P-384 intermediate, P-256 leaf, so
#    the Base64 bodies have different lengths and final-quantum shapes.
cat >"$WORK/ext.cnf" <<'EOF'
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/root.key" 2>/dev/null
openssl req -x509 -new -key "$WORK/root.key" -subj "/O=Tack Test/CN=Tack Test Root" \
    -days 36500 -set_serial 1 -sha256 -extensions ca -config "$WORK/ext.cnf" -out "$WORK/root.pem"

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out "$WORK/intermediate.key"
openssl req -new -key "$WORK/intermediate.key" -subj "/O=Tack Test/CN=Tack Test Intermediate" \
    -out "$WORK/intermediate.csr"
openssl x509 -req -in "$WORK/intermediate.csr" -CA "$WORK/root.pem" -CAkey "$WORK/root.key" \
    -set_serial 2 -days 36500 -sha256 -extfile "$WORK/ext.cnf" -extensions ca \
    -out "$WORK/intermediate.pem" 2>/dev/null

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$WORK/leaf.key"
openssl req -new -key "$WORK/leaf.key" -subj "/O=Tack Test/CN=localhost" -out "$WORK/leaf.csr"
openssl x509 -req -in "$WORK/leaf.csr" -CA "$WORK/intermediate.pem" -CAkey "$WORK/intermediate.key" \
    -set_serial 3 -days 36500 -sha384 -extfile "$WORK/ext.cnf" -extensions leaf \
    -out "$WORK/leaf.pem" 2>/dev/null

for name in root intermediate leaf; do
    openssl x509 -in "$WORK/$name.pem" -outform DER -out "$name.der"
done

# 2. Well-formed PEM files.
cat "$WORK/leaf.pem" "$WORK/intermediate.pem" "$WORK/root.pem" >chain.pem
sed 's/$/\r/' chain.pem >chain-crlf.pem
{
    echo "Explanatory text before the first block is ignored (RFC 7468 section 2)."
    echo
    openssl pkey -in "$WORK/leaf.key" -pubout
    echo "Text between blocks."
    cat "$WORK/leaf.csr"
    cat "$WORK/leaf.pem"
    echo "Trailing text."
} >mixed-labels.pem

# 3. The real output of `openssl s_client -showcerts` against an s_server on a
#    Unix socket (no network): leaf and intermediate sent by the server, plus
#    all the surrounding session text.
cat "$WORK/leaf.pem" "$WORK/intermediate.pem" >"$WORK/server-chain.pem"
openssl s_server -unix "$WORK/sock" -cert "$WORK/leaf.pem" -key "$WORK/leaf.key" \
    -cert_chain "$WORK/intermediate.pem" -naccept 1 -quiet >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do
    [ -S "$WORK/sock" ] && break
    sleep 0.1
done
openssl s_client -unix "$WORK/sock" -showcerts -servername localhost \
    -CAfile "$WORK/root.pem" </dev/null >s_client-showcerts.txt 2>&1 || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
grep -q "BEGIN CERTIFICATE" s_client-showcerts.txt ||
    { echo "s_client produced no certificates" >&2; cat "$WORK/server.log" >&2; exit 1; }

# 4. Malformed inputs (seeds for the fuzzer and inputs for PEMTests), each
#    derived from leaf.pem by one edit.
mkdir -p malformed
# The END line removed.
grep -v -- "-----END" "$WORK/leaf.pem" >malformed/missing-end.pem
# The END line's label differs from the BEGIN line's.
sed 's/-----END CERTIFICATE-----/-----END X509 CRL-----/' "$WORK/leaf.pem" >malformed/label-mismatch.pem
# A character outside the Base64 alphabet on the second body line.
awk 'NR == 3 { $0 = "!" substr($0, 2) } { print }' "$WORK/leaf.pem" >malformed/bad-base64.pem
# The final '=' padding removed (the leaf's DER length is not a multiple of 3
# for P-256 keys in practice; the generator checks).
sed 's/=//g' "$WORK/leaf.pem" >malformed/missing-padding.pem
if cmp -s "$WORK/leaf.pem" malformed/missing-padding.pem; then
    echo "leaf.pem has no padding; rerun to get another key" >&2
    exit 1
fi
# The BEGIN line without its closing dashes.
sed 's/-----BEGIN CERTIFICATE-----/-----BEGIN CERTIFICATE/' "$WORK/leaf.pem" >malformed/malformed-boundary.pem
# An END line with no BEGIN line.
grep -v -- "-----BEGIN" "$WORK/leaf.pem" >malformed/unmatched-end.pem

echo "regenerated $(find . -type f ! -name generate.sh ! -name README.md | wc -l | tr -d ' ') files in $HERE"

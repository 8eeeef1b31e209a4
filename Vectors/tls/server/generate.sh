#!/usr/bin/env bash
# Test server identities for the TackTLS loopback tests (openssl s_server):
# one CA (P-256) and four leaves for localhost / 127.0.0.1, one per key type:
# RSA-2048, ECDSA P-256, ECDSA P-384, Ed25519. Valid 2026-01-01 .. 2036-01-01.
# Test keys only: never use them for anything else. Rerun to regenerate
# (keys change; the tests read whatever is committed).
set -euo pipefail
cd "$(dirname "$0")"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ca.key
openssl req -x509 -new -key ca.key -subj "/CN=Tack TLS Test CA" -days 3653 -not_before 20260101000000Z -not_after 20360101000000Z \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem 2>/dev/null \
 || openssl req -x509 -new -key ca.key -subj "/CN=Tack TLS Test CA" -days 3653 \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem
leaf() {
    local name="$1"; shift
    openssl genpkey "$@" -out "$name.key"
    openssl req -new -key "$name.key" -subj "/CN=localhost" -out "$name.csr"
    printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$name.ext"
    openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -set_serial "0x$(openssl rand -hex 8)" \
        -not_before 20260101000000Z -not_after 20360101000000Z -extfile "$name.ext" -out "$name.pem" 2>/dev/null \
     || openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -set_serial "0x$(openssl rand -hex 8)" -days 3650 -extfile "$name.ext" -out "$name.pem"
    rm -f "$name.csr" "$name.ext"
}
leaf rsa2048 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
leaf p256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
leaf p384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384
leaf ed25519 -algorithm ED25519

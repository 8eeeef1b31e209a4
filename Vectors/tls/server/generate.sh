#!/usr/bin/env bash
# Test server identities for the TackTLS loopback tests (openssl s_server):
# one CA (P-256) and five leaves for localhost / 127.0.0.1, one per key type:
# RSA-2048, ECDSA P-256, ECDSA P-384, Ed25519, RSASSA-PSS-2048 (id-RSASSA-PSS key). Valid ten years.
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
leaf rsapss -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048
# Stapled OCSP responses for the P-256 leaf, signed by the CA itself (RFC 6960
# §4.2.2.2), valid ten years: good (p256.ocsp.der) and revoked (p256.revoked.ocsp.der).
serial=$(openssl x509 -in p256.pem -noout -serial | cut -d= -f2)
work=$(mktemp -d)
openssl ocsp -issuer ca.pem -cert p256.pem -no_nonce -reqout "$work/request.der"
printf 'V\t360101000000Z\t\t%s\tunknown\t/CN=localhost\n' "$serial" > "$work/good.txt"
printf 'R\t360101000000Z\t261201000000Z\t%s\tunknown\t/CN=localhost\n' "$serial" > "$work/revoked.txt"
openssl ocsp -index "$work/good.txt" -rsigner ca.pem -rkey ca.key -CA ca.pem -reqin "$work/request.der" -respout p256.ocsp.der -ndays 3650
openssl ocsp -index "$work/revoked.txt" -rsigner ca.pem -rkey ca.key -CA ca.pem -reqin "$work/request.der" -respout p256.revoked.ocsp.der -ndays 3650
rm -rf "$work"

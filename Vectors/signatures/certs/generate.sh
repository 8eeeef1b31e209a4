#!/usr/bin/env bash
# Regenerates the certificates of Vectors/signatures/certs with openssl (3.0 or later).
# Keys are fresh on every run; the tests depend only on how each file was signed.
#
#   p384-sha256-root.pem  a self-signed P-384 root signed with ecdsa-with-SHA256: allowed by
#                         RFC 5758, refused by SignaturePolicy.webPKI (hash must match curve)
#   pss-key-root.pem      a self-signed root whose key is id-RSASSA-PSS (RFC 4055) with
#                         parameters SHA-256 / MGF1-SHA-256 / salt 32, signed with PSS
#   rsa-pss-sig-root.pem  a self-signed rsaEncryption root signed with RSASSA-PSS
#                         (SHA-384, MGF1-SHA-384, salt 48)
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
days=36500

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-384 -sha256 -nodes -days $days \
    -subj "/CN=Tack P-384 SHA-256 Root" -keyout "$tmp/a.key" -out p384-sha256-root.pem 2>/dev/null

openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_pss_keygen_md:sha256 \
    -pkeyopt rsa_pss_keygen_mgf1_md:sha256 -pkeyopt rsa_pss_keygen_saltlen:32 -out "$tmp/pss.key" 2>/dev/null
openssl req -x509 -new -key "$tmp/pss.key" -nodes -days $days -subj "/CN=Tack PSS-key Root" \
    -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:32 -sha256 -out pss-key-root.pem 2>/dev/null

openssl req -x509 -newkey rsa:2048 -nodes -days $days -subj "/CN=Tack PSS-signature Root" \
    -keyout "$tmp/r.key" -sha384 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:48 \
    -sigopt rsa_mgf1_md:sha384 -out rsa-pss-sig-root.pem 2>/dev/null

for f in *.pem; do
    printf '%s: ' "$f"; openssl x509 -in "$f" -noout -text | grep -m1 "Signature Algorithm" | sed 's/^ *//'
done

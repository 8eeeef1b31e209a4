#!/usr/bin/env bash
# Regenerates the inputs of `tack pin` that are not certificates, from the keys and
# certificates of Vectors/certs (run from the repository root; needs openssl).
set -euo pipefail
cd "$(dirname "$0")"
keys=../certs/keys
openssl pkey -in "$keys/rsa2048-leaf.key.pem" -traditional -out rsa2048-leaf.pkcs1.pem
openssl pkey -in "$keys/p256-leaf.key.pem" -traditional -out p256-leaf.sec1.pem
openssl pkey -in "$keys/p256-leaf.key.pem" -outform DER -out p256-leaf.pkcs8.der
openssl req -new -key "$keys/p256-leaf.key.pem" -subj "/CN=p256.example.com" -out p256-leaf.csr.pem
openssl req -new -key "$keys/rsa2048-leaf.key.pem" -subj "/CN=rsa2048.example.com" -outform DER -out rsa2048-leaf.csr.der
# The same request with one bit of its signature flipped (the last byte of the DER).
openssl req -in p256-leaf.csr.pem -outform DER | python3 -c '
import sys; data = bytearray(sys.stdin.buffer.read()); data[-1] ^= 1; sys.stdout.buffer.write(data)' > p256-leaf.bad-signature.csr.der
openssl crl2pkcs7 -nocrl -certfile ../certs/chain-example.pem -out chain-example.p7b.pem
openssl crl2pkcs7 -nocrl -certfile ../certs/chain-example.pem -outform DER -out chain-example.p7b.der
openssl pkey -in "$keys/p256-leaf.key.pem" | openssl pkcs8 -topk8 -passout pass:example -out p256-leaf.encrypted.pem
# Certificates whose subject or issuer does not decode: one byte of a PrintableString
# ("FR", the countryName) flipped to 0xC6, outside PrintableString's alphabet (offset
# 172 of the DER is the subject's, 60 the issuer's).
for spec in subject:172 issuer:60; do
    openssl x509 -in ../certs/p256-leaf.pem -outform DER | python3 -c '
import sys; data = bytearray(sys.stdin.buffer.read()); data['"${spec#*:}"'] ^= 0x80; sys.stdout.buffer.write(data)' \
        | openssl x509 -inform DER -out "p256-leaf.bad-${spec%:*}.pem"
done
# RSA PUBLIC KEY: a bare PKCS #1 RSAPublicKey block.
openssl rsa -in "$keys/rsa2048-leaf.key.pem" -RSAPublicKey_out -out rsa2048-leaf.rsapublickey.pem
# A DSA key (made once: a run replaces it with a new key), its public key, a
# self-signed certificate and a PKCS #12 file holding both (OpenSSL's defaults,
# password "example"), which `tack identity` reads all but the key bag of.
if [ ! -f dsa.key.pem ]; then
    openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:2048 -out dsa.params.pem
    openssl genpkey -paramfile dsa.params.pem -out dsa.key.pem
    rm dsa.params.pem
fi
openssl pkey -in dsa.key.pem -pubout -out dsa.pub.pem
openssl req -x509 -key dsa.key.pem -subj "/CN=dsa.example.com" -days 3650 -set_serial 1001 -out dsa.cert.pem
openssl pkcs12 -export -inkey dsa.key.pem -in dsa.cert.pem -passout pass:example -out dsa.p12

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

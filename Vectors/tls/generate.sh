#!/bin/sh
# Records the server flights of Vectors/tls/recordings: for each configuration of the
# loopback matrix (Tests/TackCLITests/LoopbackTLSTests.swift, `serverCases`) the
# recorder (Tests/TackCLITests/FlightRecorder.swift) starts `openssl s_server` on
# 127.0.0.1 with the test PKI of pki/, runs Tack's client with the seeded random source
# DeterministicStream(state: seed) over a real socket, and writes NAME.server.bin (every
# byte the server sent until the handshake completed), NAME.client.bin (every byte the
# client sent) and manifest.txt (configuration, seed, negotiated parameters), and
# fuzz-seeds/NAME.bin (the seed, little-endian, then the server bytes: the tls fuzz
# target's input format).
# The server's own randomness is OpenSSL's, so each run records new flights; the
# replay tests only need the client side to be deterministic.
# Needs openssl and the Swift toolchain. Run from anywhere: sh Vectors/tls/generate.sh
set -eu
cd "$(dirname "$0")/../.."
rm -rf Vectors/tls/recordings Vectors/tls/fuzz-seeds
TACK_RECORD_FLIGHTS=1 swift test --filter FlightRecorder
ls Vectors/tls/recordings

#!/usr/bin/env python3
"""Regenerates the SHA-2 test vectors in this directory from Python's hashlib.

Run from anywhere:  python3 Vectors/sha2/generate.py
Outputs (all plain text, one record per line, '#' starts a comment):
  lengths.txt        every message length 0...300 for every SHA-2 function
  monte-carlo.txt    the NIST SHAVS Monte Carlo checkpoints for SHA-256 and SHA-512
  length-counter.txt final digests of messages whose length crosses 2^32 and
                     2^64 bits, continued from a known chaining value
See README.md for the exact message and seed definitions.
"""
import hashlib
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ALGORITHMS = ["sha224", "sha256", "sha384", "sha512", "sha512_256"]


def pattern(length):
    """Message of the length tests: byte i is (i * 7 + 3) mod 256."""
    return bytes((i * 7 + 3) % 256 for i in range(length))


def write_lengths():
    with open(os.path.join(HERE, "lengths.txt"), "w") as out:
        out.write("# algorithm length hex-digest; message byte i = (i * 7 + 3) mod 256\n")
        for name in ALGORITHMS:
            for length in range(0, 301):
                out.write(f"{name} {length} {hashlib.new(name, pattern(length)).hexdigest()}\n")


def monte_carlo(name, seed):
    """NIST SHAVS (2014) §6.4: 100 checkpoints of 1000 chained hashes each."""
    checkpoints = []
    for _ in range(100):
        md = [seed, seed, seed]
        for _ in range(1000):
            md = [md[1], md[2], hashlib.new(name, md[0] + md[1] + md[2]).digest()]
        seed = md[2]
        checkpoints.append(seed)
    return checkpoints


def write_monte_carlo():
    # Fixed seeds (the SHA-256 / SHA-512 of the ASCII string "Tack SHAVS seed"),
    # so the file is reproducible byte for byte.
    with open(os.path.join(HERE, "monte-carlo.txt"), "w") as out:
        out.write("# algorithm seed-hex, then algorithm checkpoint-index hex-digest for j = 0...99\n")
        for name in ["sha256", "sha512"]:
            seed = hashlib.new(name, b"Tack SHAVS seed").digest()
            out.write(f"{name} seed {seed.hex()}\n")
            for index, digest in enumerate(monte_carlo(name, seed)):
                out.write(f"{name} {index} {digest.hex()}\n")


# --- A plain-Python SHA-256 and SHA-512 that can start from any chaining value
# and any already-processed length. Checked against hashlib below before use.

def _rotr(x, n, bits):
    return ((x >> n) | (x << (bits - n))) & ((1 << bits) - 1)


def _primes(count):
    found = []
    candidate = 2
    while len(found) < count:
        if all(candidate % p for p in found):
            found.append(candidate)
        candidate += 1
    return found


def _icbrt(n):
    low, high = 0, 1
    while high ** 3 <= n:
        high *= 2
    while low < high - 1:
        mid = (low + high) // 2
        if mid ** 3 <= n:
            low = mid
        else:
            high = mid
    return low


_K256 = [_icbrt(p << 96) % (1 << 32) for p in _primes(64)]
_K512 = [_icbrt(p << 192) % (1 << 64) for p in _primes(80)]


def _compress(state, block, bits):
    if bits == 32:
        rounds, k, word = 64, _K256, ">16I"
        s0r, s1r, S0r, S1r = (7, 18, 3), (17, 19, 10), (2, 13, 22), (6, 11, 25)
    else:
        rounds, k, word = 80, _K512, ">16Q"
        s0r, s1r, S0r, S1r = (1, 8, 7), (19, 61, 6), (28, 34, 39), (14, 18, 41)
    mask = (1 << bits) - 1
    w = list(struct.unpack(word, block))
    for t in range(16, rounds):
        x, y = w[t - 15], w[t - 2]
        s0 = _rotr(x, s0r[0], bits) ^ _rotr(x, s0r[1], bits) ^ (x >> s0r[2])
        s1 = _rotr(y, s1r[0], bits) ^ _rotr(y, s1r[1], bits) ^ (y >> s1r[2])
        w.append((w[t - 16] + s0 + w[t - 7] + s1) & mask)
    a, b, c, d, e, f, g, h = state
    for t in range(rounds):
        S1 = _rotr(e, S1r[0], bits) ^ _rotr(e, S1r[1], bits) ^ _rotr(e, S1r[2], bits)
        ch = (e & f) ^ (~e & g)
        t1 = (h + S1 + ch + k[t] + w[t]) & mask
        S0 = _rotr(a, S0r[0], bits) ^ _rotr(a, S0r[1], bits) ^ _rotr(a, S0r[2], bits)
        maj = (a & b) ^ (a & c) ^ (b & c)
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & mask, c, b, a, (t1 + S0 + maj) & mask
    return [(x + y) & mask for x, y in zip(state, [a, b, c, d, e, f, g, h])]


def continued_hash(bits, state, processed_bytes, tail):
    """Digest of a message whose first `processed_bytes` bytes (a whole number
    of blocks) left the chaining value `state`, followed by `tail`."""
    block = 64 if bits == 32 else 128
    length_bytes = 8 if bits == 32 else 16
    assert processed_bytes % block == 0
    total_bits = (processed_bytes + len(tail)) * 8
    padded = tail + b"\x80"
    padded += b"\x00" * ((-len(padded) - length_bytes) % block)
    padded += (total_bits % (1 << (8 * length_bytes))).to_bytes(length_bytes, "big")
    for offset in range(0, len(padded), block):
        state = _compress(state, padded[offset:offset + block], bits)
    return b"".join(x.to_bytes(bits // 8, "big") for x in state)


_IV256 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
_IV512 = [0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
          0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179]


def _self_check():
    for length in (0, 1, 55, 56, 63, 64, 111, 112, 127, 128, 200):
        message = pattern(length)
        assert continued_hash(32, _IV256, 0, message) == hashlib.sha256(message).digest()
        assert continued_hash(64, _IV512, 0, message) == hashlib.sha512(message).digest()


def write_length_counter():
    _self_check()
    tail = pattern(100)
    cases = [
        # (algorithm, bytes already processed): SHA-256 crossing 2^32 bits
        # (2^29 bytes) and approaching 2^64 bits, SHA-512 crossing 2^64 bits
        # (2^61 bytes), so the high word of its 128-bit length field is used.
        ("sha256", 2**29 - 64),
        ("sha256", 2**29),
        ("sha256", 2**61 - 128),
        ("sha512", 2**29 - 128),
        ("sha512", 2**61 - 128),
        ("sha512", 2**61),
    ]
    with open(os.path.join(HERE, "length-counter.txt"), "w") as out:
        out.write("# algorithm processed-bytes hex-digest; chaining value = the function's IV,\n")
        out.write("# then a 100-byte tail with byte i = (i * 7 + 3) mod 256\n")
        for name, processed in cases:
            bits, iv = (32, _IV256) if name == "sha256" else (64, _IV512)
            out.write(f"{name} {processed} {continued_hash(bits, iv, processed, tail).hex()}\n")


if __name__ == "__main__":
    write_lengths()
    write_monte_carlo()
    write_length_counter()

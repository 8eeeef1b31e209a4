#!/usr/bin/env python3
"""The Python `cryptography` peer of tack-bench's pkcs12-import benchmark (issue 21).

    pyca-pkcs12.py FILE.p12 PASSPHRASE MIN_SECONDS

Reads FILE.p12 once, then repeats `pkcs12.load_pkcs12(data, passphrase)` (MAC check,
decryption, the key and every certificate) until MIN_SECONDS have passed, timed inside
Python, and prints imports per second. With TACK_BENCH_CPU_TIME set (tack-bench
--cpu-time) it times this thread's CPU time, as tack-bench times itself.
"""
import os
import sys
import time

from cryptography.hazmat.primitives.serialization import pkcs12


def main():
    path, passphrase, minimum = sys.argv[1], sys.argv[2].encode(), float(sys.argv[3])
    with open(path, "rb") as f:
        data = f.read()
    clock = time.thread_time if os.environ.get("TACK_BENCH_CPU_TIME") else time.perf_counter
    loaded = pkcs12.load_pkcs12(data, passphrase)
    assert loaded.key is not None and loaded.cert is not None
    count, start = 0, clock()
    while True:
        loaded = pkcs12.load_pkcs12(data, passphrase)
        count += 1
        elapsed = clock() - start
        if elapsed >= minimum:
            break
    print("%f" % (count / elapsed))


if __name__ == "__main__":
    main()

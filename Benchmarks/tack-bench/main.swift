// tack-bench: measures Tack's hot paths against OpenSSL in the same run.
print("tack-bench: no benchmarks yet")

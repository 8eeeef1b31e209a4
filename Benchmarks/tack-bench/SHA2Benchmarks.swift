// SHA-256 throughput, both implementations, against OpenSSL (issue 3):
// `sha256-portable-N` vs OpenSSL's scalar code and `sha256-hw-N` vs OpenSSL as
// it runs by default (SHA-NI where present), for one-shot hashes of N bytes;
// `sha256-hw-xK-N` (issue 12): K different messages of N bytes hashed together
// by `SHA256.hashes(of:)` (interleaved on SHA-NI) against OpenSSL hashing
// messages of N bytes one by one (its MB/s for N-byte messages); the 1 MiB pair
// shows what the interleaving gains once per-call costs no longer count.

import TackDigest

/// One-shot sizes: a short message, an RSA-2048 SPKI (294 bytes), 1 KiB,
/// 16 KiB and 1 MiB.
let sha256BenchmarkSizes = [64, 294, 1024, 16384, 1_048_576]

func sha2Benchmarks() -> [Benchmark] {
    var benchmarks: [Benchmark] = []
    for (label, implementation) in [("portable", SHA2Implementation.portable), ("hw", .hardware)] {
        // Without the SHA extensions the hw figures would silently be the
        // portable ones; leave them out instead.
        guard implementation.isAvailable else { continue }
        for size in sha256BenchmarkSizes {
            let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let scalar = implementation == .portable
            benchmarks.append(
                Benchmark(
                    name: "sha256-\(label)-\(size)",
                    unit: .megabytesPerSecond(bytesPerOperation: size),
                    openssl: .evp("sha256", bytes: size, scalar: scalar),
                    peers: [
                        (scalar ? "openssl-default" : "openssl-scalar", .evp("sha256", bytes: size, scalar: !scalar))
                    ]
                ) { iterations in
                    message.withUnsafeBytes { bytes in
                        for _ in 0..<iterations {
                            var hasher = SHA256(implementation: implementation)
                            hasher.update(bytes)
                            blackHole(hasher.finalize())
                        }
                    }
                })
        }
    }
    // SHA-1 of 16 KiB (issue 21): `sha1-portable-16384` against OpenSSL's scalar code,
    // and `sha1-hw-16384` against OpenSSL as it runs by default. Where TackDigest has no
    // SHA-1 hardware path (x86-64: the SHA-NI SHA-1 intrinsics are C macros Swift cannot
    // call, see SHA1HardwareARM.swift; only arm64 builds have the ARMv8 path),
    // `sha1-hw-16384` measures the portable path, says so in its note, and its ratio is
    // the portable Swift against OpenSSL's SHA-NI code.
    for (label, wantsHardware) in [("portable", false), ("hw", true)] {
        let implementation: SHA2Implementation = wantsHardware && SHA1.hardwareIsAvailable ? .hardware : .portable
        let size = 16384
        let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let scalar = !wantsHardware
        benchmarks.append(
            Benchmark(
                name: "sha1-\(label)-\(size)",
                unit: .megabytesPerSecond(bytesPerOperation: size),
                openssl: .evp("sha1", bytes: size, scalar: scalar),
                peers: [(scalar ? "openssl-default" : "openssl-scalar", .evp("sha1", bytes: size, scalar: !scalar))],
                note: wantsHardware && implementation == .portable
                    ? "no SHA-1 hardware path in this build (x86-64: the SHA-NI SHA-1 intrinsics are C macros Swift cannot call): Tack's portable path against OpenSSL's default (SHA-NI)"
                    : nil
            ) { iterations in
                message.withUnsafeBytes { bytes in
                    for _ in 0..<iterations {
                        var hasher = SHA1(implementation: implementation)
                        hasher.update(bytes)
                        blackHole(hasher.finalize())
                    }
                }
            })
    }
    if SHA2Implementation.hardware.isAvailable {
        for (count, size) in [(2, 1024), (4, 294), (2, 1_048_576)] {
            let messages = (0..<count).map { lane in
                (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7 &+ lane) }
            }
            benchmarks.append(
                Benchmark(
                    name: "sha256-hw-x\(count)-\(size)",
                    unit: .megabytesPerSecond(bytesPerOperation: count * size),
                    openssl: .evp("sha256", bytes: size, scalar: false)
                ) { iterations in
                    for _ in 0..<iterations {
                        blackHole(SHA256.hashes(of: messages))
                    }
                })
        }
    }
    return benchmarks
}

// Runs `openssl speed` once per distinct command and parses its
// machine-readable output (`-mr`), so benchmark groups can compare with
// OpenSSL measured in the same run on the same machine.

import Foundation

/// A way to obtain one OpenSSL figure, in the unit of the benchmark it is
/// attached to. The command runs on first use only; later uses (for example
/// the same figure as a peer of another benchmark) read the cache.
struct OpenSSLReference {
    let value: () -> Double?

    /// `openssl speed -evp ALGORITHM -bytes N` in MB/s (10^6 bytes/s).
    ///
    /// - Parameters:
    ///   - algorithm: An EVP digest or cipher name, e.g. `sha256`.
    ///   - bytes: The buffer size per call.
    ///   - scalar: Run OpenSSL's plain integer code: `OPENSSL_ia32cap` masks
    ///     out SHA-NI, AVX, AVX2 and SSSE3 (so no SIMD message schedule),
    ///     the comparison issue 3 asks for for a portable implementation.
    static func evp(_ algorithm: String, bytes: Int, scalar: Bool = false) -> OpenSSLReference {
        OpenSSLReference {
            OpenSSLSpeed.shared.evpThroughput(algorithm: algorithm, bytes: bytes, scalar: scalar)
        }
    }

    /// `openssl speed -evp CIPHER -decrypt -bytes N` in MB/s: a cipher's
    /// decryption (`-decrypt`; encryption without it).
    ///
    /// - Parameters:
    ///   - algorithm: An EVP cipher name, e.g. `aes-256-cbc`.
    ///   - bytes: The buffer size per call.
    ///   - decrypt: Measure decryption rather than encryption.
    ///   - withoutAESNI: Mask AES-NI, AVX and SSSE3 out of `OPENSSL_ia32cap`, so
    ///     that OpenSSL runs its code for CPUs without AES instructions (the
    ///     reference for a portable AES).
    static func evpCipher(_ algorithm: String, bytes: Int, decrypt: Bool, withoutAESNI: Bool) -> OpenSSLReference {
        OpenSSLReference {
            OpenSSLSpeed.shared.evpThroughput(
                algorithm: algorithm, bytes: bytes,
                environment: withoutAESNI ? ["OPENSSL_ia32cap": OpenSSLSpeed.noAESNICapabilities] : [:],
                extraArguments: decrypt ? ["-decrypt"] : [])
        }
    }

    /// `openssl speed ALGORITHM` for a public-key algorithm, in operations
    /// per second. Works for `rsa2048` (and other RSA sizes), `ecdsap256`,
    /// `ecdsap384`, `ed25519`, `ed448`.
    ///
    /// - Parameters:
    ///   - algorithm: The `openssl speed` algorithm name.
    ///   - operation: Which of the two figures OpenSSL prints.
    static func publicKey(_ algorithm: String, _ operation: OpenSSLSpeed.PublicKeyOperation) -> OpenSSLReference {
        OpenSSLReference {
            OpenSSLSpeed.shared.publicKeyRates(algorithm: algorithm).map {
                operation == .sign ? $0.sign : $0.verify
            }
        }
    }
}

extension OpenSSLReference {
    /// `openssl speed ALGORITHM` for a key agreement (`ecdhx25519`,
    /// `ecdhp256`, …), in shared secrets per second.
    ///
    /// - Parameter algorithm: The `openssl speed` algorithm name.
    static func keyAgreement(_ algorithm: String) -> OpenSSLReference {
        OpenSSLReference { OpenSSLSpeed.shared.keyAgreementRate(algorithm: algorithm) }
    }
}

extension OpenSSLSpeed {
    /// The rate of a `+F5:index:bits:opsPerSecond:secondsPerOp` (ECDH) line.
    func keyAgreementRate(algorithm: String) -> Double? {
        let lines = resultLines([algorithm])
        guard let line = lines.first(where: { $0.first == "+F5" }), line.count >= 5 else { return nil }
        return Double(line[3])
    }
}

/// Runs and caches `openssl speed` invocations.
final class OpenSSLSpeed: @unchecked Sendable {
    /// The process-wide instance. tack-bench is single-threaded, so the cache
    /// needs no lock.
    static let shared = OpenSSLSpeed()

    /// Seconds per `openssl speed` measurement (`-seconds`); set from
    /// `--openssl-seconds`.
    var seconds = 1

    /// Whether OpenSSL times by wall clock (`-elapsed`), as tack-bench does by
    /// default. `openssl speed` otherwise counts user CPU time, which on a
    /// loaded machine flatters it against a wall-clock measurement.
    var usesWallClock = true

    /// `OPENSSL_ia32cap` value that disables SHA-NI (CPUID.7:EBX bit 29) and
    /// AVX2 (bit 5) in the second word and AVX (bit 60) and SSSE3 (bit 41) in
    /// the first, leaving OpenSSL's scalar integer code (issue 3).
    static let scalarCapabilities = "~0x1000020000000000:~0x20000020"

    /// `OPENSSL_ia32cap` value that disables AES-NI (CPUID.1:ECX bit 25, bit 57
    /// of the first word) with AVX (bit 60) and SSSE3 (bit 41), leaving OpenSSL's
    /// AES for CPUs without AES instructions.
    static let noAESNICapabilities = "~0x1200020000000000"

    enum PublicKeyOperation { case sign, verify }

    private var cache: [String: [[String]]] = [:]

    /// Forgets every cached figure, so the next round measures OpenSSL again.
    func clearCache() { cache.removeAll() }
    private var warned = false

    /// Runs `openssl speed -mr -seconds S [-elapsed] ARGUMENTS...` (once per distinct
    /// command and environment) and returns its `+F` result lines split at `:`.
    func resultLines(_ arguments: [String], environment: [String: String] = [:]) -> [[String]] {
        let key = (environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + arguments)
            .joined(separator: " ")
        if let cached = cache[key] { return cached }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["openssl", "speed", "-mr", "-seconds", String(seconds)] + (usesWallClock ? ["-elapsed"] : []) + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        var lines: [[String]] = []
        do {
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            lines = text.split(separator: "\n").filter { $0.hasPrefix("+F") }.map {
                $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            }
        } catch {
            if !warned {
                FileHandle.standardError.write(
                    Data("tack-bench: cannot run openssl (\(error)); no OpenSSL figures\n".utf8))
                warned = true
            }
        }
        cache[key] = lines
        return lines
    }

    /// `+F:index:algorithm:bytesPerSecond` → MB/s.
    func evpThroughput(algorithm: String, bytes: Int, scalar: Bool) -> Double? {
        evpThroughput(
            algorithm: algorithm, bytes: bytes,
            environment: scalar ? ["OPENSSL_ia32cap": Self.scalarCapabilities] : [:], extraArguments: [])
    }

    /// `openssl speed -evp ALGORITHM -bytes N` with more arguments and environment, in MB/s.
    func evpThroughput(algorithm: String, bytes: Int, environment: [String: String], extraArguments: [String]) -> Double? {
        let lines = resultLines(["-evp", algorithm, "-bytes", String(bytes)] + extraArguments, environment: environment)
        guard let line = lines.first(where: { $0.first == "+F" }), let last = line.last,
            let bytesPerSecond = Double(last)
        else { return nil }
        return bytesPerSecond / 1e6
    }

    /// The sign and verify rates of `+F2` (RSA), `+F4` (ECDSA) or `+F6`
    /// (EdDSA) lines: the last two fields, in operations per second.
    func publicKeyRates(algorithm: String) -> (sign: Double, verify: Double)? {
        let lines = resultLines([algorithm])
        guard let line = lines.first(where: { ["+F2", "+F4", "+F6"].contains($0.first ?? "") }), line.count >= 4,
            let sign = Double(line[line.count - 2]), let verify = Double(line[line.count - 1])
        else { return nil }
        return (sign, verify)
    }
}

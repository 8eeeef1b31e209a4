// External peers: for the corpus benchmarks, a small C program linked to the system
// libcrypto (Benchmarks/peers/openssl-x509.c) and a Python `cryptography` script
// (Benchmarks/peers/pyca-x509.py); for the trust benchmarks, webpki and Go's crypto/x509
// (Benchmarks/peers/webpki-verify, go-x509, built by Benchmarks/peers/build.sh); for
// pkcs12-import, PKCS12_parse (Benchmarks/peers/openssl-pkcs12.c) and `cryptography`'s
// load_pkcs12 (Benchmarks/peers/pyca-pkcs12.py). Each measures its own loop over the same corpus
// file and prints certificates per second; each distinct run happens once per
// tack-bench process and is cached.

import Foundation

final class CorpusPeers: @unchecked Sendable {
    /// The process-wide instance; tack-bench is single-threaded.
    static let shared = CorpusPeers()

    /// Seconds each peer measurement lasts.
    var seconds = 2.0

    private var cache: [String: Double?] = [:]

    /// Forgets every cached figure, so the next round measures the peers again.
    func clearCache() { cache.removeAll() }
    private var helperPaths: [String: String?] = [:]
    /// The allocations per verification each `openssl-verify` run reported, by key.
    private(set) var allocations: [String: Double] = [:]
    private let root: URL = {
        // Benchmarks/tack-bench/Peers.swift -> repository root.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    private func note(_ message: String) {
        FileHandle.standardError.write(Data("tack-bench: \(message)\n".utf8))
    }

    /// Compiles the OpenSSL helper `Benchmarks/peers/NAME.c` once; `nil` (with a
    /// message) without libssl-dev or cc.
    private func openSSLHelper(_ name: String = "openssl-x509", libraries: [String] = ["-lcrypto"]) -> String? {
        if let path = helperPaths[name] { return path }
        let source = root.appendingPathComponent("Benchmarks/peers/\(name).c").path
        let output = root.appendingPathComponent(".build/peers/\(name)").path
        var result: String?
        if !FileManager.default.fileExists(atPath: "/usr/include/openssl/x509.h") {
            note("libssl-dev headers not found (/usr/include/openssl/x509.h); OpenSSL \(name) figures skipped")
        } else {
            try? FileManager.default.createDirectory(
                atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let status = run(["cc", "-O2", "-o", output, source] + libraries).status
            if status == 0 { result = output } else { note("could not compile \(source); OpenSSL \(name) figures skipped") }
        }
        helperPaths[name] = .some(result)
        return result
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return (127, "") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func measure(_ key: String, _ arguments: [String]) -> Double? {
        if let cached = cache[key] { return cached }
        let result = run(arguments)
        let value = result.status == 0 ? Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        if value == nil { note("peer \(key) failed (exit \(result.status))") }
        cache[key] = value
        return value
    }

    /// OpenSSL's certificates per second for `mode` over the bundle at `path`.
    func openSSL(_ mode: String, corpus path: String) -> Double? {
        guard let helper = openSSLHelper() else { return nil }
        return measure("openssl \(mode)", [helper, mode, path, String(seconds)])
    }

    /// OpenSSL's verifications per second for one served chain through
    /// `Benchmarks/peers/openssl-verify.c` (`mode` is `der` or `preparsed`; see that
    /// file for the arguments); its allocations per verification are kept in
    /// ``allocations`` and printed once on standard error.
    func openSSLVerify(_ mode: String, _ arguments: [String]) -> Double? {
        guard let helper = openSSLHelper("openssl-verify") else { return nil }
        let key = "openssl-verify \(mode) \(arguments.joined(separator: " "))"
        if let cached = cache[key] { return cached }
        // With --cpu-time, the helper times itself by CPU time as tack-bench does.
        let environment = OpenSSLSpeed.shared.usesWallClock ? [:] : ["TACK_BENCH_CPU_TIME": "1"]
        let result = run([helper, mode] + arguments.prefix(4) + [String(seconds)] + arguments.dropFirst(4), environment: environment)
        let fields = result.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
        let value = result.status == 0 && fields.count == 2 ? fields[0] : nil
        if value == nil { note("peer \(key) failed (exit \(result.status))") }
        if fields.count == 2, allocations[key] == nil {
            allocations[key] = fields[1]
            note(String(format: "openssl-verify %@ %@: %.0f allocations per verification", mode, arguments.last ?? "", fields[1]))
        }
        cache[key] = value
        return value
    }

    /// OpenSSL's stapled-response checks per second through
    /// `Benchmarks/peers/openssl-ocsp.c`: `arguments` are RESPONSE LEAF ISSUER TIME.
    func openSSLOCSP(_ arguments: [String]) -> Double? {
        openSSLTimed("openssl-ocsp", arguments)
    }

    /// OpenSSL's embedded-SCT checks per second through `Benchmarks/peers/openssl-ct.c`:
    /// `arguments` are LEAF ISSUER TIME_MS then the logs' base64 keys.
    func openSSLCT(_ arguments: [String]) -> Double? {
        openSSLTimed("openssl-ct", Array(arguments.prefix(3)), after: Array(arguments.dropFirst(3)))
    }

    /// OpenSSL's client handshakes per second (the client's time only; the in-process
    /// server's is measured apart and left out) of `Benchmarks/peers/openssl-tls.c`:
    /// TLS 1.3, X25519, AES-128-GCM, the RSA-2048 chain of `pki`, verification on.
    func openSSLTLSHandshake(pki: String) -> Double? {
        guard openSSLHelper("openssl-tls", libraries: ["-lssl", "-lcrypto"]) != nil else { return nil }
        return openSSLTimed("openssl-tls", [pki])
    }

    /// A helper that takes its arguments, then MIN_SECONDS, then `after`, and prints one
    /// figure per second (timed by CPU time unless --wall-clock, as tack-bench is).
    private func openSSLTimed(_ name: String, _ arguments: [String], after: [String] = []) -> Double? {
        guard let helper = openSSLHelper(name) else { return nil }
        let key = "\(name) \((arguments + after).joined(separator: " "))"
        if let cached = cache[key] { return cached }
        let environment = OpenSSLSpeed.shared.usesWallClock ? [:] : ["TACK_BENCH_CPU_TIME": "1"]
        let result = run([helper] + arguments + [String(seconds)] + after, environment: environment)
        let value = result.status == 0 ? Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        if value == nil { note("peer \(key) failed (exit \(result.status))") }
        cache[key] = value
        return value
    }

    /// OpenSSL's PBKDF2-HMAC-SHA-256 derivations per second (32-byte key) with
    /// `iterations` iterations, through `Benchmarks/peers/openssl-pbkdf2.c`.
    func openSSLPBKDF2(iterations: Int) -> Double? {
        guard let helper = openSSLHelper("openssl-pbkdf2") else { return nil }
        let key = "openssl-pbkdf2 \(iterations)"
        if let cached = cache[key] { return cached }
        let environment = OpenSSLSpeed.shared.usesWallClock ? [:] : ["TACK_BENCH_CPU_TIME": "1"]
        let result = run([helper, String(iterations), String(seconds)], environment: environment)
        let value = result.status == 0 ? Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        if value == nil { note("peer \(key) failed (exit \(result.status))") }
        cache[key] = value
        return value
    }

    /// OpenSSL's imports per second of the PKCS #12 file at `path` (`d2i_PKCS12` and
    /// `PKCS12_parse`), through `Benchmarks/peers/openssl-pkcs12.c`.
    func openSSLPKCS12(path: String, passphrase: String) -> Double? {
        guard let helper = openSSLHelper("openssl-pkcs12") else { return nil }
        return timedPeer("openssl-pkcs12 \(path)", [helper, path, passphrase, String(seconds)])
    }

    /// pyca/cryptography's imports per second of the PKCS #12 file at `path`
    /// (`load_pkcs12`, `Benchmarks/peers/pyca-pkcs12.py`); `nil` without it.
    func pycaPKCS12(path: String, passphrase: String) -> Double? {
        let script = root.appendingPathComponent("Benchmarks/peers/pyca-pkcs12.py").path
        return timedPeer("pyca-pkcs12 \(path)", ["python3", script, path, passphrase, String(seconds)])
    }

    /// A peer that prints one rate and times itself by CPU time under `--cpu-time`.
    private func timedPeer(_ key: String, _ arguments: [String]) -> Double? {
        if let cached = cache[key] { return cached }
        let environment = OpenSSLSpeed.shared.usesWallClock ? [:] : ["TACK_BENCH_CPU_TIME": "1"]
        let result = run(arguments, environment: environment)
        let value = result.status == 0 ? Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        if value == nil { note("peer \(key) failed (exit \(result.status))") }
        cache[key] = value
        return value
    }

    /// The path of a trust peer built by `Benchmarks/peers/build.sh` (`webpki-verify`,
    /// `go-x509`), or `nil` when it has not been built.
    func trustPeerPath(_ name: String) -> String? {
        let path = root.appendingPathComponent(".build/peers/\(name)").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// A trust peer's verdicts per second (`Benchmarks/peers/webpki-verify`, `go-x509`):
    /// `mode` is `chain` or `newleaf`, `arguments` are BUNDLE ROOT HOST TIME, then the
    /// files (see either peer's header). `nil` when the peer is not built or fails its
    /// checks before timing.
    func trustPeer(_ name: String, _ mode: String, _ arguments: [String]) -> Double? {
        guard let path = trustPeerPath(name) else { return nil }
        // With --cpu-time, the peer times itself by CPU time as tack-bench does.
        let environment = OpenSSLSpeed.shared.usesWallClock ? [:] : ["TACK_BENCH_CPU_TIME": "1"]
        let key = "\(name) \(mode) \(arguments.joined(separator: " "))"
        if let cached = cache[key] { return cached }
        let result = run([path, mode] + arguments.prefix(4) + [String(seconds)] + arguments.dropFirst(4), environment: environment)
        let value = result.status == 0 ? Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        if value == nil { note("peer \(key) failed (exit \(result.status))") }
        cache[key] = value
        return value
    }

    /// pyca/cryptography's certificates per second for `mode`; `nil` without it.
    func pyca(_ mode: String, corpus path: String) -> Double? {
        let script = root.appendingPathComponent("Benchmarks/peers/pyca-x509.py").path
        return measure("pyca \(mode)", ["python3", script, mode, path, String(seconds)])
    }
}

extension OpenSSLReference {
    /// The OpenSSL helper's figure for `mode` over the system CA bundle.
    static func corpusOpenSSL(_ mode: String) -> OpenSSLReference {
        OpenSSLReference { CorpusPeers.shared.openSSL(mode, corpus: systemBundlePath) }
    }

    /// pyca/cryptography's figure for `mode` over the system CA bundle.
    static func corpusPyca(_ mode: String) -> OpenSSLReference {
        OpenSSLReference { CorpusPeers.shared.pyca(mode, corpus: systemBundlePath) }
    }
}

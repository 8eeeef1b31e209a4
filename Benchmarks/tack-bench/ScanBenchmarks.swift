// `tack scan` over the system CA bundle (issue 11): certificates per second for the
// JSON lines of the whole bundle, end to end through the built `tack` binary (file
// read, PEM decoding, parse, names, SANs, both SHA-256s, JSON, write to /dev/null).
//
// scan-ca-bundle            tack scan --jobs 1 (one thread)
// scan-ca-bundle-all-cores  tack scan (every core); the same single-thread OpenSSL
//                           reference, so its ratio shows the parallel gain too
//
// The bundle is written 50 times over into one temporary file (about 7,000
// certificates) so that the process start (a few milliseconds) stays a small part
// of each run. The reference is Benchmarks/peers/openssl-x509.c's `scan-json` mode:
// the same fields from libcrypto, formatted into a JSON line in memory, on one
// thread, timed in-process (so it pays neither process start nor PEM decoding).
// The `tack` binary must sit beside tack-bench: `swift build -c release` builds both.

import Foundation

func scanBenchmarks() -> [Benchmark] {
    guard !systemBundle.isEmpty, let bundle = FileManager.default.contents(atPath: systemBundlePath) else { return [] }
    let tack = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("tack").path
    guard FileManager.default.isExecutableFile(atPath: tack) else {
        FileHandle.standardError.write(Data("tack-bench: no tack binary at \(tack) (swift build -c release); scan benchmarks skipped\n".utf8))
        return []
    }
    let repeats = 50
    let corpus = NSTemporaryDirectory() + "tack-bench-scan-\(getpid()).pem"
    var repeated = Data()
    for _ in 0..<repeats { repeated.append(bundle) }
    guard FileManager.default.createFile(atPath: corpus, contents: repeated) else { return [] }
    atexit { 
        let path = NSTemporaryDirectory() + "tack-bench-scan-\(getpid()).pem"
        unlink(path)
    }
    let count = systemBundle.count * repeats

    func scan(_ extra: [String]) -> (Int) -> Void {
        { iterations in
            for _ in 0..<iterations {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: tack)
                process.arguments = ["scan", "--quiet"] + extra + [corpus]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                do { try process.run() } catch { return }
                process.waitUntilExit()
                blackHole(process.terminationStatus)
            }
        }
    }
    return [
        Benchmark(
            name: "scan-ca-bundle", unit: .itemsPerSecond(itemsPerOperation: count, label: "cert"),
            openssl: .corpusOpenSSL("scan-json"), run: scan(["--jobs", "1"])
        ),
        Benchmark(
            name: "scan-ca-bundle-all-cores", unit: .itemsPerSecond(itemsPerOperation: count, label: "cert"),
            openssl: .corpusOpenSSL("scan-json"), run: scan([])
        ),
    ]
}

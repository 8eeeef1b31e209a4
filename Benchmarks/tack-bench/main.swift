// tack-bench: measures Tack's hot paths against OpenSSL in the same run.
//
//     swift run -c release tack-bench                  # everything, as a table
//     swift run -c release tack-bench --filter sha256  # names containing "sha256"
//     swift run -c release tack-bench --json           # one JSON object per line
//     swift run -c release tack-bench --list           # names only
//     Benchmarks/count-instructions.sh x509-parse       # instructions per item (valgrind)
//
// Every figure is "higher is better" (MB/s or ops/s); `ratio` is tack/openssl.
//
// ADDING A BENCHMARK GROUP
// 1. Create `Benchmarks/tack-bench/<Area>Benchmarks.swift` with a function
//    `func <area>Benchmarks() -> [Benchmark]` (see SHA2Benchmarks.swift). Do the
//    setup (keys, certificates, inputs) in that function, outside the timed
//    closure; the closure receives an iteration count, loops itself, and
//    passes every result to `blackHole(_:)`.
// 2. Attach OpenSSL's figure for the same work with `OpenSSLReference`:
//    `.evp("sha256", bytes: n)` for `openssl speed -evp`, or
//    `.publicKey("rsa2048", .verify)`, `.publicKey("ecdsap256", .verify)`,
//    `.publicKey("ed25519", .verify)` for `openssl speed rsa2048` etc. Each
//    distinct openssl command runs once per tack-bench run and is cached.
//    Use `nil` when there is nothing comparable.
// 3. Add one line to the `groups` list below.
// Names are `area-variant-size`, lowercase with dashes, and stay stable.

import Foundation

let groups: [(name: String, make: () -> [Benchmark])] = [
    ("sha2", sha2Benchmarks),
    ("kdf", kdfBenchmarks),
    ("pkcs12", pkcs12Benchmarks),
    ("aes", aesBenchmarks),
    ("der", derBenchmarks),
    ("pem", pemBenchmarks),
    ("x509", x509Benchmarks),
    ("rsa", rsaBenchmarks),
    ("ec", ecBenchmarks),
    // The TLS primitives (issue 32): AES-GCM and ECDH, X25519, ChaCha20-Poly1305 and HKDF.
    ("kx", { aesGCMAndECDHBenchmarks() + x25519ChaChaHKDFBenchmarks() }),
    // A full TLS 1.3 handshake, replayed from a recorded flight (issue 34).
    ("tls", tlsHandshakeBenchmarks),
    ("trust", trustBenchmarks),
    ("e2e", endToEndBenchmarks),
    ("ocsp", ocspBenchmarks),
    ("ct", ctBenchmarks),
    ("scan", scanBenchmarks),
]

// MARK: - Command line

struct Options {
    var json = false
    var list = false
    var filters: [String] = []
    var plan = MeasurementPlan()
    var rounds = 1
    /// `--iterations N`: run each body exactly N times, untimed, for an
    /// instruction counter (Benchmarks/count-instructions.sh).
    var iterations: Int? = nil
    /// `--counts`: also report each benchmark's instructions, allocations and
    /// retain/release calls per item, from callgrind (Counts.swift).
    var counts = false
}

func usage() -> Never {
    print(
        """
        usage: tack-bench [--json] [--list] [--filter NAME]... [--samples N] [--rounds N] [--openssl-seconds S] [--cpu-time] [--counts]
               tack-bench --iterations N [--filter NAME]...
          --filter NAME        run benchmarks whose name contains NAME (repeatable; any match runs);
                               --filter =NAME runs only the benchmark named exactly NAME
          --json               one JSON object per line instead of a table
          --list               print the benchmark names and exit
          --samples N          timed samples per benchmark (default 15; the median is reported)
          --rounds N           measure Tack and its references back to back N times (default 1)
                               and report medians; the ratio is the median per-round ratio,
                               which resists a machine whose speed drifts between runs
          --openssl-seconds S  seconds per `openssl speed` measurement (default 1)
          --cpu-time           time by thread CPU time (and OpenSSL by user time) instead of
                               wall clock (ContinuousClock, and `openssl speed -elapsed`)
          --counts             also report per item, beside the time, the instructions, heap allocations
                               and retain/release calls, from two runs of this binary under valgrind's
                               callgrind (1 and 51 iterations; needs valgrind; see Counts.swift)
          --iterations N       run each selected body exactly N times, untimed and without
                               references, and print "name items-per-iteration" per line:
                               for counting instructions (Benchmarks/count-instructions.sh)
        """)
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        switch argument {
        case "--json": options.json = true
        case "--list": options.list = true
        case "--filter":
            guard let name = remaining.popFirst() else { usage() }
            options.filters.append(name)
        case "--samples":
            guard let text = remaining.popFirst(), let count = Int(text), count > 0 else { usage() }
            options.plan.sampleCount = count
        case "--rounds":
            guard let text = remaining.popFirst(), let count = Int(text), count > 0 else { usage() }
            options.rounds = count
        case "--iterations":
            guard let text = remaining.popFirst(), let count = Int(text), count >= 0 else { usage() }
            options.iterations = count
        case "--counts": options.counts = true
        case "--cpu-time":
            options.plan.usesCPUTime = true
            OpenSSLSpeed.shared.usesWallClock = false
        case "--openssl-seconds":
            guard let text = remaining.popFirst(), let seconds = Int(text), seconds > 0 else { usage() }
            OpenSSLSpeed.shared.seconds = seconds
        default: usage()
        }
    }
    return options
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let selected = groups.flatMap { $0.make() }.filter { benchmark in
    options.filters.isEmpty || options.filters.contains { filter in
        // "=NAME" matches the whole name; anything else, a part of it.
        filter.hasPrefix("=") ? benchmark.name == filter.dropFirst() : benchmark.name.contains(filter)
    }
}

if options.list {
    for benchmark in selected { print(benchmark.name) }
    exit(0)
}
if selected.isEmpty {
    FileHandle.standardError.write(Data("tack-bench: no benchmark matches \(options.filters)\n".utf8))
    exit(1)
}

if let iterations = options.iterations {
    // Instruction counting: the setup above costs the same whatever N is, so the
    // difference between two runs is N1 - N2 iterations of the bodies alone.
    for benchmark in selected {
        benchmark.run(iterations)
        print(benchmark.name, benchmark.unit.itemsPerOperation)
    }
    exit(0)
}

let reporter = Reporter(json: options.json)
reporter.header()
for benchmark in selected {
    var rounds: [BenchmarkResult] = []
    for round in 0..<options.rounds {
        if round > 0 {
            OpenSSLSpeed.shared.clearCache()
            CorpusPeers.shared.clearCache()
        }
        rounds.append(measure(benchmark, plan: options.plan))
    }
    var result = BenchmarkResult.combining(rounds)
    if options.counts { result.counts = CallgrindCounts.measure(benchmark) }
    reporter.report(result)
}

// The measurement engine of tack-bench: what a benchmark is, how it is timed,
// and how results are printed.

import Foundation
import TackFormats
import TackTrust

/// What a benchmark's figure counts. Every unit is "higher is better".
enum BenchmarkUnit: Sendable {
    /// Throughput: each operation processes this many bytes; reported in
    /// MB/s (10^6 bytes per second, as `openssl speed` counts).
    case megabytesPerSecond(bytesPerOperation: Int)
    /// Operations per second (signatures, verifications, chain builds...).
    case operationsPerSecond
    /// Items per second, where one operation handles `itemsPerOperation` items
    /// (DER nodes, certificates); the table also shows nanoseconds per item.
    case itemsPerSecond(itemsPerOperation: Int, label: String)

    /// What one operation handles, in the unit's items: bytes, operations or items.
    var itemsPerOperation: Int {
        switch self {
        case .megabytesPerSecond(let bytes): bytes
        case .operationsPerSecond: 1
        case .itemsPerSecond(let items, _): items
        }
    }

    var label: String {
        switch self {
        case .megabytesPerSecond: "MB/s"
        case .operationsPerSecond: "ops/s"
        case .itemsPerSecond(_, let label): "\(label)/s"
        }
    }

    /// Converts a rate in operations per second to this unit.
    func value(operationsPerSecond rate: Double) -> Double {
        switch self {
        case .megabytesPerSecond(let bytes): rate * Double(bytes) / 1e6
        case .operationsPerSecond: rate
        case .itemsPerSecond(let items, _): rate * Double(items)
        }
    }
}

/// One named measurement.
///
/// `run(n)` performs the operation `n` times; put the loop inside the closure
/// so the operation is specialized and inlined into it, do all setup (keys,
/// inputs) before building the `Benchmark`, and pass every result to
/// ``blackHole(_:)`` so the optimizer cannot delete the work.
struct Benchmark {
    /// The benchmark's name, e.g. `sha256-hw-1024`. Names are stable: `--filter`
    /// selects by them, and the figures quoted in issue closing notes name them
    /// (no baseline file is committed).
    let name: String
    let unit: BenchmarkUnit
    let run: (_ iterations: Int) -> Void
    /// OpenSSL's figure for the same work, in the same unit; its ratio is
    /// reported. `nil` when there is no comparable OpenSSL measurement.
    let openssl: OpenSSLReference?
    /// Further reference figures reported beside the main one (JSON `peers`).
    let peers: [(name: String, reference: OpenSSLReference)]
    /// What the figures mean when it is not what the name says (JSON `note`; a
    /// `note:` line under the table row).
    let note: String?

    init(
        name: String, unit: BenchmarkUnit, openssl: OpenSSLReference?,
        peers: [(name: String, reference: OpenSSLReference)] = [], note: String? = nil,
        run: @escaping (_ iterations: Int) -> Void
    ) {
        self.name = name
        self.unit = unit
        self.openssl = openssl
        self.peers = peers
        self.note = note
        self.run = run
    }
}

/// Keeps a value alive and opaque to the optimizer. `@_optimize(none)` stops
/// LLVM from inferring that the call has no effect and deleting it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// How long and how often to measure.
struct MeasurementPlan {
    /// Warm-up time before the samples (caches, branch predictors, CPU clock).
    var warmUp: Duration = .milliseconds(100)
    /// The target duration of one timed sample.
    var sampleDuration: Duration = .milliseconds(40)
    /// How many timed samples; the median is reported.
    var sampleCount = 15
    /// Time samples by this thread's CPU time instead of `ContinuousClock`
    /// (wall time); steadier on a loaded machine. OpenSSL is then left on
    /// its default user-time accounting instead of `-elapsed`.
    var usesCPUTime = false
}

/// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// Measures `body` with the plan's clock.
func elapsed(_ plan: MeasurementPlan, _ body: () -> Void) -> Duration {
    if plan.usesCPUTime {
        let start = threadCPUTime()
        body()
        return threadCPUTime() - start
    }
    return ContinuousClock().measure(body)
}

/// The outcome of one benchmark.
struct BenchmarkResult {
    let benchmark: Benchmark
    /// The median over the samples, in the benchmark's unit.
    let median: Double
    /// The median absolute deviation of the samples, as a fraction of the median.
    let relativeSpread: Double
    let openssl: Double?
    let peers: [(name: String, value: Double?)]

    /// With several rounds, the median of the per-round ratios (each round measures
    /// Tack and then its references back to back, so a machine whose speed drifts
    /// between runs skews both sides of a round alike).
    var pairedRatio: Double? = nil
    /// With several rounds, the median per-round ratio against each peer.
    var pairedPeerRatios: [Double?] = []
    /// With `--counts`, what one item costs besides its time (Counts.swift).
    var counts: ItemCounts? = nil

    var ratio: Double? {
        if let pairedRatio { return pairedRatio }
        guard let openssl, openssl > 0 else { return nil }
        return median / openssl
    }

    /// Combines rounds of the same benchmark: medians of every figure, and the
    /// median of the per-round ratios.
    static func combining(_ rounds: [BenchmarkResult]) -> BenchmarkResult {
        guard let first = rounds.first, rounds.count > 1 else { return rounds[0] }
        let opensslValues = rounds.compactMap(\.openssl)
        let ratios = rounds.compactMap(\.ratio)
        var result = BenchmarkResult(
            benchmark: first.benchmark,
            median: rounds.map(\.median).median,
            relativeSpread: rounds.map(\.relativeSpread).median,
            openssl: opensslValues.isEmpty ? nil : opensslValues.median,
            peers: first.peers.indices.map { index in
                let values = rounds.compactMap { $0.peers[index].value }
                return (first.peers[index].name, values.isEmpty ? nil : values.median)
            })
        result.pairedRatio = ratios.isEmpty ? nil : ratios.median
        result.pairedPeerRatios = first.peers.indices.map { index in
            let perRound = rounds.compactMap { round -> Double? in
                guard let value = round.peers[index].value, value > 0 else { return nil }
                return round.median / value
            }
            return perRound.isEmpty ? nil : perRound.median
        }
        return result
    }
}

/// Times `benchmark` by the plan: calibrate a batch size, warm up, then take
/// `sampleCount` timed batches with `ContinuousClock` (or CPU time).
func measure(_ benchmark: Benchmark, plan: MeasurementPlan) -> BenchmarkResult {

    // Calibrate: double the batch until one batch takes at least a millisecond.
    var iterations = 1
    var batchTime = elapsed(plan) { benchmark.run(iterations) }
    while batchTime < .milliseconds(1) {
        iterations *= 2
        batchTime = elapsed(plan) { benchmark.run(iterations) }
    }
    let perIteration = batchTime / iterations
    iterations = max(1, Int((plan.sampleDuration / perIteration).rounded()))

    let clock = ContinuousClock()
    let warmUpEnd = clock.now + plan.warmUp
    while clock.now < warmUpEnd { benchmark.run(iterations) }

    var rates: [Double] = []
    for _ in 0..<plan.sampleCount {
        let time = elapsed(plan) { benchmark.run(iterations) }
        rates.append(Double(iterations) / time.seconds)
    }
    let values = rates.map { benchmark.unit.value(operationsPerSecond: $0) }
    let median = values.median
    let spread = values.map { abs($0 - median) }.median / median

    return BenchmarkResult(
        benchmark: benchmark, median: median, relativeSpread: spread,
        openssl: benchmark.openssl?.value(),
        peers: benchmark.peers.map { ($0.name, $0.reference.value()) })
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

extension [Double] {
    var median: Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

// MARK: - Output

/// Prints results as they arrive: an aligned table, or JSON lines.
struct Reporter {
    let json: Bool

    /// Writes a line unbuffered, so progress shows even through a pipe.
    private func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func header() {
        guard !json else { return }
        print(row("benchmark", "unit", "tack", "±MAD", "openssl", "ratio"))
        print(String(repeating: "-", count: 86))
    }

    func report(_ result: BenchmarkResult) {
        if json {
            print(jsonLine(result))
        } else {
            print(
                row(
                    result.benchmark.name, result.benchmark.unit.label, format(result.median),
                    String(format: "%.1f%%", result.relativeSpread * 100),
                    result.openssl.map(format) ?? "-",
                    result.ratio.map { String(format: "%.2fx", $0) } ?? "-"))
            if case .itemsPerSecond(_, let label) = result.benchmark.unit, result.median > 0 {
                print(row("  = \(String(format: "%.1f", 1e9 / result.median)) ns/\(label)", "", "", "", "", ""))
            }
            for (index, peer) in result.peers.enumerated() {
                let paired = index < result.pairedPeerRatios.count ? result.pairedPeerRatios[index] : nil
                print(
                    row(
                        "  vs \(peer.name)", "", "", "", peer.value.map(format) ?? "-",
                        paired.map { String(format: "%.2fx", $0) } ?? ratioText(result.median, peer.value)))
            }
            if let note = result.benchmark.note { print("  note: " + note) }
            if let counts = result.counts { print("  per item: " + counts.summary) }
        }
    }

    private func ratioText(_ tack: Double, _ other: Double?) -> String {
        guard let other, other > 0 else { return "-" }
        return String(format: "%.2fx", tack / other)
    }

    private func row(
        _ name: String, _ unit: String, _ tack: String, _ spread: String, _ openssl: String, _ ratio: String
    )
        -> String
    {
        name.padding(toLength: 34, withPad: " ", startingAt: 0) + unit.padding(toLength: 7, withPad: " ", startingAt: 0)
            + tack.leftPadded(12) + spread.leftPadded(8) + openssl.leftPadded(14) + ratio.leftPadded(10)
    }

    private func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    }

    /// `{"benchmark": NAME, "unit": UNIT, "tack": VALUE, "openssl": VALUE_OR_NULL,
    /// "ratio": TACK_OVER_OPENSSL_OR_NULL}` plus `"peers": {NAME: VALUE_OR_NULL, ...}`
    /// when the benchmark has peers and `"note": TEXT` when it has a note.
    func jsonLine(_ result: BenchmarkResult) -> String {
        var fields: [(String, JSONValue)] = [
            ("benchmark", .string(result.benchmark.name)),
            ("unit", .string(result.benchmark.unit.label)),
            ("tack", jsonNumber(result.median)),
            ("openssl", jsonNumber(result.openssl)),
            ("ratio", jsonNumber(result.ratio)),
        ]
        if !result.peers.isEmpty {
            fields.append(("peers", .object(result.peers.map { ($0.name, jsonNumber($0.value)) })))
        }
        if let note = result.benchmark.note { fields.append(("note", .string(note))) }
        if let counts = result.counts {
            fields.append((
                "counts",
                .object([
                    ("instructions", .integer(Int64(counts.instructions))), ("allocations", .integer(Int64(counts.allocations))),
                    ("retains", .integer(Int64(counts.retains))), ("releases", .integer(Int64(counts.releases))),
                    ("refcountingInstructions", .integer(Int64(counts.countingInstructions))),
                ])))
        }
        return JSONValue.object(fields).serialized(pretty: false)
    }

    private func jsonNumber(_ value: Double?) -> JSONValue {
        // Two decimals are plenty for rates; an integral value is written as an integer.
        guard let value, value.isFinite else { return .null }
        let rounded = (value * 100).rounded() / 100
        if let integer = Int64(exactly: rounded) { return .integer(integer) }
        return JSONNumber(rounded).map(JSONValue.number) ?? .null
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

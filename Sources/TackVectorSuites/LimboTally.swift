// Agreement statistics of a limbo run (see LimboHarness.swift).

/// Agreement statistics of a run, by id prefix.
public struct LimboTally: Sendable {
    /// Counts for one prefix.
    public struct Counts: Sendable {
        public var passed = 0
        public var failed = 0
        public var skipped = 0
        public var knownDivergences = 0
    }
    public private(set) var byPrefix: [String: Counts] = [:]
    /// Disagreeing ids not in the exceptions, with expected and actual results and context.
    public private(set) var disagreements: [(id: String, expected: String, actual: LimboResult)] = []
    /// Disagreeing ids listed as deliberate divergences.
    public private(set) var divergences: [(id: String, reason: String)] = []

    public init() {}

    /// Records one result against its case's expected result.
    public mutating func record(_ result: LimboResult, expected: String, exceptions: LimboExceptions) {
        let key = LimboHarness.prefix(of: result.id)
        var counts = byPrefix[key] ?? Counts()
        switch result.actual_result {
        case .skipped:
            counts.skipped += 1
        case let actual where actual.rawValue == expected:
            counts.passed += 1
        default:
            counts.failed += 1
            if let reason = exceptions.reason(for: result.id) {
                counts.knownDivergences += 1
                divergences.append((result.id, reason))
            } else {
                disagreements.append((result.id, expected, result))
            }
        }
        byPrefix[key] = counts
    }

    /// Totals over every prefix.
    public var total: Counts {
        byPrefix.values.reduce(into: Counts()) {
            $0.passed += $1.passed; $0.failed += $1.failed; $0.skipped += $1.skipped
            $0.knownDivergences += $1.knownDivergences
        }
    }

    /// The report for standard error: one line per prefix, each disagreement, then
    /// the plain last line `N passed, N failed, N skipped`.
    public var reportLines: [String] {
        var lines: [String] = []
        for key in byPrefix.keys.sorted() {
            let c = byPrefix[key] ?? Counts()
            let agreeing = c.passed + c.failed > 0 ? 100 * c.passed / (c.passed + c.failed) : 100
            var line = "\(key): \(c.passed) passed, \(c.failed) failed, \(c.skipped) skipped (\(agreeing)% agreement)"
            if c.knownDivergences > 0 { line += ", \(c.knownDivergences) failed as listed divergences" }
            lines.append(line)
        }
        for d in disagreements {
            lines.append("DISAGREE \(d.id): expected \(d.expected), got \(d.actual.actual_result.rawValue): \(d.actual.context ?? "")")
        }
        for d in divergences { lines.append("divergence \(d.id): \(d.reason)") }
        let t = total
        lines.append("\(t.passed) passed, \(t.failed) failed, \(t.skipped) skipped")
        return lines
    }
}

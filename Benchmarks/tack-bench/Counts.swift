// --counts: what one item of a benchmark costs besides its time (issue 35): instructions,
// heap allocations, and calls to Swift's reference counting, per item, from valgrind's
// callgrind, read the way Benchmarks/count-instructions.sh reads it.
//
// tack-bench runs itself under `valgrind --tool=callgrind` with `--iterations 1` and
// `--iterations 51` (SWIFT_DETERMINISTIC_HASHING=1, so the setup's hashing is the same in
// both runs), reads each run's profile and reports (figure(51) - figure(1)) / (50 * items
// per iteration):
//   instructions  the profile's total Ir (valgrind's virtual CPU: SHA-256 takes the
//                 portable path, as in count-instructions.sh)
//   allocations   calls to malloc, calloc, realloc, aligned_alloc, posix_memalign and
//                 memalign: every heap allocation Swift's runtime makes (swift_slowAlloc
//                 ends in one of them); the same count as memcheck's "allocs"
//   retains       calls to swift_retain, swift_retain_n, swift_bridgeObjectRetain(_n),
//                 swift_unknownObjectRetain(_n) (atomic increments on this platform)
//   releases      the same for the *Release functions
// The profile counts calls exactly (callgrind's `calls=` lines), so the figures are
// machine independent and repeatable; they are no timing. Without valgrind, --counts
// says so and reports no counts.

import Foundation

/// Per-item counts of one benchmark (see the header).
struct ItemCounts {
    var instructions: Int
    var allocations: Int
    var retains: Int
    var releases: Int
    /// Instructions spent inside the retain and release functions (inclusive).
    var countingInstructions: Int

    static func - (lhs: ItemCounts, rhs: ItemCounts) -> ItemCounts {
        ItemCounts(
            instructions: lhs.instructions - rhs.instructions, allocations: lhs.allocations - rhs.allocations,
            retains: lhs.retains - rhs.retains, releases: lhs.releases - rhs.releases,
            countingInstructions: lhs.countingInstructions - rhs.countingInstructions)
    }

    func divided(by divisor: Int) -> ItemCounts {
        guard divisor > 0 else { return self }
        return ItemCounts(
            instructions: instructions / divisor, allocations: allocations / divisor, retains: retains / divisor,
            releases: releases / divisor, countingInstructions: countingInstructions / divisor)
    }

    /// `instructions N, allocations N, retains N, releases N (refcounting N% of instructions)`.
    var summary: String {
        let share = instructions > 0 ? Double(countingInstructions) / Double(instructions) * 100 : 0
        return "instructions \(instructions), allocations \(allocations), retains \(retains), releases \(releases)"
            + String(format: " (refcounting %.1f%% of instructions)", share)
    }
}

enum CallgrindCounts {
    static let allocationFunctions: Set<String> = ["malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign", "memalign"]
    static let retainFunctions: Set<String> = [
        "swift_retain", "swift_retain_n", "swift_bridgeObjectRetain", "swift_bridgeObjectRetain_n",
        "swift_unknownObjectRetain", "swift_unknownObjectRetain_n", "swift_nonatomic_retain", "swift_nonatomic_retain_n",
        "swift_nonatomic_bridgeObjectRetain", "swift_nonatomic_bridgeObjectRetain_n",
    ]
    static let releaseFunctions: Set<String> = [
        "swift_release", "swift_release_n", "swift_bridgeObjectRelease", "swift_bridgeObjectRelease_n",
        "swift_unknownObjectRelease", "swift_unknownObjectRelease_n", "swift_nonatomic_release", "swift_nonatomic_release_n",
        "swift_nonatomic_bridgeObjectRelease", "swift_nonatomic_bridgeObjectRelease_n",
    ]

    /// The per-item counts of `benchmark`, or `nil` (with a note on standard error) when
    /// valgrind is missing or a run fails.
    static func measure(_ benchmark: Benchmark) -> ItemCounts? {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile) else {
            note("--counts needs valgrind (apt-get install valgrind)")
            return nil
        }
        guard let one = run(valgrind, benchmark.name, iterations: 1), let many = run(valgrind, benchmark.name, iterations: 51) else {
            return nil
        }
        return (many - one).divided(by: 50 * benchmark.unit.itemsPerOperation)
    }

    private static func note(_ text: String) {
        FileHandle.standardError.write(Data("tack-bench: \(text)\n".utf8))
    }

    /// One callgrind run of this binary on `name` for `iterations`, read.
    private static func run(_ valgrind: String, _ name: String, iterations: Int) -> ItemCounts? {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("tack-bench-\(getpid())-\(iterations).callgrind")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = [
            "--tool=callgrind", "--callgrind-out-file=\(profile.path)",
            CommandLine.arguments[0], "--iterations", String(iterations), "--filter", "=" + name,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            note("--counts could not start valgrind: \(error)")
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = try? String(contentsOf: profile, encoding: .utf8) else {
            note("--counts: valgrind on \(name) failed (exit \(process.terminationStatus))")
            return nil
        }
        return parse(text)
    }

    /// Reads a callgrind profile: the total Ir, and the calls (and their inclusive Ir)
    /// to the allocation and reference-counting functions. Names are compressed as
    /// `(id) name` on first use and `(id)` after; a `calls=N` line follows its `cfn=`
    /// line and precedes the call's cost line (position, then Ir first).
    static func parse(_ text: String) -> ItemCounts {
        var names: [Substring: Substring] = [:]
        var counts = ItemCounts(instructions: 0, allocations: 0, retains: 0, releases: 0, countingInstructions: 0)
        var callee: Substring = ""
        var pendingKind = 0  // 1 allocation, 2 retain, 3 release: the next line is the call's cost
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        while let line = lines.popFirst() {
            if pendingKind != 0 {
                let fields = line.split(separator: " ")
                if fields.count >= 2, let cost = Int(fields[1]), pendingKind != 1 { counts.countingInstructions += cost }
                pendingKind = 0
                continue
            }
            if line.hasPrefix("cfn=") || line.hasPrefix("fn=") {
                let value = line[line.index(after: line.firstIndex(of: "=")!)...]
                if value.hasPrefix("("), let close = value.firstIndex(of: ")") {
                    let id = value[..<close]
                    let rest = value[value.index(after: close)...].drop { $0 == " " }
                    if !rest.isEmpty { names[id] = rest }
                    if line.hasPrefix("cfn=") { callee = names[id] ?? "" }
                } else if line.hasPrefix("cfn=") {
                    callee = value
                }
            } else if line.hasPrefix("calls=") {
                let number = line.dropFirst(6).prefix { $0.isNumber }
                let calls = Int(number) ?? 0
                let name = String(callee)
                if allocationFunctions.contains(name) {
                    counts.allocations += calls
                    pendingKind = 1
                } else if retainFunctions.contains(name) {
                    counts.retains += calls
                    pendingKind = 2
                } else if releaseFunctions.contains(name) {
                    counts.releases += calls
                    pendingKind = 3
                }
            } else if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                let fields = line.split(separator: " ")
                if fields.count >= 2, let total = Int(fields[1]) { counts.instructions = max(counts.instructions, total) }
            }
        }
        return counts
    }
}

// The per-file tallies and report of `tack vectors wycheproof`.

import TackSignature
import TackVectorSuites

/// Counts over vectors; also the grand total.
struct WycheproofTally {
    /// Vectors whose verdict matched a `valid` or `invalid` result.
    var agreed = 0
    var validVerified = 0
    var invalidRejected = 0
    /// Disagreeing vectors, in file order.
    var disagreements: [Disagreement] = []
    /// `acceptable` vectors with Tack's verdict, in file order.
    var acceptable: [(tcId: Int, flags: [String], accepted: Bool)] = []
    /// Skipped groups: the group's 1-based index, its reason and vector count.
    var skippedGroups: [(index: Int, reason: String, vectors: Int)] = []

    var skippedVectors: Int { skippedGroups.reduce(0) { $0 + $1.vectors } }
    var checked: Int { agreed + disagreements.count + acceptable.count }

    struct Disagreement {
        let tcId: Int
        let expected: Expected
        /// nil when Tack accepted; otherwise the error it threw.
        let rejection: SignatureError?
        let comment: String
        let flags: [String]
    }

    mutating func record(_ vector: WycheproofFile.Vector, expected: Expected, rejection: SignatureError?) {
        let accepted = rejection == nil
        switch expected {
        case .valid where accepted:
            agreed += 1
            validVerified += 1
        case .invalid where !accepted:
            agreed += 1
            invalidRejected += 1
        case .acceptable:
            acceptable.append((vector.tcId, vector.flags ?? [], accepted))
        case .valid, .invalid:
            disagreements.append(
                Disagreement(
                    tcId: vector.tcId, expected: expected, rejection: rejection,
                    comment: vector.comment ?? "", flags: vector.flags ?? []))
        }
    }

    mutating func add(_ other: WycheproofTally) {
        agreed += other.agreed
        validVerified += other.validVerified
        invalidRejected += other.invalidRejected
        disagreements += other.disagreements
        acceptable += other.acceptable
        skippedGroups += other.skippedGroups
    }
}

struct WycheproofReport {
    let path: String
    let schema: String
    let algorithm: String
    let groupCount: Int
    let vectorCount: Int
    let tally: WycheproofTally

    /// The report: header and counts, acceptable vectors, skipped groups, and every
    /// disagreement.
    func lines(verbose: Bool) -> [String] {
        var lines = [path]
        lines.append("  schema \(schema), algorithm \(algorithm), \(counted(groupCount, "group")), \(counted(vectorCount, "vector"))")
        lines.append(
            "  agree \(tally.agreed) (\(tally.validVerified) valid verified, \(tally.invalidRejected) invalid rejected)"
                + ", disagree \(tally.disagreements.count)")
        lines += acceptableLines(verbose: verbose)
        lines += skippedLines(verbose: verbose)
        lines += disagreementLines()
        if tally.checked == 0 {
            lines.append("  no vector checked")
        }
        return lines
    }

    /// The `acceptable` vectors by Tack's verdict and flags (each one if `verbose`).
    func acceptableLines(verbose: Bool) -> [String] {
        let accepted = tally.acceptable.filter(\.accepted)
        let rejected = tally.acceptable.filter { !$0.accepted }
        var summary = "  acceptable \(tally.acceptable.count)"
        if !tally.acceptable.isEmpty {
            var parts: [String] = []
            if !accepted.isEmpty { parts.append("Tack accepts \(accepted.count) (\(Self.flagSummary(accepted.map(\.flags))))") }
            if !rejected.isEmpty { parts.append("Tack rejects \(rejected.count) (\(Self.flagSummary(rejected.map(\.flags))))") }
            summary += ": " + parts.joined(separator: "; ")
        }
        guard verbose else { return [summary] }
        return [summary] + tally.acceptable.map { vector in
            "    acceptable tcId \(vector.tcId): \(vector.accepted ? "accepted" : "rejected")"
                + " [\(vector.flags.joined(separator: ", "))]"
        }
    }

    /// The skipped groups by reason, in order of first appearance (each one if `verbose`).
    func skippedLines(verbose: Bool) -> [String] {
        guard !tally.skippedGroups.isEmpty else { return ["  skipped 0 groups"] }
        var lines = ["  skipped \(counted(tally.skippedGroups.count, "group")) (\(counted(tally.skippedVectors, "vector"))):"]
        var reasons: [String] = []
        var byReason: [String: (groups: Int, vectors: Int)] = [:]
        for group in tally.skippedGroups {
            if byReason[group.reason] == nil { reasons.append(group.reason) }
            byReason[group.reason, default: (0, 0)].groups += 1
            byReason[group.reason, default: (0, 0)].vectors += group.vectors
        }
        for reason in reasons {
            let count = byReason[reason] ?? (0, 0)
            lines.append("    \(reason): \(counted(count.groups, "group")), \(counted(count.vectors, "vector"))")
        }
        if verbose {
            for group in tally.skippedGroups {
                lines.append("    group \(group.index) (\(counted(group.vectors, "vector"))): \(group.reason)")
            }
        }
        return lines
    }

    /// Each disagreement with Tack's verdict, then their tcIds on one line.
    func disagreementLines() -> [String] {
        guard !tally.disagreements.isEmpty else { return [] }
        var lines = tally.disagreements.map { item in
            let verdict = item.rejection.map { "Tack rejects (\($0.description))" } ?? "Tack accepts"
            var line = "  DISAGREE tcId \(item.tcId): expected \(item.expected.rawValue), \(verdict)"
            if !item.comment.isEmpty { line += "; \"\(item.comment)\"" }
            if !item.flags.isEmpty { line += " [\(item.flags.joined(separator: ", "))]" }
            return line
        }
        lines.append("  disagreeing tcIds: " + tally.disagreements.map { String($0.tcId) }.joined(separator: ", "))
        return lines
    }

    /// "MissingNull ×3, BerEncodedPadding" for a list of flag sets.
    private static func flagSummary(_ flagSets: [[String]]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for flags in flagSets {
            let key = flags.isEmpty ? "no flag" : flags.joined(separator: "+")
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        return order.map { key in
            let count = counts[key] ?? 0
            return count == 1 ? key : "\(key) ×\(count)"
        }.joined(separator: ", ")
    }
}


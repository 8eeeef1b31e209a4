// The per-file tallies and report of the Wycheproof runner, printed by `tack
// vectors wycheproof` and asserted on by the test suites.

/// What Tack did with one vector.
public enum WycheproofOutcome: Sendable, Equatable {
    /// Tack accepted the input (the signature verified, the ciphertext
    /// decrypted to the file's plaintext, the tag or derived key matched).
    case accepted
    /// Tack refused the input; the text says why (an error's description, or
    /// "tag mismatch").
    case rejected(String)
    /// Tack accepted the input but computed something else than the file's
    /// output (a wrong plaintext, say). Always a disagreement.
    case wrongOutput(String)
}

/// Counts over vectors; also the grand total of several files.
public struct WycheproofTally: Sendable {
    /// Vectors whose outcome agreed with a `valid` or `invalid` result.
    public var agreed = 0
    /// `valid` vectors that Tack accepted.
    public var validVerified = 0
    /// `invalid` vectors that Tack rejected.
    public var invalidRejected = 0
    /// Disagreeing vectors, in file order.
    public var disagreements: [Disagreement] = []
    /// `acceptable` vectors with Tack's verdict, in file order.
    public var acceptable: [(tcId: Int, flags: [String], accepted: Bool)] = []
    /// Skipped groups: the group's 1-based index, its reason and vector count.
    public var skippedGroups: [(index: Int, reason: String, vectors: Int)] = []

    /// Creates an empty tally.
    public init() {}

    /// The vectors of the skipped groups.
    public var skippedVectors: Int { skippedGroups.reduce(0) { $0 + $1.vectors } }
    /// The vectors run (agreeing, disagreeing and acceptable).
    public var checked: Int { agreed + disagreements.count + acceptable.count }

    /// A vector whose outcome disagrees with the file.
    public struct Disagreement: Sendable {
        /// The vector's identifier.
        public let tcId: Int
        /// The file's result.
        public let expected: WycheproofExpectation
        /// What Tack did.
        public let outcome: WycheproofOutcome
        /// The vector's comment.
        public let comment: String
        /// The vector's flags.
        public let flags: [String]
    }

    /// Records one vector's outcome against its expected result, reading
    /// `acceptable` as ``WycheproofRunner/acceptableStances`` says.
    ///
    /// - Parameters:
    ///   - tcId: The vector's identifier.
    ///   - comment: The vector's comment.
    ///   - flags: The vector's flags.
    ///   - expected: The file's result.
    ///   - outcome: What Tack did.
    public mutating func record(
        tcId: Int, comment: String?, flags: [String]?, expected: WycheproofExpectation, outcome: WycheproofOutcome
    ) {
        let flags = flags ?? []
        func disagree() {
            disagreements.append(
                Disagreement(tcId: tcId, expected: expected, outcome: outcome, comment: comment ?? "", flags: flags))
        }
        switch (expected, outcome) {
        case (.valid, .accepted):
            agreed += 1
            validVerified += 1
        case (.invalid, .rejected):
            agreed += 1
            invalidRejected += 1
        case (.acceptable, .wrongOutput):
            disagree()
        case (.acceptable, _):
            let accepted = outcome == .accepted
            if let stance = WycheproofRunner.stance(forAcceptable: flags), stance != accepted {
                disagree()
            } else {
                acceptable.append((tcId, flags, accepted))
            }
        case (.valid, _), (.invalid, _):
            disagree()
        }
    }

    /// Adds another tally's counts and lists to this one.
    ///
    /// - Parameter other: The tally to add.
    public mutating func add(_ other: WycheproofTally) {
        agreed += other.agreed
        validVerified += other.validVerified
        invalidRejected += other.invalidRejected
        disagreements += other.disagreements
        acceptable += other.acceptable
        skippedGroups += other.skippedGroups
    }
}

/// The outcome of one file.
public struct WycheproofReport: Sendable {
    /// The file's path as given.
    public let path: String
    /// The schema name without `.json`.
    public let schema: String
    /// The file's algorithm.
    public let algorithm: String
    /// The number of groups.
    public let groupCount: Int
    /// The number of vectors.
    public let vectorCount: Int
    /// The counts.
    public let tally: WycheproofTally

    /// The report: header and counts, acceptable vectors, skipped groups, and every
    /// disagreement.
    ///
    /// - Parameter verbose: Whether to list each acceptable vector and skipped group.
    /// - Returns: The lines, without newlines.
    public func lines(verbose: Bool) -> [String] {
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
            let verdict: String
            switch item.outcome {
            case .accepted: verdict = "Tack accepts"
            case .rejected(let reason): verdict = "Tack rejects (\(reason))"
            case .wrongOutput(let what): verdict = "Tack computes a different result (\(what))"
            }
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

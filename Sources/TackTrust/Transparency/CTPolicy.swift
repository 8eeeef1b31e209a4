/// A Certificate Transparency policy: how many valid SCTs, from which logs, a leaf
/// needs. ``evaluate(_:lifetimeDays:)`` is a pure function of the counted SCTs and
/// the certificate's lifetime.
public enum CTPolicy: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Apple's policy (support.apple.com/103214, "Apple's Certificate Transparency
    /// policy"): at least two SCTs from once or currently approved logs; and either
    /// two SCTs from currently approved logs with at least one delivered by TLS or
    /// OCSP, or at least one embedded SCT from a currently approved log and, by the
    /// certificate's lifetime, 2 embedded SCTs (≤ 180 days; at most 1 counted per
    /// operator) or 3 (more than 180 days; at most 2 counted per operator), each from
    /// a distinct log.
    case apple
    /// Chrome's policy (`googlechrome.github.io/CertificateTransparency/ct_policy.html`):
    /// embedded SCTs from distinct once or currently approved logs, 2 (≤ 180 days) or
    /// 3 (more than 180 days), of at least two operators; or SCTs delivered by TLS or
    /// OCSP from 2 distinct currently approved logs of two operators.
    case chrome

    /// `apple` or `chrome`, as the CLI spells them.
    public var description: String {
        switch self {
        case .apple: "apple"
        case .chrome: "chrome"
        }
    }

    /// An SCT as a policy counts it: valid, from a log whose state counts.
    public struct CountedSCT: Sendable, Hashable {
        /// How it was delivered.
        public var source: SCTSource
        /// Its log's ID.
        public var logID: [UInt8]
        /// Its log's operator.
        public var operatorName: String
        /// Whether its log is currently or once approved.
        public var approval: CTApproval

        /// Creates a counted SCT.
        ///
        /// - Parameters:
        ///   - source: How it was delivered.
        ///   - logID: Its log's ID.
        ///   - operatorName: Its log's operator.
        ///   - approval: How its log counts.
        public init(source: SCTSource, logID: [UInt8], operatorName: String, approval: CTApproval) {
            self.source = source
            self.logID = logID
            self.operatorName = operatorName
            self.approval = approval
        }
    }

    /// A certificate's lifetime in days as both policies count it: notBefore to
    /// notAfter inclusive, in days of 86,400 seconds, a partial day counting as one.
    ///
    /// - Parameters:
    ///   - notBefore: The start of validity, seconds since 1970.
    ///   - notAfter: The end of validity (inclusive), seconds since 1970.
    /// - Returns: The number of days (0 when notAfter precedes notBefore).
    public static func lifetimeDays(notBefore: Int64, notAfter: Int64) -> Int64 {
        let (span, overflow) = notAfter.subtractingReportingOverflow(notBefore)
        guard !overflow else { return Int64.max / 86_400 }
        guard span >= 0 else { return 0 }
        // span + 1 seconds, rounded up to whole days; span < Int64.max, so no overflow.
        return span / 86_400 + 1
    }

    /// The number of embedded SCTs from distinct logs a certificate of
    /// `lifetimeDays` needs: 2 up to 180 days, 3 beyond.
    ///
    /// - Parameter lifetimeDays: The lifetime from ``lifetimeDays(notBefore:notAfter:)``.
    /// - Returns: 2 or 3.
    public static func requiredEmbeddedCount(lifetimeDays: Int64) -> Int {
        lifetimeDays <= 180 ? 2 : 3
    }

    /// Decides whether the counted SCTs meet the policy.
    ///
    /// - Parameters:
    ///   - scts: The valid SCTs whose logs count (``CTLogState/approval(ofSCTAt:)``),
    ///     from every source.
    ///   - lifetimeDays: The leaf's lifetime (``lifetimeDays(notBefore:notAfter:)``).
    /// - Returns: `nil` when compliant, or the most telling reason it is not: that of
    ///   the embedded rule when any SCT is embedded, else that of the TLS/OCSP rule.
    public func evaluate(_ scts: [CountedSCT], lifetimeDays: Int64) -> CTPolicyFailure? {
        let required = Self.requiredEmbeddedCount(lifetimeDays: lifetimeDays)
        let embedded = Self.distinctLogs(scts.filter { $0.source == .embedded })
        let delivered = Self.distinctLogs(scts.filter { $0.source != .embedded && $0.approval == .current })
        let embeddedFailure: CTPolicyFailure?
        let deliveredFailure: CTPolicyFailure?
        switch self {
        case .apple:
            let all = Self.distinctLogs(scts)
            if all.count < 2 { return .tooFewSCTs(required: 2, found: all.count) }
            // TLS/OCSP: two SCTs of currently approved logs, one delivered by TLS or OCSP.
            let current = Self.distinctLogs(scts.filter { $0.approval == .current })
            deliveredFailure = delivered.isEmpty ? .tooFewSCTs(required: 2, found: 0)
                : current.count < 2 ? .tooFewSCTs(required: 2, found: current.count) : nil
            let cap = lifetimeDays <= 180 ? 1 : 2
            let counted = Self.capped(embedded, perOperator: cap)
            if !embedded.contains(where: { $0.approval == .current }) {
                embeddedFailure = embedded.isEmpty ? .tooFewSCTs(required: required, found: 0) : .noCurrentlyApprovedSCT
            } else if counted < required {
                embeddedFailure = embedded.count >= required
                    ? .tooFewOperators(required: (required + cap - 1) / cap, found: Self.operatorCount(embedded))
                    : .tooFewSCTs(required: required, found: embedded.count)
            } else {
                embeddedFailure = nil
            }
        case .chrome:
            let embeddedOperators = Self.operatorCount(embedded)
            embeddedFailure = embedded.count < required ? .tooFewSCTs(required: required, found: embedded.count)
                : embeddedOperators < 2 ? .tooFewOperators(required: 2, found: embeddedOperators) : nil
            let deliveredOperators = Self.operatorCount(delivered)
            deliveredFailure = delivered.count < 2 ? .tooFewSCTs(required: 2, found: delivered.count)
                : deliveredOperators < 2 ? .tooFewOperators(required: 2, found: deliveredOperators) : nil
        }
        guard let embeddedFailure, let deliveredFailure else { return nil }
        return scts.contains(where: { $0.source == .embedded }) ? embeddedFailure : deliveredFailure
    }

    /// The SCTs with one per log (the first), in order.
    static func distinctLogs(_ scts: [CountedSCT]) -> [CountedSCT] {
        var seen: [CountedSCT] = []
        for sct in scts where !seen.contains(where: { $0.logID == sct.logID }) { seen.append(sct) }
        return seen
    }

    /// The number of distinct operators.
    static func operatorCount(_ scts: [CountedSCT]) -> Int {
        var names: [String] = []
        for sct in scts where !names.contains(sct.operatorName) { names.append(sct.operatorName) }
        return names.count
    }

    /// The number of SCTs counted with at most `cap` per operator.
    static func capped(_ scts: [CountedSCT], perOperator cap: Int) -> Int {
        var names: [String] = []
        var counted = 0
        for sct in scts where names.count(where: { $0 == sct.operatorName }) < cap {
            names.append(sct.operatorName)
            counted += 1
        }
        return counted
    }
}

/// Why a leaf does not meet a ``CTPolicy``.
public enum CTPolicyFailure: Sendable, Hashable, CustomStringConvertible {
    /// Fewer valid SCTs from distinct counting logs than the policy needs.
    case tooFewSCTs(required: Int, found: Int)
    /// Enough SCTs, but from too few operators (or too many from one operator).
    case tooFewOperators(required: Int, found: Int)
    /// No embedded SCT from a currently approved log (Apple's embedded rule).
    case noCurrentlyApprovedSCT

    /// A stable snake_case identifier: `too_few_scts`, `too_few_operators` or
    /// `no_currently_approved_sct`.
    public var code: String {
        switch self {
        case .tooFewSCTs: "too_few_scts"
        case .tooFewOperators: "too_few_operators"
        case .noCurrentlyApprovedSCT: "no_currently_approved_sct"
        }
    }

    /// One line a person can act on.
    public var description: String {
        switch self {
        case .tooFewSCTs(let required, let found):
            "\(found) valid SCT\(found == 1 ? "" : "s") from counting logs, the policy needs \(required)"
        case .tooFewOperators(let required, let found):
            "SCTs from \(found) log operator\(found == 1 ? "" : "s"), the policy needs \(required)"
        case .noCurrentlyApprovedSCT:
            "no embedded SCT from a currently approved (qualified, usable or readonly) log"
        }
    }
}

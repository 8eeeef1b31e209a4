public import TackFormats
public import TackX509
internal import TackDER

/// A pin-validation failure report, modelled on the HPKP report (RFC 7469 §3) and
/// TrustKit's: the core builds the document; sending it to the rule's report URIs is
/// the application's business.
public struct PinFailureReport: Sendable {
    /// The host connected to (empty when the decision had none).
    public var host: String
    /// The port connected to.
    public var port: Int
    /// When the check ran, in seconds since 1970.
    public var time: Int64
    /// The pin check.
    public var evaluation: PinEvaluation
    /// The certificates as served (those that parsed), leaf first.
    public var servedChain: [Certificate]
    /// The verified path, leaf first (empty when the chain was not trusted).
    public var verifiedChain: [Certificate]

    /// The report of a decision; whether one is due is
    /// `decision.details.pins.outcome.needsReport`.
    ///
    /// - Parameters:
    ///   - decision: The decision to report.
    ///   - port: The port connected to.
    public init(decision: TrustDecision, port: Int) {
        let details = decision.details
        host = details.host?.description ?? ""
        self.port = port
        time = details.time
        evaluation = details.pins
        servedChain = details.servedCertificates
        switch decision {
        case .trusted(let path, _), .pinMismatch(let path, _): verifiedChain = path.certificates
        case .untrusted: verifiedChain = []
        }
    }

    /// The report as a JSON object. Keys as in RFC 7469 §3.1 (`date-time`, `hostname`,
    /// `port`, `effective-expiration-date`, `include-subdomains`, `noted-hostname`,
    /// `served-certificate-chain`, `validated-certificate-chain`, `known-pins` as
    /// `pin-sha256="…"` directives) plus TrustKit's `enforce-pinning` and
    /// `validation-result`, and the rule's report URIs. Write it with
    /// `JSONValue.serialized(pretty:)`, or embed it in a larger document as it is.
    public var json: JSONValue {
        let rule = evaluation.rule
        func pem(_ certificate: Certificate) -> String { PEM.encode(label: "CERTIFICATE", bytes: certificate.derEncoded) }
        var knownPins: [String] = []
        if let rule {
            knownPins += (rule.caIdentities + rule.leafIdentities).map { "pin-sha256=\"\($0.base64)\"" }
            knownPins += (rule.caCertificates + rule.leafCertificates).map { "cert-sha256=\"\($0.base64)\"" }
        }
        let result: String
        switch evaluation.outcome {
        case .notEvaluated: result = "chain-not-trusted"
        case .notPinned: result = "not-pinned"
        case .satisfied: result = "success"
        case .failed, .failedReportOnly: result = "pin-validation-failed"
        case .ruleExpired(let would): result = would ? "rule-expired" : "rule-expired-pin-validation-failed"
        }
        var fields: [(String, JSONValue)] = [
            ("date-time", .string(RFC3339.format(time))),
            ("hostname", .string(host)),
            ("port", .int(port)),
        ]
        if let rule {
            fields.append(("noted-hostname", .string(rule.domain)))
            fields.append(("include-subdomains", .bool(rule.scope != .exact)))
            fields.append(("effective-expiration-date", .optional(rule.expiration.map(RFC3339.format))))
            fields.append(("enforce-pinning", .bool(rule.enforcement == .enforce)))
            fields.append(("report-uris", .strings(rule.reportURIs)))
        }
        let diagnostics = evaluation.diagnostics  // computed on each read: once here
        fields += [
            ("served-certificate-chain", .strings(servedChain.map(pem))),
            ("validated-certificate-chain", .strings(verifiedChain.map(pem))),
            ("known-pins", .strings(knownPins)),
            ("validation-result", .string(result)),
            ("diagnostics", .strings(diagnostics.map { $0.description })),
            ("diagnostic-codes", .strings(diagnostics.map { $0.code })),
        ]
        return .object(fields)
    }
}

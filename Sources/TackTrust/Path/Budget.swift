/// The work a chain builder may spend on one verification before it gives up.
///
/// A chain builder calls the parser and the signature verifier many times for
/// one peer chain; hostile inputs (many candidate issuers, cross-signed loops)
/// can make that search exponential. Every search in TackTrust runs under a
/// `Budget`, and running out of budget is a fatal, reported failure rather than
/// a silent "not trusted".
public struct Budget: Sendable, Hashable {
    /// Maximum number of signature verifications.
    ///
    /// 100, as Go's `maxChainSignatureChecks` and webpki's budget: enough for
    /// any real chain with cross-signs, small enough to bound the cost of a
    /// hostile one at well under a second.
    public var signatureChecks: Int

    /// Maximum number of path-building steps (candidate issuers examined).
    ///
    /// 200,000, as webpki's `build_chain_calls` budget.
    public var buildSteps: Int

    /// Maximum number of intermediate certificates in one path.
    ///
    /// 6, as webpki: real Web PKI paths have at most 2 or 3.
    public var maxIntermediates: Int

    /// Creates a budget with explicit limits.
    ///
    /// - Parameters:
    ///   - signatureChecks: The most signature verifications.
    ///   - buildSteps: The most path-building steps.
    ///   - maxIntermediates: The most intermediates in one path.
    public init(signatureChecks: Int, buildSteps: Int, maxIntermediates: Int) {
        self.signatureChecks = signatureChecks
        self.buildSteps = buildSteps
        self.maxIntermediates = maxIntermediates
    }

    /// The default budget (100 signatures, 200,000 steps, 6 intermediates).
    public static let `default` = Budget(signatureChecks: 100, buildSteps: 200_000, maxIntermediates: 6)
}

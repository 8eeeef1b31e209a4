public import TackX509

/// Builds and validates a certificate path from a leaf to an anchor: the
/// `SecTrustEvaluateWithError` of Tack, in pure Swift.
///
/// Depth-first search over every candidate issuer (RFC 4158), charged to the
/// ``Budget``; RFC 5280 §6 validation of each candidate path; the first fully
/// valid path wins, and when none is valid the most specific failure is reported.
public struct TrustEvaluator: Sendable {
    /// The trust anchors.
    public var anchors: AnchorStore
    /// Time, peer name, purpose, limits and policy.
    public var options: TrustOptions

    /// Creates an evaluator.
    public init(anchors: AnchorStore, options: TrustOptions) {
        self.anchors = anchors
        self.options = options
    }

    /// Evaluates `leaf` with the untrusted `intermediates` the peer sent (any order,
    /// duplicates, junk and unrelated certificates allowed).
    ///
    /// ``CertificateReference/served(index:)`` numbers `leaf` 0 and
    /// `intermediates[i]` `i + 1`.
    ///
    /// - Parameter preferring: A path predicate (the pin check): when given, the
    ///   search continues past a valid path that does not satisfy it, within the
    ///   same budget, and returns the first valid path that does; if none does, the
    ///   first valid path is returned.
    public func evaluate(
        leaf: Certificate,
        intermediates: [Certificate],
        preferring: ((VerifiedPath) -> Bool)? = nil
    ) -> TrustResult {
        var builder = ChainBuilder(anchors: anchors, options: options, served: [leaf] + intermediates)
        return builder.evaluate(preferring: preferring)
    }

    /// Evaluates a chain as the peer sent it, as DER: the leaf first. A leaf that
    /// does not parse is a fatal ``TrustFailure/Reason/malformed(_:)`` failure; an
    /// intermediate that does not parse is left out of the search (references still
    /// count positions in `servedChain`).
    public func evaluate(servedChain: [[UInt8]], preferring: ((VerifiedPath) -> Bool)? = nil) -> TrustResult {
        evaluateParsing(servedChain, preferring: preferring).trust
    }

    /// ``evaluate(servedChain:preferring:)``, also returning the certificates that
    /// parsed (leaf first; empty when the leaf does not parse), for the pin check.
    func evaluateParsing(
        _ servedChain: [[UInt8]], preferring: ((VerifiedPath) -> Bool)?
    ) -> (served: [Certificate], trust: TrustResult) {
        var noCache = SignatureCache(capacity: 0)
        return evaluateParsing(servedChain, preferring: preferring, signatureCache: &noCache)
    }

    /// The same, consulting and filling `signatureCache` (see ``SignatureCache``).
    func evaluateParsing(
        _ servedChain: [[UInt8]], preferring: ((VerifiedPath) -> Bool)?, signatureCache: inout SignatureCache
    ) -> (served: [Certificate], trust: TrustResult) {
        guard let first = servedChain.first else {
            let failure = TrustFailure(.unknownIssuer, certificate: nil)
            return ([], TrustResult(verdict: .recoverableFailure(failure), path: nil, failures: [failure], signatureChecks: 0, buildSteps: 0))
        }
        let leaf: Certificate
        do {
            leaf = try Certificate(derEncoded: first)
        } catch {
            let failure = TrustFailure(.malformed(error), certificate: .served(index: 0))
            return ([], TrustResult(verdict: .fatalFailure(failure), path: nil, failures: [failure], signatureChecks: 0, buildSteps: 0))
        }
        var served = [leaf]
        served.reserveCapacity(servedChain.count)
        var positions = [0]
        positions.reserveCapacity(servedChain.count)
        for (position, der) in servedChain.enumerated().dropFirst() {
            guard let certificate = try? Certificate(derEncoded: der) else { continue }
            served.append(certificate)
            positions.append(position)
        }
        var builder = ChainBuilder(anchors: anchors, options: options, served: served, positions: positions)
        // Moved in and out, not copied, so the cache's storage is never shared (no copy on write).
        swap(&builder.signatureCache, &signatureCache)
        let trust = builder.evaluate(preferring: preferring)
        swap(&builder.signatureCache, &signatureCache)
        return (served, trust)
    }
}

public import TackSignature
public import TackX509

/// The chain of issuers a set of certificates holds for one of them, built by the
/// path builder without a trust anchor: what `SecPKCS12Import` calls an identity's
/// certificate chain, not a trust decision.
///
/// ```swift
/// let chain = IssuerChain(leafAt: 0, in: certificates)
/// for index in chain.indices { print(certificates[index].subject) }  // leaf first
/// ```
///
/// From the leaf, the path builder's candidate issuers (subject name equal to the
/// issuer name, RFC 5280 §7.1; a subject key identifier equal to the authority key
/// identifier first, then the most recent `notBefore`, as ``TrustEvaluator``
/// orders them) are tried in turn: the first that forms no loop (RFC 4158 §5.2)
/// and whose key verifies the signature of the chain's top certificate joins it.
/// Every step and signature is charged to the ``Budget``. Nothing else is checked:
/// no validity period, basic constraints, key usage or name constraints, and no
/// anchor is needed, so a chain may end in an intermediate when the set holds no
/// root. Whether the leaf is trusted is ``TrustEvaluator``'s question, with the
/// same certificates as the served chain.
public struct IssuerChain: Sendable, Hashable {
    /// Why the chain ends where it does.
    public enum End: Sendable, Hashable {
        /// The top certificate is self-issued (a root, or a self-signed leaf) and no
        /// other certificate of the set signed it.
        case selfIssued
        /// The set holds no certificate with the top certificate's issuer name (it
        /// ends in an intermediate, or the leaf alone).
        case issuerNotFound
        /// Certificates of the set have the issuer name, but the top certificate's
        /// signature does not verify under any of their keys (or uses an algorithm
        /// the signature policy refuses): the most specific failure.
        case issuerRejected(TrustFailure)
        /// The budget ran out: the chain may go on beyond its top certificate.
        case budgetExhausted(TrustFailure)
    }

    /// Positions in the set of the chain's certificates, leaf first; each is signed
    /// by the next.
    public let indices: [Int]
    /// Why the chain ends.
    public let end: End
    /// Signature verifications spent on this chain (a signature another chain of the
    /// same ``chains(leavesAt:in:signaturePolicy:budget:)`` call checked is not counted again).
    public let signatureChecks: Int
    /// Path-building steps spent on this chain (candidates considered).
    public let buildSteps: Int

    /// Builds the chain of `certificates[leafIndex]` over `certificates`.
    ///
    /// - Parameters:
    ///   - leafIndex: The leaf's position in `certificates`.
    ///   - certificates: The set to build from (any order; duplicates are tried once).
    ///   - signaturePolicy: The signatures accepted as links; by default everything
    ///     the library verifies (TackSignature's `SignaturePolicy.permissive`), as a
    ///     link is a fact about the set, not a judgement of trust.
    ///   - budget: The work the search may spend.
    /// - Precondition: `leafIndex` is a valid index of `certificates`.
    public init(leafAt leafIndex: Int, in certificates: [Certificate], signaturePolicy: SignaturePolicy = .permissive,
                budget: Budget = .default) {
        precondition(certificates.indices.contains(leafIndex), "the leaf is one of the certificates")
        self = IssuerChain.chains(leavesAt: [leafIndex], in: certificates, signaturePolicy: signaturePolicy, budget: budget)[0]
    }

    /// Builds the chains of several certificates of one set, as
    /// ``init(leafAt:in:signaturePolicy:budget:)`` does for each, with one budget for
    /// them all: each certificate is decoded once and each signature checked once,
    /// whatever the number of leaves (the work of a set with many leaves stays within
    /// the budget; once it is spent, the remaining chains end at their leaves with
    /// ``End/budgetExhausted(_:)``).
    ///
    /// - Parameters:
    ///   - leafIndices: The leaves' positions in `certificates`.
    ///   - certificates: The set to build from.
    ///   - signaturePolicy: The signatures accepted as links.
    ///   - budget: The work all the chains together may spend.
    /// - Returns: One chain per leaf, in the order of `leafIndices`.
    /// - Precondition: Every leaf index is a valid index of `certificates`.
    public static func chains(leavesAt leafIndices: [Int], in certificates: [Certificate],
                              signaturePolicy: SignaturePolicy = .permissive, budget: Budget = .default) -> [IssuerChain] {
        precondition(leafIndices.allSatisfy(certificates.indices.contains), "the leaves are among the certificates")
        // No anchors and no host: the builder's candidates are the set's certificates,
        // any of which may issue another; the time is never read by the issuer walk.
        var builder = ChainBuilder<DirectSignatureChecks>(
            anchors: AnchorStore(), options: TrustOptions(purpose: .any, signaturePolicy: signaturePolicy, budget: budget),
            time: 0, host: nil, served: certificates, leafIsCandidate: true)
        return leafIndices.map { leafIndex in
            let (checks, steps) = (builder.signatureChecks, builder.buildSteps)
            let (numbers, end) = builder.linkIssuers(from: leafIndex)
            let indices = builder.references(of: numbers).compactMap { reference -> Int? in
                if case .served(let index) = reference { return index }
                return nil
            }
            return IssuerChain(indices: indices, end: end, signatureChecks: builder.signatureChecks - checks,
                               buildSteps: builder.buildSteps - steps)
        }
    }

    private init(indices: [Int], end: End, signatureChecks: Int, buildSteps: Int) {
        self.indices = indices
        self.end = end
        self.signatureChecks = signatureChecks
        self.buildSteps = buildSteps
    }
}

// The path builder's chain of a set of certificates without an anchor (IssuerChain).
extension ChainBuilder {
    // MARK: - Issuers without anchors

    /// The chain of issuers of `served[start]` among ``served`` (anchors and the time
    /// are not consulted): from it, the first candidate issuer (in
    /// ``candidates(for:)``'s preference order: key identifiers, then the most recent
    /// `notBefore`) that is no loop (RFC 4158 §5.2) and whose signature over the top
    /// certificate verifies under ``TrustOptions/signaturePolicy`` joins the chain,
    /// until none does. Every step and signature is charged to the budget, which, like
    /// the prepared nodes, keys, candidate lists and signature results, is shared by
    /// every call on this builder (several leaves of one set: build with
    /// `leafIsCandidate`). No RFC 5280 §6 validation: this is what the certificates
    /// hold, not a verdict (see ``IssuerChain``).
    ///
    /// - Returns: Node numbers, `start` first, and why the chain ends.
    mutating func linkIssuers(from start: Int) -> (numbers: [Int], end: IssuerChain.End) {
        guard served.indices.contains(start) else { return ([], .issuerNotFound) }
        if nodes[start] == nil {
            // The leaf, or a duplicate of an earlier certificate (never a candidate).
            addNode(PathNode(served[start], reference: .served(index: position(ofServed: start)), number: start))
        }
        guard let first = nodes[start] else { return ([], .issuerNotFound) }
        var path = [PathStep(node: first)]
        var numbers: [Int] { path.map { $0.node.number } }
        while let top = path.last?.node {
            let topNumber = top.number
            // A spent budget ends every later chain at once, before any candidate work.
            if let exhausted { return (numbers, .budgetExhausted(exhausted)) }
            var linked: PathNode? = nil
            var rejected: [TrustFailure] = []
            let issuers = linkCandidates(for: top)
            for candidate in issuers {
                guard chargeBuildStep() else { break }
                guard let issuer = nodes[candidate], !formsLoop(issuer, path: path) else { continue }
                let failure = checkSignature(of: topNumber, issuedBy: candidate)
                // An exhausted budget leaves the signature unchecked.
                if exhausted != nil { break }
                if let failure {
                    rejected.append(failure)
                    continue
                }
                linked = issuer
                break
            }
            if let exhausted { return (numbers, .budgetExhausted(exhausted)) }
            guard let linked else {
                if top.isSelfIssued { return (numbers, .selfIssued) }
                var best: TrustFailure? = nil
                for failure in rejected where RankedFailure.rank(of: failure) > best.map(RankedFailure.rank(of:)) ?? Int.min {
                    best = failure
                }
                return (numbers, best.map { .issuerRejected($0) } ?? .issuerNotFound)
            }
            path.append(PathStep(node: linked))
        }
        return (numbers, .issuerNotFound)
    }

    /// The references of node numbers (served positions, or anchors).
    func references(of numbers: [Int]) -> [CertificateReference] {
        numbers.compactMap { nodes[$0]?.reference }
    }

}

import TackDER
import TackSignature
import TackX509

/// One path search: depth-first from the leaf over every candidate issuer
/// (RFC 4158 §2.3 "forward" building), with RFC 5280 §6 validation as each
/// certificate joins the path, every step charged to the ``Budget``.
///
/// The certificates are numbered once per search: the served certificates
/// (`0` is the leaf) keep their positions, anchors follow them. Everything
/// derived from a certificate is computed at most once per search and kept:
/// its decoded names and extensions (``PathNode``), its prepared verification key
/// (once per issuer), and each (issuer, certificate) signature result, so paths
/// that share a link pay for its signature once.
///
/// Order of candidates (RFC 4158 §3.5 sorting, as Go and swift-certificates do):
/// anchors before served intermediates (a path should end as soon as it can);
/// within each, a subject key identifier equal to the certificate's authority key
/// identifier first, then identifiers that do not contradict (either absent),
/// then mismatches; ties by the most recent `notBefore`.
///
/// Loops (RFC 4158 §5.2): a certificate never appears twice in a path, and no two
/// certificates of a path share both subject name and public key.
struct ChainBuilder {
    let anchors: AnchorStore
    let options: TrustOptions
    /// The peer's certificates: leaf first, in the order given.
    let served: [Certificate]

    /// Served intermediates (positions ≥ 1) by subject match key, duplicates (same
    /// DER as an earlier one or as an anchor) left out.
    private var servedBySubject: [[UInt8]: [Int]] = [:]
    /// Prepared nodes by number (served position, or `served.count + anchor index`).
    private var nodes: [Int: PathNode] = [:]
    /// Prepared verification keys by issuer node number.
    private var keys: [Int: Result<SignatureVerificationKey, SignatureError>] = [:]
    /// Signature results by (issuer node, subject node).
    private var signatures: [SignatureLink: SignatureError?] = [:]

    private(set) var signatureChecks = 0
    private(set) var buildSteps = 0
    /// Failures recorded, with their rank; see ``record(_:rank:)``.
    private var recorded: [RankedFailure] = []
    /// The first valid path, kept while looking for one `preferring` accepts.
    private var firstValid: VerifiedPath? = nil
    /// The budget failure that stopped the search, if any.
    private var exhausted: TrustFailure? = nil

    /// The most failures a result lists; a hostile bag can produce one per build
    /// step, and the first ones (in candidate preference order) are the useful ones.
    static let maximumRecordedFailures = 64

    init(anchors: AnchorStore, options: TrustOptions, served: [Certificate]) {
        self.anchors = anchors
        self.options = options
        self.served = served
        var seen: Set<Certificate> = []
        for (position, certificate) in served.enumerated() {
            // The leaf is never its own issuer candidate; a served copy of an anchor
            // adds nothing (the anchor is tried first and ends the path).
            guard seen.insert(certificate).inserted, position > 0, !anchors.contains(certificate) else { continue }
            let node = PathNode(certificate, reference: .served(index: position))
            nodes[position] = node
            if let key = node.subjectKey { servedBySubject[key, default: []].append(position) }
        }
    }

    // MARK: - Entry point

    /// Runs the search and returns the verdict.
    mutating func evaluate(preferring: ((VerifiedPath) -> Bool)?) -> TrustResult {
        guard let leafCertificate = served.first else {
            return result(.recoverableFailure(TrustFailure(.unknownIssuer, certificate: nil)), path: nil)
        }
        let leaf = PathNode(leafCertificate, reference: .served(index: 0))
        nodes[0] = leaf
        if let failure = PathValidation.checkLeaf(leaf, purpose: options.purpose) {
            record(failure, rank: RankedFailure.rank(of: failure))
            return result(.fatalFailure(failure), path: nil)
        }
        var soft: [TrustFailure] = []
        if let failure = PathValidation.checkValidity(leaf, at: options.validationTime) { soft.append(failure) }

        if let anchorIndex = anchors.index(of: leafCertificate) {
            // The leaf is itself an anchor (a pinned self-signed certificate): its
            // name and key are trusted directly, as Go and Apple's platform do.
            let path = VerifiedPath(certificates: [leafCertificate], references: [.anchor(index: anchorIndex)])
            if soft.isEmpty { firstValid = path } else { record(soft[0], rank: RankedFailure.softPathRank) }
        } else {
            var path = [0]
            if let stop = extend(&path, soft: soft, preferring: preferring) {
                return finish(found: stop)
            }
        }
        return finish(found: nil)
    }

    /// Turns the search's findings into a result: a preferred path, else the first
    /// valid path, else the budget failure, else the most specific failure.
    private mutating func finish(found: VerifiedPath?) -> TrustResult {
        if let path = found ?? firstValid {
            if let failure = checkPeerName() { return result(verdict(for: failure), path: nil) }
            return result(.trusted, path: path)
        }
        if let exhausted { return result(.fatalFailure(exhausted), path: nil) }
        let best = recorded.first { $0.rank == recorded.map(\.rank).max() }
        guard let best else {
            return result(.recoverableFailure(TrustFailure(.unknownIssuer, certificate: .served(index: 0))), path: nil)
        }
        if best.rank == RankedFailure.softPathRank, let failure = checkPeerName() {
            return result(.recoverableFailure(failure), path: nil)
        }
        return result(verdict(for: best.failure), path: nil)
    }

    private func verdict(for failure: TrustFailure) -> TrustVerdict {
        failure.isFatal ? .fatalFailure(failure) : .recoverableFailure(failure)
    }

    /// The leaf against the expected peer name, once a path is found.
    private func checkPeerName() -> TrustFailure? {
        guard let name = options.peerName, let leaf = served.first else { return nil }
        do {
            return try leaf.matches(peerName: name) ? nil : TrustFailure(.peerNameMismatch, certificate: .served(index: 0))
        } catch {
            return TrustFailure(.malformed(error), certificate: .served(index: 0))
        }
    }

    private func result(_ verdict: TrustVerdict, path: VerifiedPath?) -> TrustResult {
        var failures = recorded
        // Most specific first; the sort is stable, so equal ranks keep search order.
        failures.sort { $0.rank > $1.rank }
        return TrustResult(
            verdict: verdict, path: path, failures: failures.map(\.failure),
            signatureChecks: signatureChecks, buildSteps: buildSteps)
    }

    // MARK: - Search

    /// Tries every candidate issuer of the certificate on top of `path`.
    ///
    /// - Parameters:
    ///   - path: Node numbers, leaf first; restored before returning.
    ///   - soft: The soft failures (validity, revocation) of the path so far.
    /// - Returns: A path `preferring` accepts (or the first valid path when there is
    ///   no predicate), which ends the search; `nil` to go on. An exhausted budget
    ///   also ends the search, through ``exhausted``.
    private mutating func extend(
        _ path: inout [Int], soft: [TrustFailure], preferring: ((VerifiedPath) -> Bool)?
    ) -> VerifiedPath? {
        guard let topNumber = path.last, let top = nodes[topNumber] else { return nil }
        let pathNodes = path.compactMap { nodes[$0] }
        var tried = 0
        for candidate in candidates(for: top) {
            if exhausted != nil { return nil }
            buildSteps += 1
            guard buildSteps <= options.budget.buildSteps else {
                exhausted = TrustFailure(.buildStepBudgetExhausted, certificate: nil)
                return nil
            }
            guard let issuer = nodes[candidate], !formsLoop(issuer, candidate, path: path, pathNodes: pathNodes) else { continue }
            tried += 1

            // Depth: intermediates (everything but the leaf and the anchor) within the
            // budget's limit, and the whole path within the caller's maximum depth.
            let intermediates = path.count - 1 + (issuer.isAnchor ? 0 : 1)
            if intermediates > options.budget.maxIntermediates {
                record(issuer.failure(.maximumDepthExceeded(limit: options.budget.maxIntermediates + 2)), rank: 5)
                continue
            }
            if let depth = options.maximumDepth, path.count + 1 > depth {
                record(issuer.failure(.maximumDepthExceeded(limit: depth)), rank: 5)
                continue
            }

            if let failure = PathValidation.checkIssuer(issuer, above: pathNodes, purpose: options.purpose) {
                record(failure, rank: RankedFailure.rank(of: failure))
                continue
            }
            if let failure = checkSignature(of: topNumber, issuedBy: candidate) {
                if exhausted != nil { return nil }
                record(failure, rank: RankedFailure.rank(of: failure))
                continue
            }

            var pathSoft = soft
            if let failure = PathValidation.checkValidity(issuer, at: options.validationTime) { pathSoft.append(failure) }
            // Revocation (RFC 5280 §6.3) of `top` by a CRL `issuer` signed: call site
            // for the CRL type of the `limbo` branch (parse, signature with the
            // issuer's prepared key, validity, serial lookup). Until it lands,
            // caller-supplied CRLs are not consulted.

            if issuer.isAnchor {
                guard pathSoft.isEmpty else {
                    record(pathSoft[0], rank: RankedFailure.softPathRank)
                    continue
                }
                let verified = makePath(path + [candidate])
                if let preferring {
                    if preferring(verified) { return verified }
                    if firstValid == nil { firstValid = verified }
                    continue
                }
                return verified
            }
            path.append(candidate)
            let found = extend(&path, soft: pathSoft, preferring: preferring)
            path.removeLast()
            if let found { return found }
            if exhausted != nil { return nil }
        }
        if tried == 0 { record(top.failure(.unknownIssuer), rank: 0) }
        return nil
    }

    /// The candidate issuers of `node`, best first: node numbers of anchors and
    /// served intermediates whose subject matches its issuer name.
    private mutating func candidates(for node: PathNode) -> [Int] {
        guard let issuerKey = node.issuerKey else { return [] }
        var anchorNumbers: [Int] = []
        for index in anchors.anchors(subjectMatchKey: issuerKey) {
            let number = served.count + index
            if nodes[number] == nil {
                nodes[number] = PathNode(anchors.certificates[index], reference: .anchor(index: index))
            }
            anchorNumbers.append(number)
        }
        let authorityKey = node.authorityKeyIdentifier
        return sorted(anchorNumbers, authorityKey: authorityKey)
            + sorted(servedBySubject[issuerKey] ?? [], authorityKey: authorityKey)
    }

    /// `numbers` in preference order for a certificate whose authority key
    /// identifier is `authorityKey`.
    private func sorted(_ numbers: [Int], authorityKey: ArraySlice<UInt8>?) -> [Int] {
        guard numbers.count > 1 else { return numbers }
        func keyScore(_ node: PathNode) -> Int {
            guard let authorityKey, let subjectKey = node.subjectKeyIdentifier else { return 1 }
            return authorityKey.elementsEqual(subjectKey) ? 0 : 2
        }
        var scored: [(number: Int, score: Int, notBefore: Int64)] = []
        for number in numbers {
            guard let node = nodes[number] else { continue }
            scored.append((number, keyScore(node), node.certificate.validity.notBefore.secondsSince1970))
        }
        scored.sort { $0.score != $1.score ? $0.score < $1.score : $0.notBefore > $1.notBefore }
        return scored.map(\.number)
    }

    /// RFC 4158 §5.2 loop detection: `issuer` is already in the path, or a
    /// certificate of the path has its subject name and public key.
    private func formsLoop(_ issuer: PathNode, _ number: Int, path: [Int], pathNodes: [PathNode]) -> Bool {
        if path.contains(number) { return true }
        for node in pathNodes where node.certificate == issuer.certificate { return true }
        guard let subjectKey = issuer.subjectKey else { return false }
        for node in pathNodes where node.subjectKey == subjectKey && node.certificate.spkiBytes == issuer.certificate.spkiBytes {
            return true
        }
        return false
    }

    /// The signature of node `subject` under node `issuer`'s key, verified at most
    /// once per pair per search, the key prepared at most once per issuer.
    /// Each verification is charged to the budget.
    private mutating func checkSignature(of subject: Int, issuedBy issuer: Int) -> TrustFailure? {
        guard let subjectNode = nodes[subject], let issuerNode = nodes[issuer] else { return nil }
        let link = SignatureLink(issuer: issuer, subject: subject)
        let outcome: SignatureError?
        if let cached = signatures[link] {
            outcome = cached
        } else {
            guard signatureChecks < options.budget.signatureChecks else {
                exhausted = TrustFailure(.signatureBudgetExhausted, certificate: nil)
                return nil
            }
            signatureChecks += 1
            let key: Result<SignatureVerificationKey, SignatureError>
            if let prepared = keys[issuer] {
                key = prepared
            } else {
                do {
                    key = .success(try SignatureVerificationKey(issuerNode.certificate.publicKeyInfo))
                } catch {
                    key = .failure(error)
                }
                keys[issuer] = key
            }
            switch key {
            case .failure(let error):
                outcome = error
            case .success(let prepared):
                do {
                    try subjectNode.certificate.verifySignature(with: prepared, policy: options.signaturePolicy)
                    outcome = nil
                } catch {
                    outcome = error
                }
            }
            signatures[link] = outcome
        }
        return outcome.map { subjectNode.failure(.badSignature($0)) }
    }

    private func makePath(_ numbers: [Int]) -> VerifiedPath {
        var certificates: [Certificate] = []
        var references: [CertificateReference] = []
        for number in numbers {
            guard let node = nodes[number] else { continue }
            certificates.append(node.certificate)
            references.append(node.reference)
        }
        return VerifiedPath(certificates: certificates, references: references)
    }

    /// Keeps `failure` (up to ``maximumRecordedFailures``).
    private mutating func record(_ failure: TrustFailure, rank: Int) {
        guard recorded.count < ChainBuilder.maximumRecordedFailures else {
            // Keep a higher-ranked failure even when the list is full.
            if let lowest = recorded.indices.min(by: { recorded[$0].rank < recorded[$1].rank }), recorded[lowest].rank < rank {
                recorded[lowest] = RankedFailure(failure: failure, rank: rank)
            }
            return
        }
        recorded.append(RankedFailure(failure: failure, rank: rank))
    }
}

/// An (issuer, subject) pair of node numbers.
struct SignatureLink: Hashable {
    let issuer: Int
    let subject: Int
}

/// A failure and how specific it is: when no path is valid, the highest rank is
/// reported (webpki's `most_specific` idea: an expired intermediate on a path that
/// otherwise reaches an anchor says more than "unknown issuer").
struct RankedFailure {
    let failure: TrustFailure
    let rank: Int

    /// A path reached an anchor and its only faults are soft (validity, revocation):
    /// the most specific answer there is.
    static let softPathRank = 100

    /// The rank of a hard failure: constraint violations of a candidate issuer (20)
    /// over bad signatures (10, typically a same-named certificate of another key)
    /// over depth limits (5) over an unknown issuer (0).
    static func rank(of failure: TrustFailure) -> Int {
        switch failure.reason {
        case .unknownIssuer: return 0
        case .maximumDepthExceeded: return 5
        case .badSignature: return 10
        case .expired, .notYetValid, .revoked: return softPathRank
        default: return 20
        }
    }
}

import TackDER
import TackDigest
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
///
/// What the search spends (the budget) and the signatures it verified are in one
/// ``SearchLedger``; revocation is a ``RevocationChecker`` of its own, asked once per
/// link the search accepts, with the ledger lent to it.
///
/// `Checks` is how certificate signatures are verified: ``DirectSignatureChecks``, or
/// the caller's ``SignatureCache`` (see ``CertificateSignatureChecks``).
struct ChainBuilder<Checks: CertificateSignatureChecks> {
    let anchors: AnchorStore
    let options: TrustOptions
    /// The validation time, in seconds since 1970.
    let time: Int64
    /// The expected peer, or `nil` to skip the name check.
    let host: PeerHost?
    /// The peer's certificates: leaf first, in the order given.
    let served: [Certificate]

    /// Prepared nodes by number (served position, or, for an anchor, `served.count` plus
    /// the order in which the search met it), in one table sized once per search. The
    /// served certificates that may issue others (``PathNode/isServedCandidate``) are
    /// prepared at the start; ``candidates(for:)`` compares their subjects in place (a
    /// handful, as webpki does; 500 same-named decoys cost a byte comparison each,
    /// `trust-decoys`), so no match key is made for them.
    private(set) var nodes: SearchNodes
    /// The issuers' prepared keys and how signatures are checked.
    private var issuerKeys = IssuerKeys<Checks>()
    /// The budget spent and the signature results, shared with ``revocation``.
    private var ledger: SearchLedger
    /// The revocation policy, with what it keeps between links.
    private var revocation: RevocationChecker
    /// ``candidates(for:)`` by node number (`nil`: not computed yet), kept across
    /// ``linkIssuers(from:)`` calls; grown to the highest number asked for (node numbers
    /// are dense, ``SearchNodes``).
    private var linkCandidates: [CandidateNumbers?] = []
    /// Failures recorded, with their rank; see ``record(_:rank:)``.
    private var recorded: [RankedFailure] = []
    /// The first valid path, kept while looking for one `preferring` accepts.
    private var firstValid: VerifiedPath? = nil

    /// Signature verifications charged so far.
    var signatureChecks: Int { ledger.signatureChecks }
    /// Candidate issuers examined so far.
    var buildSteps: Int { ledger.buildSteps }
    /// The budget failure that stopped the search, if any.
    var exhausted: TrustFailure? { ledger.exhausted }

    /// The most failures a result lists; a hostile bag can produce one per build
    /// step, and the first ones (in candidate preference order) are the useful ones.
    static var maximumRecordedFailures: Int { 64 }

    /// The position in what the peer sent of each of ``served`` when they differ
    /// (certificates that did not parse were left out); `nil` when they are
    /// `0..<served.count` (no array is made then).
    let positions: [Int]?

    /// The position in what the peer sent of `served[number]`.
    func position(ofServed number: Int) -> Int { positions?[number] ?? number }

    /// - Parameters:
    ///   - served: The leaf, then the intermediates.
    ///   - positions: The position of each of `served` in what the peer sent, for
    ///     ``CertificateReference/served(index:)``; `nil` when they are `0..<served.count`.
    ///   - leafIsCandidate: Whether `served[0]` may issue others too: for
    ///     ``linkIssuers(from:)`` over a set with no leaf of its own (never for
    ///     ``evaluate(preferring:)``).
    init(anchors: AnchorStore, options: TrustOptions, time: Int64, host: PeerHost?, served: [Certificate], positions: [Int]? = nil,
         leafIsCandidate: Bool = false) {
        self.anchors = anchors
        self.options = options
        self.time = time
        self.host = host
        self.served = served
        precondition(positions.map { $0.count == served.count } ?? true, "one position per served certificate")
        self.positions = positions
        // Signature results: one per link of a path, usually, so the memo holds them inline.
        ledger = SearchLedger(budget: options.budget)
        revocation = RevocationChecker(options: options, time: time)
        // Sized once (one allocation): the served certificates, then two anchors.
        nodes = SearchNodes(servedCount: served.count, anchorCount: self.anchors.count)
        let firsts = FirstOccurrences(served)
        for (number, certificate) in served.enumerated() {
            // The leaf is never its own issuer candidate; a served copy of an anchor
            // adds nothing (the anchor is tried first and ends the path).
            // (`self.anchors`, not the parameter: a use of the parameter after it is stored
            // made the initializer copy the whole store, a retain per table, issue 35.)
            guard firsts.isFirst(number), number > 0 || leafIsCandidate, !self.anchors.contains(certificate) else { continue }
            nodes.insertServed(PathNode(
                certificate, reference: .served(index: position(ofServed: number)), number: number, isServedCandidate: true))
        }
    }

    // MARK: - Entry point

    /// ``candidates(for:)`` of `node`, computed once per node and kept, for
    /// ``linkIssuers(from:)`` (several leaves of one set share their issuers).
    mutating func linkCandidates(for node: PathNode) -> CandidateNumbers {
        let number = node.number
        if number < linkCandidates.count, let known = linkCandidates[number] { return known }
        let issuers = candidates(for: node)
        if number >= linkCandidates.count {
            linkCandidates.append(contentsOf: repeatElement(nil, count: number + 1 - linkCandidates.count))
        }
        linkCandidates[number] = issuers
        return issuers
    }

    /// Adds a node the search did not number at its start (the leaf of
    /// ``linkIssuers(from:)``, or a duplicate).
    mutating func addNode(_ node: PathNode) {
        nodes.insertServed(node)
    }

    /// Charges one build step to the budget: `false` when none is left.
    mutating func chargeBuildStep() -> Bool { ledger.chargeBuildStep() }

    /// Runs the search with the caller's signature checks (moved in and out, not copied,
    /// so a cache's storage is never shared: no copy on write) and returns the verdict.
    ///
    /// - Parameter preferring: Whether a valid path is the one wanted (the host's pins);
    ///   the first valid path is the fallback. Non-escaping, so its context (the pin
    ///   rule) lives on the stack: an optional closure would escape and be allocated per
    ///   verdict. `{ _ in true }` takes the first valid path.
    mutating func evaluate(preferring: (VerifiedPath) -> Bool, signatureChecks: inout Checks) -> TrustResult {
        swap(&issuerKeys.checks, &signatureChecks)
        defer { swap(&issuerKeys.checks, &signatureChecks) }
        return evaluate(preferring: preferring)
    }

    /// Runs the search and returns the verdict (see ``evaluate(preferring:signatureChecks:)``).
    mutating func evaluate(preferring: (VerifiedPath) -> Bool) -> TrustResult {
        guard !served.isEmpty else {
            return result(.recoverableFailure(TrustFailure(TrustFailure.unknownIssuer(of: nil), certificate: nil)), path: nil)
        }
        let leaf = PathNode(served[0], reference: .served(index: position(ofServed: 0)), number: 0)
        nodes.insertServed(leaf)
        if let failure = PathValidation.checkLeaf(leaf, purpose: options.purpose, profile: options.profile) {
            record(failure)
            return result(.fatalFailure(failure), path: nil)
        }
        var soft: [TrustFailure] = []
        if let failure = PathValidation.checkValidity(leaf, at: time) { soft.append(failure) }

        if let anchorIndex = anchors.index(of: leaf.certificate) {
            // The leaf is itself an anchor (a pinned self-signed certificate): its
            // name and key are trusted directly, as Go and Apple's platform do.
            if let failure = PathValidation.checkLeafAnchor(
                leaf, anchorOrigin: anchors.origins[anchorIndex], profile: options.profile, purpose: options.purpose) {
                record(failure)
                return result(.fatalFailure(failure), path: nil)
            }
            let path = VerifiedPath(
                entries: [VerifiedPath.Entry(certificate: leaf.certificate, reference: .anchor(index: anchorIndex), revocation: .anchor)])
            if soft.isEmpty { firstValid = path } else { record(soft[0], rank: RankedFailure.softPathRank) }
        } else {
            // The path (its nodes, each with its status under the issuer above it) grows
            // and shrinks in place: one allocation.
            var path: [PathStep] = []
            path.reserveCapacity(options.budget.maxIntermediates + 2)
            path.append(PathStep(node: leaf))
            if let stop = extend(&path, soft: soft, notes: [], preferring: preferring) {
                return finish(found: stop)
            }
        }
        return finish(found: nil)
    }

    /// Turns the search's findings into a result: a preferred path, else the first
    /// valid path, else the budget failure, else the most specific failure.
    private mutating func finish(found: VerifiedPath?) -> TrustResult {
        if let path = found ?? firstValid {
            if let failure = checkPeerName() {
                record(failure, rank: RankedFailure.peerNameRank)
                return result(verdict(for: failure), path: nil)
            }
            return result(.trusted, path: path)
        }
        if let exhausted { return result(.fatalFailure(exhausted), path: nil) }
        var best: RankedFailure? = nil
        for candidate in recorded where candidate.rank > (best?.rank ?? Int.min) { best = candidate }
        guard let best else {
            return result(.recoverableFailure(TrustFailure(TrustFailure.unknownIssuer(of: served.first), certificate: .served(index: 0))), path: nil)
        }
        if best.rank == RankedFailure.softPathRank, let failure = checkPeerName() {
            record(failure, rank: RankedFailure.peerNameRank)
            return result(.recoverableFailure(failure), path: nil)
        }
        return result(verdict(for: best.failure), path: nil)
    }

    private func verdict(for failure: TrustFailure) -> TrustVerdict {
        failure.isFatal ? .fatalFailure(failure) : .recoverableFailure(failure)
    }

    /// The leaf against the expected peer name, once a path is found.
    private func checkPeerName() -> TrustFailure? {
        guard let host, !served.isEmpty else { return nil }
        do {
            return try served[0].matches(host)
                ? nil : TrustFailure(.peerNameMismatch(host: host, leafNames: served[0].dnsAndIPNames), certificate: .served(index: 0))
        } catch {
            return TrustFailure(.malformed(error), certificate: .served(index: 0))
        }
    }

    private func result(_ verdict: TrustVerdict, path: VerifiedPath?) -> TrustResult {
        let recorded = self.recorded
        // Most specific first; the sort is stable, so equal ranks keep search order.
        // (Only two or more need it: the comparison's context is not made for fewer.)
        let failures = recorded.count < 2
            ? recorded.map { $0.failure }
            : StableOrder.positions(count: recorded.count) { recorded[$0].rank > recorded[$1].rank }.map { recorded[$0].failure }
        return TrustResult(
            verdict: verdict, path: path, failures: failures,
            signatureChecks: signatureChecks, buildSteps: buildSteps)
    }

    // MARK: - Search

    /// Tries every candidate issuer of the certificate on top of `path`.
    ///
    /// - Parameters:
    ///   - path: The path, leaf first, with the revocation status of each certificate
    ///     but the top one (known once its issuer is chosen); restored before returning.
    ///   - soft: The soft failures (validity, revocation) of the path so far.
    ///   - notes: What the revocation policy forgave on the path so far.
    /// - Returns: A path `preferring` accepts, which ends the search; `nil` to go on. An exhausted budget
    ///   also ends the search, through ``exhausted``.
    private mutating func extend(
        _ path: inout [PathStep], soft: [TrustFailure], notes: [TrustFailure], preferring: (VerifiedPath) -> Bool
    ) -> VerifiedPath? {
        guard let top = path.last?.node else { return nil }
        let topNumber = top.number
        var tried = 0
        for candidate in candidates(for: top) {
            guard ledger.chargeBuildStep() else { return nil }
            guard let issuer = nodes[candidate], !formsLoop(issuer, path: path) else { continue }
            tried += 1

            // Depth: intermediates (everything but the leaf and the anchor) within the
            // budget's limit, and the whole path within the caller's maximum depth.
            let intermediates = path.count - 1 + (issuer.isAnchor ? 0 : 1)
            if intermediates > options.budget.maxIntermediates {
                record(issuer.failure(.maximumDepthExceeded(limit: options.budget.maxIntermediates + 2)))
                continue
            }
            if let depth = options.maximumDepth, logicalLength(path, adding: issuer) > depth {
                record(issuer.failure(.maximumDepthExceeded(limit: depth)))
                continue
            }

            if let failure = PathValidation.checkIssuer(issuer, above: path, purpose: options.purpose) {
                record(failure)
                continue
            }
            // The profile's rule that depends on where the path ends (Apple's 398 days
            // under a system anchor).
            if case .anchor(let anchorIndex) = issuer.reference, let leaf = path.first?.node,
               let failure = PathValidation.checkLeafAnchor(
                leaf, anchorOrigin: anchors.origins[anchorIndex], profile: options.profile,
                purpose: options.purpose) {
                record(failure)
                continue
            }
            let signatureFailure = checkSignature(of: topNumber, issuedBy: candidate)
            // An exhausted budget leaves the signature unchecked: stop before anything
            // could treat the candidate as an issuer.
            if ledger.isExhausted { return nil }
            if let signatureFailure {
                record(signatureFailure)
                continue
            }

            var pathSoft = soft
            if let failure = PathValidation.checkValidity(issuer, at: time) { pathSoft.append(failure) }
            let status = revocation.status(
                of: top, issuedBy: RevocationChecker.Issuer(number: candidate, node: issuer, key: key(for: issuer)), ledger: &ledger)
            if ledger.isExhausted { return nil }
            if let failure = status.hardFailure {
                record(failure)
                continue
            }
            pathSoft += status.failures
            let pathNotes = status.notes.isEmpty ? notes : notes + status.notes

            if issuer.isAnchor {
                guard pathSoft.isEmpty else {
                    record(pathSoft[0], rank: RankedFailure.softPathRank)
                    continue
                }
                path[path.count - 1].status = status.status
                let verified = makePath(path, anchor: issuer, notes: pathNotes)
                if preferring(verified) { return verified }
                if firstValid == nil { firstValid = verified }
                continue
            }
            path[path.count - 1].status = status.status
            path.append(PathStep(node: issuer))
            let found = extend(&path, soft: pathSoft, notes: pathNotes, preferring: preferring)
            path.removeLast()
            if let found { return found }
            if ledger.isExhausted { return nil }
        }
        if tried == 0 { record(top.failure(TrustFailure.unknownIssuer(of: top.certificate))) }
        return nil
    }

    /// The length of `path` with `issuer` on top, as ``TrustOptions/maximumDepth``
    /// counts it: self-issued intermediates (a CA's rekeying) are not counted, as
    /// for pathLenConstraint (RFC 5280 §4.2.1.9, §6.1.4 (l)).
    private func logicalLength(_ path: [PathStep], adding issuer: PathNode) -> Int {
        var length = 1
        for step in path.dropFirst() where !step.node.isSelfIssued { length += 1 }
        if issuer.isAnchor || !issuer.isSelfIssued { length += 1 }
        return length
    }

    /// The candidate issuers of `node`, best first: node numbers of anchors and
    /// served intermediates whose subject matches its issuer name.
    mutating func candidates(for node: PathNode) -> CandidateNumbers {
        guard let issuerName = node.issuer else { return .none }
        let anchorIndexes = anchors.anchors(subjectMatching: issuerName)
        for index in anchorIndexes where nodes.number(ofAnchor: index) == nil {
            nodes.appendAnchor(PathNode(anchors.certificates[index], reference: .anchor(index: index), number: nodes.nextAnchorNumber))
        }
        // A single candidate (the usual case) needs no list and no sorting: the first
        // served match is held apart, a list made only at the second.
        var firstServed: Int? = nil
        var servedNumbers: [Int] = []
        for number in 0..<nodes.servedCount {
            guard let candidate = nodes[number], candidate.isServedCandidate, candidate.hasSubject(matching: issuerName) else {
                continue
            }
            guard let first = firstServed else {
                firstServed = number
                continue
            }
            if servedNumbers.isEmpty { servedNumbers.append(first) }
            servedNumbers.append(number)
        }
        switch (anchorIndexes.first, firstServed) {
        case (nil, nil): return .none
        case (let anchor?, nil) where anchorIndexes.count == 1:
            guard let number = nodes.number(ofAnchor: anchor) else { return .none }
            return CandidateNumbers(number)
        case (nil, let only?) where servedNumbers.isEmpty: return CandidateNumbers(only)
        case (_, let only?) where servedNumbers.isEmpty: servedNumbers.append(only)
        default: break
        }
        let authorityKey = node.authorityKeyIdentifier
        var anchorNumbers: [Int] = []
        anchorNumbers.reserveCapacity(anchorIndexes.count)
        for index in anchorIndexes {
            if let number = nodes.number(ofAnchor: index) { anchorNumbers.append(number) }
        }
        return CandidateNumbers(sorted(anchorNumbers, authorityKey: authorityKey) + sorted(servedNumbers, authorityKey: authorityKey))
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
        let ranked = scored
        let order = StableOrder.positions(count: ranked.count) { a, b in
            ranked[a].score != ranked[b].score ? ranked[a].score < ranked[b].score : ranked[a].notBefore > ranked[b].notBefore
        }
        return order.map { ranked[$0].number }
    }

    /// RFC 4158 §5.2 loop detection: `issuer` is already in the path, or a
    /// certificate of the path has its subject name and public key.
    func formsLoop(_ issuer: PathNode, path: [PathStep]) -> Bool {
        for step in path where step.node.number == issuer.number || step.node.certificate == issuer.certificate { return true }
        guard let subject = issuer.subject else { return false }
        for step in path
        where step.node.certificate.spkiBytes == issuer.certificate.spkiBytes && step.node.hasSubject(matching: subject) {
            return true
        }
        return false
    }

    /// The signature of node `subject` under node `issuer`'s key, verified at most
    /// once per pair per search, the key prepared at most once per issuer.
    /// Each verification is charged to the budget (``SearchLedger``); when none is left,
    /// `nil` with ``exhausted`` set.
    mutating func checkSignature(of subject: Int, issuedBy issuer: Int) -> TrustFailure? {
        guard let subjectNode = nodes[subject] else { return nil }
        let link = SearchLedger.Link(issuer: issuer, signed: .certificate(node: subject))
        guard let issuerNode = nodes[issuer] else { return nil }
        // The memo is consulted before the key is prepared or anything is hashed.
        let (anchors, policy) = (anchors, options.certificateSignaturePolicy)
        let outcome = ledger.signature(link) {
            issuerKeys.verify(subjectNode.certificate, issuedBy: issuerNode, anchors: anchors, policy: policy)
        }
        return (outcome ?? nil).map { signatureFailure($0, subject: subjectNode, issuer: issuer) }
    }

    /// A failed signature check as the failure it is: a digest that is not collision
    /// resistant is the signed certificate's ``TrustFailure/Reason/weakSignatureAlgorithm(_:)``,
    /// an RSA key too short is its owner's (node `issuer`)
    /// ``TrustFailure/Reason/weakKey(bits:minimum:)``, and anything else is a
    /// ``TrustFailure/Reason/badSignature(_:)`` of the signed certificate.
    private func signatureFailure(_ error: SignatureError, subject: PathNode, issuer: Int) -> TrustFailure {
        let owner = nodes[issuer] ?? subject
        switch error {
        case .unsupported(.weakDigest):
            return subject.failure(.weakSignatureAlgorithm(subject.certificate.signatureAlgorithm))
        case .unsupported(.rsaModulusBelowPolicy(let bits, let minimum)):
            return owner.failure(.weakKey(bits: bits, minimum: minimum))
        case .unsupported(.rsaModulusTooShort(let bits)):
            // Below the least Tack verifies: the minimum said is the policy's, or that least.
            let minimum = max(options.certificateSignaturePolicy.minimumRSAModulusBitCount, RSAPublicKey.minimumModulusBitCount)
            return owner.failure(.weakKey(bits: bits, minimum: minimum))
        default:
            return subject.failure(.badSignature(error))
        }
    }

    /// The prepared key of node `issuer` (see ``IssuerKeys``).
    private mutating func key(for issuer: PathNode) -> Result<SignatureVerificationKey, SignatureError> {
        issuerKeys.key(for: issuer, anchors: anchors)
    }

    /// The public path of `path` (each step with its status) topped by `anchor` (whose
    /// status is ``RevocationStatus/anchor``), built once it is found: one array,
    /// each entry initialized in place.
    private func makePath(_ path: [PathStep], anchor: PathNode, notes: [TrustFailure]) -> VerifiedPath {
        let count = path.count + 1
        let entries = Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            for (position, step) in path.enumerated() {
                buffer.initializeElement(at: position, to: VerifiedPath.Entry(
                    certificate: step.node.certificate, reference: step.node.reference, revocation: step.status))
            }
            buffer.initializeElement(at: path.count, to: VerifiedPath.Entry(
                certificate: anchor.certificate, reference: anchor.reference, revocation: .anchor))
            initialized = count
        }
        return VerifiedPath(entries: entries, revocationNotes: notes)
    }

    /// Keeps `failure` (up to ``maximumRecordedFailures``), ranked by its reason, or
    /// by `rank` (``RankedFailure/softPathRank`` for the fault of a path that
    /// reached an anchor).
    private mutating func record(_ failure: TrustFailure, rank: Int? = nil) {
        let rank = rank ?? RankedFailure.rank(of: failure)
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

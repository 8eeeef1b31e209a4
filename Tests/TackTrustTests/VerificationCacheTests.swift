import Testing

import TackTestSupport
import TackTrust
import TackX509

/// `VerificationCache` through `TrustEvaluator.evaluate(servedChain:host:at:pinning:cache:)`,
/// over the RSA-2048 and P-256 families of `Vectors/chains` (made by its generate.py).
@Suite("Verification cache")
struct VerificationCacheTests {
    /// The manifest's validation time (2025-06-01T00:00:00Z).
    static let time: Int64 = 1_748_736_000

    struct Family {
        let leaf: [UInt8]
        let intermediate: [UInt8]
        let root: [UInt8]
        let rootCertificate: Certificate
        let intermediateCertificate: Certificate

        init(_ folder: String) throws {
            leaf = try RepositoryPaths.vectorBytes("chains/\(folder)/leaf.der")
            intermediate = try RepositoryPaths.vectorBytes("chains/\(folder)/intermediate.der")
            root = try RepositoryPaths.vectorBytes("chains/\(folder)/root.der")
            rootCertificate = try Certificate(derEncoded: root)
            intermediateCertificate = try Certificate(derEncoded: intermediate)
        }

        /// The served chain, leaf first.
        var chain: [[UInt8]] { [leaf, intermediate, root] }

        /// The latest notBefore and the earliest notAfter of the three certificates.
        func window() throws -> (notBefore: Int64, notAfter: Int64) {
            let certificates = try chain.map { try Certificate(derEncoded: $0) }
            return (
                certificates.map { $0.validity.notBefore.secondsSince1970 }.max() ?? 0,
                certificates.map { $0.validity.notAfter.secondsSince1970 }.min() ?? 0
            )
        }
    }

    let rsa: Family
    let ecdsa: Family
    /// Both roots, RSA first.
    let anchors: AnchorStore
    /// `example.com` pinned to the RSA intermediate, with the RSA root as backup.
    let policy: PinPolicy

    init() throws {
        rsa = try Family("rsa")
        ecdsa = try Family("ecdsa")
        anchors = AnchorStore([rsa.rootCertificate, ecdsa.rootCertificate])
        policy = PinPolicy(rules: [
            PinRule(domain: "example.com", scope: .oneLabelDeeper,
                    caIdentities: [SPKIPin(rsa.intermediateCertificate), SPKIPin(rsa.rootCertificate)]),
            PinRule(domain: "example.org", caIdentities: [SPKIPin(ecdsa.rootCertificate), SPKIPin(rsa.rootCertificate)]),
        ])
    }

    func evaluator(purpose: KeyPurpose = .serverAuthentication, anchors: AnchorStore? = nil) -> TrustEvaluator {
        TrustEvaluator(anchors: anchors ?? self.anchors, options: TrustOptions(purpose: purpose))
    }

    /// The verified path of a decision that has one.
    func path(_ decision: TrustDecision) -> VerifiedPath? {
        switch decision {
        case .trusted(let path, _), .pinMismatch(let path, _): return path
        case .untrusted: return nil
        }
    }

    /// One evaluation through `cache`; returns the result and whether it was a hit.
    func run(
        _ cache: inout VerificationCache, _ chain: [[UInt8]], host: String = "example.com", time: Int64 = Self.time,
        purpose: KeyPurpose = .serverAuthentication, anchors: AnchorStore? = nil, policy: PinPolicy? = nil
    ) -> (result: TrustDecision, hit: Bool) {
        let hits = cache.hits
        let result = evaluator(purpose: purpose, anchors: anchors)
            .evaluate(servedChain: chain, host: try? PeerHost(host), at: time, pinning: policy ?? self.policy, cache: &cache)
        return (result, cache.hits == hits + 1)
    }

    @Test("A repeated chain is a hit whose verdict, path and pins equal a fresh evaluation's")
    func hitEqualsFreshEvaluation() {
        var cache = VerificationCache(capacity: 8)
        let first = run(&cache, rsa.chain)
        #expect(!first.hit && first.result.isTrusted && cache.count == 1)
        let second = run(&cache, rsa.chain)
        #expect(second.hit)
        let fresh = evaluator().evaluate(servedChain: rsa.chain, host: try? PeerHost("example.com"), at: Self.time, pinning: policy)
        #expect(second.result.isTrusted && fresh.isTrusted)
        #expect(second.result.code == fresh.code)
        #expect(path(second.result) == path(fresh))
        #expect(second.result.details.pins.outcome == .satisfied && fresh.details.pins.outcome == .satisfied)
        #expect(second.result.details.pins.matches == fresh.details.pins.matches)
        #expect(second.result.details.pins.verifiedPins == fresh.details.pins.verifiedPins)
        #expect(second.result.details.pins.servedPins == fresh.details.pins.servedPins)
        #expect(cache.hits == 1 && cache.misses == 1)
    }

    @Test("One changed byte of the served chain misses, even when the new chain is trusted too")
    func changedBytesMiss() {
        var cache = VerificationCache(capacity: 8)
        _ = run(&cache, rsa.chain)
        // Flip the last byte of the served root copy (its signature): the anchor, not the
        // copy, ends the path, so the chain is still trusted, but it is other bytes.
        var root = rsa.root
        root[root.count - 1] ^= 0x01
        let changed = run(&cache, [rsa.leaf, rsa.intermediate, root])
        #expect(!changed.hit && changed.result.isTrusted)
        // Fewer certificates, or another order: other bytes too.
        #expect(!run(&cache, [rsa.leaf, rsa.intermediate]).hit)
        #expect(!run(&cache, [rsa.leaf, rsa.root, rsa.intermediate]).hit)
        #expect(run(&cache, rsa.chain).hit)
    }

    @Test("Another host misses (the peer name and the pin rule lookup both change)")
    func changedHostMisses() {
        var cache = VerificationCache(capacity: 8)
        _ = run(&cache, rsa.chain)
        let other = run(&cache, rsa.chain, host: "www.example.com")
        #expect(!other.hit && other.result.isTrusted)
        #expect(run(&cache, rsa.chain, host: "www.example.com").hit)
        // The key holds the parsed host: another spelling of the same host (case, the
        // absolute form's trailing dot) is the same host, and a hit.
        #expect(run(&cache, rsa.chain, host: "EXAMPLE.com").hit)
        #expect(run(&cache, rsa.chain, host: "example.com.").hit)
    }

    @Test("Other anchors miss: an added anchor, another order, fewer anchors")
    func changedAnchorsMiss() {
        var cache = VerificationCache(capacity: 8)
        _ = run(&cache, rsa.chain)
        let extra = anchors.merging(AnchorStore([rsa.intermediateCertificate]))
        #expect(!run(&cache, rsa.chain, anchors: extra).hit)
        #expect(!run(&cache, rsa.chain, anchors: AnchorStore([ecdsa.rootCertificate, rsa.rootCertificate])).hit)
        #expect(!run(&cache, rsa.chain, anchors: AnchorStore([rsa.rootCertificate])).hit)
        // The same anchors in the same order, built separately, are the same store.
        #expect(run(&cache, rsa.chain, anchors: AnchorStore([rsa.rootCertificate, ecdsa.rootCertificate])).hit)
    }

    @Test("A change to the host's pin rule misses; another purpose misses")
    func changedPolicyOrOptionsMiss() {
        var cache = VerificationCache(capacity: 8)
        _ = run(&cache, rsa.chain)
        var changed = policy
        changed.rules[0].caIdentities.append(SPKIPin(ecdsa.rootCertificate))
        #expect(!run(&cache, rsa.chain, policy: changed).hit)
        changed = policy
        changed.rules[0].enforcement = .reportOnly
        #expect(!run(&cache, rsa.chain, policy: changed).hit)
        changed = policy
        changed.rules.remove(at: 0)  // the host is no longer pinned
        #expect(!run(&cache, rsa.chain, policy: changed).hit)
        #expect(!run(&cache, rsa.chain, purpose: .clientAuthentication).hit)
        #expect(run(&cache, rsa.chain).hit)
        // The rule expires: it no longer steers path selection, so the pinned entry is
        // not used; the search is then the unpinned one, whose entry it shares.
        changed = policy
        changed.rules[0].expiration = Self.time
        var fresh = VerificationCache(capacity: 8)
        _ = run(&fresh, rsa.chain)
        let expired = run(&fresh, rsa.chain, policy: changed)
        #expect(!expired.hit)
        #expect(expired.result.details.pins.outcome == .ruleExpired(wouldSatisfy: true))
        changed.rules.remove(at: 0)
        let unpinned = run(&fresh, rsa.chain, policy: changed).hit
        #expect(unpinned)
    }

    @Test("A time outside the path's validity misses, one second either side; the bounds themselves hit")
    func timeOutsideWindowMisses() throws {
        let window = try rsa.window()
        var cache = VerificationCache(capacity: 8)
        _ = run(&cache, rsa.chain)
        #expect(run(&cache, rsa.chain, time: window.notBefore).hit)
        #expect(run(&cache, rsa.chain, time: window.notAfter).hit)
        let late = run(&cache, rsa.chain, time: window.notAfter + 1)
        #expect(!late.hit && !late.result.isTrusted)
        // The entry met outside its window is dropped; the failure is not stored.
        #expect(cache.count == 0)
        _ = run(&cache, rsa.chain)
        let early = run(&cache, rsa.chain, time: window.notBefore - 1)
        #expect(!early.hit && !early.result.isTrusted)
        #expect(cache.count == 0)
    }

    @Test("A failed verdict is never stored, so it is never served, let alone as trust")
    func failuresAreNotCached() {
        var cache = VerificationCache(capacity: 8)
        // Missing intermediate: unknown issuer, every time, never a hit.
        for _ in 0..<3 {
            let missing = run(&cache, [rsa.leaf])
            #expect(!missing.hit && !missing.result.isTrusted)
        }
        // Wrong host: a path exists but the peer name fails.
        for _ in 0..<3 {
            let wrongHost = run(&cache, rsa.chain, host: "example.net")
            #expect(!wrongHost.hit && !wrongHost.result.isTrusted)
        }
        // A leaf that does not parse.
        #expect(!run(&cache, [Array(rsa.leaf.dropLast()), rsa.intermediate]).result.isTrusted)
        #expect(cache.count == 0 && cache.hits == 0)
    }

    @Test("A trusted chain whose enforced pins fail stays refused on a hit: pins are checked again")
    func pinFailureOnHitStaysFailure() {
        var cache = VerificationCache(capacity: 8)
        // example.com pinned to the P-256 CAs only: the RSA chain is trusted, its pins fail.
        let strict = PinPolicy(rules: [
            PinRule(domain: "example.com", caIdentities: [SPKIPin(ecdsa.rootCertificate), SPKIPin(ecdsa.intermediateCertificate)])
        ])
        let first = run(&cache, rsa.chain, policy: strict)
        #expect(!first.hit && first.result.code == "pin_mismatch" && first.result.details.pins.outcome == .failed)
        let second = run(&cache, rsa.chain, policy: strict)
        #expect(second.hit && !second.result.isTrusted && second.result.code == "pin_mismatch")
        #expect(second.result.details.pins.outcome == .failed && second.result.details.pins.outcome.code == "failed")
    }

    @Test("The least recently used entry is evicted first; a hit refreshes an entry")
    func leastRecentlyUsedEviction() {
        var cache = VerificationCache(capacity: 2)
        let a = [rsa.leaf, rsa.intermediate]
        let b = rsa.chain
        let c = ecdsa.chain
        _ = run(&cache, a)
        _ = run(&cache, b)
        #expect(run(&cache, a).hit)  // a is now the most recently used; b the least
        _ = run(&cache, c)  // full: evicts b
        #expect(cache.evictions == 1 && cache.count == 2)
        #expect(run(&cache, a).hit)
        #expect(run(&cache, c).hit)
        #expect(!run(&cache, b).hit)  // evicted; stored again, evicting a (least recent)
        #expect(!run(&cache, a).hit)
        #expect(cache.evictions == 3)
    }

    @Test("The cache never holds more than its capacity; capacity 0 disables it", arguments: [0, 1, 3])
    func capacityBound(capacity: Int) {
        var cache = VerificationCache(capacity: capacity)
        // Eight different trusted byte sequences: the root sent again 0...7 times.
        for copies in 0..<8 {
            let chain = [rsa.leaf, rsa.intermediate] + Array(repeating: rsa.root, count: copies)
            #expect(run(&cache, chain).result.isTrusted)
            #expect(cache.count == min(copies + 1, capacity))
        }
        #expect(cache.evictions == max(0, 8 - capacity) * (capacity > 0 ? 1 : 0))
        #expect(cache.hits == 0)
    }

    @Test("Seeded differential: a cache of 3 entries gives the uncached verdict and pin outcome in 400 mixed evaluations")
    func differentialAgainstUncached() {
        var generator = DeterministicStream(state: 0xCAC4_E012)
        var cache = VerificationCache(capacity: 3)
        let window = (notBefore: Self.time - 400 * 86_400, notAfter: Self.time + 400 * 86_400)
        let chains: [[[UInt8]]] = [
            rsa.chain, [rsa.leaf, rsa.intermediate], [rsa.leaf], ecdsa.chain, [ecdsa.leaf, ecdsa.intermediate],
            [rsa.leaf, ecdsa.intermediate, rsa.intermediate],
        ]
        let hosts = ["example.com", "www.example.com", "example.org", "example.net"]
        var strict = policy
        strict.rules[0].caIdentities = [SPKIPin(ecdsa.rootCertificate), SPKIPin(ecdsa.intermediateCertificate)]
        let policies = [policy, strict, PinPolicy(rules: [])]
        let anchorSets = [anchors, AnchorStore([rsa.rootCertificate])]
        for _ in 0..<400 {
            // Half the time the usual connection (the first of each list), as an app's.
            let usual = generator.next() % 2 == 0
            func pick<T>(_ options: [T]) -> T { options[usual ? 0 : Int(generator.next() % UInt64(options.count))] }
            let chain = pick(chains)
            let host = pick(hosts)
            let chosenPolicy = pick(policies)
            let anchorSet = pick(anchorSets)
            // Times around the leaves' validity bounds as well as well inside them.
            let time = window.notBefore + Int64(generator.next() % UInt64(window.notAfter - window.notBefore))
            let evaluator = evaluator(anchors: anchorSet)
            let peer = try? PeerHost(host)
            let cached = evaluator.evaluate(servedChain: chain, host: peer, at: time, pinning: chosenPolicy, cache: &cache)
            let fresh = evaluator.evaluate(servedChain: chain, host: peer, at: time, pinning: chosenPolicy)
            #expect(cached.isTrusted == fresh.isTrusted)
            #expect(cached.code == fresh.code)
            #expect(path(cached) == path(fresh))
            #expect(cached.details.pins.outcome == fresh.details.pins.outcome)
            #expect(cached.details.pins.matches == fresh.details.pins.matches)
            #expect(cached.details.pins.diagnostics == fresh.details.pins.diagnostics)
            #expect(cache.count <= 3)
        }
        // The mix is not degenerate: some evaluations were answered from the cache.
        #expect(cache.hits > 20 && cache.misses > 20)
    }
}

import Testing

import TackDER
import TackDigest
import TackSignature
import TackTestSupport
@testable import TackTrust
import TackX509

/// `SignatureCache` through `TrustEvaluator.evaluate(servedChain:host:at:signatureCache:)`, over
/// the RSA-2048 family and the decoys of `Vectors/chains` (made by its generate.py), and
/// its LRU bound against a reference model.
@Suite("Signature cache")
struct SignatureCacheTests {
    /// The manifest's validation time (2025-06-01T00:00:00Z).
    static let time: Int64 = 1_748_736_000
    /// The chains' host.
    static let host = try? PeerHost("example.com")

    let leaf: [UInt8]
    let intermediate: [UInt8]
    let root: [UInt8]
    let evaluator: TrustEvaluator

    init() throws {
        leaf = try RepositoryPaths.vectorBytes("chains/rsa/leaf.der")
        intermediate = try RepositoryPaths.vectorBytes("chains/rsa/intermediate.der")
        root = try RepositoryPaths.vectorBytes("chains/rsa/root.der")
        evaluator = TrustEvaluator(anchors: AnchorStore([try Certificate(derEncoded: root)]))
    }

    /// `evaluator` (or `other`) on `chain` for the chains' host and time, through `cache`.
    func decide(_ chain: [[UInt8]], by other: TrustEvaluator? = nil, cache: inout SignatureCache) -> TrustDecision {
        (other ?? evaluator).evaluate(servedChain: chain, host: Self.host, at: Self.time, signatureCache: &cache)
    }

    func isBadSignature(_ decision: TrustDecision) -> Bool {
        if case .untrusted(let failure, _) = decision, case .badSignature = failure.reason { return true }
        return false
    }

    /// The verified path of a trusted decision.
    func path(_ decision: TrustDecision) -> VerifiedPath? {
        if case .trusted(let path, _) = decision { return path }
        return nil
    }

    @Test("Passed checks are kept; a second verdict hits them and equals an uncached one")
    func passedChecksHit() {
        var cache = SignatureCache(capacity: 16)
        let first = decide([leaf, intermediate, root], cache: &cache)
        #expect(first.isTrusted)
        // The leaf under the intermediate's key and the intermediate under the root's.
        #expect(cache.count == 2 && cache.misses == 2 && cache.hits == 0)
        let second = decide([leaf, intermediate, root], cache: &cache)
        #expect(cache.hits == 2 && cache.misses == 2 && cache.count == 2)
        let uncached = evaluator.evaluate(servedChain: [leaf, intermediate, root], host: Self.host, at: Self.time)
        #expect(second.code == uncached.code && path(second) != nil && path(second) == path(uncached))
        // A hit is still charged to the budget, so the counters agree too.
        #expect(second.details.signatureChecks == uncached.details.signatureChecks)
        #expect(second.details.buildSteps == uncached.details.buildSteps)
    }

    @Test("A changed byte of the certificate's signature misses and fails")
    func changedSignatureMisses() {
        var cache = SignatureCache(capacity: 16)
        _ = decide([leaf, intermediate], cache: &cache)
        var changed = leaf
        changed[changed.count - 1] ^= 0x01
        let result = decide([changed, intermediate], cache: &cache)
        #expect(isBadSignature(result))
        // The changed leaf missed and was not stored (the search stops there, before
        // the intermediate's own link).
        #expect(cache.hits == 0 && cache.misses == 3 && cache.count == 2)
    }

    @Test("A changed byte of the certificate's TBS (its serial number) misses and fails")
    func changedTBSMisses() throws {
        var cache = SignatureCache(capacity: 16)
        _ = decide([leaf, intermediate], cache: &cache)
        let parsed = try Certificate(derEncoded: leaf)
        var changed = leaf
        // The serial's last byte: the certificate still parses, its TBS differs.
        changed[parsed.serialNumberRange.upperBound - 1] ^= 0x01
        #expect((try? Certificate(derEncoded: changed)) != nil)
        let result = decide([changed, intermediate], cache: &cache)
        #expect(isBadSignature(result))
        #expect(cache.hits == 0 && cache.misses == 3 && cache.count == 2)
    }

    @Test("The same certificate under another key (a decoy intermediate of the same name) misses")
    func changedKeyMisses() throws {
        let decoyLeaf = try RepositoryPaths.vectorBytes("chains/decoys/leaf.der")
        let real = try RepositoryPaths.vectorBytes("chains/decoys/real-ica.der")
        let decoy = try RepositoryPaths.vectorBytes("chains/decoys/decoy-000.der")
        let decoyRoot = try Certificate(derEncoded: RepositoryPaths.vectorBytes("chains/decoys/root.der"))
        let decoys = TrustEvaluator(anchors: AnchorStore([decoyRoot]))
        var cache = SignatureCache(capacity: 16)
        #expect(decoys.evaluate(servedChain: [decoyLeaf, real], host: nil, at: Self.time, signatureCache: &cache).isTrusted)
        #expect(cache.count == 2 && cache.hits == 0)
        // The same leaf bytes, now only a same-named intermediate with another key: the
        // leaf's entry (under the real key) must not answer for the decoy's key.
        let result = decoys.evaluate(servedChain: [decoyLeaf, decoy], host: nil, at: Self.time, signatureCache: &cache)
        #expect(isBadSignature(result))
        #expect(cache.hits == 0 && cache.misses == 3)
        // Nothing new is kept: the leaf under the decoy failed (and the search stopped).
        #expect(cache.count == 2)
    }

    @Test("A failed signature is never cached as good")
    func failureIsNotStored() throws {
        let bad = try RepositoryPaths.vectorBytes("chains/rsa/leaf-bad-signature.der")
        var cache = SignatureCache(capacity: 16)
        for round in 1...3 {
            let result = decide([bad, intermediate], cache: &cache)
            #expect(isBadSignature(result))
            // The leaf misses every time and nothing is stored.
            #expect(cache.count == 0 && cache.misses == round && cache.hits == 0)
        }
        // Then the good leaf: both links are checked and kept.
        #expect(decide([leaf, intermediate], cache: &cache).isTrusted)
        #expect(cache.count == 2 && cache.hits == 0)
    }

    @Test("An entry stored under one signature policy does not answer for another")
    func policyIsPartOfTheKey() throws {
        var cache = SignatureCache(capacity: 16)
        _ = decide([leaf, intermediate], cache: &cache)
        var options = evaluator.options
        options.signaturePolicy = .permissive
        let permissive = TrustEvaluator(anchors: evaluator.anchors, options: options)
        #expect(decide([leaf, intermediate], by: permissive, cache: &cache).isTrusted)
        #expect(cache.hits == 0 && cache.count == 4)
    }

    @Test("Capacity 0 stores nothing and changes no verdict")
    func disabled() {
        var cache = SignatureCache(capacity: 0)
        let result = decide([leaf, intermediate], cache: &cache)
        #expect(result.isTrusted && cache.count == 0 && cache.hits == 0)
    }

    @Test("Bounded with least-recently-used eviction, against a reference model (seeded)")
    func leastRecentlyUsedEviction() {
        var stream = DeterministicStream(state: 0x5167_CAC4E)
        let keys = (0..<24).map { index in
            SignatureCache.Key(
                certificate: SHA256.hash([UInt8(index)]), issuerKey: SHA256.hash([UInt8(index), 1]), policy: .webPKI)
        }
        let capacity = 8
        var cache = SignatureCache(capacity: capacity)
        // The model: keys from the most to the least recently used.
        var model: [SignatureCache.Key] = []
        var evictions = 0
        for _ in 0..<4000 {
            let key = keys[Int(stream.next() % UInt64(keys.count))]
            if stream.next() % 2 == 0 {
                let expected = model.contains(key)
                #expect(cache.containsPassed(key) == expected)
                if let index = model.firstIndex(of: key) { model.insert(model.remove(at: index), at: 0) }
            } else {
                if let index = model.firstIndex(of: key) {
                    model.remove(at: index)
                } else if model.count == capacity {
                    model.removeLast()
                    evictions += 1
                }
                model.insert(key, at: 0)
                cache.insertPassed(key)
            }
            #expect(cache.keysByRecency == model)
            #expect(cache.count <= capacity)
        }
        #expect(cache.evictions == evictions && evictions > 0)
    }

    @Test("Recent digests: each is SHA-256 of its bytes, over seeded strings that repeat, share a length or differ in one byte")
    func recentDigests() {
        var stream = DeterministicStream(state: 0x35_D16E_57)
        // Twelve strings of 0 to 40 bytes, some of one length, and a copy of each with one
        // byte changed (the first, a middle one, or the last: the word comparison's edges).
        var strings: [[UInt8]] = (0..<12).map { index in
            let length = index < 6 ? 33 : Int(stream.next() % 41)
            return (0..<length).map { _ in UInt8(truncatingIfNeeded: stream.next()) }
        }
        for string in strings where !string.isEmpty {
            var changed = string
            let at = [0, string.count / 2, string.count - 1][Int(stream.next() % 3)]
            changed[at] ^= 1 << UInt8(stream.next() % 8)
            strings.append(changed)
        }
        var recent = RecentDigests()
        var hits = 0
        for round in 0..<3_000 {
            let string = strings[Int(stream.next() % UInt64(strings.count))]
            // A slice of a larger array, at an offset: the comparison reads the slice only.
            let padded = [0xA5] + string + [0x5A]
            let bytes = padded[1..<(padded.count - 1)]
            if let known = recent.knownDigest(of: bytes) {
                #expect(known == SHA256.hash(string), "round \(round)")
                hits += 1
            } else {
                recent.remember(bytes, digest: SHA256.hash(bytes))
                #expect(recent.knownDigest(of: bytes) == SHA256.hash(string), "round \(round)")
            }
            #expect(RecentDigests.equal(bytes, string[...]), "round \(round)")
            #expect(recent.count <= RecentDigests.limit)
        }
        #expect(hits > 100)
    }

    @Test("A leaf under each key type and hash decides as uncached; served again it hits; forged it fails and is not kept",
          arguments: ["rsa2048", "rsa3072", "p256", "p384", "p521", "ed25519"])
    func everyAlgorithm(name: String) throws {
        func pem(_ path: String) throws -> Certificate {
            let block = try #require(try PEM.parse(RepositoryPaths.vectorBytes(path)).first { $0.label == "CERTIFICATE" })
            return try Certificate(derEncoded: block.bytes)
        }
        let ca = try pem("certs/\(name)-ca.pem")
        let leaf = try pem("certs/\(name)-leaf.pem").derEncoded
        let evaluator = TrustEvaluator(anchors: AnchorStore([ca]), options: TrustOptions(signaturePolicy: .permissive))
        let host = try PeerHost("\(name).example.com")
        var cache = SignatureCache(capacity: 8)
        let uncached = evaluator.evaluate(servedChain: [leaf], host: host, at: Self.time)
        let first = evaluator.evaluate(servedChain: [leaf], host: host, at: Self.time, signatureCache: &cache)
        #expect(first.isTrusted && first.code == uncached.code && path(first) == path(uncached))
        #expect(cache.misses == 1 && cache.hits == 0 && cache.count == 1)
        let second = evaluator.evaluate(servedChain: [Array(leaf)], host: host, at: Self.time, signatureCache: &cache)
        #expect(second.isTrusted && cache.hits == 1 && cache.count == 1)
        for offset in [leaf.count - 1, leaf.count / 2] {
            var forged = leaf
            forged[offset] ^= 0x01
            let decision = evaluator.evaluate(servedChain: [forged], host: host, at: Self.time, signatureCache: &cache)
            let direct = evaluator.evaluate(servedChain: [forged], host: host, at: Self.time)
            #expect(!decision.isTrusted && decision.code == direct.code, "offset \(offset)")
        }
        #expect(cache.count == 1)
    }

    @Test("A chain served again hits, from bytes the cache compares rather than hashes")
    func repeatedChainHits() {
        var cache = SignatureCache(capacity: 8)
        #expect(decide([leaf, intermediate, root], cache: &cache).isTrusted)
        #expect(cache.hits == 0 && cache.count == 2)
        // The same bytes in new arrays (as a new handshake brings them).
        #expect(decide([Array(leaf), Array(intermediate), Array(root)], cache: &cache).isTrusted)
        #expect(cache.hits == 2 && cache.count == 2)
        // A leaf whose signature's last byte changed is no hit, and fails (the search stops
        // there: the intermediate's link is not asked for).
        var forged = leaf
        forged[forged.count - 1] ^= 1
        #expect(isBadSignature(decide([forged, intermediate, root], cache: &cache)))
        #expect(cache.hits == 2 && cache.misses == 3 && cache.count == 2)
    }
}

internal import TackDER
internal import TackX509
internal import TackDigest
internal import TackSignature

/// A caller-owned memo of trusted verdicts, for an app that connects to the same few
/// servers again and again and receives the same chain each time.
///
/// Pass it to ``TrustEvaluator/evaluate(servedChain:host:at:pinning:cache:)``. An entry is
/// keyed by exact bytes and everything the verdict depends on:
/// - the SHA-256 of the served chain (of each certificate's DER, in the order sent);
/// - the identity of the ``AnchorStore`` (a digest of every anchor's DER, in order);
/// - the host, and the pin rule that steered path selection for it (the
///   rule that applies to the host, while it is unexpired; see below);
/// - the expected peer name, purpose, maximum depth, signature policy and budget of
///   ``TrustOptions``.
///
/// A hit skips parsing, path building and signatures only. It is served only while the
/// validation time lies within every path certificate's validity (from the latest
/// `notBefore` to the earliest `notAfter`, inclusive, RFC 5280 §4.1.2.5), and the pins
/// are checked again, against the policy passed, on every hit. Only a
/// trusted path is stored: a failure is evaluated afresh every time,
/// so it can never come back as trust. Options with caller-supplied revocation lists
/// are never cached (a CRL's own validity moves with time).
///
/// Why the key holds the host's rule rather than the whole policy: the trust result
/// depends on the policy only through the path preference, which is that rule's pin
/// check (or nothing when no unexpired rule covers the host). Two
/// policies that give the host the same rule give the same trust result; any change to
/// that rule (a pin, the scope, the enforcement, the expiration) is a miss, and the
/// rest of the policy is read again by the pin check on each hit.
///
/// Bounded: at most ``capacity`` entries; inserting into a full cache evicts the least
/// recently used entry (a hit makes an entry the most recently used). Lookups and
/// insertions are O(1) apart from hashing the key.
///
/// A value type without locks, so that TackTrust stays Embedded-clean: share one
/// between threads only behind the platform's lock (`Mutex`, an actor).
public struct VerificationCache: Sendable {
    /// The most entries the cache holds; `0` disables it.
    public let capacity: Int
    /// Lookups answered from the cache.
    public private(set) var hits = 0
    /// Lookups that had to evaluate (no entry, or an entry outside its validity window).
    public private(set) var misses = 0
    /// Entries removed to make room for a newer one.
    public private(set) var evictions = 0

    /// The entries, by key, in recency order.
    private var table: LeastRecentlyUsed<Key, Entry>

    /// Creates an empty cache holding at most `capacity` entries (a negative capacity
    /// counts as `0`, which disables caching).
    ///
    /// - Parameter capacity: The most entries held.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        table = LeastRecentlyUsed(capacity: capacity)
    }

    /// The number of entries held.
    public var count: Int { table.count }

    /// Removes every entry (the counters are kept).
    public mutating func removeAll() {
        table.removeAll()
    }

    /// Everything a cached trust result depends on besides the time.
    struct Key: LeastRecentlyUsedKey {
        var chain: SHA256Digest
        var anchors: SHA256Digest
        var host: PeerHost?
        /// The rule whose pin check steered path selection (`nil`: none did).
        var preferredRule: PinRule?
        var purpose: KeyPurpose
        var profile: TrustProfile
        var maximumDepth: Int?
        var signaturePolicy: SignaturePolicy
        var budget: Budget
        /// Must-Staple is enforced in every policy but ``RevocationPolicy/none``.
        var revocationPolicy: RevocationPolicy

        init(servedChain: [[UInt8]], anchors: AnchorStore, host: PeerHost?, preferredRule: PinRule?, options: TrustOptions) {
            // The chain's digest is the SHA-256 of its certificates' SHA-256s, in order:
            // fixed-size digests need no framing to keep the list unambiguous. The
            // certificates are hashed together (interleaved on SHA-NI, sha256-hw-x4-294).
            var digests: [UInt8] = []
            digests.reserveCapacity(32 * servedChain.count)
            for digest in SHA256.hashes(of: servedChain) { digests.append(contentsOf: digest) }
            chain = SHA256.hash(digests)
            self.anchors = anchors.identity
            self.host = host
            self.preferredRule = preferredRule
            purpose = options.purpose
            profile = options.profile
            maximumDepth = options.maximumDepth
            signaturePolicy = options.signaturePolicy
            budget = options.budget
            revocationPolicy = options.revocationPolicy
        }

        /// The chain digest's first word (equal keys have equal chains; a digest is uniform).
        var bucketHash: Int {
            chain.withUnsafeBytes { Int(truncatingIfNeeded: $0.loadUnaligned(as: UInt64.self)) }
        }
    }

    /// A trusted result, the certificates that were served (parsed), and the window of
    /// validation times in which it stands.
    struct Entry: Sendable {
        var trust: TrustResult
        var served: [Certificate]
        /// The latest `notBefore` and the earliest `notAfter` on the verified path.
        var notBefore: Int64
        var notAfter: Int64
    }

    /// The entry for `key` if it stands at `time`, made the most recently used; an
    /// entry outside its window is removed. Counts a hit or a miss.
    mutating func lookup(_ key: Key, at time: Int64) -> (trust: TrustResult, served: [Certificate])? {
        guard let entry = table.value(for: key) else {
            misses += 1
            return nil
        }
        guard entry.notBefore <= time, time <= entry.notAfter else {
            table.removeValue(for: key)
            misses += 1
            return nil
        }
        hits += 1
        return (entry.trust, entry.served)
    }

    /// Stores a trusted result (anything else is ignored), evicting the least recently
    /// used entry when full.
    mutating func insert(_ key: Key, trust: TrustResult, served: [Certificate]) {
        guard capacity > 0, trust.verdict.isPathValid, let path = trust.path, !path.entries.isEmpty else { return }
        var notBefore = Int64.min
        var notAfter = Int64.max
        for entry in path.entries {
            let certificate = entry.certificate
            notBefore = max(notBefore, certificate.validity.notBefore.secondsSince1970)
            notAfter = min(notAfter, certificate.validity.notAfter.secondsSince1970)
        }
        let entry = Entry(trust: trust, served: served, notBefore: notBefore, notAfter: notAfter)
        if table.insert(entry, for: key) { evictions += 1 }
    }
}

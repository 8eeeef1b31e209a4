internal import TackDER
internal import TackX509
internal import TackSHA2
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

    /// Entry slot by key.
    private var slots: [Key: Int] = [:]
    /// The entries; `nil` slots are free (listed in ``freeSlots``).
    private var entries: [Entry?] = []
    private var freeSlots: [Int] = []
    /// The most and least recently used slots (`-1` when empty), ends of a doubly
    /// linked list threaded through ``Entry/newer`` and ``Entry/older``.
    private var newest = -1
    private var oldest = -1

    /// Creates an empty cache holding at most `capacity` entries (a negative capacity
    /// counts as `0`, which disables caching).
    ///
    /// - Parameter capacity: The most entries held.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The number of entries held.
    public var count: Int { slots.count }

    /// Removes every entry (the counters are kept).
    public mutating func removeAll() {
        slots = [:]
        entries = []
        freeSlots = []
        newest = -1
        oldest = -1
    }

    /// Everything a cached trust result depends on besides the time.
    struct Key: Hashable {
        var chain: SHA256Digest
        var anchors: SHA256Digest
        var host: PeerHost?
        /// The rule whose pin check steered path selection (`nil`: none did).
        var preferredRule: PinRule?
        var purpose: KeyPurpose
        var maximumDepth: Int?
        var signaturePolicy: SignaturePolicy
        var budget: Budget

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
            maximumDepth = options.maximumDepth
            signaturePolicy = options.signaturePolicy
            budget = options.budget
        }
    }

    /// A trusted result, the certificates that were served (parsed), and the window of
    /// validation times in which it stands.
    struct Entry {
        var key: Key
        var trust: TrustResult
        var served: [Certificate]
        /// The latest `notBefore` and the earliest `notAfter` on the verified path.
        var notBefore: Int64
        var notAfter: Int64
        /// Neighbours in recency order (`-1` at either end).
        var newer = -1
        var older = -1
    }

    /// The entry for `key` if it stands at `time`, made the most recently used; an
    /// entry outside its window is removed. Counts a hit or a miss.
    mutating func lookup(_ key: Key, at time: Int64) -> (trust: TrustResult, served: [Certificate])? {
        guard let slot = slots[key], let entry = entries[slot] else {
            misses += 1
            return nil
        }
        guard entry.notBefore <= time, time <= entry.notAfter else {
            remove(slot)
            misses += 1
            return nil
        }
        unlink(slot)
        pushNewest(slot)
        hits += 1
        return (entry.trust, entry.served)
    }

    /// Stores a trusted result (anything else is ignored), evicting the least recently
    /// used entry when full.
    mutating func insert(_ key: Key, trust: TrustResult, served: [Certificate]) {
        guard capacity > 0, trust.verdict.isPathValid, let path = trust.path, !path.certificates.isEmpty else { return }
        var notBefore = Int64.min
        var notAfter = Int64.max
        for certificate in path.certificates {
            notBefore = max(notBefore, certificate.validity.notBefore.secondsSince1970)
            notAfter = min(notAfter, certificate.validity.notAfter.secondsSince1970)
        }
        if let existing = slots[key] { remove(existing) }
        if slots.count >= capacity, oldest >= 0 {
            remove(oldest)
            evictions += 1
        }
        let entry = Entry(key: key, trust: trust, served: served, notBefore: notBefore, notAfter: notAfter)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            entries[slot] = entry
        } else {
            slot = entries.count
            entries.append(entry)
        }
        slots[key] = slot
        pushNewest(slot)
    }

    /// Frees `slot` and drops its key.
    private mutating func remove(_ slot: Int) {
        guard let entry = entries[slot] else { return }
        unlink(slot)
        slots[entry.key] = nil
        entries[slot] = nil
        freeSlots.append(slot)
    }

    /// Takes `slot` out of the recency list.
    private mutating func unlink(_ slot: Int) {
        guard let entry = entries[slot] else { return }
        if entry.newer >= 0 { entries[entry.newer]?.older = entry.older } else { newest = entry.older }
        if entry.older >= 0 { entries[entry.older]?.newer = entry.newer } else { oldest = entry.newer }
        entries[slot]?.newer = -1
        entries[slot]?.older = -1
    }

    /// Puts `slot` (unlinked) at the most recently used end.
    private mutating func pushNewest(_ slot: Int) {
        entries[slot]?.older = newest
        entries[slot]?.newer = -1
        if newest >= 0 { entries[newest]?.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}

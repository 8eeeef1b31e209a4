internal import TackDigest
internal import TackSignature
internal import TackX509

/// A caller-owned memo of signature checks that passed: "certificate C's signature
/// verifies under key K".
///
/// That fact depends only on the exact bytes of C (its TBS, signature algorithm and
/// signature) and of K (the issuer's SubjectPublicKeyInfo), never on the time, the host,
/// the pins or the path, so it can be kept across verdicts: a client meeting many
/// servers behind one CA verifies the intermediate under the root once, and then only
/// each new leaf's signature. Pass it to
/// ``TrustEvaluator/evaluate(servedChain:host:at:pinning:signatureCache:)``; the path builder
/// consults it before each certificate signature check.
///
/// An entry is keyed by the SHA-256 of the certificate's DER after its outer header
/// (the TBS, the algorithm and the signature: the header follows from their length, so
/// this identifies the whole DER), the SHA-256 of the issuer's
/// SubjectPublicKeyInfo DER, and the ``TrustOptions/signaturePolicy`` (the policy's
/// own checks, such as the RSA modulus size, are a function of the same bytes, so an
/// entry stands for "verifySignature(with:policy:) succeeded"). Any changed byte of the
/// certificate, its signature or the key is a different key, hence a miss.
///
/// What a hit skips is the signature arithmetic only: the builder still charges the
/// check to the ``Budget`` (so a verdict is the same with or without the cache), and
/// every validity, name, usage, constraint, revocation and pin check runs as before.
/// Only successes are stored: a signature that failed is verified again next time, so
/// a failure can never come back as a pass. Revocation-list signatures are not cached.
///
/// This is not ``VerificationCache``: that one memoizes whole trusted verdicts of a
/// chain seen before, byte for byte, and is bound to anchors, host, pins and options;
/// this one memoizes one link of any chain and is bound to nothing else. Both can be
/// used together.
///
/// Bounded: at most ``capacity`` entries (about 100 bytes each), the least recently used
/// evicted first; beside them, the cache keeps the last four certificates and keys it
/// hashed (views of their storage, a few KB), so that those met in every verdict (an
/// intermediate, a root) are compared rather than hashed again. A value type without
/// locks, so that TackTrust stays Embedded-clean: share one between threads only behind
/// the platform's lock (`Mutex`, an actor).
public struct SignatureCache: Sendable {
    /// The most entries the cache holds; `0` disables it.
    public let capacity: Int
    /// Signature checks answered from the cache.
    public private(set) var hits = 0
    /// Signature checks that had to be verified.
    public private(set) var misses = 0
    /// Entries removed to make room for a newer one.
    public private(set) var evictions = 0

    private var table: LeastRecentlyUsed<Key, Void>
    /// The digests of the byte strings last hashed for keys, with their bytes.
    private var recent = RecentDigests()

    /// Creates an empty cache holding at most `capacity` entries (a negative capacity
    /// counts as `0`, which disables caching).
    ///
    /// - Parameter capacity: The most entries kept.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        table = LeastRecentlyUsed(capacity: capacity)
    }

    /// The number of entries held.
    public var count: Int { table.count }

    /// Whether the cache stores anything (its capacity is not `0`).
    var isEnabled: Bool { capacity > 0 }

    /// Removes every entry, and the certificates and keys kept with their digests (the
    /// counters are kept).
    public mutating func removeAll() {
        table.removeAll()
        recent = RecentDigests()
    }

    /// What a passed signature check depends on: the SHA-256 of the certificate's DER
    /// after its outer header (``content(of:)``) and of the issuer's SubjectPublicKeyInfo
    /// DER, and the policy.
    ///
    /// The digests are held as words, compared as such: a key is no secret, and the
    /// digests' constant-time comparison (a closure over their bytes) was a tenth of a
    /// verdict's cache work (issue 35). The table indexes it by the first word of each
    /// digest (``bucketHash``: the digests are uniform; equality compares everything).
    struct Key: LeastRecentlyUsedKey {
        private let certificate: DigestWords
        private let issuerKey: DigestWords
        private let policy: SignaturePolicy

        /// - Parameters:
        ///   - certificate: SHA-256 of the certificate's DER after its outer header.
        ///   - issuerKey: SHA-256 of the issuer's SubjectPublicKeyInfo DER.
        ///   - policy: The signature policy the check passed under.
        init(certificate: SHA256Digest, issuerKey: SHA256Digest, policy: SignaturePolicy) {
            self.certificate = DigestWords(certificate)
            self.issuerKey = DigestWords(issuerKey)
            self.policy = policy
        }

        /// The first words of the two digests, combined: uniform already.
        var bucketHash: Int { Int(truncatingIfNeeded: certificate.first ^ (issuerKey.first &* 0x9E37_79B9_7F4A_7C15)) }
    }

    /// A SHA-256 digest's 32 bytes as four words (native order: for equality and the
    /// table's index only).
    private struct DigestWords: Equatable, Sendable {
        let first: UInt64
        let second: UInt64
        let third: UInt64
        let fourth: UInt64

        init(_ digest: SHA256Digest) {
            (first, second, third, fourth) = digest.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
        }
    }

    /// Whether a passed check for `key` is stored (a hit, made the most recently used);
    /// counts a hit or a miss.
    mutating func containsPassed(_ key: Key) -> Bool {
        if table.value(for: key) != nil {
            hits += 1
            return true
        }
        misses += 1
        return false
    }

    /// Stores a signature check that passed, evicting the least recently used entry
    /// when full.
    mutating func insertPassed(_ key: Key) {
        if table.insert((), for: key) { evictions += 1 }
    }

    /// The keys from the most to the least recently used (for tests).
    var keysByRecency: [Key] { table.keysByRecency }
}

extension SignatureCache: CertificateSignatureChecks {
    /// A disabled cache (capacity `0`): the search's own until the caller's is swapped in.
    init() {
        self.init(capacity: 0)
    }

    /// A passed check kept here skips the arithmetic only; else the signature is
    /// verified, and kept when it passes. Nothing is hashed when the cache is disabled.
    ///
    /// A certificate met in a recent key (the intermediate and the root of a fleet's
    /// chains) is compared with the bytes hashed then, not hashed again
    /// (``RecentDigests``). A new one (each new leaf) is hashed in one pass that serves
    /// twice: SHA-256 over its TBS is the digest its signature is checked against when
    /// the algorithm hashes with SHA-256, and the same hash continued over the algorithm
    /// and the signature is the key's. Hashing the whole certificate for the key and its
    /// TBS again to verify was a tenth of a `trust-rsa2048-newleaf-sigcache` verdict
    /// (issue 35).
    mutating func verify(
        _ certificate: Certificate, issuedBy issuer: PathNode, key: SignatureVerificationKey, policy: SignaturePolicy
    ) -> SignatureError? {
        guard isEnabled else { return DirectSignatureChecks().verify(certificate, issuedBy: issuer, key: key, policy: policy) }
        let issuerKey = keyDigest(of: issuer)
        let content = Self.content(of: certificate)
        if let known = recent.knownDigest(of: content) {
            return verify(certificate, key: key, policy: policy, cacheKey: Key(certificate: known, issuerKey: issuerKey, policy: policy), tbsDigest: nil)
        }
        var hasher = SHA256()
        certificate.tbsBytes.withUnsafeBytes { hasher.update($0) }
        let tbsDigest = hasher.finalize()
        certificate.derEncoded[certificate.tbsRange.upperBound...].withUnsafeBytes { hasher.update($0) }
        let contentDigest = hasher.finalize()
        recent.remember(content, digest: contentDigest)
        return verify(certificate, key: key, policy: policy, cacheKey: Key(certificate: contentDigest, issuerKey: issuerKey, policy: policy), tbsDigest: tbsDigest)
    }

    /// The check of `certificate` by its cache key: a hit, or verified and kept when it
    /// passes. With `tbsDigest` (SHA-256 of its TBS, computed with the key) the TBS is not
    /// hashed again; without it, it is.
    private mutating func verify(
        _ certificate: Certificate, key: SignatureVerificationKey, policy: SignaturePolicy, cacheKey: Key, tbsDigest: SHA256Digest?
    ) -> SignatureError? {
        if containsPassed(cacheKey) { return nil }
        let failure = SearchLedger.failure(under: .success(key)) { (prepared) throws(SignatureError) in
            if let tbsDigest {
                try certificate.verifySignature(with: prepared, tbsSHA256: tbsDigest, policy: policy)
            } else {
                try certificate.verifySignature(with: prepared, policy: policy)
            }
        }
        // A pattern, not `== nil`: on an optional of an `Equatable` type, Embedded Swift at
        // -Osize calls the wrapped type's `==` (SignatureError's synthesised equality and
        // the DERError, algorithm and fault equalities under it: 4.3 KB on a Cortex-M4).
        if case .none = failure { insertPassed(cacheKey) }
        return failure
    }

    /// What a certificate's key digest covers: its DER after the outer SEQUENCE's header
    /// (the TBS, the algorithm and the signature). DER fixes that header by the content's
    /// length, so these bytes identify the certificate's DER as exactly as the whole.
    static func content(of certificate: Certificate) -> ArraySlice<UInt8> {
        certificate.derEncoded[certificate.tbsRange.lowerBound...]
    }

    /// The SHA-256 digest of `issuer`'s SubjectPublicKeyInfo DER: kept on its node, or a
    /// recent one (``RecentDigests``), or computed.
    private mutating func keyDigest(of issuer: PathNode) -> SHA256Digest {
        if let known = issuer.keyDigest { return known }
        let spki = issuer.certificate.spkiBytes
        let digest: SHA256Digest
        if let recentDigest = recent.knownDigest(of: spki) {
            digest = recentDigest
        } else {
            digest = SHA256.hash(spki)
            recent.remember(spki, digest: digest)
        }
        issuer.keyDigest = digest
        return digest
    }
}

/// The SHA-256 digests of the last few byte strings a ``SignatureCache`` hashed for its
/// keys (issuers' SubjectPublicKeyInfos, certificates), each kept with its bytes: a view
/// of the certificate's storage, not a copy. A string met again (the intermediate and
/// the root, in every verdict of a fleet behind one CA) is compared word by word, a small
/// fraction of hashing it, instead of hashed again (issue 35: three of the four digests
/// of a `trust-rsa2048-newleaf-sigcache` verdict). A new leaf differs in its length or
/// its last word (its signature's), so a miss costs a comparison or two.
///
/// Keeps at most ``limit`` strings, the least recently used dropped first: the cache holds
/// on to the storage of up to that many certificates (a few KB) beside its entries.
struct RecentDigests {
    /// The most strings kept: a leaf, its issuer's key and certificate, the root's key.
    static var limit: Int { 4 }

    /// The strings and their digests, each with the tick of its last use. Replaced in place
    /// (the least recently used slot), never shifted: moving the entries to keep them in
    /// order of use (`remove(at:)`, `insert(_:at:)`) cost about 3,700 instructions a
    /// verdict (issue 35).
    private var entries: [(bytes: ArraySlice<UInt8>, digest: SHA256Digest, used: UInt64)] = []
    /// The clock of ``entries``' last uses.
    private var tick: UInt64 = 0

    /// How many strings are kept.
    var count: Int { entries.count }

    /// The digest kept for `bytes` when the same bytes were hashed recently (made the most
    /// recently used), else `nil`.
    mutating func knownDigest(of bytes: ArraySlice<UInt8>) -> SHA256Digest? {
        tick &+= 1
        for index in entries.indices where Self.equal(entries[index].bytes, bytes) {
            entries[index].used = tick
            return entries[index].digest
        }
        return nil
    }

    /// Keeps `bytes` with their `digest`, in place of the least recently used string
    /// when ``limit`` are kept.
    mutating func remember(_ bytes: ArraySlice<UInt8>, digest: SHA256Digest) {
        tick &+= 1
        guard entries.count >= Self.limit else {
            entries.append((bytes, digest, tick))
            return
        }
        var oldest = 0
        for index in entries.indices where entries[index].used < entries[oldest].used { oldest = index }
        entries[oldest] = (bytes, digest, tick)
    }

    /// Whether `a` and `b` hold the same bytes: the lengths, the last word (where two
    /// certificates' signatures differ), then every word.
    static func equal(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                let count = left.count
                if count >= 8,
                   left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    != right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) {
                    return false
                }
                var offset = 0
                while offset + 8 <= count {
                    if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                        return false
                    }
                    offset += 8
                }
                while offset < count {
                    if left[offset] != right[offset] { return false }
                    offset += 1
                }
                return true
            }
        }
    }
}

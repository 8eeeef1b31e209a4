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
/// An entry is keyed by the SHA-256 of the certificate's whole DER (which holds the
/// TBS, the algorithm and the signature), the SHA-256 of the issuer's
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
/// evicted first. A value type without locks, so that TackTrust stays Embedded-clean:
/// share one between threads only behind the platform's lock (`Mutex`, an actor).
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

    /// Removes every entry (the counters are kept).
    public mutating func removeAll() {
        table.removeAll()
    }

    /// What a passed signature check depends on.
    struct Key: Hashable, Sendable {
        /// SHA-256 of the certificate's DER.
        var certificate: SHA256Digest
        /// SHA-256 of the issuer's SubjectPublicKeyInfo DER.
        var issuerKey: SHA256Digest
        var policy: SignaturePolicy
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
    mutating func verify(
        _ certificate: Certificate, issuedBy issuer: PathNode, key: SignatureVerificationKey, policy: SignaturePolicy
    ) -> SignatureError? {
        let cacheKey = self.key(of: certificate, issuedBy: issuer, policy: policy)
        if let cacheKey, containsPassed(cacheKey) { return nil }
        let failure = DirectSignatureChecks().verify(certificate, issuedBy: issuer, key: key, policy: policy)
        // A pattern, not `== nil`: on an optional of an `Equatable` type, Embedded Swift at
        // -Osize calls the wrapped type's `==` (SignatureError's synthesised equality and
        // the DERError, algorithm and fault equalities under it: 4.3 KB on a Cortex-M4).
        if case .none = failure, let cacheKey { insertPassed(cacheKey) }
        return failure
    }

    /// The key of `certificate` under `issuer`'s key; `nil` when the cache is disabled.
    private func key(of certificate: Certificate, issuedBy issuer: PathNode, policy: SignaturePolicy) -> Key? {
        guard isEnabled else { return nil }
        let keyDigest: SHA256Digest
        if let known = issuer.keyDigest {
            keyDigest = known
        } else {
            keyDigest = SHA256.hash(issuer.certificate.spkiBytes)
            issuer.keyDigest = keyDigest
        }
        return Key(certificate: SHA256.hash(certificate.derEncoded), issuerKey: keyDigest, policy: policy)
    }
}

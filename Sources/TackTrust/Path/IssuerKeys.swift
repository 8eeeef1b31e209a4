import TackDigest
import TackSignature
import TackX509

/// The verification keys of a search's issuers, each prepared at most once per search
/// (an anchor's was prepared when it joined the ``AnchorStore``), and the certificate
/// signature check under them, through the caller's ``SignatureCache``.
///
/// Apart from the ``SearchLedger`` (which memoizes results and charges the budget), so
/// that the ledger can run a check that prepares a key or fills the cache.
///
/// A prepared key and a key digest are kept on the issuer's ``PathNode``
/// (``PathNode/preparedKey``, ``PathNode/keyDigest``), not in tables by node number.
struct IssuerKeys {
    /// Passed signature checks kept across searches (``SignatureCache/disabled`` unless
    /// the caller passes one).
    var signatureCache = SignatureCache.disabled

    /// The prepared key of `issuer`: an anchor's from `anchors`, another's prepared at
    /// most once.
    mutating func key(for issuer: PathNode, anchors: AnchorStore) -> Result<SignatureVerificationKey, SignatureError> {
        if case .anchor(let index) = issuer.reference, index < anchors.preparedKeys.count { return anchors.preparedKeys[index] }
        if let known = issuer.preparedKey { return known }
        let key: Result<SignatureVerificationKey, SignatureError>
        do {
            key = .success(try SignatureVerificationKey(issuer.certificate.publicKeyInfo))
        } catch {
            key = .failure(error)
        }
        issuer.preparedKey = key
        return key
    }

    /// `certificate`'s signature under `issuer`'s key: a passed check kept in the
    /// ``signatureCache`` skips the arithmetic only (the ledger has charged it like any
    /// other), else verified, and kept there when it passes. `nil` when it verifies.
    mutating func verify(
        _ certificate: Certificate, issuedBy issuer: PathNode, anchors: AnchorStore, policy: SignaturePolicy
    ) -> SignatureError? {
        let key = key(for: issuer, anchors: anchors)
        if case .failure(let error) = key { return error }
        let cacheKey = signatureCacheKey(of: certificate, issuedBy: issuer, policy: policy)
        if let cacheKey, signatureCache.containsPassed(cacheKey) { return nil }
        let failure = SearchLedger.failure(under: key) { (prepared) throws(SignatureError) in
            try certificate.verifySignature(with: prepared, policy: policy)
        }
        // A pattern, not `== nil`: on an optional of an `Equatable` type, Embedded Swift at
        // -Osize calls the wrapped type's `==`, which links SignatureError's synthesised
        // equality and the DERError, algorithm and fault equalities under it (4.3 KB of the
        // Cortex-M4 pinning image).
        if case .none = failure, let cacheKey { signatureCache.insertPassed(cacheKey) }
        return failure
    }

    /// The ``signatureCache`` key of `certificate` under `issuer`'s key; `nil` when the
    /// cache is disabled (nothing is hashed then).
    private mutating func signatureCacheKey(
        of certificate: Certificate, issuedBy issuer: PathNode, policy: SignaturePolicy
    ) -> SignatureCache.Key? {
        guard signatureCache.isEnabled else { return nil }
        let keyDigest: SHA256Digest
        if let known = issuer.keyDigest {
            keyDigest = known
        } else {
            keyDigest = SHA256.hash(issuer.certificate.spkiBytes)
            issuer.keyDigest = keyDigest
        }
        return SignatureCache.Key(certificate: SHA256.hash(certificate.derEncoded), issuerKey: keyDigest, policy: policy)
    }
}

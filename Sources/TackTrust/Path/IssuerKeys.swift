import TackDigest
import TackSignature
import TackX509

/// How a search checks a certificate's signature under its issuer's prepared key:
/// ``DirectSignatureChecks`` verifies each one, a ``SignatureCache`` answers those it
/// saw pass. A generic parameter of the search (``ChainBuilder``), not a cache stored
/// in every search, so that an image whose entry points pass no cache links none of the
/// cache's code (issue 36: its table brought hashing into the Cortex-M4 image).
protocol CertificateSignatureChecks {
    /// An instance that holds nothing: the search's own until the caller's is swapped in.
    init()

    /// `certificate`'s signature under `key`, `issuer`'s prepared key, by `policy`:
    /// `nil` when it verifies.
    mutating func verify(
        _ certificate: Certificate, issuedBy issuer: PathNode, key: SignatureVerificationKey, policy: SignaturePolicy
    ) -> SignatureError?
}

/// Every certificate signature verified (the entry points without a ``SignatureCache``).
struct DirectSignatureChecks: CertificateSignatureChecks {
    func verify(
        _ certificate: Certificate, issuedBy issuer: PathNode, key: SignatureVerificationKey, policy: SignaturePolicy
    ) -> SignatureError? {
        SearchLedger.failure(under: .success(key)) { (prepared) throws(SignatureError) in
            try certificate.verifySignature(with: prepared, policy: policy)
        }
    }
}

/// The verification keys of a search's issuers, each prepared at most once per search
/// (an anchor's was prepared when it joined the ``AnchorStore``), and the certificate
/// signature check under them, through `Checks` (the caller's ``SignatureCache``, or
/// none).
///
/// Apart from the ``SearchLedger`` (which memoizes results and charges the budget), so
/// that the ledger can run a check that prepares a key or fills the cache.
///
/// A prepared key and a key digest are kept on the issuer's ``PathNode``
/// (``PathNode/preparedKey``, ``PathNode/keyDigest``), not in tables by node number.
struct IssuerKeys<Checks: CertificateSignatureChecks> {
    /// How certificate signatures are checked (swapped with the caller's for a search).
    var checks = Checks()

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

    /// `certificate`'s signature under `issuer`'s key, through ``checks`` (the ledger
    /// has charged it like any other); the key's own failure when it has none. `nil`
    /// when it verifies.
    mutating func verify(
        _ certificate: Certificate, issuedBy issuer: PathNode, anchors: AnchorStore, policy: SignaturePolicy
    ) -> SignatureError? {
        switch key(for: issuer, anchors: anchors) {
        case .failure(let error): return error
        case .success(let prepared): return checks.verify(certificate, issuedBy: issuer, key: prepared, policy: policy)
        }
    }
}

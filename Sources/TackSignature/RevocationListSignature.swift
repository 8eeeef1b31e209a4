public import TackX509

extension CertificateRevocationList {
    /// Verifies this CRL's signature under `key` (RFC 5280 §6.3.3 (f) and (g)).
    ///
    /// The scheme comes from the CRL's `signatureAlgorithm` (which TackX509 has
    /// checked equals the TBS `signature` field); the signed bytes are the original
    /// DER of `tbsCertList`.
    ///
    /// - Parameters:
    ///   - key: The CRL issuer's key, typically prepared once from the issuing CA.
    ///   - policy: Further restrictions; ``SignaturePolicy/default`` by default.
    /// - Throws: As ``SignatureVerificationKey/verifySignature(_:for:algorithm:policy:)``.
    public func verifySignature(with key: SignatureVerificationKey, policy: SignaturePolicy = .default) throws(SignatureError) {
        try key.verifySignature(signatureBytes, for: tbsBytes, algorithm: signatureAlgorithm, policy: policy)
    }
}

extension BasicOCSPResponse {
    /// Verifies this OCSP response's signature under `key` (RFC 6960 §4.2.1: the
    /// signature is over the DER of `tbsResponseData`).
    ///
    /// Whose key it must be (the issuer's, or a responder's the issuer authorised,
    /// §4.2.2.2) is TackTrust's question. As for certificates and CRLs, SHA-1 and MD5
    /// signatures are refused whatever the policy.
    ///
    /// - Parameters:
    ///   - key: The signer's key.
    ///   - policy: Further restrictions; ``SignaturePolicy/default`` by default.
    /// - Throws: As ``SignatureVerificationKey/verifySignature(_:for:algorithm:policy:)``.
    public func verifySignature(with key: SignatureVerificationKey, policy: SignaturePolicy = .default) throws(SignatureError) {
        try key.verifySignature(signatureBytes, for: tbsBytes, algorithm: signatureAlgorithm, policy: policy)
    }
}

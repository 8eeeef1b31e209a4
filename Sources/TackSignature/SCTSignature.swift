import TackDigest
public import TackX509

extension SignedCertificateTimestamp {
    /// Verifies the log's signature over `entry` (RFC 6962 §3.2) with the log's key.
    ///
    /// The signed bytes are `signedData(for:)`; the scheme
    /// is ECDSA or RSASSA-PKCS1-v1_5 with SHA-256, as the SCT's
    /// `signatureAlgorithm` says (decoding refused any other).
    ///
    /// - Parameters:
    ///   - entry: The precertificate entry for an embedded SCT, the X.509 entry for one
    ///     delivered by TLS or OCSP.
    ///   - key: The log's key, prepared once from the log list's SubjectPublicKeyInfo.
    /// - Throws: ``SignatureError/invalidSignature`` when the signature does not verify,
    ///   ``SignatureError/algorithmKeyMismatch(_:)`` when the SCT's algorithm is not the
    ///   key's, and the scheme's own errors for a malformed signature.
    public func verifySignature(over entry: CTLogEntry, with key: SignatureVerificationKey) throws(SignatureError) {
        let algorithm: TackX509.SignatureAlgorithm = signatureAlgorithm == .rsaSHA256 ? .rsaPKCS1v15(.sha256) : .ecdsa(.sha256)
        try key.verifySignature(signature, for: signedData(for: entry), algorithm: algorithm)
    }
}

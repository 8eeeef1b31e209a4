// Certificate-level signature verification: which scheme to run comes from the
// certificate's signature algorithm and the issuer's key, and every combination
// that does not belong together is refused with a name.

package import TackDigest
#if !TACK_ED25519 || !TACK_RSA_PSS
internal import TackDER  // the OIDs the traits left off refuse with
#endif
public import TackX509

/// A public key prepared for verifying signatures, decoded once from a
/// SubjectPublicKeyInfo.
///
/// Preparing is the expensive part for RSA (about 5 µs at 2048 bits: Montgomery
/// constants), so a chain builder that checks several certificates under one issuer
/// should prepare the issuer's key once and reuse it.
public struct SignatureVerificationKey: Sendable {
    private enum Storage: Sendable {
        case rsa(RSAPublicKey)
        case rsaPSSOnly(RSAPublicKey, RSAPSSParameters?)
        case ecdsa(ECDSAPublicKey)
        case ed25519(Ed25519PublicKey)
    }

    private let storage: Storage

    /// The key's algorithm as the certificate declared it.
    public let algorithm: PublicKeyAlgorithm

    /// Prepares the key of a SubjectPublicKeyInfo.
    ///
    /// - Parameter publicKeyInfo: The key, typically the issuer certificate's.
    /// - Throws: ``SignatureError/unsupported(_:)`` for algorithms Tack does not
    ///   verify (Ed448, X25519/X448, other curves), or the key's own errors
    ///   (``SignatureError/malformedPublicKey(_:)``, RSA size limits).
    public init(_ publicKeyInfo: SubjectPublicKeyInfo) throws(SignatureError) {
        algorithm = publicKeyInfo.algorithm
        switch publicKeyInfo.algorithm {
        case .rsa:
            storage = .rsa(try SignatureVerificationKey.rsaKey(publicKeyInfo))
        case .rsaPSS(let parameters):
            storage = .rsaPSSOnly(try SignatureVerificationKey.rsaKey(publicKeyInfo), parameters)
        case .ec(let curve):
            storage = .ecdsa(try ECDSAPublicKey(curve: curve, x962Representation: publicKeyInfo.rawKey))
        case .ecOtherCurve(let oid):
            throw .unsupported(.curve(oid))
        case .ed25519:
            // The `Ed25519` trait off (Package.swift): a build without Ed25519
            // refuses the key as an algorithm it does not verify.
            #if !TACK_ED25519
            throw .unsupported(.publicKeyAlgorithm(OID(1, 3, 101, 112)))
            #else
            storage = .ed25519(try Ed25519PublicKey(rawRepresentation: publicKeyInfo.rawKey))
            #endif
        case .ed448:
            throw .unsupported(.ed448)
        case .x25519, .x448:
            throw .algorithmKeyMismatch(.keyAgreementKey(publicKeyInfo.algorithm))
        case .unknown(let oid):
            throw .unsupported(.publicKeyAlgorithm(oid))
        }
    }

    private static func rsaKey(_ info: SubjectPublicKeyInfo) throws(SignatureError) -> RSAPublicKey {
        guard let modulus = info.rsaModulus, let exponentBytes = info.rsaPublicExponent else {
            throw .malformedPublicKey(.missingRSAComponents)
        }
        // RSAPublicKey bounds exponents at 33 bits; anything over 8 octets is out of range.
        guard exponentBytes.count <= 8 else { throw .unsupported(.rsaExponentTooLarge) }
        var exponent: UInt64 = 0
        for byte in exponentBytes { exponent = exponent << 8 | UInt64(byte) }
        return try RSAPublicKey(magnitude: modulus, exponent: exponent)
    }

    /// Verifies `signature` over `message` with the scheme that `algorithm` names.
    ///
    /// - Parameters:
    ///   - signature: The signature value (for a certificate, the `signatureValue`
    ///     BIT STRING's octets): PKCS #1 / PSS octets, a DER `ECDSA-Sig-Value`, or the
    ///     64 octets of an Ed25519 signature.
    ///   - message: The signed bytes (for a certificate, the DER `tbsCertificate`).
    ///   - algorithm: The signature algorithm (for a certificate, its
    ///     `signatureAlgorithm`).
    ///   - policy: Further restrictions; ``SignaturePolicy/default`` by default.
    /// - Throws: ``SignatureError/invalidSignature`` when the signature does not
    ///   verify; ``SignatureError/algorithmKeyMismatch(_:)`` when the algorithm
    ///   and key do not belong together or the policy forbids the pairing;
    ///   ``SignatureError/unsupported(_:)`` for refused algorithms (MD5, SHA-1,
    ///   Ed448, unknown); and the scheme's own errors for malformed signatures.
    public func verifySignature(
        _ signature: some Collection<UInt8>,
        for message: some Collection<UInt8>,
        algorithm: SignatureAlgorithm,
        policy: SignaturePolicy = .default
    ) throws(SignatureError) {
        try withContiguousBytes(of: signature) { (signatureBytes) throws(SignatureError) in
            try withContiguousBytes(of: message) { (messageBytes) throws(SignatureError) in
                try verify(signatureBytes, messageBytes, isDigest: false, algorithm: algorithm, policy: policy)
            }
        }
    }

    /// Verifies `signature` over a message the caller has already hashed, with the
    /// scheme that `algorithm` names.
    ///
    /// The same check as ``verifySignature(_:for:algorithm:policy:)`` on the message
    /// whose digest under the algorithm's own hash (`SignatureAlgorithm.digest`) is
    /// `digest`: RSASSA-PKCS1-v1_5, RSASSA-PSS and ECDSA sign that digest, so the
    /// answer is the same. A caller that hashes the signed bytes for its own purpose
    /// (the signature cache's key in TackTrust) then hashes them once, not twice.
    ///
    /// - Parameters:
    ///   - signature: The signature value, as for the message form.
    ///   - digest: The digest of the signed bytes under the hash `algorithm` names,
    ///     exactly that hash's length.
    ///   - algorithm: The signature algorithm.
    ///   - policy: Further restrictions; ``SignaturePolicy/default`` by default.
    /// - Throws: As ``verifySignature(_:for:algorithm:policy:)``, and
    ///   ``SignatureError/ParameterFault/digestLengthMismatch`` when `digest` is not the
    ///   hash's length; ``SignatureError/Unsupported/messageRequired`` for Ed25519,
    ///   which signs the message itself (PureEdDSA, RFC 8032 §5.1).
    public func verifySignature(
        _ signature: some Collection<UInt8>,
        forDigest digest: some Collection<UInt8>,
        algorithm: SignatureAlgorithm,
        policy: SignaturePolicy = .default
    ) throws(SignatureError) {
        try withContiguousBytes(of: signature) { (signatureBytes) throws(SignatureError) in
            try withContiguousBytes(of: digest) { (digestBytes) throws(SignatureError) in
                try verify(signatureBytes, digestBytes, isDigest: true, algorithm: algorithm, policy: policy)
            }
        }
    }

    /// The two forms' one check: `signed` is the message, or its digest when `isDigest`.
    /// Which scheme, key and policy checks run does not depend on the form; only the
    /// scheme's last step, hashing the message or taking the digest, does.
    ///
    /// On buffers, not generic: the schemes are then compiled once, for buffers, whatever
    /// collections the callers hold. Generic, the digest form had added a second copy of
    /// this switch and of the schemes' digest steps (in Embedded Swift everything generic
    /// is specialised per type). The two public forms reach it each through their own two
    /// buffer closures: one generic step shared between them cost the Cortex-M4 pinning
    /// image 2,644 B of flash (measured, and undone).
    private func verify(
        _ signature: UnsafeBufferPointer<UInt8>,
        _ signed: UnsafeBufferPointer<UInt8>,
        isDigest: Bool,
        algorithm: SignatureAlgorithm,
        policy: SignaturePolicy
    ) throws(SignatureError) {
        switch (algorithm, storage) {
        case (.rsaPKCS1v15(let digest), .rsa(let key)):
            try SignatureVerificationKey.check(key, policy)
            let hash = try SignatureVerificationKey.rsaHash(digest, algorithm)
            if isDigest {
                try key.verifyPKCS1v15Signature(signature, forDigest: signed, hash: hash)
            } else {
                try key.verifyPKCS1v15Signature(signature, for: signed, hash: hash)
            }
        case (.rsaPKCS1v15, .rsaPSSOnly):
            throw .algorithmKeyMismatch(.pkcs1SignatureWithPSSKey)
        #if !TACK_RSA_PSS
        // The `RSAPSS` trait off (Package.swift): a build without RSASSA-PSS
        // refuses it as an algorithm it does not verify (id-RSASSA-PSS, RFC 4055).
        case (.rsaPSS, .rsa), (.rsaPSS, .rsaPSSOnly):
            throw .unsupported(.signatureAlgorithm(OID(1, 2, 840, 113549, 1, 1, 10)))
        #else
        case (.rsaPSS(let parameters), .rsa(let key)):
            try SignatureVerificationKey.check(key, policy)
            try SignatureVerificationKey.verifyPSS(key, signature, signed, isDigest: isDigest, parameters: try SignatureVerificationKey.pss(parameters, algorithm))
        case (.rsaPSS(let parameters), .rsaPSSOnly(let key, let keyParameters)):
            try SignatureVerificationKey.check(key, policy)
            if let keyParameters {
                // RFC 4055 §3.3: a key restricted to PSS parameters only verifies
                // signatures with the same hashes and at least its salt length.
                guard keyParameters.digest == parameters.digest,
                      keyParameters.maskGenerationDigest == parameters.maskGenerationDigest,
                      parameters.saltLength >= keyParameters.saltLength else {
                    throw .algorithmKeyMismatch(.pssParametersDiffer)
                }
            }
            try SignatureVerificationKey.verifyPSS(key, signature, signed, isDigest: isDigest, parameters: try SignatureVerificationKey.pss(parameters, algorithm))
        #endif
        case (.ecdsa(let digest), .ecdsa(let key)):
            if policy.requiresCurveMatchedHash {
                let matched: DigestAlgorithm = switch key.curve {
                case .p256: .sha256
                case .p384: .sha384
                case .p521: .sha512
                }
                guard digest == matched else {
                    throw .algorithmKeyMismatch(.hashDoesNotMatchCurve(digest, key.curve))
                }
            }
            if isDigest {
                try digest.requireSHA2()  // refused as the hashing switch below refuses them
                guard signed.count == digest.byteCount else { throw .invalidParameters(.digestLengthMismatch) }
                try key.verifySignature(signature, forDigest: signed)
                return
            }
            switch digest {
            case .sha224: try key.verifySignature(signature, for: signed, hash: SHA224.self)
            case .sha256: try key.verifySignature(signature, for: signed, hash: SHA256.self)
            #if TACK_SHA512
            case .sha384: try key.verifySignature(signature, for: signed, hash: SHA384.self)
            case .sha512: try key.verifySignature(signature, for: signed, hash: SHA512.self)
            case .sha512_224: try key.verifySignature(signature, for: signed, hash: SHA512_224.self)
            case .sha512_256: try key.verifySignature(signature, for: signed, hash: SHA512_256.self)
            #else
            // The `SHA512` trait off (Package.swift): the family is left out.
            case .sha384, .sha512, .sha512_224, .sha512_256: throw .unsupported(.digest(digest))
            #endif
            case .md5, .sha1: throw .unsupported(.weakDigest(digest))
            }
        #if TACK_ED25519
        case (.ed25519, .ed25519(let key)):
            guard !isDigest else { throw .unsupported(.messageRequired) }
            try key.verifySignature(signature, for: signed)
        #endif
        case (.ed448, _):
            throw .unsupported(.ed448)
        case (.unknown(let oid), _):
            throw .unsupported(.signatureAlgorithm(oid))
        default:
            throw .algorithmKeyMismatch(.algorithm(algorithm, key: self.algorithm))
        }
    }

    #if TACK_RSA_PSS
    private static func verifyPSS(
        _ key: RSAPublicKey, _ signature: UnsafeBufferPointer<UInt8>, _ signed: UnsafeBufferPointer<UInt8>, isDigest: Bool, parameters: PSSParameters
    ) throws(SignatureError) {
        if isDigest {
            try key.verifyPSSSignature(signature, forDigest: signed, parameters: parameters)
        } else {
            try key.verifyPSSSignature(signature, for: signed, parameters: parameters)
        }
    }
    #endif

    private static func check(_ key: RSAPublicKey, _ policy: SignaturePolicy) throws(SignatureError) {
        guard key.modulusBitCount >= policy.minimumRSAModulusBitCount else {
            throw .unsupported(.rsaModulusBelowPolicy(bits: key.modulusBitCount, minimum: policy.minimumRSAModulusBitCount))
        }
    }

    private static func rsaHash(_ digest: DigestAlgorithm, _ algorithm: SignatureAlgorithm) throws(SignatureError) -> DigestAlgorithm {
        try digest.requireSHA2()
        return digest
    }

    private static func pss(_ parameters: RSAPSSParameters, _ algorithm: SignatureAlgorithm) throws(SignatureError) -> PSSParameters {
        try PSSParameters(
            hash: rsaHash(parameters.digest, algorithm),
            mgf1Hash: rsaHash(parameters.maskGenerationDigest, algorithm),
            saltLength: parameters.saltLength)
    }
}

extension Certificate {
    /// Verifies this certificate's signature under an issuer's prepared key.
    ///
    /// The scheme comes from the certificate's `signatureAlgorithm` (which TackX509
    /// has already checked equals the TBS `signature` field), the signed bytes are
    /// the original DER of `tbsCertificate`, and the key decides what may pair with it.
    ///
    /// - Parameters:
    ///   - key: The issuer's key, prepared once with ``SignatureVerificationKey/init(_:)``.
    ///   - policy: Further restrictions; ``SignaturePolicy/default`` by default.
    /// - Throws: As ``SignatureVerificationKey/verifySignature(_:for:algorithm:policy:)``.
    public func verifySignature(with key: SignatureVerificationKey, policy: SignaturePolicy = .default) throws(SignatureError) {
        try key.verifySignature(signatureBytes, for: tbsBytes, algorithm: signatureAlgorithm, policy: policy)
    }

    /// Verifies this certificate's signature under an issuer's prepared key, given the
    /// SHA-256 digest of its `tbsCertificate` that the caller computed for its own use
    /// (TackTrust's signature cache keys on it), so that the TBS is hashed once. When the
    /// signature algorithm does not hash with SHA-256 the digest cannot serve, and the TBS
    /// is hashed as ``verifySignature(with:policy:)`` does.
    ///
    /// Not generic, so that the check is specialised here: the generic
    /// ``SignatureVerificationKey/verifySignature(_:forDigest:algorithm:policy:)`` called
    /// from another module runs unspecialised (measured: 40 allocations and about 60,000
    /// instructions more per `trust-rsa2048-newleaf-sigcache` verdict).
    ///
    /// - Parameters:
    ///   - key: The issuer's key.
    ///   - digest: SHA-256 of ``Certificate/tbsBytes``.
    ///   - policy: Further restrictions.
    /// - Throws: As ``verifySignature(with:policy:)``.
    package func verifySignature(with key: SignatureVerificationKey, tbsSHA256 digest: SHA256Digest, policy: SignaturePolicy) throws(SignatureError) {
        guard case .sha256 = signatureAlgorithm.digest else { return try verifySignature(with: key, policy: policy) }
        try key.verifySignature(signatureBytes, forDigest: digest, algorithm: signatureAlgorithm, policy: policy)
    }

    /// Verifies this certificate's signature under `issuer`'s public key.
    ///
    /// - Parameters:
    ///   - issuer: The certificate whose key signed this one (this certificate itself
    ///     for a self-signed root).
    ///   - policy: Further restrictions; ``SignaturePolicy/default`` by default.
    /// - Throws: As ``SignatureVerificationKey/verifySignature(_:for:algorithm:policy:)``,
    ///   and the errors of preparing the issuer's key.
    public func verifySignature(issuedBy issuer: Certificate, policy: SignaturePolicy = .default) throws(SignatureError) {
        try verifySignature(with: SignatureVerificationKey(issuer.publicKeyInfo), policy: policy)
    }
}

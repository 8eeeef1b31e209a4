public import TackDER
public import TackDigest
public import TackX509

/// Why a signature could not be verified.
///
/// Verification answers "valid" or throws one of these. Every case names what
/// was wrong with an enumerated reason, so that a chain builder can report the
/// most specific failure and a test can assert it exactly; the text is only in
/// ``description``, and ``code`` is a stable identifier for tools and logs.
/// ``invalidSignature`` is the only case that means "well-formed inputs, and the
/// signature does not match"; every other case means an input was malformed,
/// unsupported or refused by policy. Errors of a lower layer (the DER of an
/// `RSAPublicKey` or an `ECDSA-Sig-Value`) are wrapped, never turned into text.
public enum SignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The signature does not verify under the key (the mathematical check failed).
    case invalidSignature
    /// The public key is malformed.
    case malformedPublicKey(PublicKeyFault)
    /// The signature value is malformed (wrong length, bad DER, out of range).
    case malformedSignature(SignatureFault)
    /// The key, algorithm or parameters are outside what Tack supports or what the
    /// policy accepts (for example an RSA modulus above 8192 bits or an unknown curve).
    case unsupported(Unsupported)
    /// The algorithm and key do not belong together (for example an RSA
    /// signature algorithm with an EC key).
    case algorithmKeyMismatch(Mismatch)
    /// The algorithm parameters are malformed or forbidden (for example RSASSA-PSS
    /// parameters that violate RFC 4055).
    case invalidParameters(ParameterFault)

    /// How a public key is malformed.
    public enum PublicKeyFault: Sendable, Hashable {
        /// The DER of an `RSAPublicKey` (RFC 8017 §A.1.1) breaks a rule; the
        /// wrapped error says which, and where.
        case encoding(DERError)
        /// An EC point with no octets at all.
        case emptyPoint
        /// An EC point or raw key whose length is wrong for its encoding and curve.
        case wrongLength(expected: Int, found: Int)
        /// An EC point whose first octet is not 0x02, 0x03 or 0x04 (SEC 1 §2.3.3).
        case unsupportedPointEncoding(UInt8)
        /// An EC coordinate that is not below the field prime (SEC 1 §2.3.4).
        case coordinateOutOfRange
        /// An uncompressed EC point that does not satisfy the curve equation.
        case notOnCurve
        /// A compressed EC point whose x-coordinate has no square root on the curve.
        case compressedCoordinateNotOnCurve
        /// The point at infinity, which is no public key (SEC 1 §3.2.2).
        case pointAtInfinity
        /// An Ed25519 key that does not decode to a curve point (RFC 8032 §5.1.3).
        case notAnEd25519Point
        /// An RSA key without a modulus or an exponent.
        case missingRSAComponents
        /// An RSA modulus of zero.
        case zeroModulus
        /// An even RSA modulus (a product of two odd primes is odd).
        case evenModulus
        /// An RSA public exponent that is even or below 3 (RFC 8017 §3.1).
        case invalidExponent
    }

    /// How a signature value is malformed.
    public enum SignatureFault: Sendable, Hashable {
        /// The DER of an `ECDSA-Sig-Value` (RFC 5480 §2.2 / RFC 3279 §2.2.3)
        /// breaks a rule; the wrapped error says which, and where.
        case encoding(DERError)
        /// The signature has the wrong length for the key (raw ECDSA `r ‖ s`,
        /// Ed25519's 64 octets, an RSA signature's modulus length).
        case wrongLength(expected: Int, found: Int)
        /// An ECDSA `r` or `s` wider than the group order.
        case scalarTooWide
        /// An ECDSA `r` or `s` outside [1, n − 1] (SEC 1 §4.1.4 step 1).
        case scalarOutOfRange
        /// An Ed25519 `S` not below the group order L (RFC 8032 §5.1.7).
        case scalarNotReduced
        /// An RSA signature representative not below the modulus (RFC 8017 §5.2.2).
        case representativeOutOfRange
    }

    /// What Tack does not support, or the policy refuses.
    public enum Unsupported: Sendable, Hashable {
        /// An RSA public exponent longer than 33 bits (``RSAPublicKey`` bounds it).
        case rsaExponentTooLarge
        /// An RSA modulus above ``RSAPublicKey/maximumModulusBitCount`` bits.
        case rsaModulusTooLong(bits: Int)
        /// An RSA modulus below ``RSAPublicKey/minimumModulusBitCount`` bits.
        case rsaModulusTooShort(bits: Int)
        /// An RSA key below the policy's minimum size
        /// (``SignaturePolicy/minimumRSAModulusBitCount``).
        case rsaModulusBelowPolicy(bits: Int, minimum: Int)
        /// An RSA modulus too short to hold the encoded digest (RFC 8017 §9.2 step 3).
        case rsaModulusTooShortForHash
        /// An EC curve other than P-256, P-384 and P-521.
        case curve(OID)
        /// An Ed448 key or signature (Tack verifies Ed25519 only).
        case ed448
        /// A public key algorithm Tack does not know.
        case publicKeyAlgorithm(OID)
        /// A signature algorithm Tack does not know.
        case signatureAlgorithm(OID)
        /// A digest that is not collision resistant (MD5, SHA-1): refused whatever
        /// the policy.
        case weakDigest(DigestAlgorithm)
        /// A digest this build leaves out: the SHA-512 family (SHA-384, SHA-512,
        /// SHA-512/224, SHA-512/256) with the `SHA512` package trait off.
        case digest(DigestAlgorithm)
        /// A digest given for a scheme that signs the message itself (Ed25519, PureEdDSA:
        /// RFC 8032 §5.1): the message is needed.
        case messageRequired
    }

    /// Which algorithm and key do not belong together.
    public enum Mismatch: Sendable, Hashable {
        /// An ECDSA signature parsed for one curve, checked under a key on another.
        case curve(signature: ECCurve, key: ECCurve)
        /// A key-agreement key (X25519, X448), which cannot sign.
        case keyAgreementKey(PublicKeyAlgorithm)
        /// A PKCS #1 v1.5 signature under an RSASSA-PSS key (RFC 4055 §1.2: PSS
        /// keys sign with PSS only).
        case pkcs1SignatureWithPSSKey
        /// RSASSA-PSS parameters other than those the key is restricted to
        /// (RFC 4055 §3.3).
        case pssParametersDiffer
        /// An ECDSA hash other than the curve's, refused by
        /// ``SignaturePolicy/requiresCurveMatchedHash``.
        case hashDoesNotMatchCurve(DigestAlgorithm, ECCurve)
        /// A signature algorithm for another kind of key.
        case algorithm(SignatureAlgorithm, key: PublicKeyAlgorithm)
    }

    /// How algorithm parameters are malformed or forbidden.
    public enum ParameterFault: Sendable, Hashable {
        /// A digest whose length is not the hash function's.
        case digestLengthMismatch
        /// An RSASSA-PSS `trailerField` other than 1 (RFC 4055 §3.1).
        case pssTrailerField
        /// A negative RSASSA-PSS `saltLength`.
        case negativeSaltLength
        /// An RSASSA-PSS `saltLength` longer than any supported key allows.
        case saltLengthTooLarge
        /// An RSASSA-PSS salt too long for this key (RFC 8017 §9.1.2 step 10).
        case saltTooLongForKey
    }

    /// A stable identifier of the reason, for tools, logs and test manifests
    /// (for example `signature.malformed_public_key.not_on_curve`). It does not change
    /// between releases; payloads (lengths, OIDs, wrapped offsets) are not part of it.
    public var code: String {
        switch self {
        case .invalidSignature: "signature.invalid_signature"
        case .malformedPublicKey(let fault): "signature.malformed_public_key." + fault.code
        case .malformedSignature(let fault): "signature.malformed_signature." + fault.code
        case .unsupported(let what): "signature.unsupported." + what.code
        case .algorithmKeyMismatch(let mismatch): "signature.algorithm_key_mismatch." + mismatch.code
        case .invalidParameters(let fault): "signature.invalid_parameters." + fault.code
        }
    }

    /// A one-line description for diagnostics.
    public var description: String {
        switch self {
        case .invalidSignature: "invalid signature"
        case .malformedPublicKey(let fault): "malformed public key: " + fault.description
        case .malformedSignature(let fault): "malformed signature: " + fault.description
        case .unsupported(let what): "unsupported: " + what.description
        case .algorithmKeyMismatch(let mismatch): "algorithm/key mismatch: " + mismatch.description
        case .invalidParameters(let fault): "invalid parameters: " + fault.description
        }
    }
}

extension SignatureError.PublicKeyFault: CustomStringConvertible {
    /// The last component of ``SignatureError/code``.
    public var code: String {
        switch self {
        case .encoding(let error): "encoding.der." + error.reason.code
        case .emptyPoint: "empty_point"
        case .wrongLength: "wrong_length"
        case .unsupportedPointEncoding: "unsupported_point_encoding"
        case .coordinateOutOfRange: "coordinate_out_of_range"
        case .notOnCurve: "not_on_curve"
        case .compressedCoordinateNotOnCurve: "compressed_coordinate_not_on_curve"
        case .pointAtInfinity: "point_at_infinity"
        case .notAnEd25519Point: "not_an_ed25519_point"
        case .missingRSAComponents: "missing_rsa_components"
        case .zeroModulus: "zero_modulus"
        case .evenModulus: "even_modulus"
        case .invalidExponent: "invalid_exponent"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .encoding(let error): "RSAPublicKey: " + error.description
        case .emptyPoint: "empty point"
        case .wrongLength(let expected, let found): "\(found) bytes, expected \(expected)"
        case .unsupportedPointEncoding(let prefix):
            "point encoding \(prefix) (only 0x02, 0x03 and 0x04 are accepted)"
        case .coordinateOutOfRange: "coordinate is not below the field prime"
        case .notOnCurve: "point is not on the curve"
        case .compressedCoordinateNotOnCurve: "compressed x-coordinate is not on the curve"
        case .pointAtInfinity: "the point at infinity is not a valid public key"
        case .notAnEd25519Point: "Ed25519 public key does not decode to a curve point"
        case .missingRSAComponents: "RSA key without modulus or exponent"
        case .zeroModulus: "RSA modulus is zero"
        case .evenModulus: "RSA modulus is even"
        case .invalidExponent: "RSA public exponent must be odd and at least 3"
        }
    }
}

extension SignatureError.SignatureFault: CustomStringConvertible {
    /// The last component of ``SignatureError/code``.
    public var code: String {
        switch self {
        case .encoding(let error): "encoding.der." + error.reason.code
        case .wrongLength: "wrong_length"
        case .scalarTooWide: "scalar_too_wide"
        case .scalarOutOfRange: "scalar_out_of_range"
        case .scalarNotReduced: "scalar_not_reduced"
        case .representativeOutOfRange: "representative_out_of_range"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .encoding(let error): "not a strict DER ECDSA-Sig-Value: " + error.description
        case .wrongLength(let expected, let found): "\(found) bytes, expected \(expected)"
        case .scalarTooWide: "r or s is wider than the group order"
        case .scalarOutOfRange: "r and s must lie in [1, n − 1]"
        case .scalarNotReduced: "Ed25519 S is not below the group order L"
        case .representativeOutOfRange: "RSA signature representative is not below the modulus"
        }
    }
}

extension SignatureError.Unsupported: CustomStringConvertible {
    /// The last component of ``SignatureError/code``.
    public var code: String {
        switch self {
        case .rsaExponentTooLarge: "rsa_exponent_too_large"
        case .rsaModulusTooLong: "rsa_modulus_too_long"
        case .rsaModulusTooShort: "rsa_modulus_too_short"
        case .rsaModulusBelowPolicy: "rsa_modulus_below_policy"
        case .rsaModulusTooShortForHash: "rsa_modulus_too_short_for_hash"
        case .curve: "curve"
        case .ed448: "ed448"
        case .publicKeyAlgorithm: "public_key_algorithm"
        case .signatureAlgorithm: "signature_algorithm"
        case .weakDigest: "weak_digest"
        case .digest: "digest"
        case .messageRequired: "message_required"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .rsaExponentTooLarge: "RSA public exponent longer than 33 bits"
        case .rsaModulusTooLong(let bits): "\(bits)-bit RSA modulus (the limit is 8192 bits)"
        case .rsaModulusTooShort(let bits): "\(bits)-bit RSA modulus (the minimum is 1024 bits)"
        case .rsaModulusBelowPolicy(let bits, let minimum):
            "\(bits)-bit RSA key is below the policy's minimum of \(minimum) bits"
        case .rsaModulusTooShortForHash: "RSA modulus too short for this hash"
        case .curve(let oid): "EC curve \(oid) (Tack verifies P-256, P-384 and P-521)"
        case .ed448: "Ed448 (Tack verifies Ed25519 only)"
        case .publicKeyAlgorithm(let oid): "public key algorithm \(oid)"
        case .signatureAlgorithm(let oid): "signature algorithm \(oid)"
        case .weakDigest(let digest): "\(digest) is not collision resistant"
        case .digest(let digest): "\(digest) (left out of this build: the SHA512 trait is off)"
        case .messageRequired: "a digest cannot be verified: Ed25519 signs the message itself"
        }
    }
}

extension SignatureError.Mismatch: CustomStringConvertible {
    /// The last component of ``SignatureError/code``.
    public var code: String {
        switch self {
        case .curve: "curve"
        case .keyAgreementKey: "key_agreement_key"
        case .pkcs1SignatureWithPSSKey: "pkcs1_signature_with_pss_key"
        case .pssParametersDiffer: "pss_parameters_differ"
        case .hashDoesNotMatchCurve: "hash_does_not_match_curve"
        case .algorithm: "algorithm"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .curve(let signature, let key): "signature parsed for \(signature.name), key is on \(key.name)"
        case .keyAgreementKey(let algorithm): "\(algorithm) is a key-agreement key and cannot sign"
        case .pkcs1SignatureWithPSSKey: "PKCS #1 v1.5 signature with an RSASSA-PSS key (RFC 4055 §1.2)"
        case .pssParametersDiffer: "RSASSA-PSS parameters differ from those the key is restricted to"
        case .hashDoesNotMatchCurve(let digest, let curve):
            "\(digest) with a \(curve.name) key is refused by policy (the hash must match the curve)"
        case .algorithm(let algorithm, let key): "\(algorithm) signature with a \(key) key"
        }
    }
}

extension SignatureError.ParameterFault: CustomStringConvertible {
    /// The last component of ``SignatureError/code``.
    public var code: String {
        switch self {
        case .digestLengthMismatch: "digest_length_mismatch"
        case .pssTrailerField: "pss_trailer_field"
        case .negativeSaltLength: "negative_salt_length"
        case .saltLengthTooLarge: "salt_length_too_large"
        case .saltTooLongForKey: "salt_too_long_for_key"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .digestLengthMismatch: "digest length does not match the hash function"
        case .pssTrailerField: "RSASSA-PSS trailerField must be 1 (RFC 4055 §3.1)"
        case .negativeSaltLength: "RSASSA-PSS saltLength is negative"
        case .saltLengthTooLarge: "RSASSA-PSS saltLength longer than any supported key allows"
        case .saltTooLongForKey: "RSASSA-PSS salt too long for this key"
        }
    }
}

public import TackDER

/// An error found while decoding a certificate or one of its parts.
///
/// Like `DERError` it carries the absolute byte offset (in the
/// certificate's DER) of the element at fault, so tools can say where a
/// certificate is broken. The reason is an enumerated value all the way down
/// (a DER-level failure wraps `DERError.Reason`), so tests and callers
/// match exact cases; ``code`` is a stable identifier and ``description`` the
/// only human text.
public struct X509Error: DERErrorWrapping, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: Reason
    /// The absolute offset of the offending element in the certificate's DER.
    public var offset: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - offset: The absolute offset of the offending element.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// Wraps a DER-level error, keeping its reason and offset.
    ///
    /// - Parameter error: The DER error.
    public init(_ error: DERError) {
        self.reason = .der(error.reason)
        self.offset = error.offset
    }

    /// The wrapped DER-level error, when the reason is ``Reason/der(_:)``.
    public var derError: DERError? {
        if case .der(let reason) = reason { return DERError(reason, at: offset) }
        return nil
    }

    /// What made a certificate, or a part of one, unacceptable.
    public enum Reason: Sendable, Hashable {
        /// The DER itself breaks a rule (see `DERError.Reason`).
        case der(DERError.Reason)
        /// The version is not v1, v2 or v3, or a v3 feature appears in an older version
        /// (extensions need v3, unique identifiers v2 or v3; RFC 5280 §4.1.2.1).
        case invalidVersion
        /// The `signature` field of the TBS differs from the outer
        /// `signatureAlgorithm` (RFC 5280 §4.1.1.2).
        case signatureAlgorithmMismatch
        /// The same extension appears twice (RFC 5280 §4.2).
        case duplicateExtension(OID)
        /// More extensions than Tack accepts (see `Certificate.maximumExtensionCount`).
        case tooManyExtensions
        /// The `extensions` field is present but empty (RFC 5280: SIZE (1..MAX)).
        case emptyExtensions
        /// The value of the extension `OID` is malformed.
        case invalidExtension(OID, ExtensionFault)
        /// A name (issuer, subject, directory name) is malformed.
        case invalidName(NameFault)
        /// An algorithm identifier's parameters break the rules of its algorithm
        /// (for example RSA without NULL, RFC 3279 §2.3.1).
        case invalidAlgorithmParameters(AlgorithmParametersFault)
        /// An EC key uses explicit curve parameters instead of a named curve, which
        /// RFC 5480 §2.1.1 forbids for certificates.
        case explicitCurveParameters
        /// The certificate's `signatureValue` BIT STRING has unused bits; every
        /// signature algorithm produces whole octets (RFC 5280 §4.1.1.3).
        case invalidSignatureValue
        /// A public key is malformed for its algorithm.
        case invalidPublicKey(PublicKeyFault)
        /// A certificate revocation list breaks the RFC 5280 §5 profile or uses a
        /// feature Tack refuses.
        case invalidRevocationList(RevocationListProblem)
        /// An OCSP response breaks RFC 6960 or uses a feature Tack refuses.
        case invalidOCSPResponse(OCSPResponseProblem)
    }

    /// How an extension's value is malformed (beyond DER rules).
    public enum ExtensionFault: Sendable, Hashable {
        /// A `SEQUENCE SIZE (1..MAX)` or `SET SIZE (1..MAX)` with no member
        /// (GeneralNames, GeneralSubtrees, policyQualifiers, an extension's list).
        case emptySequence
        /// An element with this tag where a GeneralName must be (RFC 5280 §4.2.1.6).
        case notAGeneralName(DERTag)
        /// An iPAddress GeneralName of this many octets (4 or 16 expected,
        /// RFC 5280 §4.2.1.6).
        case invalidIPAddressLength(Int)
        /// An iPAddress name constraint of this many octets (8 or 32 expected,
        /// RFC 5280 §4.2.1.10).
        case invalidIPAddressConstraintLength(Int)
        /// A named BIT STRING with this undefined bit set.
        case undefinedBit(Int)
        /// A keyUsage with no bit set (RFC 5280 §4.2.1.3: at least one).
        case noKeyUsage
        /// An authorityKeyIdentifier with only one of `authorityCertIssuer` and
        /// `authorityCertSerialNumber` (RFC 5280 §4.2.1.1: both or neither).
        case incompleteAuthorityCertIssuer
        /// A DistributionPoint with neither `distributionPoint` nor `cRLIssuer`
        /// (RFC 5280 §4.2.1.13).
        case emptyDistributionPoint
        /// A nameConstraints with neither `permittedSubtrees` nor
        /// `excludedSubtrees` (RFC 5280 §4.2.1.10).
        case emptyNameConstraints
        /// A GeneralSubtree `minimum` other than 0 (RFC 5280 §4.2.1.10).
        case subtreeMinimumNotZero
        /// A GeneralSubtree `maximum`, which RFC 5280 §4.2.1.10 forbids.
        case subtreeMaximumPresent
        /// More policies than ``CertificatePolicies/maximumPolicyCount``.
        case tooManyPolicies
        /// The same policy listed twice (RFC 5280 §4.2.1.4).
        case duplicatePolicy
        /// A policyConstraints with neither field (RFC 5280 §4.2.1.11).
        case emptyPolicyConstraints
        /// An SCT list (RFC 6962 §3.3) shorter than its two-octet length field.
        case truncatedSCTList
        /// An SCT list whose length field does not match its octets, or is zero.
        case sctListLengthMismatch
        /// An SCT whose two-octet length field is cut off.
        case truncatedSCTLength
        /// An SCT whose length is zero or runs past the list.
        case invalidSCTLength
    }

    /// How a name is malformed (beyond DER rules).
    public enum NameFault: Sendable, Hashable {
        /// An empty RelativeDistinguishedName (RFC 5280: `SET SIZE (1..MAX)`).
        case emptyRelativeDistinguishedName
        /// More attributes in one RDN than ``DistinguishedName/maximumAttributesPerRDN``.
        case tooManyAttributes
    }

    /// How an AlgorithmIdentifier's parameters break their algorithm's rules.
    public enum AlgorithmParametersFault: Sendable, Hashable {
        /// Parameters other than NULL where NULL is required (RSA keys and
        /// PKCS #1 v1.5 signatures, RFC 3279 §2.2.1 and §2.3.1).
        case mustBeNull
        /// Parameters where they must be absent (ECDSA signatures, RFC 5758 §3.2;
        /// EdDSA and X25519/X448, RFC 8410 §3).
        case mustBeAbsent
        /// Required parameters are missing (RSASSA-PSS signatures, RFC 4055 §3.1).
        case missing
        /// An EC key without parameters (RFC 5480 §2.1.1 requires a named curve).
        case missingNamedCurve
        /// EC key parameters that are neither a named curve nor explicit parameters.
        case notANamedCurve
        /// An RSASSA-PSS mask generation function other than MGF1 (RFC 4055 §3.1).
        case maskGenerationNotMGF1
        /// A negative RSASSA-PSS salt length.
        case negativeSaltLength
        /// An RSASSA-PSS trailer field other than 1 (RFC 4055 §3.1).
        case trailerFieldNotOne
        /// An RSASSA-PSS hash other than SHA-1 and SHA-2.
        case unsupportedHash
        /// Hash algorithm parameters that are neither NULL nor absent (RFC 4055 §2.1).
        case hashParametersNotNull
    }

    /// How a public key is malformed for its algorithm.
    public enum PublicKeyFault: Sendable, Hashable {
        /// A key of the wrong length for its algorithm or curve (raw key bytes,
        /// Ed25519/X25519 keys, EC points).
        case wrongLength
        /// A raw EC key that is not an uncompressed point `04 ‖ X ‖ Y`.
        case notUncompressedPoint
        /// An empty EC point.
        case emptyPoint
        /// An EC point whose first octet is neither 0x04 nor 0x02/0x03 (SEC 1 §2.3.3).
        case invalidPointEncoding
        /// The `subjectPublicKey` BIT STRING has unused bits.
        case unusedBits
        /// An RSA modulus of zero.
        case zeroModulus
        /// An RSA public exponent of zero.
        case zeroExponent
    }

    /// A stable identifier of the reason, for tools, logs and test manifests: the
    /// case's name, then its fault's (for example `invalid_extension.empty_sequence`,
    /// or `der.trailing_data` for a wrapped DER error). It does not change between
    /// releases; payloads (OIDs, lengths) are not part of it.
    public var code: String {
        switch reason {
        case .der(let reason): "der." + reason.code
        case .invalidVersion: "invalid_version"
        case .signatureAlgorithmMismatch: "signature_algorithm_mismatch"
        case .duplicateExtension: "duplicate_extension"
        case .tooManyExtensions: "too_many_extensions"
        case .emptyExtensions: "empty_extensions"
        case .invalidExtension(_, let fault): "invalid_extension." + fault.code
        case .invalidName(let fault): "invalid_name." + fault.code
        case .invalidAlgorithmParameters(let fault): "invalid_algorithm_parameters." + fault.code
        case .explicitCurveParameters: "explicit_curve_parameters"
        case .invalidSignatureValue: "invalid_signature_value"
        case .invalidPublicKey(let fault): "invalid_public_key." + fault.code
        case .invalidRevocationList(let problem): "invalid_revocation_list." + problem.code
        case .invalidOCSPResponse(let problem): "invalid_ocsp_response." + problem.code
        }
    }

    /// A one-line description: the reason and the offset.
    public var description: String {
        let text: String
        switch reason {
        case .der(let reason): text = reason.description
        case .invalidVersion: text = "invalid version"
        case .signatureAlgorithmMismatch: text = "inner and outer signature algorithms differ"
        case .duplicateExtension(let oid): text = "duplicate extension \(oid)"
        case .tooManyExtensions: text = "too many extensions"
        case .emptyExtensions: text = "empty extensions field"
        case .invalidExtension(let oid, let fault): text = "invalid extension \(oid): " + fault.description
        case .invalidName(let fault): text = "invalid name: " + fault.description
        case .invalidAlgorithmParameters(let fault): text = "invalid algorithm parameters: " + fault.description
        case .explicitCurveParameters: text = "explicit EC curve parameters are not allowed"
        case .invalidSignatureValue: text = "signature value has unused bits"
        case .invalidPublicKey(let fault): text = "invalid public key: " + fault.description
        case .invalidRevocationList(let problem): text = "invalid CRL: " + problem.description
        case .invalidOCSPResponse(let problem): text = "invalid OCSP response: " + problem.description
        }
        return "X.509 error at byte \(offset): \(text)"
    }
}

extension X509Error.ExtensionFault: CustomStringConvertible {
    /// The fault's part of ``X509Error/code``.
    public var code: String {
        switch self {
        case .emptySequence: "empty_sequence"
        case .notAGeneralName: "not_a_general_name"
        case .invalidIPAddressLength: "invalid_ip_address_length"
        case .invalidIPAddressConstraintLength: "invalid_ip_address_constraint_length"
        case .undefinedBit: "undefined_bit"
        case .noKeyUsage: "no_key_usage"
        case .incompleteAuthorityCertIssuer: "incomplete_authority_cert_issuer"
        case .emptyDistributionPoint: "empty_distribution_point"
        case .emptyNameConstraints: "empty_name_constraints"
        case .subtreeMinimumNotZero: "subtree_minimum_not_zero"
        case .subtreeMaximumPresent: "subtree_maximum_present"
        case .tooManyPolicies: "too_many_policies"
        case .duplicatePolicy: "duplicate_policy"
        case .emptyPolicyConstraints: "empty_policy_constraints"
        case .truncatedSCTList: "truncated_sct_list"
        case .sctListLengthMismatch: "sct_list_length_mismatch"
        case .truncatedSCTLength: "truncated_sct_length"
        case .invalidSCTLength: "invalid_sct_length"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .emptySequence: "empty SEQUENCE (SIZE (1..MAX))"
        case .notAGeneralName(let tag): "\(tag) is not a GeneralName"
        case .invalidIPAddressLength(let length): "iPAddress of \(length) octets (expected 4 or 16)"
        case .invalidIPAddressConstraintLength(let length): "iPAddress constraint of \(length) octets (expected 8 or 32)"
        case .undefinedBit(let bit): "undefined bit \(bit) set"
        case .noKeyUsage: "no key usage bit set"
        case .incompleteAuthorityCertIssuer:
            "authorityCertIssuer and authorityCertSerialNumber must be both present or both absent"
        case .emptyDistributionPoint: "DistributionPoint with neither distributionPoint nor cRLIssuer"
        case .emptyNameConstraints: "neither permittedSubtrees nor excludedSubtrees"
        case .subtreeMinimumNotZero: "GeneralSubtree minimum must be 0 (RFC 5280 §4.2.1.10)"
        case .subtreeMaximumPresent: "GeneralSubtree maximum must be absent (RFC 5280 §4.2.1.10)"
        case .tooManyPolicies: "more than \(CertificatePolicies.maximumPolicyCount) policies"
        case .duplicatePolicy: "policy listed twice"
        case .emptyPolicyConstraints: "empty PolicyConstraints"
        case .truncatedSCTList: "SCT list shorter than its length field"
        case .sctListLengthMismatch: "SCT list length does not match its octets"
        case .truncatedSCTLength: "truncated SCT length"
        case .invalidSCTLength: "SCT length is zero or runs past the list"
        }
    }
}

extension X509Error.NameFault: CustomStringConvertible {
    /// The fault's part of ``X509Error/code``.
    public var code: String {
        switch self {
        case .emptyRelativeDistinguishedName: "empty_relative_distinguished_name"
        case .tooManyAttributes: "too_many_attributes"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .emptyRelativeDistinguishedName: "empty RelativeDistinguishedName (SET SIZE (1..MAX))"
        case .tooManyAttributes: "more than \(DistinguishedName.maximumAttributesPerRDN) attributes in one RDN"
        }
    }
}

extension X509Error.AlgorithmParametersFault: CustomStringConvertible {
    /// The fault's part of ``X509Error/code``.
    public var code: String {
        switch self {
        case .mustBeNull: "must_be_null"
        case .mustBeAbsent: "must_be_absent"
        case .missing: "missing"
        case .missingNamedCurve: "missing_named_curve"
        case .notANamedCurve: "not_a_named_curve"
        case .maskGenerationNotMGF1: "mask_generation_not_mgf1"
        case .negativeSaltLength: "negative_salt_length"
        case .trailerFieldNotOne: "trailer_field_not_one"
        case .unsupportedHash: "unsupported_hash"
        case .hashParametersNotNull: "hash_parameters_not_null"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .mustBeNull: "parameters must be NULL"
        case .mustBeAbsent: "parameters must be absent"
        case .missing: "parameters are missing"
        case .missingNamedCurve: "EC key without a named curve"
        case .notANamedCurve: "EC key parameters are not a named curve"
        case .maskGenerationNotMGF1: "mask generation function is not MGF1"
        case .negativeSaltLength: "negative PSS salt length"
        case .trailerFieldNotOne: "PSS trailer field is not 1"
        case .unsupportedHash: "hash is not SHA-1 or SHA-2"
        case .hashParametersNotNull: "hash parameters are neither NULL nor absent"
        }
    }
}

extension X509Error.PublicKeyFault: CustomStringConvertible {
    /// The fault's part of ``X509Error/code``.
    public var code: String {
        switch self {
        case .wrongLength: "wrong_length"
        case .notUncompressedPoint: "not_uncompressed_point"
        case .emptyPoint: "empty_point"
        case .invalidPointEncoding: "invalid_point_encoding"
        case .unusedBits: "unused_bits"
        case .zeroModulus: "zero_modulus"
        case .zeroExponent: "zero_exponent"
        }
    }

    /// A short description.
    public var description: String {
        switch self {
        case .wrongLength: "wrong key length for its algorithm"
        case .notUncompressedPoint: "EC key is not an uncompressed point (04 ‖ X ‖ Y)"
        case .emptyPoint: "empty EC point"
        case .invalidPointEncoding: "EC point is neither uncompressed nor compressed"
        case .unusedBits: "key BIT STRING has unused bits"
        case .zeroModulus: "RSA modulus is zero"
        case .zeroExponent: "RSA public exponent is zero"
        }
    }
}

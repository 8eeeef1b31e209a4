public import TackDER
public import TackDigest

/// The parameters of an RSASSA-PSS signature or key (RFC 4055 §3.1, RFC 8017 §A.2.3).
///
/// ```asn1
/// RSASSA-PSS-params  ::=  SEQUENCE  {
///     hashAlgorithm      [0] HashAlgorithm DEFAULT sha1Identifier,
///     maskGenAlgorithm   [1] MaskGenAlgorithm DEFAULT mgf1SHA1Identifier,
///     saltLength         [2] INTEGER DEFAULT 20,
///     trailerField       [3] INTEGER DEFAULT 1  }
/// ```
///
/// Rules enforced when parsing:
/// - the hash is SHA-1 or a SHA-2 function, with NULL or absent parameters, which
///   RFC 4055 §2.1 says implementations MUST accept as equivalent;
/// - the mask generation function is MGF1 (`id-mgf1`, the only one RFC 4055 defines)
///   over such a hash; it may differ from the message hash (RFC 4055 only RECOMMENDS
///   that they match, and verifiers decide);
/// - the trailer field is 1 (RFC 4055 §3.1: "MUST be 1");
/// - fields equal to their DEFAULT are omitted (X.690 §11.5), so an encoded salt
///   length of 20, trailer field 1, or SHA-1 hash or mask hash is rejected.
public struct RSAPSSParameters: Sendable, Hashable {
    /// The message digest (`hashAlgorithm`); SHA-1 when the field is absent.
    public var digest: DigestAlgorithm
    /// The digest used by MGF1 (`maskGenAlgorithm`); SHA-1 when the field is absent.
    public var maskGenerationDigest: DigestAlgorithm
    /// The salt length in bytes (`saltLength`); 20 when absent.
    public var saltLength: Int

    /// Creates PSS parameters (the trailer field is always 1).
    ///
    /// - Parameters:
    ///   - digest: The message digest.
    ///   - maskGenerationDigest: The MGF1 digest.
    ///   - saltLength: The salt length in bytes.
    public init(digest: DigestAlgorithm, maskGenerationDigest: DigestAlgorithm, saltLength: Int) {
        self.digest = digest
        self.maskGenerationDigest = maskGenerationDigest
        self.saltLength = saltLength
    }

    /// The values that the absent fields stand for: SHA-1, MGF1 with SHA-1, salt 20.
    public static let defaults = RSAPSSParameters(digest: .sha1, maskGenerationDigest: .sha1, saltLength: 20)

    /// Parses the DER parameters element whose TLV occupies `range` in `bytes`.
    internal init(derEncoded bytes: [UInt8], range: Range<Int>) throws(X509Error) {
        struct Fields {
            var hash: RawAlgorithmIdentifier?
            var maskOID: OID?
            var maskOffset = 0
            var maskHash: RawAlgorithmIdentifier?
            var salt: Int?
            var saltOffset = 0
            var trailer: Int?
            var trailerOffset = 0
        }
        let fields: Fields
        do {
            fields = try DER.read(bytes, range: range) { (reader) throws(DERError) -> Fields in
                try reader.readSequence { (sequence) throws(DERError) -> Fields in
                    var fields = Fields()
                    fields.hash = try sequence.readOptionalExplicit(0) { (tagged) throws(DERError) in
                        try tagged.readAlgorithmIdentifier()
                    }
                    fields.maskOffset = sequence.offset
                    _ = try sequence.readOptionalExplicit(1) { (tagged) throws(DERError) in
                        try tagged.readSequence { (mask) throws(DERError) in
                            let oid = try mask.readObjectIdentifier()
                            fields.maskOID = oid
                            if oid == AlgorithmOID.mgf1 {
                                fields.maskHash = try mask.readAlgorithmIdentifier()
                            } else if !mask.isAtEnd {
                                _ = try mask.readElement()
                            }
                        }
                    }
                    fields.saltOffset = sequence.offset
                    fields.salt = try sequence.readOptionalExplicit(2) { (tagged) throws(DERError) in
                        try tagged.readInteger(Int.self)
                    }
                    fields.trailerOffset = sequence.offset
                    fields.trailer = try sequence.readOptionalExplicit(3) { (tagged) throws(DERError) in
                        try tagged.readInteger(Int.self)
                    }
                    return fields
                }
            }
        } catch {
            throw X509Error(error)
        }

        var parameters = RSAPSSParameters.defaults
        if let hash = fields.hash {
            parameters.digest = try RSAPSSParameters.pssDigest(hash)
            guard parameters.digest != .sha1 else {
                throw X509Error(.der(.defaultValueEncoded), at: hash.range.lowerBound)
            }
        }
        if let maskOID = fields.maskOID {
            guard maskOID == AlgorithmOID.mgf1, let maskHash = fields.maskHash else {
                throw X509Error(.invalidAlgorithmParameters(.maskGenerationNotMGF1),
                                at: fields.maskOffset)
            }
            parameters.maskGenerationDigest = try RSAPSSParameters.pssDigest(maskHash)
            guard parameters.maskGenerationDigest != .sha1 else {
                throw X509Error(.der(.defaultValueEncoded), at: fields.maskOffset)
            }
        }
        if let salt = fields.salt {
            guard salt >= 0 else {
                throw X509Error(.invalidAlgorithmParameters(.negativeSaltLength), at: fields.saltOffset)
            }
            guard salt != 20 else { throw X509Error(.der(.defaultValueEncoded), at: fields.saltOffset) }
            parameters.saltLength = salt
        }
        if let trailer = fields.trailer {
            guard trailer != 1 else { throw X509Error(.der(.defaultValueEncoded), at: fields.trailerOffset) }
            throw X509Error(.invalidAlgorithmParameters(.trailerFieldNotOne), at: fields.trailerOffset)
        }
        self = parameters
    }

    /// A PSS hash: SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512 (the one-way
    /// hash functions of RFC 4055 §2.1), parameters NULL or absent.
    private static func pssDigest(_ raw: RawAlgorithmIdentifier) throws(X509Error) -> DigestAlgorithm {
        guard let digest = DigestAlgorithm(oid: raw.oid), digest != .md5, digest != .sha512_224, digest != .sha512_256 else {
            throw X509Error(.invalidAlgorithmParameters(.unsupportedHash), at: raw.range.lowerBound)
        }
        guard raw.parameters == nil || raw.hasNullParameters else {
            throw X509Error(.invalidAlgorithmParameters(.hashParametersNotNull),
                            at: raw.parametersOffset)
        }
        return digest
    }
}

/// The algorithm a certificate is signed with (RFC 5280 §4.1.1.2), decoded from its
/// AlgorithmIdentifier.
///
/// Parameter rules, checked when parsing:
/// - RSA PKCS #1 v1.5 (RFC 8017 §A.2.4, RFC 3279 §2.2.1, RFC 4055 §5): the parameters
///   are NULL. RFC 4055 §5 adds that implementations "MUST accept the parameters being
///   absent as well as present", so absent parameters are accepted too; anything else
///   is ``X509Error/Reason/invalidAlgorithmParameters(_:)``.
/// - RSASSA-PSS (RFC 4055 §3.1): the parameters MUST be present in a signature's
///   AlgorithmIdentifier; see ``RSAPSSParameters`` for their rules.
/// - ECDSA (RFC 5758 §3.2): "the encoding MUST omit the parameters field". One
///   exception is deliberate: parameters that are exactly NULL (`05 00`) are
///   accepted, as OpenSSL, Go and pyca/cryptography accept them, because Java's
///   `keytool` (JDK 11, earlier JDK 17 updates) writes them;
///   ``Certificate/hasNullECDSASignatureParameters`` tells such a certificate apart.
/// - Ed25519 and Ed448 (RFC 8410 §3): "the parameters MUST be absent".
///
/// MD5 and SHA-1 signatures are recognised (`DigestAlgorithm.isCollisionResistant`
/// is `false` for them) so that a verifier can refuse them by name; an unrecognised
/// identifier is kept as ``unknown(_:)`` and its parameters are not checked.
public enum SignatureAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 with the given digest (`sha256WithRSAEncryption`, ...).
    case rsaPKCS1v15(DigestAlgorithm)
    /// RSASSA-PSS (`id-RSASSA-PSS`) with its parameters.
    case rsaPSS(RSAPSSParameters)
    /// ECDSA with the given digest (`ecdsa-with-SHA256`, ...; SHA-1 recognised for refusal).
    case ecdsa(DigestAlgorithm)
    /// Ed25519 (RFC 8032, RFC 8410).
    case ed25519
    /// Ed448 (RFC 8032, RFC 8410).
    case ed448
    /// An algorithm TackX509 does not know, by its identifier.
    case unknown(OID)

    /// The digest the signature is computed over, if the algorithm has a separate one
    /// (`nil` for EdDSA, which hashes internally, and for unknown algorithms).
    public var digest: DigestAlgorithm? {
        switch self {
        case .rsaPKCS1v15(let digest), .ecdsa(let digest): digest
        case .rsaPSS(let parameters): parameters.digest
        case .ed25519, .ed448, .unknown: nil
        }
    }

    /// The algorithm's name in the form OpenSSL prints (`sha256WithRSAEncryption`,
    /// `ecdsa-with-SHA384`, `rsassaPss`, `ED25519`), or the dotted OID when unknown.
    public var description: String {
        switch self {
        case .rsaPKCS1v15(let digest):
            switch digest {
            case .md5: "md5WithRSAEncryption"
            case .sha1: "sha1WithRSAEncryption"
            case .sha224: "sha224WithRSAEncryption"
            case .sha256: "sha256WithRSAEncryption"
            case .sha384: "sha384WithRSAEncryption"
            case .sha512: "sha512WithRSAEncryption"
            case .sha512_224: "sha512-224WithRSAEncryption"
            case .sha512_256: "sha512-256WithRSAEncryption"
            }
        case .rsaPSS: "rsassaPss"
        case .ecdsa(let digest): "ecdsa-with-" + digest.description
        case .ed25519: "ED25519"
        case .ed448: "ED448"
        case .unknown(let oid): oid.dottedString
        }
    }

    /// Decodes a DER AlgorithmIdentifier that occupies `range` (its whole TLV) in `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The buffer, for example a certificate's DER.
    ///   - range: The absolute range of the AlgorithmIdentifier SEQUENCE.
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for malformed DER or
    ///   ``X509Error/Reason/invalidAlgorithmParameters(_:)`` when the parameters
    ///   break the algorithm's rules (see the type's discussion).
    public init(derEncoded bytes: [UInt8], range: Range<Int>) throws(X509Error) {
        let raw: RawAlgorithmIdentifier
        do {
            raw = try DER.read(bytes, range: range) { (reader) throws(DERError) in try reader.readAlgorithmIdentifier() }
        } catch {
            throw X509Error(error)
        }
        try self.init(raw, in: bytes)
    }

    /// Interprets an AlgorithmIdentifier already read from `bytes`.
    internal init(_ raw: RawAlgorithmIdentifier, in bytes: [UInt8]) throws(X509Error) {
        let oid = raw.oid
        if let digest = SignatureAlgorithm.pkcs1Digest(oid) {
            // RFC 4055 §5: NULL, and absent MUST be accepted as well.
            guard raw.parameters == nil || raw.hasNullParameters else {
                throw X509Error(.invalidAlgorithmParameters(.mustBeNull),
                                at: raw.parametersOffset)
            }
            self = .rsaPKCS1v15(digest)
        } else if let digest = SignatureAlgorithm.ecdsaDigest(oid) {
            // RFC 5758 §3.2 requires absent parameters; a NULL (05 00 exactly) is the one
            // deliberate leniency, for certificates Java's keytool wrote (README,
            // "Strictness and the deliberate leniencies"; Certificate.hasNullECDSASignatureParameters).
            guard raw.parameters == nil || raw.hasNullParameters else {
                throw X509Error(.invalidAlgorithmParameters(.mustBeAbsent),
                                at: raw.parametersOffset)
            }
            self = .ecdsa(digest)
        } else if oid == AlgorithmOID.rsassaPSS {
            guard let parameters = raw.parameters else {
                throw X509Error(.invalidAlgorithmParameters(.missing),
                                at: raw.range.lowerBound)
            }
            self = .rsaPSS(try RSAPSSParameters(derEncoded: bytes, range: parameters.encodedRange))
        } else if oid == AlgorithmOID.ed25519 || oid == AlgorithmOID.ed448 {
            guard raw.parameters == nil else {
                throw X509Error(.invalidAlgorithmParameters(.mustBeAbsent),
                                at: raw.parametersOffset)
            }
            self = oid == AlgorithmOID.ed25519 ? .ed25519 : .ed448
        } else {
            self = .unknown(oid)
        }
    }

    private static func pkcs1Digest(_ oid: OID) -> DigestAlgorithm? {
        if oid == AlgorithmOID.sha256WithRSAEncryption { return .sha256 }
        if oid == AlgorithmOID.sha384WithRSAEncryption { return .sha384 }
        if oid == AlgorithmOID.sha512WithRSAEncryption { return .sha512 }
        if oid == AlgorithmOID.sha1WithRSAEncryption { return .sha1 }
        if oid == AlgorithmOID.sha224WithRSAEncryption { return .sha224 }
        if oid == AlgorithmOID.md5WithRSAEncryption { return .md5 }
        return nil
    }

    private static func ecdsaDigest(_ oid: OID) -> DigestAlgorithm? {
        if oid == AlgorithmOID.ecdsaWithSHA256 { return .sha256 }
        if oid == AlgorithmOID.ecdsaWithSHA384 { return .sha384 }
        if oid == AlgorithmOID.ecdsaWithSHA512 { return .sha512 }
        if oid == AlgorithmOID.ecdsaWithSHA1 { return .sha1 }
        if oid == AlgorithmOID.ecdsaWithSHA224 { return .sha224 }
        return nil
    }
}

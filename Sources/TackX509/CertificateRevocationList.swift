public import TackDER

/// A certificate revocation list (RFC 5280 §5), parsed strictly.
///
/// ```
/// CertificateList  ::=  SEQUENCE  {
///      tbsCertList          TBSCertList,
///      signatureAlgorithm   AlgorithmIdentifier,
///      signatureValue       BIT STRING  }
/// TBSCertList  ::=  SEQUENCE  {
///      version                 Version OPTIONAL,   -- if present, MUST be v2
///      signature               AlgorithmIdentifier,
///      issuer                  Name,
///      thisUpdate              Time,
///      nextUpdate              Time OPTIONAL,
///      revokedCertificates     SEQUENCE OF SEQUENCE  {
///           userCertificate         CertificateSerialNumber,
///           revocationDate          Time,
///           crlEntryExtensions      Extensions OPTIONAL  -- if present, version MUST be v2
///                                }  OPTIONAL,
///      crlExtensions           [0]  EXPLICIT Extensions OPTIONAL  -- if present, version MUST be v2
///                                }
/// ```
///
/// Beyond DER, the parser holds the CRL to the RFC 5280 profile a relying party
/// can check on its own:
/// - `version`, when present, is v2 (§5.1.2.1); extensions of either level need v2.
/// - The TBS `signature` equals the outer `signatureAlgorithm` byte for byte (§5.1.1.2).
/// - The issuer is a non-empty name (§5.1.2.3).
/// - `nextUpdate` is present (§5.1.2.5: "Conforming CRL issuers MUST include").
/// - An empty `revokedCertificates` is absent (§5.1.2.6), and extension lists are
///   non-empty, without duplicates, and at most ``maximumExtensionCount`` long.
/// - The CRL number is present, non-critical and a non-negative INTEGER of at most
///   20 octets (§5.2.3); the authority key identifier is present and non-critical
///   (§5.2.1).
/// - Delta CRLs (§5.2.4), issuing distribution points (§5.2.5, which scope a CRL to
///   part of a CA's certificates) and indirect CRLs (a `certificateIssuer` entry
///   extension, §5.3.3) are refused as unsupported: Tack accepts only complete,
///   direct CRLs covering every certificate of their issuer, so that a CRL can
///   never be applied to certificates outside its scope.
/// - Any other critical extension, at the list or entry level, is refused (§5.2,
///   §5.3: "If a CRL contains a critical extension that the application cannot
///   process, then the application MUST NOT use that CRL").
///
/// The signature is checked by TackSignature
/// (`CertificateRevocationList.verifySignature(with:policy:)`); validity against a
/// time with ``isCurrent(atSecondsSince1970:)``.
public struct CertificateRevocationList: Sendable, Hashable {
    /// The CRL's DER encoding.
    public let derEncoded: [UInt8]
    /// The absolute range of `tbsCertList`: the bytes the issuer signed.
    public let tbsRange: Range<Int>
    /// The version: ``Certificate/Version/v1`` when the field is absent, else ``Certificate/Version/v2``.
    public let version: Certificate.Version
    /// The signature algorithm (the outer field, equal to the inner one).
    public let signatureAlgorithm: SignatureAlgorithm
    /// The absolute range of the issuer Name.
    public let issuerRange: Range<Int>
    /// When this CRL was issued.
    public let thisUpdate: DERTime
    /// When the next CRL will be issued; the CRL is stale after it.
    public let nextUpdate: DERTime
    /// The revoked certificates, in encoding order.
    public let revokedCertificates: [RevokedCertificate]
    /// The CRL extensions.
    public let extensions: [Extension]
    /// The contents of the CRL number INTEGER (big-endian, minimal, non-negative).
    public let crlNumber: ArraySlice<UInt8>
    /// The authority key identifier extension.
    public let authorityKeyIdentifier: AuthorityKeyIdentifier
    /// The absolute range of the signature value (after the unused-bits octet).
    public let signatureRange: Range<Int>

    /// The most extensions accepted in a CRL's or an entry's list: the same bound
    /// as ``Certificate/maximumExtensionCount``.
    public static let maximumExtensionCount = Certificate.maximumExtensionCount

    /// `id-ce-cRLNumber`, 2.5.29.20.
    public static let crlNumberOID = OID(2, 5, 29, 20)
    /// `id-ce-deltaCRLIndicator`, 2.5.29.27.
    public static let deltaCRLIndicatorOID = OID(2, 5, 29, 27)
    /// `id-ce-issuingDistributionPoint`, 2.5.29.28.
    public static let issuingDistributionPointOID = OID(2, 5, 29, 28)
    /// `id-ce-freshestCRL`, 2.5.29.46.
    public static let freshestCRLOID = OID(2, 5, 29, 46)
    /// `id-ce-cRLReasons`, 2.5.29.21 (entry extension).
    public static let reasonCodeOID = OID(2, 5, 29, 21)
    /// `id-ce-invalidityDate`, 2.5.29.24 (entry extension).
    public static let invalidityDateOID = OID(2, 5, 29, 24)
    /// `id-ce-certificateIssuer`, 2.5.29.29 (entry extension of indirect CRLs).
    public static let certificateIssuerOID = OID(2, 5, 29, 29)

    /// One entry of `revokedCertificates`.
    public struct RevokedCertificate: Sendable, Hashable {
        /// The absolute range of the serial number INTEGER's contents.
        public let serialNumberRange: Range<Int>
        /// The revocation date, in seconds since 1970.
        public let revocationTime: Int64
        /// The entry's extensions (reason code, invalidity date), possibly empty.
        public let extensions: [Extension]
    }

    /// Parses a DER CertificateList.
    ///
    /// - Parameters:
    ///   - bytes: The DER of exactly one CRL, with nothing after it.
    ///   - limits: DER limits. A CRL may be much larger than a certificate, so the
    ///     default element length is 16 MiB (a CRL of about 400,000 entries).
    /// - Throws: ``X509Error`` with the absolute offset of the offending element:
    ///   ``X509Error/Reason/der(_:)``, ``X509Error/Reason/invalidVersion``,
    ///   ``X509Error/Reason/signatureAlgorithmMismatch``,
    ///   ``X509Error/Reason/duplicateExtension(_:)``, ``X509Error/Reason/emptyExtensions``,
    ///   ``X509Error/Reason/tooManyExtensions``, ``X509Error/Reason/invalidSignatureValue``,
    ///   ``X509Error/Reason/invalidRevocationList(_:)``, and the errors of
    ///   ``SignatureAlgorithm``, ``DistinguishedName`` and ``AuthorityKeyIdentifier``.
    public init(
        derEncoded bytes: [UInt8],
        limits: DERLimits = DERLimits(maximumDepth: 32, maximumElementLength: 16 * 1024 * 1024)
    ) throws(X509Error) {
        var raw = RawCRL()
        do {
            try DER.read(bytes, limits: limits) { (reader) throws(DERError) in
                try reader.readCertificateList(into: &raw)
            }
        } catch {
            throw X509Error(error)
        }

        // §5.1.2.1: "if present, MUST be v2".
        let version: Certificate.Version
        switch raw.version {
        case nil: version = .v1
        case 1?: version = .v2
        default: throw X509Error(.invalidVersion, at: raw.versionOffset)
        }
        // §5.1.2.6 and §5.1.2.7: extensions of either level need v2.
        if version == .v1 {
            if let offset = raw.extensionsOffset ?? raw.firstEntryExtensionsOffset {
                throw X509Error(.invalidVersion, at: offset)
            }
        }
        if let offset = raw.tooManyExtensionsOffset { throw X509Error(.tooManyExtensions, at: offset) }
        if let offset = raw.emptyExtensionsOffset { throw X509Error(.emptyExtensions, at: offset) }

        // §5.1.1.2: the inner and outer algorithm identifiers are the same.
        let inner = raw.innerSignatureAlgorithmRange
        let outer = raw.signatureAlgorithm.range
        guard inner.count == outer.count && bytes[inner].elementsEqual(bytes[outer]) else {
            throw X509Error(.signatureAlgorithmMismatch, at: outer.lowerBound)
        }
        let signatureAlgorithm = try SignatureAlgorithm(raw.signatureAlgorithm, in: bytes)
        guard raw.signature.unusedBitCount == 0 else { throw X509Error(.invalidSignatureValue, at: raw.signatureOffset) }

        // §5.1.2.3: a non-empty issuer name.
        let issuer = try DistinguishedName(derEncoded: bytes, range: raw.issuerRange)
        guard !issuer.isEmpty else { throw X509Error(.invalidRevocationList(.emptyIssuer), at: raw.issuerRange.lowerBound) }

        // The DER pass either read thisUpdate or threw.
        guard let thisUpdate = raw.thisUpdate else { preconditionFailure("tbsCertList read without thisUpdate") }
        guard let nextUpdate = raw.nextUpdate else {
            throw X509Error(.invalidRevocationList(.missingNextUpdate), at: raw.nextUpdateOffset)
        }
        if let offset = raw.emptyRevokedCertificatesOffset {
            throw X509Error(.invalidRevocationList(.emptyRevokedCertificates), at: offset)
        }

        // CRL extensions (§5.2).
        let extensions = raw.extensions
        try CertificateRevocationList.rejectDuplicates(extensions)
        var crlNumber: ArraySlice<UInt8>? = nil
        var authorityKeyIdentifier: AuthorityKeyIdentifier? = nil
        for item in extensions {
            switch item.oid {
            case CertificateRevocationList.crlNumberOID:
                // §5.2.3: "this extension MUST be marked as non-critical"; 0...2^159.
                guard !item.isCritical else { throw X509Error(.invalidRevocationList(.criticalCRLNumber), at: item.offset) }
                crlNumber = try CertificateRevocationList.readCRLNumber(bytes, item)
            case AuthorityKeyIdentifier.oid:
                // §5.2.1: "Conforming CRL issuers MUST ... mark this extension as non-critical".
                guard !item.isCritical else {
                    throw X509Error(.invalidRevocationList(.criticalAuthorityKeyIdentifier), at: item.offset)
                }
                authorityKeyIdentifier = try AuthorityKeyIdentifier(derEncoded: bytes, valueRange: item.valueRange)
            case CertificateRevocationList.deltaCRLIndicatorOID:
                throw X509Error(.invalidRevocationList(.deltaCRL), at: item.offset)
            case CertificateRevocationList.issuingDistributionPointOID:
                throw X509Error(.invalidRevocationList(.issuingDistributionPoint), at: item.offset)
            default:
                guard !item.isCritical else {
                    throw X509Error(.invalidRevocationList(.unsupportedCriticalExtension(item.oid)), at: item.offset)
                }
            }
        }
        // §5.2.3: "conforming CRL issuers MUST include this extension in all CRLs";
        // §5.2.1: the AKI "MUST" be included. A v1 CRL has neither and is refused.
        guard let crlNumber else { throw X509Error(.invalidRevocationList(.missingCRLNumber), at: raw.tbsRange.lowerBound) }
        guard let authorityKeyIdentifier else {
            throw X509Error(.invalidRevocationList(.missingAuthorityKeyIdentifier), at: raw.tbsRange.lowerBound)
        }

        // Entry extensions (§5.3).
        for entry in raw.revoked {
            try CertificateRevocationList.rejectDuplicates(entry.extensions)
            for item in entry.extensions {
                switch item.oid {
                case CertificateRevocationList.certificateIssuerOID:
                    throw X509Error(.invalidRevocationList(.indirectCRL), at: item.offset)
                case CertificateRevocationList.reasonCodeOID, CertificateRevocationList.invalidityDateOID:
                    // §5.3.1, §5.3.2: non-critical, and informational for a relying
                    // party that only asks "is this serial revoked".
                    break
                default:
                    guard !item.isCritical else {
                        throw X509Error(.invalidRevocationList(.unsupportedCriticalExtension(item.oid)), at: item.offset)
                    }
                }
            }
        }

        self.derEncoded = bytes
        self.tbsRange = raw.tbsRange
        self.version = version
        self.signatureAlgorithm = signatureAlgorithm
        self.issuerRange = raw.issuerRange
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.revokedCertificates = raw.revoked
        self.extensions = extensions
        self.crlNumber = crlNumber
        self.authorityKeyIdentifier = authorityKeyIdentifier
        self.signatureRange = raw.signature.bytesRange
    }

    /// The issuer name.
    ///
    /// - Throws: ``X509Error`` as ``DistinguishedName/init(derEncoded:range:)`` (never,
    ///   for a parsed CRL: the initializer checked it).
    public var issuer: DistinguishedName {
        get throws(X509Error) { try DistinguishedName(derEncoded: derEncoded, range: issuerRange) }
    }

    /// The DER of `tbsCertList`: the bytes the issuer signed.
    public var tbsBytes: ArraySlice<UInt8> { derEncoded[tbsRange] }
    /// The signature value's octets.
    public var signatureBytes: ArraySlice<UInt8> { derEncoded[signatureRange] }

    /// Whether the CRL is in force at `time`: `thisUpdate <= time <= nextUpdate`,
    /// bounds included (RFC 5280 §6.3.3 (a)(2) and §5.1.2.4).
    ///
    /// - Parameter time: The check time, in seconds since 1970.
    /// - Returns: Whether the CRL is in force then.
    public func isCurrent(atSecondsSince1970 time: Int64) -> Bool {
        thisUpdate.secondsSince1970 <= time && time <= nextUpdate.secondsSince1970
    }

    /// The revocation time of the certificate with `serialNumber`, or `nil` if this
    /// CRL does not list it.
    ///
    /// - Parameter serialNumber: The contents of the certificate's serial number
    ///   INTEGER (``Certificate/serialNumber``); compared octet for octet, which is
    ///   exact because DER integers are minimal.
    /// - Returns: The revocation date in seconds since 1970, or `nil`.
    public func revocationTime(forSerial serialNumber: some Collection<UInt8>) -> Int64? {
        for entry in revokedCertificates
        where entry.serialNumberRange.count == serialNumber.count
            && derEncoded[entry.serialNumberRange].elementsEqual(serialNumber) {
            return entry.revocationTime
        }
        return nil
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: CertificateRevocationList, rhs: CertificateRevocationList) -> Bool {
        lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derEncoded)
    }

    /// Throws ``X509Error/Reason/duplicateExtension(_:)`` for an OID listed twice
    /// (CRLs, CRL entries and OCSP responses). At most ``maximumExtensionCount``
    /// entries: a bounded quadratic scan.
    static func rejectDuplicates(_ list: [Extension]) throws(X509Error) {
        for later in list.indices.dropFirst() {
            for earlier in list.startIndex..<later where list[earlier].oid == list[later].oid {
                throw X509Error(.duplicateExtension(list[later].oid), at: list[later].offset)
            }
        }
    }

    /// Reads the CRL number: `CRLNumber ::= INTEGER (0..MAX)`, at most 20 octets
    /// (§5.2.3: "CRL issuers MUST NOT use CRLNumber values longer than 20 octets").
    private static func readCRLNumber(_ bytes: [UInt8], _ item: Extension) throws(X509Error) -> ArraySlice<UInt8> {
        let range: Range<Int>
        do {
            range = try DER.read(bytes, range: item.valueRange) { (reader) throws(DERError) -> Range<Int> in
                try reader.readIntegerElement().contentRange
            }
        } catch {
            throw X509Error(error)
        }
        let contents = bytes[range]
        guard let first = contents.first, first & 0x80 == 0 else {
            throw X509Error(.invalidRevocationList(.invalidCRLNumber), at: item.offset)
        }
        let magnitude = first == 0 ? contents.count - 1 : contents.count
        guard magnitude <= 20 else { throw X509Error(.invalidRevocationList(.invalidCRLNumber), at: item.offset) }
        return contents
    }
}

/// What a strict read of a CRL collects before the profile checks.
struct RawCRL {
    var versionOffset = 0
    var version: Int? = nil
    var tbsRange = 0..<0
    var innerSignatureAlgorithmRange = 0..<0
    var issuerRange = 0..<0
    var thisUpdate: DERTime? = nil
    var nextUpdate: DERTime? = nil
    var nextUpdateOffset = 0
    var revoked: [CertificateRevocationList.RevokedCertificate] = []
    var emptyRevokedCertificatesOffset: Int? = nil
    var firstEntryExtensionsOffset: Int? = nil
    var extensions: [Extension] = []
    var extensionsOffset: Int? = nil
    var emptyExtensionsOffset: Int? = nil
    var tooManyExtensionsOffset: Int? = nil
    var signatureAlgorithm = RawAlgorithmIdentifier(oid: OID(0, 0), parameters: nil, range: 0..<0)
    var signatureOffset = 0
    var signature = DERBitString(bytesRange: 0..<0, unusedBitCount: 0)
}

extension DERReader {
    /// Reads a CertificateList SEQUENCE (RFC 5280 §5.1).
    mutating func readCertificateList(into raw: inout RawCRL) throws(DERError) {
        try readSequence { (list) throws(DERError) in
            let tbsStart = list.offset
            try list.readSequence { (tbs) throws(DERError) in try tbs.readTBSCertList(into: &raw) }
            raw.tbsRange = tbsStart..<list.offset
            raw.signatureAlgorithm = try list.readAlgorithmIdentifier()
            raw.signatureOffset = list.offset
            raw.signature = try list.readBitString()
        }
    }

    /// Reads the contents of the TBSCertList SEQUENCE.
    mutating func readTBSCertList(into raw: inout RawCRL) throws(DERError) {
        raw.versionOffset = offset
        if try peekTag() == .integer { raw.version = try readInteger(Int.self) }
        raw.innerSignatureAlgorithmRange = try readElement(.sequence).encodedRange
        raw.issuerRange = try readElement(.sequence).encodedRange
        raw.thisUpdate = try readTime()
        raw.nextUpdateOffset = offset
        if let tag = try peekTag(), tag == .utcTime || tag == .generalizedTime { raw.nextUpdate = try readTime() }
        if try peekTag() == .sequence {
            let listOffset = offset
            let count = try readCollection(.sequence) { (entries) throws(DERError) in
                let entry = try entries.readSequence { (item) throws(DERError) -> CertificateRevocationList.RevokedCertificate in
                    let serial = try item.readIntegerElement().contentRange
                    let date = try item.readTime()
                    var extensions: [Extension] = []
                    if !item.isAtEnd {
                        if raw.firstEntryExtensionsOffset == nil { raw.firstEntryExtensionsOffset = item.offset }
                        try item.readExtensionList(
                            into: &extensions, tooManyOffset: &raw.tooManyExtensionsOffset, emptyOffset: &raw.emptyExtensionsOffset)
                    }
                    return CertificateRevocationList.RevokedCertificate(
                        serialNumberRange: serial, revocationTime: date.secondsSince1970, extensions: extensions)
                }
                raw.revoked.append(entry)
            }
            if count == 0 { raw.emptyRevokedCertificatesOffset = listOffset }
        }
        let extensionsOffset = offset
        let present: Void? = try readOptionalExplicit(0) { (tagged) throws(DERError) in
            var extensions: [Extension] = []
            try tagged.readExtensionList(
                into: &extensions, tooManyOffset: &raw.tooManyExtensionsOffset, emptyOffset: &raw.emptyExtensionsOffset)
            raw.extensions = extensions
        }
        if present != nil { raw.extensionsOffset = extensionsOffset }
    }

    /// Reads `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension` (CRLs, CRL entries,
    /// OCSP responses), noting the offset of the first overlong list in `tooManyOffset`
    /// and of the first empty one in `emptyOffset`.
    mutating func readExtensionList(
        into extensions: inout [Extension], tooManyOffset: inout Int?, emptyOffset: inout Int?
    ) throws(DERError) {
        let listOffset = offset
        let maximum = CertificateRevocationList.maximumExtensionCount
        let count = try readCollection(.sequence) { (list) throws(DERError) in
            let extensionOffset = list.offset
            let parsed = try list.readSequence { (item) throws(DERError) -> Extension in
                let oid = try item.readObjectIdentifier()
                let (isCritical, valueRange) = try item.readCriticalAndValue()
                return Extension(oid: oid, isCritical: isCritical, valueRange: valueRange, offset: extensionOffset)
            }
            if extensions.count < maximum {
                extensions.append(parsed)
            } else if tooManyOffset == nil {
                tooManyOffset = extensionOffset
            }
        }
        if count == 0, emptyOffset == nil { emptyOffset = listOffset }
    }
}

/// Why a CRL breaks the RFC 5280 §5 profile, or uses a feature Tack refuses.
public enum RevocationListProblem: Sendable, Hashable, CustomStringConvertible {
    /// The issuer is an empty name (§5.1.2.3).
    case emptyIssuer
    /// `nextUpdate` is absent (§5.1.2.5).
    case missingNextUpdate
    /// `revokedCertificates` is present but empty (§5.1.2.6).
    case emptyRevokedCertificates
    /// The CRL number extension is absent (§5.2.3).
    case missingCRLNumber
    /// The CRL number extension is critical (§5.2.3).
    case criticalCRLNumber
    /// The CRL number is negative or longer than 20 octets (§5.2.3).
    case invalidCRLNumber
    /// The authority key identifier extension is absent (§5.2.1).
    case missingAuthorityKeyIdentifier
    /// The authority key identifier extension is critical (§5.2.1).
    case criticalAuthorityKeyIdentifier
    /// A delta CRL (§5.2.4): Tack uses complete CRLs only.
    case deltaCRL
    /// An issuing distribution point (§5.2.5): Tack uses CRLs that cover every
    /// certificate of their issuer only.
    case issuingDistributionPoint
    /// An indirect CRL entry (`certificateIssuer`, §5.3.3).
    case indirectCRL
    /// A critical extension Tack does not process (§5.2, §5.3).
    case unsupportedCriticalExtension(OID)

    /// A stable identifier (the case's name in snake_case), for tools and test manifests.
    public var code: String {
        switch self {
        case .emptyIssuer: "empty_issuer"
        case .missingNextUpdate: "missing_next_update"
        case .emptyRevokedCertificates: "empty_revoked_certificates"
        case .missingCRLNumber: "missing_crl_number"
        case .criticalCRLNumber: "critical_crl_number"
        case .invalidCRLNumber: "invalid_crl_number"
        case .missingAuthorityKeyIdentifier: "missing_authority_key_identifier"
        case .criticalAuthorityKeyIdentifier: "critical_authority_key_identifier"
        case .deltaCRL: "delta_crl"
        case .issuingDistributionPoint: "issuing_distribution_point"
        case .indirectCRL: "indirect_crl"
        case .unsupportedCriticalExtension: "unsupported_critical_extension"
        }
    }

    /// A short phrase.
    public var description: String {
        switch self {
        case .emptyIssuer: return "empty issuer name"
        case .missingNextUpdate: return "nextUpdate is missing"
        case .emptyRevokedCertificates: return "empty revokedCertificates list"
        case .missingCRLNumber: return "CRL number extension is missing"
        case .criticalCRLNumber: return "CRL number extension is critical"
        case .invalidCRLNumber: return "CRL number is negative or longer than 20 octets"
        case .missingAuthorityKeyIdentifier: return "authority key identifier is missing"
        case .criticalAuthorityKeyIdentifier: return "authority key identifier is critical"
        case .deltaCRL: return "delta CRLs are not supported"
        case .issuingDistributionPoint: return "CRLs with an issuing distribution point are not supported"
        case .indirectCRL: return "indirect CRLs are not supported"
        case .unsupportedCriticalExtension(let oid): return "unsupported critical extension \(oid)"
        }
    }
}

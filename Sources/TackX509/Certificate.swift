public import TackDER

/// An X.509 certificate (RFC 5280 §4.1), parsed strictly and without copying.
///
/// ```asn1
/// Certificate  ::=  SEQUENCE  {
///      tbsCertificate       TBSCertificate,
///      signatureAlgorithm   AlgorithmIdentifier,
///      signatureValue       BIT STRING  }
///
/// TBSCertificate  ::=  SEQUENCE  {
///      version         [0]  EXPLICIT Version DEFAULT v1,
///      serialNumber         CertificateSerialNumber,
///      signature            AlgorithmIdentifier,
///      issuer               Name,
///      validity             Validity,
///      subject              Name,
///      subjectPublicKeyInfo SubjectPublicKeyInfo,
///      issuerUniqueID  [1]  IMPLICIT UniqueIdentifier OPTIONAL,
///      subjectUniqueID [2]  IMPLICIT UniqueIdentifier OPTIONAL,
///      extensions      [3]  EXPLICIT Extensions OPTIONAL  }
/// ```
///
/// The certificate keeps one reference to its DER (``derEncoded``) and absolute
/// ranges into it, in the manner of Go's `Raw*` fields: the TBS part, issuer, subject
/// and SubjectPublicKeyInfo stay byte-exact, so signatures and pins are computed over
/// the original bytes. Parsing costs one pass and, for up to 12 extensions, no
/// allocation: the extensions are recorded inline (``extensions`` is a view).
///
/// What parsing checks, besides strict DER (`DERReader`):
/// - the version is v1 (absent; an encoded `0` is a DER DEFAULT violation), v2 or v3;
///   unique identifiers need v2 or v3 and extensions need v3 (RFC 5280 §4.1.2.1);
/// - the TBS `signature` AlgorithmIdentifier equals the outer `signatureAlgorithm`
///   byte for byte (RFC 5280 §4.1.1.2, §4.1.2.3), and its parameters obey its
///   algorithm's rules (``SignatureAlgorithm``);
/// - issuer and subject are SEQUENCEs (their contents are decoded by
///   `DistinguishedName`); the validity times are in the RFC 5280 §4.1.2.5 forms;
/// - the SubjectPublicKeyInfo obeys its algorithm's rules (``SubjectPublicKeyInfo``);
/// - extensions, when present, number 1 through ``maximumExtensionCount`` with no
///   OID twice (RFC 5280 §4.2); their values are decoded lazily;
/// - the signature BIT STRING has no unused bits; nothing follows the certificate.
///
/// Deliberate leniency, as RFC 5280 §4.1.2.2 asks ("Certificate users SHOULD be
/// prepared to gracefully handle such certificates"): serial numbers that are zero,
/// negative or longer than 20 octets are accepted and flagged
/// (``isSerialNumberZero``, ``isSerialNumberNegative``, ``isSerialNumberTooLong``);
/// the choice between UTCTime and GeneralizedTime for a given year is not enforced
/// (Go and webpki do not either). Two encodings that real certificates carry are
/// accepted in exactly one form each and flagged: ECDSA signature algorithms with
/// NULL parameters (``hasNullECDSASignatureParameters``, Java's `keytool`) and an
/// encoded `critical` FALSE (``hasEncodedDefaultCriticalFlag``, RFC 8410 §10.2). Neither the signature nor the validity period is
/// checked here: that is the verifier's work.
public struct Certificate: Sendable, Hashable {
    /// The certificate's version (RFC 5280 §4.1.2.1).
    public enum Version: Int, Sendable, Hashable, Comparable {
        /// Version 1: no unique identifiers, no extensions (the field is absent).
        case v1 = 0
        /// Version 2: unique identifiers allowed.
        case v2 = 1
        /// Version 3: extensions allowed.
        case v3 = 2

        /// Orders versions by their number.
        public static func < (lhs: Version, rhs: Version) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The validity period (RFC 5280 §4.1.2.5), both bounds inclusive.
    public struct Validity: Sendable, Hashable {
        /// The first instant at which the certificate is valid.
        public var notBefore: DERTime
        /// The last instant at which the certificate is valid.
        public var notAfter: DERTime

        /// Creates a validity period.
        ///
        /// - Parameters:
        ///   - notBefore: The first valid instant.
        ///   - notAfter: The last valid instant.
        public init(notBefore: DERTime, notAfter: DERTime) {
            self.notBefore = notBefore
            self.notAfter = notAfter
        }

        /// Whether `secondsSince1970` lies within the period, bounds included.
        ///
        /// - Parameter secondsSince1970: A time as seconds since the Unix epoch.
        /// - Returns: `true` if `notBefore <= time <= notAfter`.
        public func contains(secondsSince1970: Int64) -> Bool {
            notBefore.secondsSince1970 <= secondsSince1970 && secondsSince1970 <= notAfter.secondsSince1970
        }
    }

    /// The most extensions a certificate may carry: 64.
    ///
    /// RFC 5280 sets no maximum. Web PKI certificates carry about 10 (a typical
    /// leaf: SAN, key usage, EKU, basic constraints, SKI, AKI, AIA, CRL DP, policies,
    /// SCT list), and the 139 roots of a Debian system CA bundle at most 8; swift-certificates
    /// allows 32 by default. 64 leaves room for private PKIs with many custom
    /// extensions while bounding the quadratic duplicate check of unrecognized
    /// extensions to 2016 OID comparisons and the entries beyond the 12 kept inline
    /// to one small allocation.
    public static let maximumExtensionCount = 64

    /// The DER limits used by default for certificates: depth 32 (a certificate's
    /// deepest path, into a name constraint's subtree, is below 12) and elements of at
    /// most 64 KiB.
    ///
    /// 64 KiB is far above ordinary certificates (the largest root of the system CA
    /// bundle is 2007 bytes, this repository's RSA-8192 leaf 3048 bytes) and still
    /// admits the outliers: the Baseline Requirements allow hundreds of SANs, and a
    /// certificate with 1000 DNS names of 30 characters is about 32 KiB. It is the
    /// limit `DERLimits` suggests for untrusted certificates, and it bounds
    /// the work hostile input can cause. Pass other limits to
    /// ``init(derEncoded:limits:)`` for unusual inputs.
    public static let defaultLimits = DERLimits(maximumDepth: 32, maximumElementLength: 64 * 1024)

    /// The certificate's DER, as given to the initializer. Every range indexes it.
    public let derEncoded: [UInt8]
    /// The absolute range of the `tbsCertificate` SEQUENCE (its whole TLV): the bytes
    /// the signature covers.
    public let tbsRange: Range<Int>
    /// The version.
    public let version: Version
    /// The absolute range of the serial number INTEGER's contents (two's complement,
    /// big-endian, minimal).
    public let serialNumberRange: Range<Int>
    /// The signature algorithm (the outer `signatureAlgorithm`, equal to the TBS `signature`).
    public let signatureAlgorithm: SignatureAlgorithm
    /// The absolute range of the outer `signatureAlgorithm` AlgorithmIdentifier TLV.
    public let signatureAlgorithmRange: Range<Int>
    /// The absolute range of the issuer Name (the whole SEQUENCE TLV).
    public let issuerRange: Range<Int>
    /// The validity period.
    public let validity: Validity
    /// The absolute range of the subject Name (the whole SEQUENCE TLV).
    public let subjectRange: Range<Int>
    /// The subject's public key.
    public let publicKeyInfo: SubjectPublicKeyInfo
    /// The `issuerUniqueID` BIT STRING (`[1] IMPLICIT`), if present (v2 and v3 only).
    public let issuerUniqueIdentifier: DERBitString?
    /// The `subjectUniqueID` BIT STRING (`[2] IMPLICIT`), if present (v2 and v3 only).
    public let subjectUniqueIdentifier: DERBitString?
    /// The extensions in certificate order, undecoded; empty when the field is absent.
    ///
    /// A view over ``derEncoded`` and what the parse recorded of each extension (no
    /// list is kept: parsing allocates nothing for it); `Array(extensions)` copies it.
    public var extensions: CertificateExtensions { CertificateExtensions(bytes: derEncoded, index: extensionIndex) }
    /// Where each extension is and which one it is, as the parse recorded them.
    let extensionIndex: ExtensionIndex
    /// The absolute range of the signature value: the `signatureValue` BIT STRING's
    /// contents after its unused-bits octet.
    public let signatureRange: Range<Int>

    /// Parses a DER certificate.
    ///
    /// - Parameters:
    ///   - bytes: The DER of exactly one certificate, with nothing after it.
    ///   - limits: DER limits; ``defaultLimits`` by default.
    /// - Throws: ``X509Error`` with the absolute offset of the offending element:
    ///   ``X509Error/Reason/der(_:)`` for DER violations (`DERError.Reason.trailingData`
    ///   when bytes follow the certificate), ``X509Error/Reason/invalidVersion``,
    ///   ``X509Error/Reason/signatureAlgorithmMismatch``,
    ///   ``X509Error/Reason/duplicateExtension(_:)``, ``X509Error/Reason/emptyExtensions``,
    ///   ``X509Error/Reason/tooManyExtensions``, ``X509Error/Reason/invalidSignatureValue``,
    ///   or the errors of ``SignatureAlgorithm`` and ``SubjectPublicKeyInfo``.
    public init(derEncoded bytes: [UInt8], limits: DERLimits = Certificate.defaultLimits) throws(X509Error) {
        // The extension index keeps 32-bit offsets (ExtensionIndex.swift).
        guard UInt32(exactly: bytes.count) != nil else { throw X509Error(.der(.elementTooLarge), at: 0) }
        var raw = RawCertificate()
        do {
            try DER.read(bytes, limits: limits) { (reader) throws(DERError) in
                try reader.readCertificate(into: &raw)
            }
        } catch {
            throw X509Error(error)
        }

        // Version rules (RFC 5280 §4.1.2.1, §4.1.2.8, §4.1.2.9).
        let version: Version
        switch raw.version {
        case nil: version = .v1
        case 0?: throw X509Error(.der(.defaultValueEncoded), at: raw.versionOffset)
        case 1?: version = .v2
        case 2?: version = .v3
        default: throw X509Error(.invalidVersion, at: raw.versionOffset)
        }
        if version == .v1, raw.issuerUniqueIdentifier != nil || raw.subjectUniqueIdentifier != nil {
            throw X509Error(.invalidVersion, at: raw.uniqueIdentifierOffset)
        }
        if let extensionsOffset = raw.extensionsOffset {
            guard version == .v3 else { throw X509Error(.invalidVersion, at: extensionsOffset) }
            guard raw.extensionIndex.count > 0 else { throw X509Error(.emptyExtensions, at: extensionsOffset) }
            if let tooManyOffset = raw.tooManyExtensionsOffset {
                throw X509Error(.tooManyExtensions, at: tooManyOffset)
            }
            // The first extension whose identifier came before (at most
            // maximumExtensionCount are recorded).
            if let later = raw.extensionIndex.firstDuplicate(in: bytes) {
                let item = raw.extensionIndex.element(later, in: bytes)
                throw X509Error(.duplicateExtension(item.oid), at: item.offset)
            }
        }

        // RFC 5280 §4.1.1.2: signatureAlgorithm "MUST contain the same algorithm
        // identifier as the signature field in the sequence tbsCertificate".
        let inner = raw.innerSignatureAlgorithmRange
        let outer = raw.signatureAlgorithm.range
        let sameAlgorithm = inner.count == outer.count && bytes[inner].elementsEqual(bytes[outer])
        guard sameAlgorithm else { throw X509Error(.signatureAlgorithmMismatch, at: outer.lowerBound) }
        let signatureAlgorithm = try SignatureAlgorithm(raw.signatureAlgorithm, in: bytes)

        let publicKeyInfo = try SubjectPublicKeyInfo(raw.publicKeyInfo, in: bytes, limits: limits)

        guard raw.signature.unusedBitCount == 0 else {
            throw X509Error(.invalidSignatureValue, at: raw.signatureOffset)
        }

        // The DER pass either read both times or threw.
        guard let notBefore = raw.notBefore, let notAfter = raw.notAfter else {
            preconditionFailure("validity read without both times")
        }

        self.derEncoded = bytes
        self.tbsRange = raw.tbsRange
        self.version = version
        self.serialNumberRange = raw.serialNumberRange
        self.signatureAlgorithm = signatureAlgorithm
        self.signatureAlgorithmRange = outer
        self.issuerRange = raw.issuerRange
        self.validity = Validity(notBefore: notBefore, notAfter: notAfter)
        self.subjectRange = raw.subjectRange
        self.publicKeyInfo = publicKeyInfo
        self.issuerUniqueIdentifier = raw.issuerUniqueIdentifier
        self.subjectUniqueIdentifier = raw.subjectUniqueIdentifier
        self.extensionIndex = raw.extensionIndex
        self.signatureRange = raw.signature.bytesRange
    }

    // MARK: Raw bytes

    /// The DER of the `tbsCertificate`: the bytes the issuer signed.
    public var tbsBytes: ArraySlice<UInt8> { derEncoded[tbsRange] }
    /// The DER of the issuer Name (whole SEQUENCE).
    public var issuerBytes: ArraySlice<UInt8> { derEncoded[issuerRange] }
    /// The DER of the subject Name (whole SEQUENCE).
    public var subjectBytes: ArraySlice<UInt8> { derEncoded[subjectRange] }
    /// The DER of the SubjectPublicKeyInfo: what the SPKI pin hashes.
    public var spkiBytes: ArraySlice<UInt8> {
        // The key shares this certificate's buffer (its ranges index `derEncoded`); read
        // through it, the getter copied the whole key value (issue 35: 8 a verdict).
        derEncoded[publicKeyInfo.range]
    }
    /// The absolute range of the SubjectPublicKeyInfo SEQUENCE (whole TLV).
    public var spkiRange: Range<Int> { publicKeyInfo.range }
    /// The signature value octets.
    public var signatureBytes: ArraySlice<UInt8> { derEncoded[signatureRange] }

    // MARK: Serial number

    /// The serial number's contents octets: a big-endian two's-complement integer,
    /// minimally encoded (a positive value whose top bit is set has a leading 0x00).
    public var serialNumber: ArraySlice<UInt8> { derEncoded[serialNumberRange] }

    /// The serial number's magnitude without the 0x00 sign octet, as most tools print
    /// it (for a negative serial: its two's-complement octets unchanged).
    public var serialNumberMagnitude: ArraySlice<UInt8> {
        let serial = serialNumber
        if serial.count > 1, serial.first == 0 { return serial.dropFirst() }
        return serial
    }

    /// Whether the serial number is negative, which RFC 5280 §4.1.2.2 forbids ("MUST be
    /// a positive integer") but asks users to handle gracefully.
    public var isSerialNumberNegative: Bool { (serialNumber.first ?? 0) & 0x80 != 0 }

    /// Whether the serial number is zero, which RFC 5280 §4.1.2.2 forbids.
    public var isSerialNumberZero: Bool { serialNumber.count == 1 && serialNumber.first == 0 }

    /// Whether the serial number's value needs more than 20 octets, beyond RFC 5280
    /// §4.1.2.2's "MUST NOT use serialNumber values longer than 20 octets". The
    /// 0x00 sign octet of a positive value does not count (so 21 contents octets with
    /// a leading 0x00 are fine); for a negative value every octet counts.
    public var isSerialNumberTooLong: Bool { serialNumberMagnitude.count > 20 }

    // MARK: Deliberate encoding leniencies

    /// Whether the ECDSA signature algorithm carries NULL parameters (`05 00`), which
    /// RFC 5758 §3.2 forbids ("the encoding MUST omit the parameters field") but Java's
    /// `keytool` (JDK 11, earlier JDK 17 updates) writes, and OpenSSL, Go and
    /// pyca/cryptography accept. Parsing accepts exactly this form (any other
    /// parameters are an error); this flag lets a linter report it. `false` for every
    /// other algorithm.
    public var hasNullECDSASignatureParameters: Bool {
        guard case .ecdsa = signatureAlgorithm else { return false }
        // Parsing admitted no parameters or exactly NULL, and an ECDSA OID never ends
        // in 05 00, so the identifier's last two octets tell the two apart.
        return derEncoded[signatureAlgorithmRange].suffix(2).elementsEqual([0x05, 0x00])
    }

    /// Whether an extension encodes `critical` as BOOLEAN FALSE, its DEFAULT, which DER
    /// omits (X.690 §11.5) but RFC 8410's own sample certificate (§10.2) encodes.
    /// Parsing accepts exactly `01 01 00` there (other BOOLEAN contents are an error)
    /// and treats it as non-critical; this flag lets a linter report it.
    public var hasEncodedDefaultCriticalFlag: Bool {
        extensions.contains { (item) in
            guard !item.isCritical else { return false }
            // The extension's SEQUENCE ends with its value: extnID, then either the
            // encoded BOOLEAN or directly the OCTET STRING.
            let next = try? DER.read(derEncoded, range: item.offset..<item.valueRange.upperBound) {
                (reader) throws(DERError) -> DERTag? in
                try reader.readSequence { (fields) throws(DERError) -> DERTag? in
                    _ = try fields.readElement()
                    let tag = try fields.peekTag()
                    while !fields.isAtEnd { _ = try fields.readElement() }
                    return tag
                }
            }
            return next == .boolean
        }
    }

    // MARK: Equality

    /// Two certificates are equal when their DER encodings are equal.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes the DER encoding's length and its last 32 octets.
    ///
    /// Equality compares the whole encoding; the hash needs only to spread distinct
    /// certificates, and a certificate's last octets are its signature's, which
    /// differ between any two certificates an issuer signs. TackTrust looks
    /// certificates up by value several times per evaluation (anchor store,
    /// duplicate check), and hashing every octet was 3% of `e2e-rsa2048`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derEncoded.count)
        derEncoded.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(32))) }
    }
}

// MARK: - The DER pass

/// Everything the DER pass collects, before the semantic checks.
internal struct RawCertificate {
    var tbsRange: Range<Int> = 0..<0
    var version: Int?
    var versionOffset = 0
    var serialNumberRange: Range<Int> = 0..<0
    var innerSignatureAlgorithmRange: Range<Int> = 0..<0
    var issuerRange: Range<Int> = 0..<0
    var notBefore: DERTime?
    var notAfter: DERTime?
    var subjectRange: Range<Int> = 0..<0
    var publicKeyInfo = RawSubjectPublicKeyInfo(
        range: 0..<0,
        algorithm: RawAlgorithmIdentifier(oid: AlgorithmOID.rsaEncryption, parameters: nil, range: 0..<0),
        key: DERBitString(bytesRange: 0..<0, unusedBitCount: 0), keyOffset: 0)
    var issuerUniqueIdentifier: DERBitString?
    var subjectUniqueIdentifier: DERBitString?
    var uniqueIdentifierOffset = 0
    var extensionsOffset: Int?
    var extensionIndex = ExtensionIndex()
    var tooManyExtensionsOffset: Int?
    var signatureAlgorithm = RawAlgorithmIdentifier(oid: AlgorithmOID.rsaEncryption, parameters: nil, range: 0..<0)
    var signature = DERBitString(bytesRange: 0..<0, unusedBitCount: 0)
    var signatureOffset = 0
}

extension DERReader {
    /// Reads the Certificate SEQUENCE, collecting ranges and raw values.
    internal mutating func readCertificate(into raw: inout RawCertificate) throws(DERError) {
        try readSequence { (certificate) throws(DERError) in
            let tbsStart = certificate.offset
            try certificate.readSequence { (tbs) throws(DERError) in
                try tbs.readTBSCertificate(into: &raw)
            }
            raw.tbsRange = tbsStart..<certificate.offset
            raw.signatureAlgorithm = try certificate.readAlgorithmIdentifier()
            raw.signatureOffset = certificate.offset
            raw.signature = try certificate.readBitString()
        }
    }

    /// Reads the contents of the TBSCertificate SEQUENCE.
    internal mutating func readTBSCertificate(into raw: inout RawCertificate) throws(DERError) {
        raw.versionOffset = offset
        raw.version = try readOptionalExplicit(0) { (tagged) throws(DERError) in try tagged.readInteger(Int.self) }
        raw.serialNumberRange = try readIntegerElement().contentRange
        // Only the outer signatureAlgorithm is decoded: this one must equal it byte for
        // byte (checked after the pass), which makes it a valid AlgorithmIdentifier too.
        raw.innerSignatureAlgorithmRange = try readElement(.sequence).encodedRange
        raw.issuerRange = try readElement(.sequence).encodedRange
        try readSequence { (validity) throws(DERError) in
            raw.notBefore = try validity.readTime()
            raw.notAfter = try validity.readTime()
        }
        raw.subjectRange = try readElement(.sequence).encodedRange
        raw.publicKeyInfo = try readSubjectPublicKeyInfo()
        raw.uniqueIdentifierOffset = offset
        // One look at the next tag skips both unique identifiers in the usual case
        // where neither is present.
        if let next = try peekTag(), next.tagClass == .contextSpecific, !next.isConstructed,
           next.number == 1 || next.number == 2 {
            raw.issuerUniqueIdentifier = try readOptionalBitString(tag: .contextSpecific(1, isConstructed: false))
            raw.subjectUniqueIdentifier = try readOptionalBitString(tag: .contextSpecific(2, isConstructed: false))
        }
        let extensionsOffset = offset
        let maximum = Certificate.maximumExtensionCount
        let present: Void? = try readOptionalExplicit(3) { (tagged) throws(DERError) in
            try tagged.readCollection(.sequence) { (list) throws(DERError) in
                let extensionOffset = list.offset
                let (kind, isCritical, valueRange) = try list.readSequence {
                    (item) throws(DERError) -> (KnownExtension?, Bool, Range<Int>) in
                    let kind = KnownExtension(try item.readObjectIdentifier())
                    let (isCritical, valueRange) = try item.readCriticalAndValue()
                    return (kind, isCritical, valueRange)
                }
                if raw.extensionIndex.count < maximum {
                    raw.extensionIndex.append(kind: kind, isCritical: isCritical, offset: extensionOffset, valueRange: valueRange)
                } else if raw.tooManyExtensionsOffset == nil {
                    raw.tooManyExtensionsOffset = extensionOffset
                }
            }
        }
        if present != nil { raw.extensionsOffset = extensionsOffset }
    }

    /// Reads `critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING` (RFC 5280 §4.1).
    /// The BOOLEAN is one octet, 0xFF or 0x00 (other contents are not a DER
    /// BOOLEAN, X.690 §11.1), and the value is a primitive OCTET STRING.
    ///
    /// An encoded FALSE equals the DEFAULT, which DER omits (X.690 §11.5); it is
    /// accepted all the same, as a deliberate leniency (README, "Strictness and the
    /// deliberate leniencies"): RFC 8410's own sample certificate (§10.2) encodes it.
    /// ``Certificate/hasEncodedDefaultCriticalFlag`` tells such a certificate apart.
    ///
    /// This is TackDER's general reader: a hand-coded read that parsed the
    /// OCTET STRING's header once instead of twice saved 249 instructions per
    /// certificate of 12,813 (1.9%, Benchmarks/count-instructions.sh x509-parse),
    /// under the 2% that would justify a second way to read the field (issue 13).
    internal mutating func readCriticalAndValue() throws(DERError) -> (Bool, Range<Int>) {
        let isCritical = try readOptionalBoolean() ?? false
        return (isCritical, try readOctetString())
    }

    /// Reads a BIT STRING with `tag` if one comes next.
    internal mutating func readOptionalBitString(tag: DERTag) throws(DERError) -> DERBitString? {
        guard try peekTag() == tag else { return nil }
        return try readBitString(tag: tag)
    }
}

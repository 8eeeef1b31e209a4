public import TackDER

extension Certificate {
    /// The subject name, decoded and checked from ``subjectRange``.
    ///
    /// Decoding walks the name once without allocating; the result refers to the
    /// certificate's bytes. Its ``DistinguishedName/rfc4514String`` is the usual
    /// display form.
    ///
    /// - Throws: ``X509Error`` as ``DistinguishedName/init(derEncoded:range:)``.
    public var subject: DistinguishedName {
        get throws(X509Error) { try DistinguishedName(derEncoded: derEncoded, range: subjectRange) }
    }

    /// The issuer name, decoded and checked from ``issuerRange``.
    ///
    /// - Throws: ``X509Error`` as ``DistinguishedName/init(derEncoded:range:)``.
    public var issuer: DistinguishedName {
        get throws(X509Error) { try DistinguishedName(derEncoded: derEncoded, range: issuerRange) }
    }

    /// The raw extension with identifier `oid`, or `nil` if the certificate does
    /// not carry it (extensions are unique, RFC 5280 §4.2).
    ///
    /// - Parameter oid: The extension's identifier.
    /// - Returns: The undecoded extension.
    public func rawExtension(for oid: OID) -> Extension? {
        for candidate in extensions where candidate.oid == oid { return candidate }
        return nil
    }

    /// Decodes the extension `oid` with `decode`, or returns `nil` when absent.
    private func decodeExtension<T>(
        _ oid: OID, _ decode: ([UInt8], Range<Int>) throws(X509Error) -> T
    ) throws(X509Error) -> T? {
        guard let raw = rawExtension(for: oid) else { return nil }
        return try decode(derEncoded, raw.valueRange)
    }

    /// The basic constraints extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var basicConstraints: BasicConstraints? {
        get throws(X509Error) { try decodeExtension(BasicConstraints.oid) { (b, r) throws(X509Error) in try BasicConstraints(derEncoded: b, valueRange: r) } }
    }

    /// The key usage extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var keyUsage: KeyUsage? {
        get throws(X509Error) { try decodeExtension(KeyUsage.oid) { (b, r) throws(X509Error) in try KeyUsage(derEncoded: b, valueRange: r) } }
    }

    /// The extended key usage extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var extendedKeyUsage: ExtendedKeyUsage? {
        get throws(X509Error) {
            try decodeExtension(ExtendedKeyUsage.oid) { (b, r) throws(X509Error) in try ExtendedKeyUsage(derEncoded: b, valueRange: r) }
        }
    }

    /// The subject alternative name extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var subjectAlternativeNames: SubjectAlternativeNames? {
        get throws(X509Error) {
            try decodeExtension(SubjectAlternativeNames.oid) { (b, r) throws(X509Error) in
                try SubjectAlternativeNames(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The issuer alternative name extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var issuerAlternativeNames: IssuerAlternativeNames? {
        get throws(X509Error) {
            try decodeExtension(IssuerAlternativeNames.oid) { (b, r) throws(X509Error) in
                try IssuerAlternativeNames(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The name constraints extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var nameConstraints: NameConstraints? {
        get throws(X509Error) { try decodeExtension(NameConstraints.oid) { (b, r) throws(X509Error) in try NameConstraints(derEncoded: b, valueRange: r) } }
    }

    /// The authority key identifier extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        get throws(X509Error) {
            try decodeExtension(AuthorityKeyIdentifier.oid) { (b, r) throws(X509Error) in
                try AuthorityKeyIdentifier(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The subject key identifier extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var subjectKeyIdentifier: SubjectKeyIdentifier? {
        get throws(X509Error) {
            try decodeExtension(SubjectKeyIdentifier.oid) { (b, r) throws(X509Error) in try SubjectKeyIdentifier(derEncoded: b, valueRange: r) }
        }
    }

    /// The certificate policies extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var certificatePolicies: CertificatePolicies? {
        get throws(X509Error) {
            try decodeExtension(CertificatePolicies.oid) { (b, r) throws(X509Error) in try CertificatePolicies(derEncoded: b, valueRange: r) }
        }
    }

    /// The policy mappings extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var policyMappings: PolicyMappings? {
        get throws(X509Error) { try decodeExtension(PolicyMappings.oid) { (b, r) throws(X509Error) in try PolicyMappings(derEncoded: b, valueRange: r) } }
    }

    /// The policy constraints extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var policyConstraints: PolicyConstraints? {
        get throws(X509Error) {
            try decodeExtension(PolicyConstraints.oid) { (b, r) throws(X509Error) in try PolicyConstraints(derEncoded: b, valueRange: r) }
        }
    }

    /// The inhibit anyPolicy extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var inhibitAnyPolicy: InhibitAnyPolicy? {
        get throws(X509Error) {
            try decodeExtension(InhibitAnyPolicy.oid) { (b, r) throws(X509Error) in try InhibitAnyPolicy(derEncoded: b, valueRange: r) }
        }
    }

    /// The CRL distribution points extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var crlDistributionPoints: CRLDistributionPoints? {
        get throws(X509Error) {
            try decodeExtension(CRLDistributionPoints.oid) { (b, r) throws(X509Error) in try CRLDistributionPoints(derEncoded: b, valueRange: r) }
        }
    }

    /// The authority information access extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var authorityInformationAccess: AuthorityInformationAccess? {
        get throws(X509Error) {
            try decodeExtension(AuthorityInformationAccess.oid) { (b, r) throws(X509Error) in
                try AuthorityInformationAccess(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The embedded SCT list extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var signedCertificateTimestamps: SignedCertificateTimestampList? {
        get throws(X509Error) {
            try decodeExtension(SignedCertificateTimestampList.oid) { (b, r) throws(X509Error) in
                try SignedCertificateTimestampList(derEncoded: b, valueRange: r)
            }
        }
    }

    /// Decodes every extension Tack knows, in one pass over ``extensions``.
    ///
    /// Each known extension is decoded and checked (collections are checked now
    /// and decoded element by element when iterated); the others are listed in
    /// ``DecodedExtensions/unrecognized`` with their critical flag, for path
    /// validation to refuse unknown critical ones (RFC 5280 §4.2).
    ///
    /// - Returns: The typed extensions.
    /// - Throws: The first ``X509Error`` of a malformed known extension, with its
    ///   offset in ``derEncoded``.
    public func decodeAllExtensions() throws(X509Error) -> DecodedExtensions {
        var decoded = DecodedExtensions()
        try decoded.decode(derEncoded, extensions: extensions)
        return decoded
    }
}

/// Which extension an identifier names, for ``DecodedExtensions``'s dispatch.
private enum KnownExtension {
    case subjectKeyIdentifier, authorityKeyIdentifier, basicConstraints, keyUsage, extendedKeyUsage
    case subjectAlternativeNames, issuerAlternativeNames, certificatePolicies, crlDistributionPoints
    case nameConstraints, policyMappings, policyConstraints, inhibitAnyPolicy
    case authorityInformationAccess, signedCertificateTimestamps

    /// The extension `oid` names, or `nil` if Tack does not decode it.
    ///
    /// The id-ce extensions (2.5.29.n, contents `55 1D n`) are told apart by their
    /// last octet; the two others are compared octet by octet, which avoids
    /// building or comparing whole ``OID`` values.
    @inline(__always)
    init?(_ oid: borrowing OID) {
        let known = oid.withContents { (contents) -> KnownExtension? in
            if contents.count == 3 {
                guard contents[0] == 0x55, contents[1] == 0x1D else { return nil }
                switch contents[2] {
                case 14: return .subjectKeyIdentifier
                case 35: return .authorityKeyIdentifier
                case 19: return .basicConstraints
                case 15: return .keyUsage
                case 37: return .extendedKeyUsage
                case 17: return .subjectAlternativeNames
                case 18: return .issuerAlternativeNames
                case 32: return .certificatePolicies
                case 31: return .crlDistributionPoints
                case 30: return .nameConstraints
                case 33: return .policyMappings
                case 36: return .policyConstraints
                case 54: return .inhibitAnyPolicy
                default: return nil
                }
            }
            // id-pe-authorityInfoAccess, 1.3.6.1.5.5.7.1.1: 2B 06 01 05 05 07 01 01.
            if contents.count == 8, contents[0] == 0x2B, contents[1] == 0x06, contents[2] == 0x01, contents[3] == 0x05,
               contents[4] == 0x05, contents[5] == 0x07, contents[6] == 0x01, contents[7] == 0x01 {
                return .authorityInformationAccess
            }
            // The embedded SCT list, 1.3.6.1.4.1.11129.2.4.2: 2B 06 01 04 01 D6 79 02 04 02.
            if contents.count == 10, contents[0] == 0x2B, contents[1] == 0x06, contents[2] == 0x01, contents[3] == 0x04,
               contents[4] == 0x01, contents[5] == 0xD6, contents[6] == 0x79, contents[7] == 0x02, contents[8] == 0x04,
               contents[9] == 0x02 {
                return .signedCertificateTimestamps
            }
            return nil
        }
        guard let known else { return nil }
        self = known
    }
}

/// Every extension of a certificate, typed; see ``Certificate/decodeAllExtensions()``.
///
/// A field is `nil` when the certificate does not carry that extension.
///
/// Equality and hashing are those of the fields. Internally the value keeps the
/// certificate's bytes once and, for each extension that refers to them, only the
/// checked ranges, building the typed value when the property is read (a few
/// stores, no parsing). The extensions that few certificates carry (issuer
/// alternative names, name constraints and the three policy-mapping controls),
/// and any value assigned through a setter, live in a box allocated only when
/// needed. This keeps the common value free of per-extension references: cheap
/// to return and to destroy.
public struct DecodedExtensions: Sendable, Hashable {
    /// Basic constraints (2.5.29.19).
    public var basicConstraints: BasicConstraints?
    /// Key usage (2.5.29.15).
    public var keyUsage: KeyUsage?
    /// Extended key usage (2.5.29.37).
    public var extendedKeyUsage: ExtendedKeyUsage? {
        get { parts.extendedKeyUsage.map { ExtendedKeyUsage(storage: storage, list: $0) } ?? boxed.first?.extendedKeyUsage }
        set { parts.extendedKeyUsage = nil; updateBoxed(isClearing: newValue == nil) { $0.extendedKeyUsage = newValue } }
    }
    /// Subject alternative names (2.5.29.17).
    public var subjectAlternativeNames: SubjectAlternativeNames? {
        get {
            parts.subjectAlternativeNames.map { SubjectAlternativeNames(storage: storage, parts: $0) }
                ?? boxed.first?.subjectAlternativeNames
        }
        set { parts.subjectAlternativeNames = nil; updateBoxed(isClearing: newValue == nil) { $0.subjectAlternativeNames = newValue } }
    }
    /// Issuer alternative names (2.5.29.18).
    public var issuerAlternativeNames: IssuerAlternativeNames? {
        get { boxed.first?.issuerAlternativeNames }
        set { updateBoxed(isClearing: newValue == nil) { $0.issuerAlternativeNames = newValue } }
    }
    /// Name constraints (2.5.29.30).
    public var nameConstraints: NameConstraints? {
        get { boxed.first?.nameConstraints }
        set { updateBoxed(isClearing: newValue == nil) { $0.nameConstraints = newValue } }
    }
    /// Authority key identifier (2.5.29.35).
    public var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        get {
            parts.authorityKeyIdentifier.map { AuthorityKeyIdentifier(storage: storage, parts: $0) }
                ?? boxed.first?.authorityKeyIdentifier
        }
        set { parts.authorityKeyIdentifier = nil; updateBoxed(isClearing: newValue == nil) { $0.authorityKeyIdentifier = newValue } }
    }
    /// Subject key identifier (2.5.29.14).
    public var subjectKeyIdentifier: SubjectKeyIdentifier? {
        get {
            parts.subjectKeyIdentifier.map { SubjectKeyIdentifier(storage: storage, keyIdentifierRange: $0) }
                ?? boxed.first?.subjectKeyIdentifier
        }
        set { parts.subjectKeyIdentifier = nil; updateBoxed(isClearing: newValue == nil) { $0.subjectKeyIdentifier = newValue } }
    }
    /// Certificate policies (2.5.29.32).
    public var certificatePolicies: CertificatePolicies? {
        get { parts.certificatePolicies.map { CertificatePolicies(storage: storage, list: $0) } ?? boxed.first?.certificatePolicies }
        set { parts.certificatePolicies = nil; updateBoxed(isClearing: newValue == nil) { $0.certificatePolicies = newValue } }
    }
    /// Policy mappings (2.5.29.33).
    public var policyMappings: PolicyMappings? {
        get { boxed.first?.policyMappings }
        set { updateBoxed(isClearing: newValue == nil) { $0.policyMappings = newValue } }
    }
    /// Policy constraints (2.5.29.36).
    public var policyConstraints: PolicyConstraints? {
        get { boxed.first?.policyConstraints }
        set { updateBoxed(isClearing: newValue == nil) { $0.policyConstraints = newValue } }
    }
    /// Inhibit anyPolicy (2.5.29.54).
    public var inhibitAnyPolicy: InhibitAnyPolicy? {
        get { boxed.first?.inhibitAnyPolicy }
        set { updateBoxed(isClearing: newValue == nil) { $0.inhibitAnyPolicy = newValue } }
    }
    /// CRL distribution points (2.5.29.31).
    public var crlDistributionPoints: CRLDistributionPoints? {
        get {
            parts.crlDistributionPoints.map { CRLDistributionPoints(storage: storage, list: $0) } ?? boxed.first?.crlDistributionPoints
        }
        set { parts.crlDistributionPoints = nil; updateBoxed(isClearing: newValue == nil) { $0.crlDistributionPoints = newValue } }
    }
    /// Authority information access (1.3.6.1.5.5.7.1.1).
    public var authorityInformationAccess: AuthorityInformationAccess? {
        get {
            parts.authorityInformationAccess.map { AuthorityInformationAccess(storage: storage, list: $0) }
                ?? boxed.first?.authorityInformationAccess
        }
        set {
            parts.authorityInformationAccess = nil
            updateBoxed(isClearing: newValue == nil) { $0.authorityInformationAccess = newValue }
        }
    }
    /// The embedded SCT list (1.3.6.1.4.1.11129.2.4.2).
    public var signedCertificateTimestamps: SignedCertificateTimestampList? {
        get {
            parts.signedCertificateTimestamps.map { SignedCertificateTimestampList(storage: storage, list: $0) }
                ?? boxed.first?.signedCertificateTimestamps
        }
        set {
            parts.signedCertificateTimestamps = nil
            updateBoxed(isClearing: newValue == nil) { $0.signedCertificateTimestamps = newValue }
        }
    }
    /// The extensions Tack does not decode, in certificate order, with their
    /// critical flags.
    public var unrecognized: [Extension] = []

    /// The certificate's bytes, which `parts` index.
    private var storage: [UInt8] = []
    /// The decoded extensions that refer to `storage`, as checked ranges.
    private var parts = Parts()
    /// The seldom-seen extensions and assigned values: empty (no allocation) or one box.
    private var boxed: [Boxed] = []

    /// Checked ranges of the extensions that refer to the certificate's bytes.
    private struct Parts: Sendable {
        var subjectKeyIdentifier: Range<Int>?
        var authorityKeyIdentifier: AuthorityKeyIdentifier.Parts?
        var extendedKeyUsage: CheckedList?
        var subjectAlternativeNames: GeneralNames.Parts?
        var certificatePolicies: CheckedList?
        var crlDistributionPoints: CheckedList?
        var authorityInformationAccess: CheckedList?
        var signedCertificateTimestamps: CheckedList?
    }

    /// The seldom-seen extensions, and values assigned through the setters.
    private struct Boxed: Sendable {
        var issuerAlternativeNames: IssuerAlternativeNames?
        var nameConstraints: NameConstraints?
        var policyMappings: PolicyMappings?
        var policyConstraints: PolicyConstraints?
        var inhibitAnyPolicy: InhibitAnyPolicy?
        var subjectKeyIdentifier: SubjectKeyIdentifier?
        var authorityKeyIdentifier: AuthorityKeyIdentifier?
        var extendedKeyUsage: ExtendedKeyUsage?
        var subjectAlternativeNames: SubjectAlternativeNames?
        var certificatePolicies: CertificatePolicies?
        var crlDistributionPoints: CRLDistributionPoints?
        var authorityInformationAccess: AuthorityInformationAccess?
        var signedCertificateTimestamps: SignedCertificateTimestampList?
    }

    /// Applies `change` to the box, creating it first unless the change only
    /// clears a field of a box that does not exist.
    private mutating func updateBoxed(isClearing: Bool, _ change: (inout Boxed) -> Void) {
        if boxed.isEmpty {
            if isClearing { return }
            boxed.append(Boxed())
        }
        change(&boxed[0])
    }

    /// Creates an empty set of extensions.
    public init() {}

    /// Equal when every field is equal.
    public static func == (lhs: DecodedExtensions, rhs: DecodedExtensions) -> Bool {
        lhs.basicConstraints == rhs.basicConstraints && lhs.keyUsage == rhs.keyUsage
            && lhs.extendedKeyUsage == rhs.extendedKeyUsage && lhs.subjectAlternativeNames == rhs.subjectAlternativeNames
            && lhs.issuerAlternativeNames == rhs.issuerAlternativeNames && lhs.nameConstraints == rhs.nameConstraints
            && lhs.authorityKeyIdentifier == rhs.authorityKeyIdentifier && lhs.subjectKeyIdentifier == rhs.subjectKeyIdentifier
            && lhs.certificatePolicies == rhs.certificatePolicies && lhs.policyMappings == rhs.policyMappings
            && lhs.policyConstraints == rhs.policyConstraints && lhs.inhibitAnyPolicy == rhs.inhibitAnyPolicy
            && lhs.crlDistributionPoints == rhs.crlDistributionPoints
            && lhs.authorityInformationAccess == rhs.authorityInformationAccess
            && lhs.signedCertificateTimestamps == rhs.signedCertificateTimestamps && lhs.unrecognized == rhs.unrecognized
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(basicConstraints)
        hasher.combine(keyUsage)
        hasher.combine(extendedKeyUsage)
        hasher.combine(subjectAlternativeNames)
        hasher.combine(issuerAlternativeNames)
        hasher.combine(nameConstraints)
        hasher.combine(authorityKeyIdentifier)
        hasher.combine(subjectKeyIdentifier)
        hasher.combine(certificatePolicies)
        hasher.combine(policyMappings)
        hasher.combine(policyConstraints)
        hasher.combine(inhibitAnyPolicy)
        hasher.combine(crlDistributionPoints)
        hasher.combine(authorityInformationAccess)
        hasher.combine(signedCertificateTimestamps)
        hasher.combine(unrecognized)
    }

    /// Decodes every extension of `extensions`, whose values lie in `bytes`, into
    /// this value, in place (a value this size is not worth copying).
    internal mutating func decode(_ bytes: [UInt8], extensions: [Extension]) throws(X509Error) {
        storage = bytes
        let count = extensions.count
        var index = 0
        while index < count {
            let range = extensions[index].valueRange
            switch KnownExtension(extensions[index].oid) {
            case .subjectKeyIdentifier?: parts.subjectKeyIdentifier = try SubjectKeyIdentifier.check(bytes, valueRange: range)
            case .authorityKeyIdentifier?: parts.authorityKeyIdentifier = try AuthorityKeyIdentifier.check(bytes, valueRange: range)
            case .basicConstraints?: basicConstraints = try BasicConstraints.decode(bytes, valueRange: range)
            case .keyUsage?: keyUsage = try KeyUsage.decode(bytes, valueRange: range)
            case .extendedKeyUsage?: parts.extendedKeyUsage = try ExtendedKeyUsage.check(bytes, valueRange: range)
            case .subjectAlternativeNames?: parts.subjectAlternativeNames = try SubjectAlternativeNames.check(bytes, valueRange: range)
            case .issuerAlternativeNames?: issuerAlternativeNames = try IssuerAlternativeNames(derEncoded: bytes, valueRange: range)
            case .certificatePolicies?: parts.certificatePolicies = try CertificatePolicies.check(bytes, valueRange: range)
            case .crlDistributionPoints?: parts.crlDistributionPoints = try CRLDistributionPoints.check(bytes, valueRange: range)
            case .nameConstraints?: nameConstraints = try NameConstraints(derEncoded: bytes, valueRange: range)
            case .policyMappings?: policyMappings = try PolicyMappings(derEncoded: bytes, valueRange: range)
            case .policyConstraints?: policyConstraints = try PolicyConstraints(derEncoded: bytes, valueRange: range)
            case .inhibitAnyPolicy?: inhibitAnyPolicy = try InhibitAnyPolicy(derEncoded: bytes, valueRange: range)
            case .authorityInformationAccess?:
                parts.authorityInformationAccess = try AuthorityInformationAccess.check(bytes, valueRange: range)
            case .signedCertificateTimestamps?:
                parts.signedCertificateTimestamps = try SignedCertificateTimestampList.check(bytes, valueRange: range)
            case nil: unrecognized.append(extensions[index])
            }
            index += 1
        }
    }

    /// The unrecognized extensions marked critical: a certificate carrying any
    /// must be rejected by path validation (RFC 5280 §4.2).
    public var unrecognizedCritical: [Extension] { unrecognized.filter { $0.isCritical } }
}

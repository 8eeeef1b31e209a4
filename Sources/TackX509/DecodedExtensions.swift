// Every extension of a certificate, typed: what `Certificate.decodeAllExtensions()`
// returns (TypedExtensions.swift), dispatched on the kind the parse recorded
// (`KnownExtension`, ExtensionIndex.swift).

import TackDER

/// Every extension of a certificate, typed; see ``Certificate/decodeAllExtensions()``.
///
/// A field is `nil` when the certificate does not carry that extension. The typed
/// values are checked views over the certificate's bytes (one shared reference to
/// the array, plus ranges), so building this value copies no extension contents.
public struct DecodedExtensions: Sendable, Hashable {
    /// Basic constraints (2.5.29.19).
    public internal(set) var basicConstraints: BasicConstraints?
    /// Key usage (2.5.29.15).
    public internal(set) var keyUsage: KeyUsage?
    /// Extended key usage (2.5.29.37).
    public internal(set) var extendedKeyUsage: ExtendedKeyUsage?
    /// Subject alternative names (2.5.29.17).
    public internal(set) var subjectAlternativeNames: SubjectAlternativeNames?
    /// Issuer alternative names (2.5.29.18).
    public internal(set) var issuerAlternativeNames: IssuerAlternativeNames?
    /// Name constraints (2.5.29.30).
    public internal(set) var nameConstraints: NameConstraints?
    /// Authority key identifier (2.5.29.35).
    public internal(set) var authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// Subject key identifier (2.5.29.14).
    public internal(set) var subjectKeyIdentifier: SubjectKeyIdentifier?
    /// Certificate policies (2.5.29.32).
    public internal(set) var certificatePolicies: CertificatePolicies?
    /// Policy mappings (2.5.29.33).
    public internal(set) var policyMappings: PolicyMappings?
    /// Policy constraints (2.5.29.36).
    public internal(set) var policyConstraints: PolicyConstraints?
    /// Inhibit anyPolicy (2.5.29.54).
    public internal(set) var inhibitAnyPolicy: InhibitAnyPolicy?
    /// CRL distribution points (2.5.29.31).
    public internal(set) var crlDistributionPoints: CRLDistributionPoints?
    /// Authority information access (1.3.6.1.5.5.7.1.1).
    public internal(set) var authorityInformationAccess: AuthorityInformationAccess?
    /// The embedded SCT list (1.3.6.1.4.1.11129.2.4.2).
    public internal(set) var signedCertificateTimestamps: SignedCertificateTimestampList?
    /// The TLS feature extension (1.3.6.1.5.5.7.1.24, RFC 7633).
    public internal(set) var tlsFeature: TLSFeature?
    /// The extensions Tack does not decode, in certificate order, with their
    /// critical flags.
    public internal(set) var unrecognized: [Extension] = []

    /// Creates an empty set of extensions.
    public init() {}

    /// Decodes every extension `index` records, whose values lie in `bytes`, into
    /// this value, in place (a value this size is not worth copying).
    internal mutating func decode(_ bytes: [UInt8], index: ExtensionIndex) throws(X509Error) {
        for position in 0..<index.count {
            let kind = KnownExtension(rawValue: index.entry(position).kind)
            guard let kind else {
                unrecognized.append(index.element(position, in: bytes))
                continue
            }
            let range = index.valueRange(position)
            switch kind {
            case .subjectKeyIdentifier: subjectKeyIdentifier = try SubjectKeyIdentifier(derEncoded: bytes, valueRange: range)
            case .authorityKeyIdentifier: authorityKeyIdentifier = try AuthorityKeyIdentifier(derEncoded: bytes, valueRange: range)
            case .basicConstraints: basicConstraints = try BasicConstraints.decode(bytes, valueRange: range)
            case .keyUsage: keyUsage = try KeyUsage.decode(bytes, valueRange: range)
            case .extendedKeyUsage: extendedKeyUsage = try ExtendedKeyUsage(derEncoded: bytes, valueRange: range)
            case .subjectAlternativeNames: subjectAlternativeNames = try SubjectAlternativeNames(derEncoded: bytes, valueRange: range)
            case .issuerAlternativeNames: issuerAlternativeNames = try IssuerAlternativeNames(derEncoded: bytes, valueRange: range)
            case .certificatePolicies: certificatePolicies = try CertificatePolicies(derEncoded: bytes, valueRange: range)
            case .crlDistributionPoints: crlDistributionPoints = try CRLDistributionPoints(derEncoded: bytes, valueRange: range)
            case .nameConstraints: nameConstraints = try NameConstraints(derEncoded: bytes, valueRange: range)
            case .policyMappings: policyMappings = try PolicyMappings(derEncoded: bytes, valueRange: range)
            case .policyConstraints: policyConstraints = try PolicyConstraints(derEncoded: bytes, valueRange: range)
            case .inhibitAnyPolicy: inhibitAnyPolicy = try InhibitAnyPolicy(derEncoded: bytes, valueRange: range)
            case .authorityInformationAccess:
                authorityInformationAccess = try AuthorityInformationAccess(derEncoded: bytes, valueRange: range)
            case .signedCertificateTimestamps:
                signedCertificateTimestamps = try SignedCertificateTimestampList(derEncoded: bytes, valueRange: range)
            case .tlsFeature: tlsFeature = try TLSFeature(derEncoded: bytes, valueRange: range)
            }
        }
    }

    /// The unrecognized extensions marked critical: a certificate carrying any
    /// must be rejected by path validation (RFC 5280 §4.2).
    public var unrecognizedCritical: [Extension] { unrecognized.filter { $0.isCritical } }
}

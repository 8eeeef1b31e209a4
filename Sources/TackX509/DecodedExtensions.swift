// Every extension of a certificate, typed: what `Certificate.decodeAllExtensions()`
// returns (TypedExtensions.swift), and the one dispatch from an extension's
// identifier to its type.

import TackDER

/// Which extension an identifier names, for ``DecodedExtensions``'s dispatch.
private enum KnownExtension {
    case subjectKeyIdentifier, authorityKeyIdentifier, basicConstraints, keyUsage, extendedKeyUsage
    case subjectAlternativeNames, issuerAlternativeNames, certificatePolicies, crlDistributionPoints
    case nameConstraints, policyMappings, policyConstraints, inhibitAnyPolicy
    case authorityInformationAccess, signedCertificateTimestamps, tlsFeature

    /// The extension `oid` names, or `nil` if Tack does not decode it.
    ///
    /// The id-ce extensions (2.5.29.n, contents `55 1D n`) are told apart by their
    /// last octet; the two others are compared with their types' `oid` constants.
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
            return nil
        }
        if let known {
            self = known
        } else if oid == AuthorityInformationAccess.oid {
            self = .authorityInformationAccess
        } else if oid == SignedCertificateTimestampList.oid {
            self = .signedCertificateTimestamps
        } else if oid == TLSFeature.oid {
            self = .tlsFeature
        } else {
            return nil
        }
    }
}

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

    /// Decodes every extension of `extensions`, whose values lie in `bytes`, into
    /// this value, in place (a value this size is not worth copying).
    internal mutating func decode(_ bytes: [UInt8], extensions: [Extension]) throws(X509Error) {
        for index in extensions.indices {
            let range = extensions[index].valueRange
            switch KnownExtension(extensions[index].oid) {
            case .subjectKeyIdentifier?: subjectKeyIdentifier = try SubjectKeyIdentifier(derEncoded: bytes, valueRange: range)
            case .authorityKeyIdentifier?:
                authorityKeyIdentifier = try AuthorityKeyIdentifier(derEncoded: bytes, valueRange: range)
            case .basicConstraints?: basicConstraints = try BasicConstraints.decode(bytes, valueRange: range)
            case .keyUsage?: keyUsage = try KeyUsage.decode(bytes, valueRange: range)
            case .extendedKeyUsage?: extendedKeyUsage = try ExtendedKeyUsage(derEncoded: bytes, valueRange: range)
            case .subjectAlternativeNames?:
                subjectAlternativeNames = try SubjectAlternativeNames(derEncoded: bytes, valueRange: range)
            case .issuerAlternativeNames?: issuerAlternativeNames = try IssuerAlternativeNames(derEncoded: bytes, valueRange: range)
            case .certificatePolicies?: certificatePolicies = try CertificatePolicies(derEncoded: bytes, valueRange: range)
            case .crlDistributionPoints?: crlDistributionPoints = try CRLDistributionPoints(derEncoded: bytes, valueRange: range)
            case .nameConstraints?: nameConstraints = try NameConstraints(derEncoded: bytes, valueRange: range)
            case .policyMappings?: policyMappings = try PolicyMappings(derEncoded: bytes, valueRange: range)
            case .policyConstraints?: policyConstraints = try PolicyConstraints(derEncoded: bytes, valueRange: range)
            case .inhibitAnyPolicy?: inhibitAnyPolicy = try InhibitAnyPolicy(derEncoded: bytes, valueRange: range)
            case .authorityInformationAccess?:
                authorityInformationAccess = try AuthorityInformationAccess(derEncoded: bytes, valueRange: range)
            case .signedCertificateTimestamps?:
                signedCertificateTimestamps = try SignedCertificateTimestampList(derEncoded: bytes, valueRange: range)
            case .tlsFeature?: tlsFeature = try TLSFeature(derEncoded: bytes, valueRange: range)
            case nil: unrecognized.append(extensions[index])
            }
        }
    }

    /// The unrecognized extensions marked critical: a certificate carrying any
    /// must be rejected by path validation (RFC 5280 §4.2).
    public var unrecognizedCritical: [Extension] { unrecognized.filter { $0.isCritical } }
}

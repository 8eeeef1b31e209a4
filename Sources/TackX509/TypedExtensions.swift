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
        let position = if let kind = KnownExtension(oid) {
            extensionIndex.position(of: kind)
        } else {
            extensionIndex.position(ofUnrecognized: oid, in: derEncoded)
        }
        // The identifier found is `oid`: nothing to read again.
        return position.map { extensionIndex.element($0, identifier: oid) }
    }

    /// Decodes the extension of kind `kind` with `decode`, or returns `nil` when absent.
    private func decodeExtension<T>(
        _ kind: KnownExtension, _ decode: ([UInt8], Range<Int>) throws(X509Error) -> T
    ) throws(X509Error) -> T? {
        guard let position = extensionIndex.position(of: kind) else { return nil }
        return try decode(derEncoded, extensionIndex.valueRange(position))
    }

    /// The basic constraints extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var basicConstraints: BasicConstraints? {
        get throws(X509Error) { try decodeExtension(.basicConstraints) { (b, r) throws(X509Error) in try BasicConstraints(derEncoded: b, valueRange: r) } }
    }

    /// The key usage extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var keyUsage: KeyUsage? {
        get throws(X509Error) { try decodeExtension(.keyUsage) { (b, r) throws(X509Error) in try KeyUsage(derEncoded: b, valueRange: r) } }
    }

    /// The extended key usage extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var extendedKeyUsage: ExtendedKeyUsage? {
        get throws(X509Error) {
            try decodeExtension(.extendedKeyUsage) { (b, r) throws(X509Error) in try ExtendedKeyUsage(derEncoded: b, valueRange: r) }
        }
    }

    /// The subject alternative name extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var subjectAlternativeNames: SubjectAlternativeNames? {
        get throws(X509Error) {
            try decodeExtension(.subjectAlternativeNames) { (b, r) throws(X509Error) in
                try SubjectAlternativeNames(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The issuer alternative name extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var issuerAlternativeNames: IssuerAlternativeNames? {
        get throws(X509Error) {
            try decodeExtension(.issuerAlternativeNames) { (b, r) throws(X509Error) in
                try IssuerAlternativeNames(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The TLS feature extension (RFC 7633), or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var tlsFeature: TLSFeature? {
        get throws(X509Error) { try decodeExtension(.tlsFeature) { (b, r) throws(X509Error) in try TLSFeature(derEncoded: b, valueRange: r) } }
    }

    /// The name constraints extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var nameConstraints: NameConstraints? {
        get throws(X509Error) { try decodeExtension(.nameConstraints) { (b, r) throws(X509Error) in try NameConstraints(derEncoded: b, valueRange: r) } }
    }

    /// The authority key identifier extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var authorityKeyIdentifier: AuthorityKeyIdentifier? {
        get throws(X509Error) {
            try decodeExtension(.authorityKeyIdentifier) { (b, r) throws(X509Error) in
                try AuthorityKeyIdentifier(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The subject key identifier extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var subjectKeyIdentifier: SubjectKeyIdentifier? {
        get throws(X509Error) {
            try decodeExtension(.subjectKeyIdentifier) { (b, r) throws(X509Error) in try SubjectKeyIdentifier(derEncoded: b, valueRange: r) }
        }
    }

    /// The certificate policies extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var certificatePolicies: CertificatePolicies? {
        get throws(X509Error) {
            try decodeExtension(.certificatePolicies) { (b, r) throws(X509Error) in try CertificatePolicies(derEncoded: b, valueRange: r) }
        }
    }

    /// The policy mappings extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var policyMappings: PolicyMappings? {
        get throws(X509Error) { try decodeExtension(.policyMappings) { (b, r) throws(X509Error) in try PolicyMappings(derEncoded: b, valueRange: r) } }
    }

    /// The policy constraints extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var policyConstraints: PolicyConstraints? {
        get throws(X509Error) {
            try decodeExtension(.policyConstraints) { (b, r) throws(X509Error) in try PolicyConstraints(derEncoded: b, valueRange: r) }
        }
    }

    /// The inhibit anyPolicy extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var inhibitAnyPolicy: InhibitAnyPolicy? {
        get throws(X509Error) {
            try decodeExtension(.inhibitAnyPolicy) { (b, r) throws(X509Error) in try InhibitAnyPolicy(derEncoded: b, valueRange: r) }
        }
    }

    /// The CRL distribution points extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var crlDistributionPoints: CRLDistributionPoints? {
        get throws(X509Error) {
            try decodeExtension(.crlDistributionPoints) { (b, r) throws(X509Error) in try CRLDistributionPoints(derEncoded: b, valueRange: r) }
        }
    }

    /// The authority information access extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var authorityInformationAccess: AuthorityInformationAccess? {
        get throws(X509Error) {
            try decodeExtension(.authorityInformationAccess) { (b, r) throws(X509Error) in
                try AuthorityInformationAccess(derEncoded: b, valueRange: r)
            }
        }
    }

    /// The embedded SCT list extension, or `nil` if absent.
    /// - Throws: ``X509Error`` if the extension is present but malformed.
    public var signedCertificateTimestamps: SignedCertificateTimestampList? {
        get throws(X509Error) {
            try decodeExtension(.signedCertificateTimestamps) { (b, r) throws(X509Error) in
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
        try decoded.decode(derEncoded, index: extensionIndex)
        return decoded
    }
}

import TackDER
import TackDigest

/// What an SCT's signature covers (RFC 6962 §3.2, `signed_entry`): the certificate as
/// issued, or the precertificate the log saw before issuance.
public enum CTLogEntry: Sendable, Hashable {
    /// `x509_entry` (type 0): the whole leaf certificate's DER, for SCTs delivered by
    /// TLS or in an OCSP response.
    case x509(certificate: ArraySlice<UInt8>)
    /// `precert_entry` (type 1), for SCTs embedded in the certificate: the SHA-256 of
    /// the issuer's DER SubjectPublicKeyInfo, and the leaf's TBSCertificate without
    /// the SCT list extension (§3.1, see ``Certificate/precertificateTBS()``).
    case precertificate(issuerKeyHash: [UInt8], tbsCertificate: [UInt8])

    /// The number of octets ``append(to:)`` writes.
    var encodedCount: Int {
        switch self {
        case .x509(let certificate): 2 + 3 + certificate.count
        case .precertificate(let hash, let tbs): 2 + hash.count + 3 + tbs.count
        }
    }

    /// Appends `LogEntryType entry_type` and the entry (`ASN.1Cert` or `PreCert`,
    /// each DER with a three-octet length, §3.1).
    func append(to data: inout [UInt8]) {
        func appendCertificate(_ der: some Collection<UInt8>) {
            data.append(UInt8(truncatingIfNeeded: der.count >> 16))
            data.append(UInt8(truncatingIfNeeded: der.count >> 8))
            data.append(UInt8(truncatingIfNeeded: der.count))
            data.append(contentsOf: der)
        }
        switch self {
        case .x509(let certificate):
            data.append(contentsOf: [0, 0])
            appendCertificate(certificate)
        case .precertificate(let hash, let tbs):
            data.append(contentsOf: [0, 1])
            data.append(contentsOf: hash)
            appendCertificate(tbs)
        }
    }
}

extension Certificate {
    /// The X.509 entry of this certificate: what SCTs delivered by TLS or OCSP sign.
    public var x509LogEntry: CTLogEntry { .x509(certificate: derEncoded[...]) }

    /// The precertificate entry of this certificate: what its embedded SCTs sign
    /// (RFC 6962 §3.2).
    ///
    /// - Parameter issuerPublicKeyInfo: The DER SubjectPublicKeyInfo of the
    ///   certificate's issuer (the key that signs the final certificate, §3.1).
    /// - Returns: The entry, with the issuer key hash and the rebuilt TBSCertificate.
    /// - Throws: As ``precertificateTBS()``.
    public func precertificateLogEntry(issuerPublicKeyInfo: ArraySlice<UInt8>) throws(X509Error) -> CTLogEntry {
        .precertificate(issuerKeyHash: Array(SHA256.hash(issuerPublicKeyInfo)), tbsCertificate: try precertificateTBS())
    }

    /// The TBSCertificate without the embedded SCT list extension, as the log saw it
    /// in the precertificate (RFC 6962 §3.2): exactly that extension removed, the
    /// lengths of the extension list, its `[3]` wrapper and the TBS re-encoded, every
    /// other octet as issued. Without another extension the `[3]` field is left out
    /// (RFC 5280 forbids an empty list).
    ///
    /// - Returns: The DER TBSCertificate.
    /// - Throws: ``X509Error`` with a DER reason if the TBS does not re-read (it
    ///   always does for a certificate that parsed).
    public func precertificateTBS() throws(X509Error) -> [UInt8] {
        let bytes = derEncoded
        let sctOID = SignedCertificateTimestampList.oid
        return try readX509(bytes, range: tbsRange) { (reader) throws(DERError) -> [UInt8] in
            var tbs = try reader.enterSequence()
            var writer = DERWriter(capacity: tbsRange.count)
            try writer.writeSequence { (out) throws(DERError) in
                while !tbs.isAtEnd {
                    let element = try tbs.readElement()
                    guard element.tag == .contextSpecific(3, isConstructed: true) else {
                        out.writeEncoded(bytes[element.encodedRange])
                        continue
                    }
                    var wrapper = try tbs.contentsReader(of: element)
                    var list = try wrapper.enterSequence()
                    try wrapper.expectEnd()
                    var kept: [Range<Int>] = []
                    while !list.isAtEnd {
                        let item = try list.readElement(.sequence)
                        var fields = try list.contentsReader(of: item)
                        if try fields.readObjectIdentifier() != sctOID { kept.append(item.encodedRange) }
                    }
                    guard !kept.isEmpty else { continue }
                    out.writeExplicit(3) { (tagged) in
                        tagged.writeSequence { (extensions) in
                            for range in kept { extensions.writeEncoded(bytes[range]) }
                        }
                    }
                }
            }
            return writer.bytes
        }
    }
}

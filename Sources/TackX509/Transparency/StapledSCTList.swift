public import TackDER

extension BasicOCSPResponse {
    /// The OCSP single-response extension carrying an SCT list (RFC 6962 §3.3),
    /// 1.3.6.1.4.1.11129.2.4.5.
    public static let signedCertificateTimestampListOID = OID(1, 3, 6, 1, 4, 1, 11129, 2, 4, 5)

    /// The TLS-encoded SCT list a single response carries, if any: the contents of the
    /// extension's OCTET STRING, a slice of ``derEncoded``, for
    /// ``SignedCertificateTimestampList/decodeEntries(_:)``.
    ///
    /// - Parameter single: One of ``responses``.
    /// - Returns: The list's bytes, or `nil` without the extension.
    /// - Throws: ``X509Error`` with a DER reason when the value is not one OCTET STRING.
    public func signedCertificateTimestampList(of single: OCSPSingleResponse) throws(X509Error) -> ArraySlice<UInt8>? {
        guard let item = single.extensions.first(where: { $0.oid == Self.signedCertificateTimestampListOID }) else { return nil }
        let range = try readX509(derEncoded, range: item.valueRange) { (reader) throws(DERError) -> Range<Int> in
            try reader.readOctetString()
        }
        return derEncoded[range]
    }
}

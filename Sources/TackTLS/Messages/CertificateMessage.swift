import TackX509

// The server's Certificate (RFC 8446 §4.4.2 with the CertificateEntry extensions
// status_request, RFC 8446 §4.4.2.1, and signed_certificate_timestamp, RFC 6962
// §3.3; RFC 5246 §7.4.2) and TLS 1.2's CertificateStatus (RFC 6066 §8).

/// What a Certificate message delivered.
struct ServedCertificates: Sendable {
    var certificates: [[UInt8]] = []
    var ocspResponses: [[UInt8]] = []
    /// The leaf's `SignedCertificateTimestampList`s, each as received (its length included).
    var sctLists: [[UInt8]] = []
    /// The leaf, parsed.
    var leaf: Certificate? = nil

    /// The SCTs of every list, each without its length prefix (the lists' framing was
    /// checked when they were received, ``checkedSCTList(_:)``).
    var individualSCTs: [[UInt8]] {
        var result: [[UInt8]] = []
        for list in sctLists {
            if let entries = try? splitSCTList(list) { result += entries }
        }
        return result
    }

    mutating func parseLeaf() throws(TLSError) {
        guard let first = certificates.first else { throw TLSError(.emptyCertificate) }
        do throws(X509Error) {
            leaf = try Certificate(derEncoded: first)
        } catch {
            throw TLSError(.certificateParse(error))
        }
    }
}

/// The SCTs of a `SignedCertificateTimestampList` (RFC 6962 §3.3:
/// `SerializedSCT sct_list<1..2^16-1>`, each `opaque SerializedSCT<1..2^16-1>`).
func splitSCTList(_ list: [UInt8]) throws(TLSError) -> [[UInt8]] {
    var reader = ByteReader(list, what: "SignedCertificateTimestampList")
    var entries = try reader.readVector(lengthBytes: 2, minimum: 1)
    try reader.expectEnd()
    var result: [[UInt8]] = []
    while !entries.isAtEnd {
        result.append(try entries.readVector(lengthBytes: 2, minimum: 1).readBytesRest())
    }
    return result
}

/// A received SCT list, its framing checked (a malformed list is a decode_error;
/// the SCTs themselves are judged by the CT evaluation, if the caller asks for one).
func checkedSCTList(_ body: ByteReader) throws(TLSError) -> [UInt8] {
    let list = body.readBytesRest()
    _ = try splitSCTList(list)
    return list
}

/// Reads an OCSP `CertificateStatus` (status_type ocsp, then the response).
func readCertificateStatus(_ body: ByteReader) throws(TLSError) -> [UInt8] {
    var reader = ByteReader(body, renamed: "CertificateStatus")
    guard try reader.readUInt8() == 1 else { throw reader.failure("status_type is not ocsp") }
    let response = try reader.readVector(lengthBytes: 3, minimum: 1).readBytesRest()
    try reader.expectEnd()
    return response
}

/// Parses a TLS 1.3 Certificate message body.
///
/// - Parameter offered: The extension types the client offered (status_request and
///   signed_certificate_timestamp are the ones a CertificateEntry may answer).
func readTLS13Certificate(_ body: [UInt8], offered: [UInt16]) throws(TLSError) -> ServedCertificates {
    var reader = ByteReader(body, what: "Certificate")
    let context = try reader.readVector(lengthBytes: 1)
    // RFC 8446 §4.4.2: the server's certificate_request_context is empty in the handshake.
    guard context.isAtEnd else { throw TLSError(.illegalParameter("certificate_request_context not empty")) }
    var list = try reader.readVector(lengthBytes: 3, what: "certificate_list")
    try reader.expectEnd()
    var served = ServedCertificates()
    while !list.isAtEnd {
        let data = try readCertificateEntry(&list, after: served)
        let extensions = try readExtensions(
            &list, offered: offered, allowed: [ExtensionType.statusRequest, ExtensionType.signedCertificateTimestamp])
        let isLeaf = served.certificates.isEmpty
        served.certificates.append(data)
        if let status = extensions.body(ExtensionType.statusRequest) {
            served.ocspResponses.append(try readCertificateStatus(status))
        }
        if let scts = extensions.body(ExtensionType.signedCertificateTimestamp), isLeaf {
            served.sctLists.append(try checkedSCTList(scts))
        }
    }
    try served.parseLeaf()
    return served
}

/// Parses a TLS 1.2 Certificate message body (RFC 5246 §7.4.2).
func readTLS12Certificate(_ body: [UInt8]) throws(TLSError) -> ServedCertificates {
    var reader = ByteReader(body, what: "Certificate")
    var list = try reader.readVector(lengthBytes: 3, what: "certificate_list")
    try reader.expectEnd()
    var served = ServedCertificates()
    while !list.isAtEnd {
        served.certificates.append(try readCertificateEntry(&list, after: served))
    }
    try served.parseLeaf()
    return served
}

/// The next certificate of a certificate_list (RFC 8446 §4.4.2 `cert_data`, RFC 5246
/// §7.4.2 `ASN.1Cert`: `opaque <1..2^24-1>`), refused past
/// ``TLSLimits/maximumCertificateCount`` certificates: the one reading both versions share.
private func readCertificateEntry(_ list: inout ByteReader, after served: ServedCertificates) throws(TLSError) -> [UInt8] {
    guard served.certificates.count < TLSLimits.maximumCertificateCount else {
        throw list.failure("more than " + String(TLSLimits.maximumCertificateCount) + " certificates")
    }
    return try list.readVector(lengthBytes: 3, minimum: 1).readBytesRest()
}

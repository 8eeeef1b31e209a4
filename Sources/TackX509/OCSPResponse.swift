public import TackDER
import TackDigest

/// An OCSP response (RFC 6960 §4.2.1), parsed strictly: what a TLS server staples
/// (RFC 6066 §8, RFC 6961) or a client fetched itself. Tack never fetches.
///
/// ```
/// OCSPResponse ::= SEQUENCE {
///    responseStatus         OCSPResponseStatus,
///    responseBytes          [0] EXPLICIT ResponseBytes OPTIONAL }
/// OCSPResponseStatus ::= ENUMERATED {
///    successful (0), malformedRequest (1), internalError (2), tryLater (3),
///    -- (4) is not used
///    sigRequired (5), unauthorized (6) }
/// ResponseBytes ::= SEQUENCE {
///    responseType   OBJECT IDENTIFIER,
///    response       OCTET STRING }   -- for id-pkix-ocsp-basic: BasicOCSPResponse
/// ```
///
/// A successful response carries a ``BasicOCSPResponse`` (the only type a client
/// must support, §4.2.1; others are refused); an unsuccessful one carries nothing
/// (§2.3), and its status is one of the typed ``Status`` reasons.
///
/// The signature is checked by TackSignature
/// (`BasicOCSPResponse.verifySignature(with:policy:)`); who may sign and whether the
/// response is current are TackTrust's questions.
public struct OCSPResponse: Sendable, Hashable {
    /// The response's DER encoding.
    public let derEncoded: [UInt8]
    /// The response status.
    public let status: Status
    /// The basic response: present exactly when ``status`` is ``Status/successful``.
    public let basicResponse: BasicOCSPResponse?

    /// `id-pkix-ocsp-basic`, 1.3.6.1.5.5.7.48.1.1.
    public static let basicResponseTypeOID = OID(1, 3, 6, 1, 5, 5, 7, 48, 1, 1)
    /// `id-pkix-ocsp-nonce`, 1.3.6.1.5.5.7.48.1.2 (RFC 6960 §4.4.1, RFC 8954).
    public static let nonceOID = OID(1, 3, 6, 1, 5, 5, 7, 48, 1, 2)
    /// `id-pkix-ocsp-nocheck`, 1.3.6.1.5.5.7.48.1.5 (§4.2.2.2.1), an extension of a
    /// delegated responder's certificate.
    public static let noCheckOID = OID(1, 3, 6, 1, 5, 5, 7, 48, 1, 5)

    /// The default DER limits: a response holds a few certificates at most, so 64 KiB
    /// per element as for a certificate, and the same depth.
    public static let defaultLimits = DERLimits(maximumDepth: 32, maximumElementLength: 64 * 1024)

    /// `OCSPResponseStatus` (§4.2.1).
    public enum Status: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The response has valid confirmations.
        case successful = 0
        /// The request did not conform to the OCSP syntax.
        case malformedRequest = 1
        /// The responder reached an inconsistent internal state.
        case internalError = 2
        /// The responder asks to try again later.
        case tryLater = 3
        /// The responder wants the request signed.
        case sigRequired = 5
        /// The client may not query this responder.
        case unauthorized = 6

        /// The name RFC 6960 gives the value.
        public var description: String {
            switch self {
            case .successful: "successful"
            case .malformedRequest: "malformedRequest"
            case .internalError: "internalError"
            case .tryLater: "tryLater"
            case .sigRequired: "sigRequired"
            case .unauthorized: "unauthorized"
            }
        }
    }

    /// Parses a DER OCSPResponse.
    ///
    /// - Parameters:
    ///   - bytes: The DER of exactly one response, with nothing after it.
    ///   - limits: DER limits (``defaultLimits`` by default).
    /// - Throws: ``X509Error`` with the absolute offset of the offending element:
    ///   ``X509Error/Reason/der(_:)``, ``X509Error/Reason/invalidOCSPResponse(_:)``,
    ///   ``X509Error/Reason/invalidVersion``, ``X509Error/Reason/duplicateExtension(_:)``,
    ///   ``X509Error/Reason/emptyExtensions``, ``X509Error/Reason/tooManyExtensions``,
    ///   ``X509Error/Reason/invalidSignatureValue``, and the errors of
    ///   ``SignatureAlgorithm`` and ``DistinguishedName``.
    public init(derEncoded bytes: [UInt8], limits: DERLimits = OCSPResponse.defaultLimits) throws(X509Error) {
        var statusOffset = 0
        var statusValue = 0
        var bytesOffset = 0
        var responseType: OID? = nil
        var responseRange: Range<Int>? = nil
        do {
            try DER.read(bytes, limits: limits) { (reader) throws(DERError) in
                try reader.readSequence { (response) throws(DERError) in
                    statusOffset = response.offset
                    statusValue = try response.readInteger(Int.self, tag: .enumerated)
                    bytesOffset = response.offset
                    _ = try response.readOptionalExplicit(0) { (tagged) throws(DERError) in
                        try tagged.readSequence { (body) throws(DERError) in
                            responseType = try body.readObjectIdentifier()
                            responseRange = try body.readOctetString()
                        }
                    }
                }
            }
        } catch {
            throw X509Error(error)
        }
        guard let status = Status(rawValue: statusValue) else {
            throw X509Error(.invalidOCSPResponse(.unknownResponseStatus(statusValue)), at: statusOffset)
        }
        self.derEncoded = bytes
        self.status = status
        guard status == .successful else {
            guard responseType == nil else { throw X509Error(.invalidOCSPResponse(.unexpectedResponseBytes), at: bytesOffset) }
            basicResponse = nil
            return
        }
        guard let responseType, let responseRange else {
            throw X509Error(.invalidOCSPResponse(.missingResponseBytes), at: bytesOffset)
        }
        guard responseType == OCSPResponse.basicResponseTypeOID else {
            throw X509Error(.invalidOCSPResponse(.unsupportedResponseType(responseType)), at: bytesOffset)
        }
        basicResponse = try BasicOCSPResponse(bytes, range: responseRange, limits: limits)
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: OCSPResponse, rhs: OCSPResponse) -> Bool { lhs.derEncoded == rhs.derEncoded }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded) }
}

/// A `BasicOCSPResponse` (RFC 6960 §4.2.1), its ranges indexing the enclosing
/// ``OCSPResponse``'s DER.
///
/// ```
/// BasicOCSPResponse ::= SEQUENCE {
///    tbsResponseData      ResponseData,
///    signatureAlgorithm   AlgorithmIdentifier,
///    signature            BIT STRING,
///    certs            [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL }
/// ResponseData ::= SEQUENCE {
///    version              [0] EXPLICIT Version DEFAULT v1,
///    responderID              ResponderID,
///    producedAt               GeneralizedTime,
///    responses                SEQUENCE OF SingleResponse,
///    responseExtensions   [1] EXPLICIT Extensions OPTIONAL }
/// ResponderID ::= CHOICE {
///    byName   [1] Name,
///    byKey    [2] KeyHash }          -- EXPLICIT (the module's default tagging)
/// KeyHash ::= OCTET STRING -- SHA-1 hash of responder's public key
/// ```
///
/// Beyond DER: `version` is absent (v1 is the DEFAULT, which DER omits, and the only
/// version); a `byKey` hash is 20 octets; extension lists are non-empty, without
/// duplicates and without critical extensions other than the nonce; at most
/// ``maximumSingleResponseCount`` single responses and ``maximumCertificateCount``
/// certificates.
public struct BasicOCSPResponse: Sendable, Hashable {
    /// The enclosing OCSPResponse's DER, which every range indexes.
    public let derEncoded: [UInt8]
    /// The absolute range of `tbsResponseData`: the bytes the responder signed.
    public let tbsRange: Range<Int>
    /// Who signed.
    public let responderID: ResponderID
    /// When the response was signed.
    public let producedAt: DERTime
    /// The single responses, in encoding order.
    public let responses: [OCSPSingleResponse]
    /// The response extensions.
    public let extensions: [Extension]
    /// The nonce (RFC 8954: the OCTET STRING's contents), when present.
    public let nonce: ArraySlice<UInt8>?
    /// The signature algorithm.
    public let signatureAlgorithm: SignatureAlgorithm
    /// The absolute range of the signature value (after the unused-bits octet).
    public let signatureRange: Range<Int>
    /// The certificates sent to help verify the signature (a delegated responder's).
    public let certificates: [Certificate]

    /// The most single responses accepted: RFC 6961 multi-stapling sends one response
    /// per certificate, and a responder answering one request rarely lists more than a
    /// few; 64 bounds the work of matching a hostile response.
    public static let maximumSingleResponseCount = 64
    /// The most certificates accepted in `certs`: a delegated responder's certificate,
    /// perhaps with its issuer; 8 leaves room and bounds the parsing work.
    public static let maximumCertificateCount = 8

    /// A `ResponderID` (§4.2.2.3).
    public enum ResponderID: Sendable, Hashable {
        /// The responder's subject name: the absolute range of the Name's encoding.
        case byName(Range<Int>)
        /// The SHA-1 hash of the responder's public key (the BIT STRING's value,
        /// without tag, length and unused-bits octet): its absolute range.
        case byKey(Range<Int>)
    }

    /// The DER of `tbsResponseData`: the bytes the responder signed.
    public var tbsBytes: ArraySlice<UInt8> { derEncoded[tbsRange] }
    /// The signature value's octets.
    public var signatureBytes: ArraySlice<UInt8> { derEncoded[signatureRange] }

    /// The responder's name, for a ``ResponderID/byName(_:)`` responder ID.
    ///
    /// - Throws: ``X509Error`` as ``DistinguishedName/init(derEncoded:range:)`` (never,
    ///   for a parsed response: the initializer checked it).
    public var responderName: DistinguishedName? {
        get throws(X509Error) {
            guard case .byName(let range) = responderID else { return nil }
            return try DistinguishedName(derEncoded: derEncoded, range: range)
        }
    }

    /// The responder's key hash, for a ``ResponderID/byKey(_:)`` responder ID.
    public var responderKeyHash: ArraySlice<UInt8>? {
        guard case .byKey(let range) = responderID else { return nil }
        return derEncoded[range]
    }

    /// Whether the responder ID names `certificate`: its subject name equal by the
    /// RFC 5280 §7.1 comparison, or the SHA-1 hash of its public key equal to the key hash.
    ///
    /// - Parameter certificate: The candidate signer.
    /// - Returns: `true` when the responder ID names it.
    public func responderIDMatches(_ certificate: Certificate) -> Bool {
        switch responderID {
        case .byName:
            guard let name = try? responderName, let subject = try? certificate.subject else { return false }
            return name.matchKey == subject.matchKey
        case .byKey(let range):
            return SHA1.hash(certificate.publicKeyInfo.rawKey).elementsEqual(derEncoded[range])
        }
    }

    /// The single responses about `certificate` as issued by `issuer`: those whose
    /// CertID hashes `issuer`'s name and key and carries `certificate`'s serial number.
    ///
    /// - Parameters:
    ///   - certificate: The certificate asked about.
    ///   - issuer: Its issuer's certificate.
    /// - Returns: The matching single responses, in encoding order.
    public func responses(for certificate: Certificate, issuedBy issuer: Certificate) -> [OCSPSingleResponse] {
        responses.filter { $0.certID.identifies(certificate, issuedBy: issuer) }
    }

    init(_ bytes: [UInt8], range: Range<Int>, limits: DERLimits) throws(X509Error) {
        var raw = RawBasicOCSPResponse()
        do {
            try DER.read(bytes, range: range, limits: limits) { (reader) throws(DERError) in
                try reader.readSequence { (basic) throws(DERError) in
                    let tbsStart = basic.offset
                    try basic.readSequence { (tbs) throws(DERError) in try tbs.readResponseData(into: &raw) }
                    raw.tbsRange = tbsStart..<basic.offset
                    raw.signatureAlgorithm = try basic.readAlgorithmIdentifier()
                    raw.signatureOffset = basic.offset
                    raw.signature = try basic.readBitString()
                    raw.certificatesOffset = basic.offset
                    _ = try basic.readOptionalExplicit(0) { (tagged) throws(DERError) in
                        try tagged.readCollection(.sequence) { (list) throws(DERError) in
                            let element = try list.readElement(.sequence)
                            if raw.certificateRanges.count < BasicOCSPResponse.maximumCertificateCount {
                                raw.certificateRanges.append(element.encodedRange)
                            } else if raw.tooManyCertificatesOffset == nil {
                                raw.tooManyCertificatesOffset = element.offset
                            }
                        }
                    }
                }
            }
        } catch {
            throw X509Error(error)
        }
        if let offset = raw.versionOffset { throw X509Error(.invalidVersion, at: offset) }
        if let offset = raw.tooManyExtensionsOffset { throw X509Error(.tooManyExtensions, at: offset) }
        if let offset = raw.emptyExtensionsOffset { throw X509Error(.emptyExtensions, at: offset) }
        if let offset = raw.tooManyResponsesOffset {
            throw X509Error(.invalidOCSPResponse(.tooManySingleResponses), at: offset)
        }
        if let offset = raw.tooManyCertificatesOffset {
            throw X509Error(.invalidOCSPResponse(.tooManyCertificates), at: offset)
        }
        let signatureAlgorithm = try SignatureAlgorithm(raw.signatureAlgorithm, in: bytes)
        guard raw.signature.unusedBitCount == 0 else { throw X509Error(.invalidSignatureValue, at: raw.signatureOffset) }

        let responderID: ResponderID
        switch raw.responderID {
        case .byName(let nameRange):
            _ = try DistinguishedName(derEncoded: bytes, range: nameRange)
            responderID = .byName(nameRange)
        case .byKey(let hashRange):
            // §4.2.1: "SHA-1 hash of responder's public key".
            guard hashRange.count == DigestAlgorithm.sha1.byteCount else {
                throw X509Error(.invalidOCSPResponse(.invalidResponderKeyHash), at: raw.responderIDOffset)
            }
            responderID = .byKey(hashRange)
        }
        guard let producedAt = raw.producedAt else { preconditionFailure("ResponseData read without producedAt") }

        var responses: [OCSPSingleResponse] = []
        responses.reserveCapacity(raw.responses.count)
        for single in raw.responses {
            responses.append(try OCSPSingleResponse(single, in: bytes))
        }

        // Response extensions (§4.4): the nonce is understood; any other critical
        // extension makes the response unusable.
        try CertificateRevocationList.rejectDuplicates(raw.extensions)
        var nonce: ArraySlice<UInt8>? = nil
        for item in raw.extensions {
            if item.oid == OCSPResponse.nonceOID {
                nonce = try BasicOCSPResponse.readNonce(bytes, item)
            } else if item.isCritical {
                throw X509Error(.invalidOCSPResponse(.unsupportedCriticalExtension(item.oid)), at: item.offset)
            }
        }

        var certificates: [Certificate] = []
        for certificateRange in raw.certificateRanges {
            do {
                certificates.append(try Certificate(derEncoded: Array(bytes[certificateRange])))
            } catch {
                // The certificate's own offsets count from its first octet.
                let offset = certificateRange.lowerBound.addingReportingOverflow(error.offset)
                throw X509Error(
                    .invalidOCSPResponse(.invalidCertificate(code: error.code)),
                    at: offset.overflow ? certificateRange.lowerBound : offset.partialValue)
            }
        }

        self.derEncoded = bytes
        self.tbsRange = raw.tbsRange
        self.responderID = responderID
        self.producedAt = producedAt
        self.responses = responses
        self.extensions = raw.extensions
        self.nonce = nonce
        self.signatureAlgorithm = signatureAlgorithm
        self.signatureRange = raw.signature.bytesRange
        self.certificates = certificates
    }

    /// Reads the nonce: `Nonce ::= OCTET STRING (SIZE(1..32))` (RFC 8954 §2.1).
    private static func readNonce(_ bytes: [UInt8], _ item: Extension) throws(X509Error) -> ArraySlice<UInt8> {
        let range = try readX509(bytes, range: item.valueRange) { (reader) throws(DERError) -> Range<Int> in
            try reader.readOctetString()
        }
        guard (1...32).contains(range.count) else { throw X509Error(.invalidOCSPResponse(.invalidNonce), at: item.offset) }
        return bytes[range]
    }

    /// Equal when the encodings and the response's place in them are equal.
    public static func == (lhs: BasicOCSPResponse, rhs: BasicOCSPResponse) -> Bool {
        lhs.tbsRange == rhs.tbsRange && lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes the signed range.
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded[tbsRange]) }
}

/// A `SingleResponse` (RFC 6960 §4.2.1): the status of one certificate.
///
/// ```
/// SingleResponse ::= SEQUENCE {
///    certID                       CertID,
///    certStatus                   CertStatus,
///    thisUpdate                   GeneralizedTime,
///    nextUpdate         [0]       EXPLICIT GeneralizedTime OPTIONAL,
///    singleExtensions   [1]       EXPLICIT Extensions OPTIONAL }
/// CertStatus ::= CHOICE {
///    good        [0]     IMPLICIT NULL,
///    revoked     [1]     IMPLICIT RevokedInfo,
///    unknown     [2]     IMPLICIT UnknownInfo }   -- UnknownInfo ::= NULL
/// RevokedInfo ::= SEQUENCE {
///    revocationTime              GeneralizedTime,
///    revocationReason    [0]     EXPLICIT CRLReason OPTIONAL }
/// ```

public import TackDER
public import TackDigest

// A single OCSP response (RFC 6960 §4.2.1): its CertID, status and currency.

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
public struct OCSPSingleResponse: Sendable, Hashable {
    /// The certificate the response is about.
    public let certID: OCSPCertID
    /// Its status.
    public let status: OCSPCertificateStatus
    /// The time at which the status is known to be correct.
    public let thisUpdate: DERTime
    /// When newer information will be available, if the responder says.
    public let nextUpdate: DERTime?
    /// The single response's extensions (possibly empty); none is critical.
    public let extensions: [Extension]

    init(_ raw: RawSingleResponse, in bytes: [UInt8]) throws(X509Error) {
        certID = try OCSPCertID(raw.certID, in: bytes)
        switch raw.status {
        case .good: status = .good
        case .unknown: status = .unknown
        case .revoked(let time, let reasonValue, let reasonOffset):
            var reason: CRLReason? = nil
            if let reasonValue {
                guard let known = CRLReason(rawValue: reasonValue) else {
                    throw X509Error(.invalidOCSPResponse(.invalidRevocationReason(reasonValue)), at: reasonOffset)
                }
                reason = known
            }
            status = .revoked(revocationTime: time.secondsSince1970, reason: reason)
        }
        thisUpdate = raw.thisUpdate
        nextUpdate = raw.nextUpdate
        if let nextUpdate, nextUpdate.secondsSince1970 < thisUpdate.secondsSince1970 {
            throw X509Error(.invalidOCSPResponse(.nextUpdateBeforeThisUpdate), at: raw.nextUpdateOffset)
        }
        if let offset = raw.tooManyExtensionsOffset { throw X509Error(.tooManyExtensions, at: offset) }
        if let offset = raw.emptyExtensionsOffset { throw X509Error(.emptyExtensions, at: offset) }
        try CertificateRevocationList.rejectDuplicates(raw.extensions)
        for item in raw.extensions where item.isCritical {
            throw X509Error(.invalidOCSPResponse(.unsupportedCriticalExtension(item.oid)), at: item.offset)
        }
        extensions = raw.extensions
    }

    /// Whether the response is in force at `time`, allowing `clockSkew` seconds either
    /// way: `thisUpdate - clockSkew <= time <= end + clockSkew`, where `end` is
    /// `nextUpdate`, or `thisUpdate + maximumAge` when the responder gave none
    /// (RFC 6960 §4.2.2.1; §2.4: a response without nextUpdate means newer
    /// information is always available, so its age is the caller's to bound).
    ///
    /// - Parameters:
    ///   - time: The check time, seconds since 1970.
    ///   - clockSkew: The allowance, in seconds, for the clocks of responder and client.
    ///   - maximumAge: How long after `thisUpdate` a response without `nextUpdate` is used.
    /// - Returns: ``Currency/current``, or why not.
    public func currency(at time: Int64, clockSkew: Int64, maximumAge: Int64) -> Currency {
        let start = thisUpdate.secondsSince1970
        // Saturating: a `maximumAge` that runs past the end of time means "no limit".
        let aged = start.addingReportingOverflow(maximumAge)
        let end = nextUpdate?.secondsSince1970 ?? (aged.overflow ? Int64.max : aged.partialValue)
        let (earliest, lowOverflow) = start.subtractingReportingOverflow(clockSkew)
        let (latest, highOverflow) = end.addingReportingOverflow(clockSkew)
        if !lowOverflow, time < earliest { return .notYetValid(thisUpdate: start) }
        if !highOverflow, time > latest { return .stale(validUntil: end) }
        return .current
    }

    /// Whether a single response is in force at a time.
    public enum Currency: Sendable, Hashable {
        /// In force.
        case current
        /// `thisUpdate` (seconds since 1970) is after the time, beyond the allowance.
        case notYetValid(thisUpdate: Int64)
        /// The response ran out at `validUntil` (seconds since 1970), beyond the allowance.
        case stale(validUntil: Int64)
    }
}

/// A certificate's status in an OCSP single response (RFC 6960 §2.2).
public enum OCSPCertificateStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not revoked (at least: not revoked as far as the responder knows).
    case good
    /// Revoked at `revocationTime` (seconds since 1970), for `reason` when given.
    case revoked(revocationTime: Int64, reason: CRLReason?)
    /// The responder does not know the certificate.
    case unknown

    /// `good`, `revoked` or `unknown`.
    public var description: String {
        switch self {
        case .good: "good"
        case .revoked: "revoked"
        case .unknown: "unknown"
        }
    }
}

/// A revocation reason (RFC 5280 §5.3.1), as CRL entries and OCSP responses give it.
public enum CRLReason: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No reason given.
    case unspecified = 0
    /// The subject's key was compromised.
    case keyCompromise = 1
    /// The CA's key was compromised.
    case cACompromise = 2
    /// The subject's name or other information changed.
    case affiliationChanged = 3
    /// The certificate was replaced.
    case superseded = 4
    /// The certificate is no longer needed.
    case cessationOfOperation = 5
    /// The certificate is on hold.
    case certificateHold = 6
    /// Only in delta CRLs: the certificate is off hold.
    case removeFromCRL = 8
    /// A privilege of the subject was withdrawn.
    case privilegeWithdrawn = 9
    /// An attribute authority's key was compromised.
    case aACompromise = 10

    /// The name RFC 5280 gives the value.
    public var description: String {
        switch self {
        case .unspecified: "unspecified"
        case .keyCompromise: "keyCompromise"
        case .cACompromise: "cACompromise"
        case .affiliationChanged: "affiliationChanged"
        case .superseded: "superseded"
        case .cessationOfOperation: "cessationOfOperation"
        case .certificateHold: "certificateHold"
        case .removeFromCRL: "removeFromCRL"
        case .privilegeWithdrawn: "privilegeWithdrawn"
        case .aACompromise: "aACompromise"
        }
    }
}

/// A `CertID` (RFC 6960 §4.1.1): which certificate a single response is about.
///
/// ```
/// CertID ::= SEQUENCE {
///    hashAlgorithm       AlgorithmIdentifier,
///    issuerNameHash      OCTET STRING, -- Hash of issuer's DN
///    issuerKeyHash       OCTET STRING, -- Hash of issuer's public key
///    serialNumber        CertificateSerialNumber }
/// ```
public struct OCSPCertID: Sendable, Hashable {
    /// The hash algorithm's identifier.
    public let hashAlgorithmOID: OID
    /// The hash algorithm, when Tack computes it (SHA-1 and SHA-2); `nil` otherwise,
    /// and then the CertID matches no certificate.
    public let hashAlgorithm: DigestAlgorithm?
    /// The hash of the issuer's name (the DER of its subject field).
    public let issuerNameHash: ArraySlice<UInt8>
    /// The hash of the issuer's public key (the subjectPublicKey BIT STRING's value).
    public let issuerKeyHash: ArraySlice<UInt8>
    /// The contents of the serial number INTEGER.
    public let serialNumber: ArraySlice<UInt8>

    init(_ raw: RawCertID, in bytes: [UInt8]) throws(X509Error) {
        hashAlgorithmOID = raw.algorithm.oid
        // RFC 4055 §2.1: hash parameters are NULL or absent.
        if let parameters = raw.algorithm.parameters, !raw.algorithm.hasNullParameters {
            throw X509Error(.invalidAlgorithmParameters(.hashParametersNotNull), at: parameters.offset)
        }
        let digest = DigestAlgorithm(oid: raw.algorithm.oid)
        hashAlgorithm = digest?.isComputable == true ? digest : nil
        if let digest, raw.nameHash.count != digest.byteCount || raw.keyHash.count != digest.byteCount {
            throw X509Error(.invalidOCSPResponse(.certIDHashLength), at: raw.offset)
        }
        issuerNameHash = bytes[raw.nameHash]
        issuerKeyHash = bytes[raw.keyHash]
        serialNumber = bytes[raw.serial]
    }

    /// Whether this CertID names `certificate` issued by `issuer`: equal serial numbers
    /// (octet for octet, exact for minimal DER integers), `issuer`'s key (the
    /// subjectPublicKey BIT STRING's value) hashed with ``hashAlgorithm`` equal to the
    /// key hash, and the name hash equal to the hash of `certificate`'s issuer field
    /// (§4.1.1: "the DER encoding of the issuer's name field in the certificate being
    /// checked") or of `issuer`'s subject field, which responders built on OpenSSL hash
    /// and which a path builder matched to it by the RFC 5280 §7.1 comparison.
    ///
    /// - Parameters:
    ///   - certificate: The certificate asked about.
    ///   - issuer: Its issuer's certificate.
    /// - Returns: `false` also when the hash algorithm is not computed.
    public func identifies(_ certificate: Certificate, issuedBy issuer: Certificate) -> Bool {
        guard let hashAlgorithm, serialNumber.elementsEqual(certificate.serialNumber),
              let keyHash = try? hashAlgorithm.hash(Array(issuer.publicKeyInfo.rawKey)),
              keyHash.elementsEqual(issuerKeyHash) else { return false }
        guard let nameHash = try? hashAlgorithm.hash(Array(certificate.issuerBytes)) else { return false }
        if nameHash.elementsEqual(issuerNameHash) { return true }
        guard !certificate.issuerBytes.elementsEqual(issuer.subjectBytes),
              let subjectHash = try? hashAlgorithm.hash(Array(issuer.subjectBytes)) else { return false }
        return subjectHash.elementsEqual(issuerNameHash)
    }
}


import TackDER
import TackDigest

// MARK: - Reading

/// What a strict read of a BasicOCSPResponse collects before the profile checks.
struct RawBasicOCSPResponse {
    enum RawResponderID {
        case byName(Range<Int>)
        case byKey(Range<Int>)
    }
    var versionOffset: Int? = nil
    var tbsRange = 0..<0
    var responderIDOffset = 0
    var responderID = RawResponderID.byKey(0..<0)
    var producedAt: DERTime? = nil
    var responses: [RawSingleResponse] = []
    var tooManyResponsesOffset: Int? = nil
    var extensions: [Extension] = []
    var tooManyExtensionsOffset: Int? = nil
    var emptyExtensionsOffset: Int? = nil
    var signatureAlgorithm = RawAlgorithmIdentifier(oid: OID(0, 0), parameters: nil, range: 0..<0)
    var signatureOffset = 0
    var signature = DERBitString(bytesRange: 0..<0, unusedBitCount: 0)
    var certificatesOffset = 0
    var certificateRanges: [Range<Int>] = []
    var tooManyCertificatesOffset: Int? = nil
}

/// A CertID as read.
struct RawCertID {
    var offset: Int
    var algorithm: RawAlgorithmIdentifier
    var nameHash: Range<Int>
    var keyHash: Range<Int>
    var serial: Range<Int>
}

/// A SingleResponse as read.
struct RawSingleResponse {
    enum RawStatus {
        case good
        case revoked(DERTime, reason: Int?, reasonOffset: Int)
        case unknown
    }
    var certID: RawCertID
    var status: RawStatus
    var thisUpdate: DERTime
    var nextUpdate: DERTime?
    var nextUpdateOffset: Int
    var extensions: [Extension]
    var tooManyExtensionsOffset: Int?
    var emptyExtensionsOffset: Int?
}

extension DERReader {
    /// Reads the contents of the ResponseData SEQUENCE (RFC 6960 §4.2.1).
    mutating func readResponseData(into raw: inout RawBasicOCSPResponse) throws(DERError) {
        // version [0] EXPLICIT Version DEFAULT v1: DER omits the default, and v1 is
        // the only version, so any encoded version is refused (after the DER check).
        let versionOffset = offset
        if try readOptionalExplicit(0, { (tagged) throws(DERError) in _ = try tagged.readInteger(Int.self) }) != nil {
            raw.versionOffset = versionOffset
        }
        raw.responderIDOffset = offset
        if let byName = try readOptionalExplicit(1, { (tagged) throws(DERError) -> Range<Int> in
            try tagged.readElement(.sequence).encodedRange
        }) {
            raw.responderID = .byName(byName)
        } else {
            raw.responderID = .byKey(try readExplicit(2) { (tagged) throws(DERError) -> Range<Int> in try tagged.readOctetString() })
        }
        raw.producedAt = try readGeneralizedTime()
        try readCollection(.sequence) { (list) throws(DERError) in
            let entryOffset = list.offset
            let single = try list.readSequence { (item) throws(DERError) -> RawSingleResponse in try item.readSingleResponse() }
            if raw.responses.count < BasicOCSPResponse.maximumSingleResponseCount {
                raw.responses.append(single)
            } else if raw.tooManyResponsesOffset == nil {
                raw.tooManyResponsesOffset = entryOffset
            }
        }
        var extensions: [Extension] = []
        _ = try readOptionalExplicit(1) { (tagged) throws(DERError) in
            try tagged.readExtensionList(
                into: &extensions, tooManyOffset: &raw.tooManyExtensionsOffset, emptyOffset: &raw.emptyExtensionsOffset)
        }
        raw.extensions = extensions
    }

    /// Reads the contents of a SingleResponse SEQUENCE.
    mutating func readSingleResponse() throws(DERError) -> RawSingleResponse {
        let certIDOffset = offset
        let certID = try readSequence { (id) throws(DERError) -> RawCertID in
            let algorithm = try id.readAlgorithmIdentifier()
            let nameHash = try id.readOctetString()
            let keyHash = try id.readOctetString()
            let serial = try id.readIntegerElement().contentRange
            return RawCertID(offset: certIDOffset, algorithm: algorithm, nameHash: nameHash, keyHash: keyHash, serial: serial)
        }
        let status: RawSingleResponse.RawStatus
        let statusOffset = offset
        switch try peekTag() {
        case .contextSpecific(0, isConstructed: false)?:
            try readNull(tag: .contextSpecific(0, isConstructed: false))
            status = .good
        case .contextSpecific(1, isConstructed: true)?:
            status = try readConstructed(.contextSpecific(1, isConstructed: true)) { (info) throws(DERError) -> RawSingleResponse.RawStatus in
                let time = try info.readGeneralizedTime()
                let reasonOffset = info.offset
                let reason = try info.readOptionalExplicit(0) { (tagged) throws(DERError) -> Int in
                    try tagged.readInteger(Int.self, tag: .enumerated)
                }
                return .revoked(time, reason: reason, reasonOffset: reasonOffset)
            }
        case .contextSpecific(2, isConstructed: false)?:
            try readNull(tag: .contextSpecific(2, isConstructed: false))
            status = .unknown
        case let found?:
            throw DERError(.unexpectedTag(expected: .contextSpecific(0, isConstructed: false), found: found), at: statusOffset)
        case nil:
            throw DERError(.missingElement(expected: .contextSpecific(0, isConstructed: false)), at: statusOffset)
        }
        let thisUpdate = try readGeneralizedTime()
        let nextUpdateOffset = offset
        let nextUpdate = try readOptionalExplicit(0) { (tagged) throws(DERError) -> DERTime in try tagged.readGeneralizedTime() }
        var extensions: [Extension] = []
        var tooMany: Int? = nil
        var empty: Int? = nil
        _ = try readOptionalExplicit(1) { (tagged) throws(DERError) in
            try tagged.readExtensionList(into: &extensions, tooManyOffset: &tooMany, emptyOffset: &empty)
        }
        return RawSingleResponse(
            certID: certID, status: status, thisUpdate: thisUpdate, nextUpdate: nextUpdate, nextUpdateOffset: nextUpdateOffset,
            extensions: extensions, tooManyExtensionsOffset: tooMany, emptyExtensionsOffset: empty)
    }
}

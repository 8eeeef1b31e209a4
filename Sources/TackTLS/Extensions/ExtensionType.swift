// Extension code points (IANA TLS ExtensionType Values) and the one parser of
// extension blocks: duplicates refused (RFC 8446 §4.2), each checked against what
// the client offered and what the message may carry.

enum ExtensionType {
    static let serverName: UInt16 = 0
    static let statusRequest: UInt16 = 5
    static let supportedGroups: UInt16 = 10
    static let ecPointFormats: UInt16 = 11
    static let signatureAlgorithms: UInt16 = 13
    static let applicationLayerProtocolNegotiation: UInt16 = 16
    static let signedCertificateTimestamp: UInt16 = 18
    static let extendedMasterSecret: UInt16 = 23
    static let supportedVersions: UInt16 = 43
    static let cookie: UInt16 = 44
    static let signatureAlgorithmsCert: UInt16 = 50
    static let keyShare: UInt16 = 51
    static let renegotiationInfo: UInt16 = 0xFF01
}

/// One received extension.
struct ReceivedExtension {
    let type: UInt16
    var body: ByteReader
}

/// Parses an `Extension extensions<0..2^16-1>` block.
///
/// - Parameters:
///   - reader: Positioned at the block's length.
///   - offered: The extension types the client sent (an answer to anything else is
///     unsupported_extension, RFC 8446 §4.2).
///   - allowed: The types this message may carry (a known type in the wrong message
///     is illegal_parameter, RFC 8446 §4.2).
func readExtensions(_ reader: inout ByteReader, offered: [UInt16], allowed: [UInt16]) throws(TLSError) -> [ReceivedExtension] {
    var block = try reader.readVector(lengthBytes: 2, what: reader.what + " extensions")
    var result: [ReceivedExtension] = []
    while !block.isAtEnd {
        let type = try block.readUInt16()
        let body = try block.readVector(lengthBytes: 2, what: "extension " + String(type))
        guard offered.contains(type) else { throw TLSError(.unsupportedExtension(type)) }
        guard allowed.contains(type) else { throw TLSError(.illegalParameter("extension " + String(type) + " in " + reader.what)) }
        guard !result.contains(where: { $0.type == type }) else { throw TLSError(.duplicateExtension(type)) }
        result.append(ReceivedExtension(type: type, body: body))
    }
    return result
}

extension Array where Element == ReceivedExtension {
    func body(_ type: UInt16) -> ByteReader? { first(where: { $0.type == type })?.body }
}

/// Reads an ALPN answer (RFC 7301 §3.1): exactly one protocol, one the client offered.
func readALPN(_ body: ByteReader, offered: [String]) throws(TLSError) -> String {
    var reader = body
    var list = try reader.readVector(lengthBytes: 2, minimum: 1, what: "ALPN")
    try reader.expectEnd()
    let name = try list.readVector(lengthBytes: 1, minimum: 1).readBytesRest()
    try list.expectEnd()
    guard let chosen = offered.first(where: { Array($0.utf8) == name }) else {
        throw TLSError(.illegalParameter("ALPN protocol not offered"))
    }
    return chosen
}

extension ByteReader {
    consuming func readBytesRest() -> [UInt8] { readRest() }

    /// Checks that an extension body is empty.
    func expectEmpty() throws(TLSError) {
        guard isAtEnd else { throw failure("extension body must be empty") }
    }
}

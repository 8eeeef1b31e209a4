// ServerHello and HelloRetryRequest (RFC 8446 §4.1.3, §4.1.4; RFC 5246 §7.4.1.3).

/// The random of a HelloRetryRequest: SHA-256("HelloRetryRequest") (RFC 8446 §4.1.3).
let helloRetryRequestRandom: [UInt8] = [
    0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
    0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
]

/// The downgrade sentinel's first seven bytes, "DOWNGRD" (RFC 8446 §4.1.3); the
/// eighth is 01 for TLS 1.2 and 00 for older versions.
let downgradeSentinelPrefix: [UInt8] = [0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44]

/// A parsed ServerHello (or HelloRetryRequest).
struct ServerHello {
    var legacyVersion: UInt16
    var random: [UInt8]
    var sessionID: [UInt8]
    var suite: TLSCipherSuite
    var isHelloRetryRequest: Bool
    /// The extensions, still raw: which are allowed depends on the version.
    var extensionBlock: ByteReader

    init(_ body: [UInt8]) throws(TLSError) {
        var reader = ByteReader(body, what: "ServerHello")
        legacyVersion = try reader.readUInt16()
        random = try reader.readBytes(32)
        sessionID = try reader.readVector(lengthBytes: 1).readBytesRest()
        guard sessionID.count <= 32 else { throw reader.failure("legacy_session_id over 32 bytes") }
        suite = TLSCipherSuite(rawValue: try reader.readUInt16())
        guard try reader.readUInt8() == 0 else { throw TLSError(.illegalParameter("compression method")) }
        isHelloRetryRequest = random == helloRetryRequestRandom
        if isHelloRetryRequest { reader = ByteReader(reader, renamed: "HelloRetryRequest") }
        // RFC 5246 §7.4.1.3: a TLS 1.2 ServerHello may end without an extensions block.
        if reader.isAtEnd {
            extensionBlock = ByteReader([0, 0], what: "ServerHello")
        } else {
            extensionBlock = reader
        }
    }

    /// The version the server chose: supported_versions if present, else legacy_version.
    func negotiatedVersion(_ extensions: [ReceivedExtension]) throws(TLSError) -> UInt16 {
        guard var body = extensions.body(ExtensionType.supportedVersions) else { return legacyVersion }
        let version = try body.readUInt16()
        try body.expectEnd()
        return version
    }
}

extension ByteReader {
    /// The same cursor under another structure name.
    init(_ other: ByteReader, renamed what: String) {
        var copy = ByteReader(other.bytes, what: what)
        copy.skip(to: other.position, end: other.end)
        self = copy
    }
}

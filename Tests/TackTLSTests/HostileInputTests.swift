import Testing
import TackSignature
@testable import TackTLS

/// A deterministic random source for these tests (a counter; never for real keys).
struct CountingRandom: RandomSource {
    var state: UInt8
    mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError) {
        for index in bytes.indices {
            state &+= 37
            bytes[index] = state
        }
    }
}

/// Hostile server flights built in code: each must end the handshake with its own error.
@Suite("TLS client: hostile server messages")
struct HostileInputTests {
    /// A client after `start`, and the session ID it sent.
    static func startedClient(versions: [TLSProtocolVersion] = [.tls13, .tls12]) throws -> (TLSClient, [UInt8], [UInt8]) {
        var client = TLSClient(configuration: TLSClientConfiguration(serverName: "localhost", versions: versions, verification: .signaturesOnly))
        var random = CountingRandom(state: 7)
        let hello = try client.start(random: &random)
        // record header 5, handshake header 4, legacy_version 2, random 32, then the session ID.
        let length = Int(hello[43])
        return (client, Array(hello[44..<44 + length]), hello)
    }

    static func extensionBytes(_ type: UInt16, _ body: [UInt8]) -> [UInt8] {
        [UInt8(type >> 8), UInt8(type & 0xFF), UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    static func serverHello(
        random: [UInt8] = [UInt8](repeating: 0x11, count: 32), sessionID: [UInt8], suite: UInt16 = 0x1301, extensions: [[UInt8]]
    ) -> [UInt8] {
        let block = extensions.flatMap { $0 }
        var body: [UInt8] = [3, 3] + random + [UInt8(sessionID.count)] + sessionID + [UInt8(suite >> 8), UInt8(suite & 0xFF), 0]
        body += [UInt8(block.count >> 8), UInt8(block.count & 0xFF)] + block
        return record(22, handshake(2, body))
    }

    static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        [type, UInt8(body.count >> 16), UInt8((body.count >> 8) & 0xFF), UInt8(body.count & 0xFF)] + body
    }

    static func record(_ type: UInt8, _ fragment: [UInt8]) -> [UInt8] {
        [type, 3, 3, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }

    static let supportedVersions13 = extensionBytes(43, [3, 4])
    static let x25519Share = extensionBytes(51, [0, 29, 0, 32] + [UInt8](repeating: 9, count: 32))

    func expectFailure(_ bytes: [UInt8], code: String, versions: [TLSProtocolVersion] = [.tls13, .tls12]) throws {
        var (client, _, _) = try Self.startedClient(versions: versions)
        do {
            _ = try client.receive(bytes)
            Issue.record(Comment(rawValue: "no error; expected " + code))
        } catch {
            #expect(error.code == code)
        }
        // Failed for good.
        #expect(throws: TLSError.self) { _ = try client.receive([0]) }
        #expect(client.session == nil)
    }

    @Test("an extension the client did not offer: unsupported_extension")
    func unofferedExtension() throws {
        let (_, sessionID, _) = try Self.startedClient()
        let hello = Self.serverHello(sessionID: sessionID, extensions: [Self.supportedVersions13, Self.x25519Share, Self.extensionBytes(0x1234, [])])
        try expectFailure(hello, code: "tls.unsupported_extension")
    }

    @Test("the same extension twice: duplicate_extension")
    func duplicateExtension() throws {
        let (_, sessionID, _) = try Self.startedClient()
        let hello = Self.serverHello(sessionID: sessionID, extensions: [Self.supportedVersions13, Self.x25519Share, Self.x25519Share])
        try expectFailure(hello, code: "tls.duplicate_extension")
    }

    @Test("a second HelloRetryRequest: second_hello_retry_request")
    func secondHelloRetryRequest() throws {
        var (client, sessionID, _) = try Self.startedClient()
        let retry = Self.serverHello(
            random: helloRetryRequestRandom, sessionID: sessionID,
            extensions: [Self.supportedVersions13, Self.extensionBytes(51, [0, 24])])
        let output = try client.receive(retry)
        #expect(!output.bytesToSend.isEmpty)  // the compatibility CCS and the second ClientHello
        let again = Self.serverHello(
            random: helloRetryRequestRandom, sessionID: sessionID,
            extensions: [Self.supportedVersions13, Self.extensionBytes(44, [0, 1, 7])])
        do {
            _ = try client.receive(again)
            Issue.record("a second HelloRetryRequest was accepted")
        } catch {
            #expect(error.code == "tls.second_hello_retry_request")
            #expect(error.alert == .unexpectedMessage)
        }
    }

    @Test("a HelloRetryRequest that changes nothing: illegal_parameter")
    func uselessHelloRetryRequest() throws {
        let (_, sessionID, _) = try Self.startedClient()
        let retry = Self.serverHello(
            random: helloRetryRequestRandom, sessionID: sessionID, extensions: [Self.supportedVersions13, Self.extensionBytes(51, [0, 29])])
        try expectFailure(retry, code: "tls.illegal_parameter")
    }

    @Test("TLS 1.2 with the downgrade sentinel after offering 1.3: downgrade_detected")
    func downgradeSentinel() throws {
        let random = [UInt8](repeating: 0x22, count: 24) + [0x44, 0x4F, 0x57, 0x4E, 0x47, 0x52, 0x44, 0x01]
        let hello = Self.serverHello(random: random, sessionID: [], suite: 0xC02F, extensions: [Self.extensionBytes(23, []), Self.extensionBytes(0xFF01, [0])])
        try expectFailure(hello, code: "tls.downgrade_detected")
    }

    @Test("TLS 1.2 without extended_master_secret: missing_extension")
    func missingExtendedMasterSecret() throws {
        let hello = Self.serverHello(sessionID: [], suite: 0xC02F, extensions: [Self.extensionBytes(0xFF01, [0])])
        try expectFailure(hello, code: "tls.missing_extension")
    }

    @Test("a TLS 1.3 suite the version does not match, or one not offered: illegal_parameter")
    func suiteNotOffered() throws {
        let (_, sessionID, _) = try Self.startedClient()
        let hello = Self.serverHello(sessionID: sessionID, suite: 0x1304, extensions: [Self.supportedVersions13, Self.x25519Share])
        try expectFailure(hello, code: "tls.illegal_parameter")
    }

    @Test("TLS 1.2 from a server when only 1.3 is allowed: protocol_version")
    func versionNotAllowed() throws {
        let hello = Self.serverHello(sessionID: [], suite: 0xC02F, extensions: [Self.extensionBytes(23, []), Self.extensionBytes(0xFF01, [0])])
        try expectFailure(hello, code: "tls.protocol_version", versions: [.tls13])
    }

    @Test("a record over 2^14 bytes of plaintext: record_overflow, from its header alone")
    func oversizedRecord() throws {
        try expectFailure([22, 3, 3, 0x40, 0x01], code: "tls.record_overflow")
    }

    @Test("a handshake message over the stated bound: handshake_message_too_long")
    func messageOverBound() throws {
        let header: [UInt8] = [2, 0x01, 0x00, 0x01]  // 65,537 bytes announced
        try expectFailure(Self.record(22, header), code: "tls.handshake_message_too_long")
    }

    @Test("a message out of order (Certificate first): unexpected_message")
    func unexpectedOrder() throws {
        try expectFailure(Self.record(22, Self.handshake(11, [0, 0, 0, 0])), code: "tls.unexpected_message")
    }

    @Test("application data before the handshake: unexpected_message")
    func earlyApplicationData() throws {
        try expectFailure(Self.record(23, [1, 2, 3]), code: "tls.unexpected_message")
    }

    @Test("an unknown content type: unexpected_message")
    func unknownContentType() throws {
        try expectFailure([99, 3, 3, 0, 1, 0], code: "tls.unexpected_message")
    }

    @Test("not TLS at all (an HTTP answer): decode_error")
    func notTLS() throws {
        try expectFailure(Array("HTTP/1.1 400 Bad Request\r\n".utf8), code: "tls.unexpected_message")
        try expectFailure([22, 0x48, 0x54, 0, 1, 0], code: "tls.decode_error")
    }

    @Test("a server alert: peer_alert with its name")
    func peerAlert() throws {
        try expectFailure(Self.record(21, [2, 40]), code: "tls.peer_alert.handshake_failure")
    }

    @Test("every truncation of a ServerHello is a decode_error, never a trap")
    func truncatedServerHello() throws {
        let (_, sessionID, _) = try Self.startedClient()
        let body = Array(Self.serverHello(sessionID: sessionID, extensions: [Self.supportedVersions13, Self.x25519Share])[9...])
        // Cut right after the compression method, the body is a well-formed
        // ServerHello without extensions (a TLS 1.2 answer), refused for what it says.
        let fixedFields = 2 + 32 + 1 + sessionID.count + 2 + 1
        for length in 0..<body.count {
            let truncated = Array(body[0..<length])
            let code = length == fixedFields ? "tls.illegal_parameter" : "tls.decode_error"
            try expectFailure(Self.record(22, Self.handshake(2, truncated)), code: code)
        }
    }

    @Test("bytes split anywhere reach the same verdict")
    func splitInput() throws {
        let (_, sessionID, _) = try Self.startedClient()
        let hello = Self.serverHello(sessionID: sessionID, extensions: [Self.supportedVersions13, Self.x25519Share, Self.x25519Share])
        var (client, _, _) = try Self.startedClient()
        var failure: TLSError? = nil
        for byte in hello {
            do { _ = try client.receive([byte]) } catch { failure = error; break }
        }
        #expect(failure?.code == "tls.duplicate_extension")
    }

    @Test("API misuse: receive before start, seal before the handshake")
    func misuse() throws {
        var client = TLSClient(configuration: TLSClientConfiguration(serverName: nil, verification: .signaturesOnly))
        #expect(throws: TLSError.self) { _ = try client.receive([1]) }
        var (started, _, _) = try Self.startedClient()
        do {
            _ = try started.seal([1])
            Issue.record("seal before the handshake")
        } catch {
            #expect(error.code == "tls.invalid_state")
        }
    }

    @Test("SCT list framing: well-formed lists split, empty or trailing bytes refused")
    func sctListFraming() throws {
        #expect(try splitSCTList([0, 3, 0, 1, 9]) == [[9]])
        #expect(try splitSCTList([0, 6, 0, 1, 9, 0, 1, 8]) == [[9], [8]])
        #expect(throws: TLSError.self) { _ = try splitSCTList([0, 0]) }
        #expect(throws: TLSError.self) { _ = try splitSCTList([0, 3, 0, 1, 9, 7]) }
        #expect(throws: TLSError.self) { _ = try splitSCTList([0, 2, 0, 0]) }
    }
}

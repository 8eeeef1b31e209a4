import TackDigest
import TackX509

// The TLS 1.3 handshake (RFC 8446 §4), one function per message in the order the
// server sends them, and the post-handshake messages (§4.6).

extension ClientEngine {
    /// ServerHello or HelloRetryRequest (§4.1.3, §4.1.4); a TLS 1.2 answer goes to
    /// ``tls12ServerHello(_:raw:)``.
    mutating func serverHello(body: [UInt8], raw: [UInt8]) throws(TLSError) {
        let message = try ServerHello(body)
        var reader = message.extensionBlock
        var offered = hello.offeredExtensions
        if message.isHelloRetryRequest { offered.append(ExtensionType.cookie) }
        let allowed13 = message.isHelloRetryRequest
            ? [ExtensionType.supportedVersions, ExtensionType.keyShare, ExtensionType.cookie]
            : [ExtensionType.supportedVersions, ExtensionType.keyShare]
        // Which extensions are allowed depends on the version, which an extension
        // announces: read the block leniently first for supported_versions only.
        var probe = reader
        let announces13 = try Self.announcesTLS13(&probe)
        guard announces13 else {
            // No supported_versions: TLS 1.2 or older (§4.2.1).
            guard !message.isHelloRetryRequest else { throw TLSError(.missingExtension(ExtensionType.supportedVersions)) }
            try tls12ServerHello(message, raw: raw)
            return
        }
        let extensions = try readExtensions(&reader, offered: offered, allowed: allowed13)
        try reader.expectEnd()
        let negotiated = try message.negotiatedVersion(extensions)
        guard negotiated == 0x0304, hello.offers13 else { throw TLSError(.protocolVersion(negotiated)) }
        guard message.legacyVersion == 0x0303 else { throw TLSError(.illegalParameter("legacy_version is not 0x0303")) }
        guard message.sessionID == hello.sessionID else { throw TLSError(.illegalParameter("legacy_session_id_echo")) }
        guard TLSCipherSuite.tls13Suites.contains(message.suite), let parameters = SuiteParameters(message.suite) else {
            throw TLSError(.illegalParameter("cipher suite " + message.suite.description + " not offered"))
        }
        // After a HelloRetryRequest the suite may not change (§4.1.4).
        if let previous = suite, previous.suite != message.suite {
            throw TLSError(.illegalParameter("cipher suite differs from the HelloRetryRequest's"))
        }
        version = .tls13
        suite = parameters
        try transcript.fix(parameters.hash)
        if message.isHelloRetryRequest {
            try helloRetryRequest(extensions, raw: raw)
        } else {
            try tls13ServerHello(extensions, random: message.random, raw: raw)
        }
    }

    /// Whether the block holds supported_versions (the only reading that precedes
    /// the version; the block is read again strictly for the version chosen).
    static func announcesTLS13(_ reader: inout ByteReader) throws(TLSError) -> Bool {
        var block = try reader.readVector(lengthBytes: 2, what: "ServerHello extensions")
        while !block.isAtEnd {
            let type = try block.readUInt16()
            _ = try block.readVector(lengthBytes: 2)
            if type == ExtensionType.supportedVersions { return true }
        }
        return false
    }

    /// HelloRetryRequest (§4.1.4): one only; it must change the ClientHello.
    private mutating func helloRetryRequest(_ extensions: [ReceivedExtension], raw: [UInt8]) throws(TLSError) {
        guard !sawHelloRetryRequest else { throw TLSError(.secondHelloRetryRequest) }
        sawHelloRetryRequest = true
        var changed = false
        if var body = extensions.body(ExtensionType.keyShare) {
            let selected = TLSNamedGroup(rawValue: try body.readUInt16())
            try body.expectEnd()
            guard TLSNamedGroup.supported.contains(selected), !hello.sharedGroups.contains(selected) else {
                throw TLSError(.illegalParameter("HelloRetryRequest selected group " + selected.description))
            }
            try shares.prepare(selected)
            hello.sharedGroups = [selected]
            changed = true
        }
        if var body = extensions.body(ExtensionType.cookie) {
            let cookie = try body.readVector(lengthBytes: 2, minimum: 1).readBytesRest()
            try body.expectEnd()
            hello.cookie = cookie
            changed = true
        }
        guard changed else { throw TLSError(.illegalParameter("HelloRetryRequest changes nothing")) }
        // The transcript restarts with message_hash(ClientHello1) (§4.4.1).
        try transcript.restartAfterHelloRetryRequest(raw)
        sendCompatibilityChangeCipherSpec()
        let second = try hello.encode(shares: shares)
        try sendHandshake(second)
    }

    private mutating func tls13ServerHello(_ extensions: [ReceivedExtension], random: [UInt8], raw: [UInt8]) throws(TLSError) {
        guard var body = extensions.body(ExtensionType.keyShare) else { throw TLSError(.missingExtension(ExtensionType.keyShare)) }
        let selected = TLSNamedGroup(rawValue: try body.readUInt16())
        let share = try body.readVector(lengthBytes: 2, minimum: 1).readBytesRest()
        try body.expectEnd()
        guard hello.sharedGroups.contains(selected) else {
            throw TLSError(.illegalParameter("key share for group " + selected.description + " not offered"))
        }
        guard let suite else { throw TLSError(.internalError("no suite")) }
        transcript.append(raw)
        group = selected
        var shared = try shares.sharedSecret(selected, peer: share)
        defer { wipe(&shared) }
        var keys = TLS13KeySchedule(hash: suite.hash)
        try keys.deriveHandshakeSecrets(sharedSecret: shared, transcriptHash: try transcript.hash())
        readProtection = try keys.protection(keys.serverHandshakeTrafficSecret, suite: suite)
        schedule = keys
        try requireMessageBoundary()
        state = .tls13ExpectEncryptedExtensions
    }

    /// The encrypted part of the server's flight.
    mutating func tls13Handshake(type: UInt8, body: [UInt8], raw: [UInt8]) throws(TLSError) {
        switch (state, type) {
        case (.tls13ExpectEncryptedExtensions, HandshakeType.encryptedExtensions):
            try encryptedExtensions(body)
            state = .tls13ExpectCertificateOrRequest
        case (.tls13ExpectCertificateOrRequest, HandshakeType.certificateRequest):
            try certificateRequest(body)
            state = .tls13ExpectCertificate
        case (.tls13ExpectCertificateOrRequest, HandshakeType.certificate), (.tls13ExpectCertificate, HandshakeType.certificate):
            served = try readTLS13Certificate(body, offered: hello.offeredExtensions)
            state = .tls13ExpectCertificateVerify
        case (.tls13ExpectCertificateVerify, HandshakeType.certificateVerify):
            try certificateVerify(body)
            state = .tls13ExpectFinished
        case (.tls13ExpectFinished, HandshakeType.finished):
            try serverFinished(body, raw: raw)
            return
        default:
            throw unexpected(type)
        }
        transcript.append(raw)
    }

    /// EncryptedExtensions (§4.3.1): only what was offered and belongs here.
    private mutating func encryptedExtensions(_ body: [UInt8]) throws(TLSError) {
        var reader = ByteReader(body, what: "EncryptedExtensions")
        let extensions = try readExtensions(
            &reader, offered: hello.offeredExtensions,
            allowed: [ExtensionType.serverName, ExtensionType.supportedGroups, ExtensionType.applicationLayerProtocolNegotiation])
        try reader.expectEnd()
        if let name = extensions.body(ExtensionType.serverName) { try name.expectEmpty() }
        if let protocols = extensions.body(ExtensionType.applicationLayerProtocolNegotiation) {
            alpn = try readALPN(protocols, offered: hello.applicationProtocols)
        }
    }

    /// CertificateRequest (§4.3.2): remembered; answered with an empty Certificate.
    private mutating func certificateRequest(_ body: [UInt8]) throws(TLSError) {
        var reader = ByteReader(body, what: "CertificateRequest")
        certificateRequestContext = try reader.readVector(lengthBytes: 1).readBytesRest()
        // The extensions (signature_algorithms is mandatory) matter only to a client
        // identity's signature, which is not implemented yet: framed, not interpreted.
        _ = try reader.readVector(lengthBytes: 2, minimum: 2)
        try reader.expectEnd()
    }

    /// CertificateVerify (§4.4.3) over Transcript-Hash(ClientHello…Certificate).
    private mutating func certificateVerify(_ body: [UInt8]) throws(TLSError) {
        var reader = ByteReader(body, what: "CertificateVerify")
        let chosen = TLSSignatureScheme(rawValue: try reader.readUInt16())
        let signature = try reader.readVector(lengthBytes: 2).readBytesRest()
        try reader.expectEnd()
        guard let leaf = served.leaf else { throw TLSError(.emptyCertificate) }
        try verifyHandshakeSignature(
            scheme: chosen, signature: signature, message: certificateVerifyContent(transcriptHash: try transcript.hash()),
            leaf: leaf, accepted: TLSSignatureScheme.tls13Handshake, curveMatched: true)
        scheme = chosen
    }

    /// The server's Finished (§4.4.4), then the trust decision, then the client's flight.
    private mutating func serverFinished(_ body: [UInt8], raw: [UInt8]) throws(TLSError) {
        guard var keys = schedule, let suite else { throw TLSError(.internalError("no key schedule")) }
        let expected = try keys.finishedData(keys.serverHandshakeTrafficSecret, transcriptHash: try transcript.hash())
        guard constantTimeEqual(expected, body) else { throw TLSError(.badFinished) }
        transcript.append(raw)
        try requireMessageBoundary()
        try keys.deriveApplicationSecrets(transcriptHash: try transcript.hash())
        try decide()
        // The client's flight under the client handshake traffic secret (§4.4).
        sendCompatibilityChangeCipherSpec()
        writeProtection = try keys.protection(keys.clientHandshakeTrafficSecret, suite: suite)
        if let context = certificateRequestContext {
            // Mutual TLS seam: a ClientIdentitySigning identity would send its chain
            // here and a CertificateVerify after it. Today: an empty Certificate (§4.4.2).
            var writer = ByteWriter()
            writer.appendVector(lengthBytes: 1) { $0.append(context) }
            writer.appendVector(lengthBytes: 3) { _ in }
            try sendHandshake(makeHandshakeMessage(HandshakeType.certificate, writer.bytes))
        }
        let finished = try keys.finishedData(keys.clientHandshakeTrafficSecret, transcriptHash: try transcript.hash())
        try sendHandshake(makeHandshakeMessage(HandshakeType.finished, finished))
        clientTrafficSecret = keys.clientApplicationTrafficSecret
        serverTrafficSecret = keys.serverApplicationTrafficSecret
        readProtection = try keys.protection(serverTrafficSecret, suite: suite)
        writeProtection = try keys.protection(clientTrafficSecret, suite: suite)
        schedule = keys
        complete()
    }

    /// After the handshake (§4.6): NewSessionTicket ignored (no resumption),
    /// KeyUpdate answered; anything else is unexpected (post-handshake
    /// authentication was not offered).
    mutating func tls13PostHandshake(type: UInt8, body: [UInt8]) throws(TLSError) {
        switch type {
        case HandshakeType.newSessionTicket:
            var reader = ByteReader(body, what: "NewSessionTicket")
            _ = try reader.readBytes(8)  // ticket_lifetime, ticket_age_add
            _ = try reader.readVector(lengthBytes: 1)
            _ = try reader.readVector(lengthBytes: 2, minimum: 1)
            _ = try reader.readVector(lengthBytes: 2)
            try reader.expectEnd()
        case HandshakeType.keyUpdate:
            guard body.count == 1, body[0] <= 1 else {
                throw body.count == 1 ? TLSError(.illegalParameter("KeyUpdate request_update")) : TLSError(.decodeError(what: "KeyUpdate", offset: 0))
            }
            guard let keys = schedule, let suite else { throw TLSError(.internalError("no key schedule")) }
            try requireMessageBoundary()
            let nextServer = try keys.nextTrafficSecret(serverTrafficSecret)
            wipe(&serverTrafficSecret)
            serverTrafficSecret = nextServer
            readProtection = try keys.protection(serverTrafficSecret, suite: suite)
            if body[0] == 1 {
                // update_requested: answer with update_not_requested, then move on (§4.6.3).
                try send(.handshake, makeHandshakeMessage(HandshakeType.keyUpdate, [0]))
                let nextClient = try keys.nextTrafficSecret(clientTrafficSecret)
                wipe(&clientTrafficSecret)
                clientTrafficSecret = nextClient
                writeProtection = try keys.protection(clientTrafficSecret, suite: suite)
            }
        default:
            throw unexpected(type)
        }
    }
}

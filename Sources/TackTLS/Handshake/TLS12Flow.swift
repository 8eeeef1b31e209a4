import TackDigest
import TackX509

// The TLS 1.2 handshake (RFC 5246 §7.4) for ECDHE suites only, with
// extended_master_secret (RFC 7627) required, renegotiation_info (RFC 5746)
// required empty, and no renegotiation.

extension ClientEngine {
    /// A ServerHello without supported_versions: TLS 1.2 if allowed.
    mutating func tls12ServerHello(_ message: ServerHello, raw: [UInt8]) throws(TLSError) {
        guard message.legacyVersion == 0x0303, hello.offers12, !sawHelloRetryRequest else {
            throw TLSError(.protocolVersion(message.legacyVersion))
        }
        // RFC 8446 §4.1.3: a client that offered TLS 1.3 checks the sentinel.
        if hello.offers13, Array(message.random[24..<31]) == downgradeSentinelPrefix, message.random[31] <= 1 {
            throw TLSError(.downgradeDetected)
        }
        guard TLSCipherSuite.tls12Suites.contains(message.suite), let parameters = SuiteParameters(message.suite) else {
            throw TLSError(.illegalParameter("cipher suite " + message.suite.description + " not offered"))
        }
        // An echoed session ID would resume a session the client never had.
        guard message.sessionID.isEmpty || message.sessionID != hello.sessionID else {
            throw TLSError(.illegalParameter("the server resumed a session the client did not offer"))
        }
        var reader = message.extensionBlock
        let extensions = try readExtensions(
            &reader, offered: hello.offeredExtensions,
            allowed: [
                ExtensionType.serverName, ExtensionType.statusRequest, ExtensionType.ecPointFormats,
                ExtensionType.applicationLayerProtocolNegotiation, ExtensionType.signedCertificateTimestamp,
                ExtensionType.extendedMasterSecret, ExtensionType.renegotiationInfo,
            ])
        try reader.expectEnd()
        guard let ems = extensions.body(ExtensionType.extendedMasterSecret) else {
            throw TLSError(.missingExtension(ExtensionType.extendedMasterSecret))
        }
        try ems.expectEmpty()
        guard var renegotiation = extensions.body(ExtensionType.renegotiationInfo) else {
            throw TLSError(.missingExtension(ExtensionType.renegotiationInfo))
        }
        guard try renegotiation.readUInt8() == 0, renegotiation.isAtEnd else {
            throw TLSError(.illegalParameter("renegotiation_info not empty"))
        }
        if let name = extensions.body(ExtensionType.serverName) { try name.expectEmpty() }
        if let status = extensions.body(ExtensionType.statusRequest) {
            try status.expectEmpty()
            expectsCertificateStatus = true
        }
        if var formats = extensions.body(ExtensionType.ecPointFormats) {
            // RFC 8422 §5.2: the list must contain uncompressed (0).
            let list = try formats.readVector(lengthBytes: 1, minimum: 1).readBytesRest()
            guard list.contains(0) else { throw TLSError(.illegalParameter("ec_point_formats without uncompressed")) }
        }
        if let protocols = extensions.body(ExtensionType.applicationLayerProtocolNegotiation) {
            alpn = try readALPN(protocols, offered: hello.applicationProtocols)
        }
        if let scts = extensions.body(ExtensionType.signedCertificateTimestamp) {
            served.sctLists.append(try checkedSCTList(scts))
        }
        version = .tls12
        suite = parameters
        try transcript.fix(parameters.hash)
        serverRandom = message.random
        transcript.append(raw)
        state = .tls12ExpectCertificate
    }

    mutating func tls12Handshake(type: UInt8, body: [UInt8], raw: [UInt8]) throws(TLSError) {
        // RFC 5246 §7.4.1.1: a HelloRequest during a handshake is ignored (and not hashed).
        if type == HandshakeType.helloRequest, state != .tls12ExpectFinished {
            guard body.isEmpty else { throw TLSError(.decodeError(what: "HelloRequest", offset: 0)) }
            try countEmpty()
            return
        }
        switch (state, type) {
        case (.tls12ExpectCertificate, HandshakeType.certificate):
            let sctLists = served.sctLists
            served = try readTLS12Certificate(body)
            served.sctLists = sctLists
            state = expectsCertificateStatus ? .tls12ExpectStatusOrKeyExchange : .tls12ExpectKeyExchange
        case (.tls12ExpectStatusOrKeyExchange, HandshakeType.certificateStatus):
            served.ocspResponses.append(try readCertificateStatus(ByteReader(body, what: "CertificateStatus")))
            state = .tls12ExpectKeyExchange
        case (.tls12ExpectStatusOrKeyExchange, HandshakeType.serverKeyExchange), (.tls12ExpectKeyExchange, HandshakeType.serverKeyExchange):
            try serverKeyExchange(body)
            state = .tls12ExpectRequestOrDone
        case (.tls12ExpectRequestOrDone, HandshakeType.certificateRequest):
            var reader = ByteReader(body, what: "CertificateRequest")
            _ = try reader.readVector(lengthBytes: 1, minimum: 1)
            _ = try reader.readVector(lengthBytes: 2, minimum: 2)
            _ = try reader.readVector(lengthBytes: 2)
            try reader.expectEnd()
            certificateRequestContext = []
            state = .tls12ExpectDone
        case (.tls12ExpectRequestOrDone, HandshakeType.serverHelloDone), (.tls12ExpectDone, HandshakeType.serverHelloDone):
            guard body.isEmpty else { throw TLSError(.decodeError(what: "ServerHelloDone", offset: 0)) }
            transcript.append(raw)
            try serverHelloDone()
            return
        case (.tls12ExpectFinished, HandshakeType.finished):
            try tls12ServerFinished(body)
            return
        default:
            throw unexpected(type)
        }
        transcript.append(raw)
    }

    /// ServerKeyExchange for ECDHE (RFC 8422 §5.4), its signature over both randoms
    /// and the parameters checked with the leaf's key.
    private mutating func serverKeyExchange(_ body: [UInt8]) throws(TLSError) {
        var reader = ByteReader(body, what: "ServerKeyExchange")
        guard try reader.readUInt8() == 3 else { throw TLSError(.illegalParameter("ECCurveType is not named_curve")) }
        let named = TLSNamedGroup(rawValue: try reader.readUInt16())
        guard TLSNamedGroup.supported.contains(named) else { throw TLSError(.illegalParameter("group " + named.description + " not offered")) }
        let share = try reader.readVector(lengthBytes: 1, minimum: 1).readBytesRest()
        let params = Array(body[0..<reader.position])
        let chosen = TLSSignatureScheme(rawValue: try reader.readUInt16())
        let signature = try reader.readVector(lengthBytes: 2).readBytesRest()
        try reader.expectEnd()
        guard let leaf = served.leaf, let suite else { throw TLSError(.emptyCertificate) }
        let ecdsaSchemes: [TLSSignatureScheme] = [.ecdsaSECP256R1SHA256, .ecdsaSECP384R1SHA384, .ecdsaSECP521R1SHA512, .ed25519]
        guard ecdsaSchemes.contains(chosen) == suite.isECDSA else {
            throw TLSError(.illegalParameter("signature scheme " + chosen.description + " does not match the cipher suite"))
        }
        try verifyHandshakeSignature(
            scheme: chosen, signature: signature, message: hello.random + serverRandom + params, leaf: leaf,
            accepted: TLSSignatureScheme.tls12Handshake, curveMatched: false)
        scheme = chosen
        group = named
        tls12PeerShare = share
    }

    /// After ServerHelloDone: the decision, then the client's flight (RFC 5246 §7.3).
    private mutating func serverHelloDone() throws(TLSError) {
        guard let suite, let group else { throw TLSError(.unexpectedMessage(type: 14, expected: "ServerKeyExchange")) }
        try decide()
        if certificateRequestContext != nil {
            // Mutual TLS seam (see ClientIdentitySigning): an empty Certificate today.
            try sendHandshake(makeHandshakeMessage(HandshakeType.certificate, [0, 0, 0]))
        }
        try shares.prepare(group)
        let publicShare = try shares.publicShare(group)
        var exchange = ByteWriter()
        exchange.appendVector(lengthBytes: 1) { $0.append(publicShare) }
        try sendHandshake(makeHandshakeMessage(HandshakeType.clientKeyExchange, exchange.bytes))
        var preMaster = try shares.sharedSecret(group, peer: tls12PeerShare)
        defer { wipe(&preMaster) }
        // RFC 7627 §4: the master secret over the session hash.
        masterSecret = try tls12PRF(suite.hash, secret: preMaster, label: "extended master secret", seed: try transcript.hash(), length: 48)
        let ivLength = suite.tls12IVLength
        var block = try tls12PRF(
            suite.hash, secret: masterSecret, label: "key expansion", seed: serverRandom + hello.random,
            length: 2 * suite.keyLength + 2 * ivLength)
        defer { wipe(&block) }
        let k = suite.keyLength
        let mode: RecordProtection.Mode = suite.isChaCha ? .tls12ChaCha : .tls12GCM
        let clientCipher = try RecordCipher(suite: suite, key: Array(block[0..<k]))
        let serverCipher = try RecordCipher(suite: suite, key: Array(block[k..<2 * k]))
        outgoing += makeRecord(.changeCipherSpec, [1])
        writeProtection = RecordProtection(cipher: clientCipher, iv: Array(block[2 * k..<2 * k + ivLength]), mode: mode)
        pendingReadProtection = RecordProtection(cipher: serverCipher, iv: Array(block[2 * k + ivLength..<2 * k + 2 * ivLength]), mode: mode)
        let verifyData = try tls12PRF(suite.hash, secret: masterSecret, label: "client finished", seed: try transcript.hash(), length: 12)
        try sendHandshake(makeHandshakeMessage(HandshakeType.finished, verifyData))
        state = .tls12ExpectChangeCipherSpec
    }

    private mutating func tls12ServerFinished(_ body: [UInt8]) throws(TLSError) {
        guard let suite else { throw TLSError(.internalError("no suite")) }
        let expected = try tls12PRF(suite.hash, secret: masterSecret, label: "server finished", seed: try transcript.hash(), length: 12)
        guard constantTimeEqual(expected, body) else { throw TLSError(.badFinished) }
        try requireMessageBoundary()
        complete()
    }

    /// After the handshake: a HelloRequest gets the no_renegotiation warning (RFC
    /// 5746 §4.2 lets the client refuse this way) and the connection goes on;
    /// anything else is unexpected.
    mutating func tls12PostHandshake(type: UInt8, body: [UInt8]) throws(TLSError) {
        guard type == HandshakeType.helloRequest, body.isEmpty else { throw unexpected(type) }
        try countEmpty()
        try send(.alert, TLSAlert.noRenegotiation.bytes)
    }
}

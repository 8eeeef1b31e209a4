import TackDigest
import TackSignature
import TackTrust
import TackX509

// The client's state: the record layer in both directions, the handshake
// reassembly and transcript, and the dispatch of records by content type. The
// handshake messages themselves are handled by TLS13Flow.swift and TLS12Flow.swift,
// one function per message, in the order of RFC 8446 §4 and RFC 5246 §7.4.

/// Where the handshake is: each state accepts exactly the messages the RFC allows next.
enum HandshakeState: Sendable, Equatable {
    case expectServerHello
    case tls13ExpectEncryptedExtensions
    case tls13ExpectCertificateOrRequest
    case tls13ExpectCertificate
    case tls13ExpectCertificateVerify
    case tls13ExpectFinished
    case tls12ExpectCertificate
    case tls12ExpectStatusOrKeyExchange
    case tls12ExpectKeyExchange
    case tls12ExpectRequestOrDone
    case tls12ExpectDone
    case tls12ExpectChangeCipherSpec
    case tls12ExpectFinished
    case connected
    case closed

    var expected: String {
        switch self {
        case .expectServerHello: "ServerHello"
        case .tls13ExpectEncryptedExtensions: "EncryptedExtensions"
        case .tls13ExpectCertificateOrRequest: "Certificate or CertificateRequest"
        case .tls13ExpectCertificate, .tls12ExpectCertificate: "Certificate"
        case .tls13ExpectCertificateVerify: "CertificateVerify"
        case .tls13ExpectFinished, .tls12ExpectFinished: "Finished"
        case .tls12ExpectStatusOrKeyExchange: "CertificateStatus or ServerKeyExchange"
        case .tls12ExpectKeyExchange: "ServerKeyExchange"
        case .tls12ExpectRequestOrDone: "CertificateRequest or ServerHelloDone"
        case .tls12ExpectDone: "ServerHelloDone"
        case .tls12ExpectChangeCipherSpec: "ChangeCipherSpec"
        case .connected: "post-handshake messages"
        case .closed: "nothing (closed)"
        }
    }
}

/// The mutual-TLS seam: where a client identity (a TackPKCS12 identity's key) will
/// sign the client's CertificateVerify. Not implemented: a CertificateRequest is
/// answered with an empty Certificate today, and no type conforms yet.
protocol ClientIdentitySigning {
    /// The client's chain, DER, leaf first.
    var certificateChain: [[UInt8]] { get }
    /// Signs `content` with `scheme` (one of those the server's CertificateRequest allows).
    func sign(_ content: [UInt8], scheme: TLSSignatureScheme) throws(TLSError) -> [UInt8]
}

struct ClientEngine: Sendable {
    let configuration: TLSClientConfiguration
    var hello: ClientHelloParameters
    var shares: KeyShares
    var state: HandshakeState = .expectServerHello
    var version: TLSProtocolVersion? = nil
    var suite: SuiteParameters? = nil
    var group: TLSNamedGroup? = nil
    var scheme: TLSSignatureScheme? = nil
    var alpn: String? = nil
    var served = ServedCertificates()
    var decision: TrustDecision? = nil
    var sawHelloRetryRequest = false
    var sentChangeCipherSpec = false
    /// The handshake messages so far, as a running hash from the ServerHello on.
    var transcript = Transcript()
    var records = RecordReader()
    var assembler = HandshakeAssembler()
    var readProtection: RecordProtection? = nil
    var writeProtection: RecordProtection? = nil
    var schedule: TLS13KeySchedule? = nil
    var clientTrafficSecret: [UInt8] = []
    var serverTrafficSecret: [UInt8] = []
    /// TLS 1.3: the CertificateRequest's context, when the server asked for a certificate.
    var certificateRequestContext: [UInt8]? = nil
    /// TLS 1.2 values.
    var serverRandom: [UInt8] = []
    var masterSecret: [UInt8] = []
    var pendingReadProtection: RecordProtection? = nil
    var expectsCertificateStatus = false
    var tls12PeerShare: [UInt8] = []
    /// Records in a row that carried nothing (see ``TLSLimits/maximumEmptyRecords``).
    var emptyRecords = 0

    /// Bytes to send, collected during a call.
    var outgoing: [UInt8] = []
    var applicationData: [UInt8] = []
    var completedNow = false
    var handshakeDone = false
    var peerClosed = false

    init(configuration: TLSClientConfiguration, random: inout some RandomSource) throws(TLSError) {
        self.configuration = configuration
        guard !configuration.versions.isEmpty else { throw TLSError(.invalidState("no protocol version allowed")) }
        guard !configuration.keyShareGroups.isEmpty else { throw TLSError(.invalidState("no key share group")) }
        var clientRandom = [UInt8](repeating: 0, count: 32)
        var sessionID = [UInt8](repeating: 0, count: 32)
        do throws(RandomSourceError) {
            try random.fill(&clientRandom)
            try random.fill(&sessionID)
        } catch {
            throw TLSError(.randomSource(error))
        }
        var drawn = try KeyShares(random: &random)
        let firstGroups = configuration.keyShareGroups
        let offers13 = configuration.versions.contains(.tls13)
        for (index, group) in firstGroups.enumerated() {
            guard TLSNamedGroup.supported.contains(group), !firstGroups[..<index].contains(group) else {
                throw TLSError(.invalidState("key share group " + group.description + " not supported or listed twice"))
            }
            if offers13 { try drawn.prepare(group) }
        }
        shares = drawn
        var suites: [TLSCipherSuite] = []
        if offers13 { suites += TLSCipherSuite.tls13Suites }
        if configuration.versions.contains(.tls12) { suites += TLSCipherSuite.tls12Suites }
        hello = ClientHelloParameters(
            random: clientRandom,
            // Middlebox compatibility mode (RFC 8446 §D.4) when TLS 1.3 is offered;
            // a TLS 1.2-only client offers no session to resume.
            sessionID: offers13 ? sessionID : [],
            versions: configuration.versions.filter { $0 == .tls13 } + configuration.versions.filter { $0 == .tls12 },
            suites: suites, sharedGroups: firstGroups,
            serverName: configuration.serverName, applicationProtocols: configuration.applicationProtocols)
    }

    /// The first ClientHello record (legacy_record_version 0x0301, RFC 8446 §5.1).
    mutating func firstFlight() throws(TLSError) -> [UInt8] {
        let message = try hello.encode(shares: shares)
        transcript.append(message)
        return makeRecord(.handshake, version: 0x0301, message)
    }

    // MARK: Sending

    /// Sends a handshake message, protected if the write side is.
    mutating func sendHandshake(_ message: [UInt8]) throws(TLSError) {
        transcript.append(message)
        try send(.handshake, message)
    }

    mutating func send(_ type: ContentType, _ content: [UInt8]) throws(TLSError) {
        for fragment in content.isEmpty ? [[]] : fragments(content) {
            if var protection = writeProtection {
                outgoing += try protection.seal(type, fragment)
                writeProtection = protection
            } else {
                outgoing += makeRecord(type, fragment)
            }
        }
    }

    /// The compatibility-mode change_cipher_spec (RFC 8446 §D.4), once.
    mutating func sendCompatibilityChangeCipherSpec() {
        guard !sentChangeCipherSpec, !hello.sessionID.isEmpty else { return }
        sentChangeCipherSpec = true
        outgoing += makeRecord(.changeCipherSpec, [1])
    }

    // MARK: Receiving

    var recordLimit: Int {
        guard readProtection != nil else { return TLSLimits.maximumPlaintextLength }
        return version == .tls12 ? TLSLimits.maximumTLS12CiphertextLength : TLSLimits.maximumTLS13CiphertextLength
    }

    mutating func receive(_ bytes: some Collection<UInt8>) throws(TLSError) -> TLSClientOutput {
        records.append(bytes)
        while !peerClosed, let record = try records.next(limit: recordLimit) {
            try process(record)
        }
        defer {
            outgoing = []
            applicationData = []
            completedNow = false
        }
        return TLSClientOutput(bytesToSend: outgoing, applicationData: applicationData, handshakeCompleted: completedNow, peerClosed: peerClosed)
    }

    mutating func countEmpty() throws(TLSError) {
        emptyRecords += 1
        guard emptyRecords <= TLSLimits.maximumEmptyRecords else {
            throw TLSError(.unexpectedMessage(type: 0, expected: "progress (more than " + String(TLSLimits.maximumEmptyRecords) + " empty records)"))
        }
    }

    private mutating func process(_ record: Record) throws(TLSError) {
        var type = record.contentType
        var content = record.fragment
        if type == .changeCipherSpec {
            try changeCipherSpec(content)
            return
        }
        if var protection = readProtection {
            (type, content) = try protection.open(record)
            readProtection = protection
        } else if type == .applicationData {
            throw TLSError(.unexpectedMessage(type: type.rawValue, expected: "a plaintext " + state.expected))
        }
        switch type {
        case .alert: try alert(content)
        case .handshake:
            guard !content.isEmpty else { throw TLSError(.unexpectedMessage(type: 22, expected: "a non-empty handshake record")) }
            emptyRecords = 0
            assembler.append(content)
            while !peerClosed, let message = try assembler.next() {
                try handshake(type: message.type, body: message.body, raw: message.raw)
            }
        case .applicationData:
            guard state == .connected else { throw TLSError(.unexpectedMessage(type: 23, expected: state.expected)) }
            if content.isEmpty { try countEmpty() } else { emptyRecords = 0 }
            applicationData += content
        case .changeCipherSpec:
            throw TLSError(.unexpectedMessage(type: 20, expected: "no protected change_cipher_spec"))
        }
    }

    private mutating func changeCipherSpec(_ content: [UInt8]) throws(TLSError) {
        guard content == [1] else { throw TLSError(.decodeError(what: "change_cipher_spec", offset: 0)) }
        if version == .tls12 {
            guard state == .tls12ExpectChangeCipherSpec, let pending = pendingReadProtection, assembler.isEmpty else {
                throw TLSError(.unexpectedMessage(type: 20, expected: state.expected))
            }
            readProtection = pending
            pendingReadProtection = nil
            state = .tls12ExpectFinished
            return
        }
        // RFC 8446 §5: dropped from the first ClientHello until the server's Finished.
        switch state {
        case .connected, .closed: throw TLSError(.unexpectedMessage(type: 20, expected: state.expected))
        default: try countEmpty()
        }
    }

    private mutating func alert(_ content: [UInt8]) throws(TLSError) {
        guard content.count == 2 else { throw TLSError(.decodeError(what: "alert", offset: 0)) }
        let alert = TLSAlert(level: content[0], description: content[1])
        if alert.alertDescription == 0 {
            peerClosed = true
            state = .closed
            return
        }
        // user_canceled (RFC 8446 §6.1) and TLS 1.2 warnings are noted, not fatal.
        if alert.level == 1 && (alert.alertDescription == 90 || version == .tls12) {
            try countEmpty()
            return
        }
        throw TLSError(.peerAlert(alert))
    }

    private mutating func handshake(type: UInt8, body: [UInt8], raw: [UInt8]) throws(TLSError) {
        switch state {
        case .expectServerHello:
            guard type == HandshakeType.serverHello else { throw unexpected(type) }
            try serverHello(body: body, raw: raw)
        case .tls13ExpectEncryptedExtensions, .tls13ExpectCertificateOrRequest, .tls13ExpectCertificate,
             .tls13ExpectCertificateVerify, .tls13ExpectFinished:
            try tls13Handshake(type: type, body: body, raw: raw)
        case .connected:
            if version == .tls13 {
                try tls13PostHandshake(type: type, body: body)
            } else {
                try tls12PostHandshake(type: type, body: body)
            }
        case .closed:
            throw unexpected(type)
        default:
            try tls12Handshake(type: type, body: body, raw: raw)
        }
    }

    func unexpected(_ type: UInt8) -> TLSError {
        TLSError(.unexpectedMessage(type: type, expected: state.expected))
    }

    /// RFC 8446 §5.1: a handshake message may not span a key change.
    func requireMessageBoundary() throws(TLSError) {
        guard assembler.isEmpty else { throw TLSError(.unexpectedMessage(type: 22, expected: "a key change at a record boundary")) }
    }

    // MARK: Verification

    /// The trust decision, before the client's Finished.
    mutating func decide() throws(TLSError) {
        guard case .decision(var evaluator, let host, let pinning, let time) = configuration.verification else { return }
        for der in served.ocspResponses {
            do throws(X509Error) {
                evaluator.options.stapledResponses.append(try OCSPResponse(derEncoded: der))
            } catch {
                throw TLSError(.badCertificateStatus(error))
            }
        }
        if var requirement = evaluator.options.certificateTransparency {
            requirement.tlsSCTLists += served.sctLists
            evaluator.options.certificateTransparency = requirement
        }
        let decision = evaluator.evaluate(servedChain: served.certificates, host: host, at: time, pinning: pinning)
        switch decision {
        case .trusted: self.decision = decision
        case .untrusted(let failure, _): throw TLSError(.untrusted(failure))
        case .pinMismatch: throw TLSError(.pinMismatch)
        }
    }

    var session: TLSSession? {
        guard handshakeDone, let version, let suite, let group, let scheme else { return nil }
        return TLSSession(
            protocolVersion: version, cipherSuite: suite.suite, group: group, helloRetryRequest: sawHelloRetryRequest, signatureScheme: scheme,
            applicationProtocol: alpn, certificates: served.certificates, stapledOCSPResponses: served.ocspResponses,
            signedCertificateTimestamps: served.individualSCTs, decision: decision)
    }

    mutating func complete() {
        state = .connected
        handshakeDone = true
        completedNow = true
        schedule?.wipeHandshakeSecrets()
        wipe(&masterSecret)
        shares.wipeUnusedScalars()
        transcript.clear()
    }
}

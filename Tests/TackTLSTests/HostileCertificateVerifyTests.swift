import TackSignature
import TackTestSupport
import Testing

@testable import TackTLS

/// A TLS 1.3 recording opened with the handshake keys the test derives itself: the
/// seeded client's X25519 key (drawn after the client random and the session ID), the
/// server's share from its ServerHello, and the transcript ClientHello…ServerHello.
private struct OpenedFlight {
    let flight: RecordedFlight
    let suite: SuiteParameters
    let schedule: TLS13KeySchedule
    /// The server's records before the protected ones (ServerHello, change_cipher_spec), as sent.
    let plaintextRecords: [UInt8]
    /// The protected handshake messages through the server's Finished, each whole.
    let messages: [[UInt8]]

    init(_ flight: RecordedFlight) throws {
        self.flight = flight
        var random = DeterministicStream(state: flight.seed)
        var clientRandom = [UInt8](repeating: 0, count: 32)
        var sessionID = [UInt8](repeating: 0, count: 32)
        try random.fill(&clientRandom)
        try random.fill(&sessionID)
        let key = try X25519PrivateKey(using: &random)

        let clientRecords = flightRecords(flight.client)
        let clientHello = try #require(clientRecords.first.map { Array($0.bytes.dropFirst(5)) })
        try #require(clientHello.first == 1 && clientHello[6..<38].elementsEqual(clientRandom), "the seeded client's ClientHello")
        try #require(clientHello.firstRange(of: key.publicKey.rawRepresentation) != nil, "its X25519 share is the test's key")

        let serverRecords = flightRecords(flight.server)
        let serverHelloRecord = try #require(serverRecords.first)
        let serverHello = Array(serverHelloRecord.bytes.dropFirst(5))
        try #require(serverHello.first == 2)
        // Header 4, legacy_version 2, random 32, session ID, suite 2, compression 1, extensions.
        var offset = 4 + 2 + 32
        offset += 1 + Int(serverHello[offset])
        let suiteValue = UInt16(serverHello[offset]) << 8 | UInt16(serverHello[offset + 1])
        offset += 2 + 1 + 2
        var serverShare: [UInt8] = []
        while offset + 4 <= serverHello.count {
            let type = UInt16(serverHello[offset]) << 8 | UInt16(serverHello[offset + 1])
            let length = Int(serverHello[offset + 2]) << 8 | Int(serverHello[offset + 3])
            if type == 51 { serverShare = Array(serverHello[(offset + 8)..<(offset + 4 + length)]) }
            offset += 4 + length
        }
        try #require(serverShare.count == 32, "an X25519 ServerHello")
        suite = try #require(SuiteParameters(TLSCipherSuite(rawValue: suiteValue)))

        var keys = TLS13KeySchedule(hash: suite.hash)
        let shared = try key.sharedSecret(with: X25519PublicKey(rawRepresentation: serverShare))
        try keys.deriveHandshakeSecrets(sharedSecret: shared, transcriptHash: try digest(suite.hash, clientHello + serverHello))
        schedule = keys

        var protection = try keys.protection(keys.serverHandshakeTrafficSecret, suite: suite)
        var plaintext = Array(serverHelloRecord.bytes)
        var assembler = HandshakeAssembler()
        var found: [[UInt8]] = []
        for record in serverRecords.dropFirst() {
            guard record.bytes.first == 23 else {
                plaintext += record.bytes
                continue
            }
            let header = Array(record.bytes.prefix(5))
            let (type, content) = try protection.open(Record(contentType: .applicationData, header: header, fragment: Array(record.bytes.dropFirst(5))))
            try #require(type == .handshake)
            assembler.append(content)
            while let message = try assembler.next() { found.append(message.raw) }
            if found.last?.first == HandshakeType.finished { break }
        }
        try #require(found.last?.first == HandshakeType.finished, "the flight holds the server's Finished")
        plaintextRecords = plaintext
        messages = found
    }

    /// The flight with `messages` protected again under the server handshake traffic
    /// secret, from sequence number 0, in records of at most 2^14 bytes.
    func resealed(_ messages: [[UInt8]]) throws -> [UInt8] {
        var protection = try schedule.protection(schedule.serverHandshakeTrafficSecret, suite: suite)
        var flight = plaintextRecords
        for fragment in fragments(messages.flatMap { $0 }) {
            flight += try protection.seal(.handshake, fragment)
        }
        return flight
    }

    /// The CertificateVerify message, whole.
    var certificateVerify: [UInt8]? { messages.first { $0.first == HandshakeType.certificateVerify } }
}

/// RFC 8446 §4.4.3: the server's signature covers the transcript through its
/// Certificate, so a CertificateVerify made by the right key for another handshake
/// must fail. The flight is rebuilt the way a server holding the keys would send it.
@Suite("Hostile flights: a CertificateVerify over the wrong transcript",
       .enabled(if: recordingsRun, "Vectors/tls/recordings missing (sh Vectors/tls/generate.sh)"))
struct HostileCertificateVerifyTests {
    /// Two TLS 1.3 recordings with the same leaf (the RSA one) and signature scheme.
    private func pair() throws -> (donor: OpenedFlight, target: OpenedFlight) {
        let flights = RecordedFlight.all
        let donor = try #require(flights.first { $0.manifest.name == "1-3-aes-128-gcm" })
        let target = try #require(flights.first { $0.manifest.name == "1-3-chacha20-poly1305" })
        try #require(donor.manifest.fields["chain"] == target.manifest.fields["chain"])
        try #require(donor.manifest.fields["signature_scheme"] == target.manifest.fields["signature_scheme"])
        return (try OpenedFlight(donor), try OpenedFlight(target))
    }

    @Test("the harness: a flight decrypted and protected again by the test still completes")
    func resealedFlightCompletes() throws {
        let target = try pair().target
        let (result, _) = target.flight.replay(try target.resealed(target.messages))
        let session = try #require(try result?.get(), "the resealed flight did not complete")
        #expect(session.decision?.isTrusted == true)
    }

    @Test("another handshake's CertificateVerify, signed by the same leaf key: bad_signature, alert decrypt_error")
    func certificateVerifyFromAnotherHandshake() throws {
        let (donor, target) = try pair()
        let donated = try #require(donor.certificateVerify)
        let original = try #require(target.certificateVerify)
        #expect(donated != original)
        #expect(donated.prefix(6) == original.prefix(6), "same length and scheme: only the signed transcript differs")
        let hostile = try target.resealed(target.messages.map { $0.first == HandshakeType.certificateVerify ? donated : $0 })
        guard case .failure(let error)? = target.flight.replay(hostile).result else {
            Issue.record("a CertificateVerify over another transcript was accepted")
            return
        }
        #expect(error.code.hasPrefix("tls.bad_signature"), "\(error.code)")
        #expect(error.alert == .decryptError)
    }
}

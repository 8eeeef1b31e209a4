// The tls group (issue 34): one recorded TLS 1.3 handshake of Vectors/tls/recordings
// replayed into TackTLS's client, as Tests/TackTLSTests/ReplayFlightTests.swift does
// on the host: the client draws its randomness from the seed it was recorded with
// (DeterministicStream, compiled in from Sources/TackTestSupport), so it must send
// exactly the recorded client bytes, complete the handshake with the trust decision
// to the test root at the recording's time, and report what the manifest says was
// negotiated; the flight with one bit flipped (in the ServerHello's random, in the
// middle, in the last byte) must end in a TLSError instead.
//
// Compiled only with -D TACK_TLS_REPLAY, which scripts/embedded-check.sh (aarch64)
// and scripts/baremetal-check.sh (the Cortex-M4 known-answers image) pass together
// with the flight, generated into their build directory from the recording files by
// Tests/Embedded/generate-tls-flight.py (`recordedTLSFlight`; nothing committed).

#if TACK_TLS_REPLAY
import TackSignature
import TackTLS
import TackTrust
import TackX509

/// One recorded flight: what the client is set up with, what it must send and what
/// the session must report (the manifest's fields, as the names' descriptions).
struct RecordedTLSFlight {
    let name: StaticString
    let seed: UInt64
    let serverName: StaticString
    let time: Int64
    let protocolVersion: StaticString
    let cipherSuite: StaticString
    let group: StaticString
    let signatureScheme: StaticString
    let certificates: Int
    let anchor: StaticString
    let server: StaticString
    let client: StaticString
}

/// How one replay ended: the session when the handshake completed, the error when
/// the client threw, and every byte the client sent.
struct TLSReplayOutcome {
    var session: TLSSession? = nil
    var error: TLSError? = nil
    var sent: [UInt8] = []
}

/// The recorded client, set up once (anchor, host, configuration) for any number of
/// replays.
struct TLSReplayer {
    let configuration: TLSClientConfiguration
    let seed: UInt64

    /// `nil` when the anchor or the server name does not parse.
    init?(_ flight: RecordedTLSFlight) {
        let name = String(decoding: utf8(flight.serverName), as: UTF8.self)
        guard let root = try? Certificate(derEncoded: bytes(flight.anchor)), let host = try? PeerHost(name) else { return nil }
        configuration = TLSClientConfiguration(
            serverName: name,
            verification: .decision(TrustEvaluator(anchors: AnchorStore([root])), host: host,
                                    pinning: PinPolicy(rules: []), time: flight.time))
        seed = flight.seed
    }

    /// A fresh client with a fresh seeded source: the first flight, then `server` in
    /// one piece.
    func replay(_ server: [UInt8]) -> TLSReplayOutcome {
        var client = TLSClient(configuration: configuration)
        var random = DeterministicStream(state: seed)
        var outcome = TLSReplayOutcome()
        do throws(TLSError) {
            outcome.sent += try client.start(random: &random)
            let output = try client.receive(server)
            outcome.sent += output.bytesToSend
            if output.handshakeCompleted { outcome.session = client.session }
        } catch {
            outcome.error = error
        }
        return outcome
    }
}

/// The tls group. `measure` runs the first (intact) replay: the bare-metal image
/// passes its cost measurement (instructions, heap, stack), the hosted program
/// simply runs it.
func checkTLSReplay(_ tally: inout Tally, measuringFirst measure: (() -> Bool) -> Void = { _ = $0() }) {
    let flight = recordedTLSFlight
    guard let replayer = TLSReplayer(flight) else {
        tally.check(false, "tls \(flight.name): the anchor or the server name does not parse")
        return
    }
    let server = bytes(flight.server)
    var first = TLSReplayOutcome()
    measure {
        first = replayer.replay(server)
        return first.session != nil
    }
    if let error = first.error {
        tally.check(false, "tls \(flight.name): the recorded flight failed: \(error.code)")
    }
    tally.check(first.sent == bytes(flight.client),
                "tls \(flight.name): the seeded client sent \(first.sent.count) bytes, not the recorded \(bytes(flight.client).count)")
    guard let session = first.session else {
        tally.check(false, "tls \(flight.name): the handshake did not complete")
        return
    }
    tally.check(session.decision?.isTrusted == true, "tls \(flight.name): the decision is not trusted to the test root")
    tally.check(Array(session.protocolVersion.description.utf8) == utf8(flight.protocolVersion),
                "tls \(flight.name): protocol \(session.protocolVersion.description)")
    tally.check(Array(session.cipherSuite.description.utf8) == utf8(flight.cipherSuite),
                "tls \(flight.name): cipher suite \(session.cipherSuite.description)")
    tally.check(Array(session.group.description.utf8) == utf8(flight.group),
                "tls \(flight.name): group \(session.group.description)")
    tally.check(Array(session.signatureScheme.description.utf8) == utf8(flight.signatureScheme),
                "tls \(flight.name): signature scheme \(session.signatureScheme.description)")
    tally.check(session.certificates.count == flight.certificates,
                "tls \(flight.name): \(session.certificates.count) certificates")

    // One bit flipped: in the ServerHello's random (record header 5 + handshake
    // header 4 + legacy_version 2: the transcript, hence every key, differs), in the
    // middle of the flight and in its last byte (the server Finished record's tag).
    for offset in [11, server.count / 2, server.count - 1] where offset >= 0 && offset < server.count {
        var flipped = server
        flipped[offset] ^= 0x01
        let outcome = replayer.replay(flipped)
        tally.check(outcome.session == nil && outcome.error != nil,
                    "tls \(flight.name): bit 0 of byte \(offset) flipped: \(outcome.session != nil ? "the handshake completed" : "no error")")
    }
}
#endif

import Foundation
import TackDER
import TackSignature
import TackTLS
import TackTestSupport
import TackTrust
import TackX509
import Testing

/// One recorded flight of Vectors/tls/recordings (Vectors/tls/generate.sh): the
/// manifest case, the server's bytes and the client's.
struct RecordedFlight: CustomStringConvertible, Sendable {
    let manifest: VectorManifestCase
    let server: [UInt8]
    let client: [UInt8]

    var description: String { manifest.name }
    var seed: UInt64 { manifest.fields["seed"].flatMap { UInt64($0, radix: 16) } ?? 1 }
    var time: Int64 { manifest.fields["time"].flatMap { Int64($0) } ?? 0 }

    static let manifestPath = "tls/recordings/manifest.txt"

    /// Every recording, in manifest order; empty when the set is missing.
    static let all: [RecordedFlight] = VectorManifestCase.read(manifestPath).compactMap { entry in
        guard let server = try? RepositoryPaths.vectorBytes("tls/recordings/\(entry.name).server.bin"),
              let client = try? RepositoryPaths.vectorBytes("tls/recordings/\(entry.name).client.bin") else { return nil }
        return RecordedFlight(manifest: entry, server: server, client: client)
    }

    /// The test root of Vectors/tls/pki.
    static let anchors: AnchorStore = {
        guard let pem = try? RepositoryPaths.vectorBytes("tls/pki/root.pem"), let block = try? PEM.parse(pem).first,
              let root = try? Certificate(derEncoded: block.bytes) else { return AnchorStore() }
        return AnchorStore([root])
    }()

    /// The client the flight was recorded with, deciding trust to the test root for
    /// localhost at the manifest's time.
    func makeClient() -> TLSClient {
        let host = try? PeerHost(manifest.fields["server_name"] ?? "localhost")
        return TLSClient(configuration: TLSClientConfiguration(
            serverName: manifest.fields["server_name"],
            verification: .decision(TrustEvaluator(anchors: Self.anchors), host: host, pinning: PinPolicy(rules: []), time: time)))
    }

    /// Replays `server` (the recorded bytes, or a hostile variant) into a fresh client,
    /// split into chunks of at most `chunk` bytes: the outcome, and what the client sent.
    func replay(_ server: [UInt8], chunk: Int = .max) -> (result: Result<TLSSession, TLSError>?, sent: [UInt8]) {
        var client = makeClient()
        var random = DeterministicStream(state: seed)
        var sent: [UInt8] = []
        do throws(TLSError) {
            sent += try client.start(random: &random)
            var offset = 0
            while offset < server.count {
                let end = server.count - offset > chunk ? offset + chunk : server.count
                let output = try client.receive(server[offset..<end])
                sent += output.bytesToSend
                offset = end
                if output.handshakeCompleted {
                    guard let session = client.session else { return (nil, sent) }
                    return (.success(session), sent)
                }
            }
            return (nil, sent)  // the flight ended before the handshake did
        } catch {
            return (.failure(error), sent)
        }
    }
}

/// Whether the replay tests run: when the recordings exist, and in CI (where a missing
/// set fails) once TackTLS does more than its skeleton's not_implemented (the
/// recordings cannot be made before).
let recordingsRun: Bool = {
    let exists = FileManager.default.fileExists(atPath: RepositoryPaths.vectors(RecordedFlight.manifestPath).path)
    var client = TLSClient(configuration: TLSClientConfiguration(serverName: "localhost", verification: .signaturesOnly))
    var random = DeterministicStream(state: 1)
    var implemented = true
    do throws(TLSError) { _ = try client.start(random: &random) } catch { implemented = error.code != "tls.not_implemented" }
    return exists || (implemented && VectorAvailability.isContinuousIntegration)
}()

@Suite("Replayed flights: each recording completes with the same seeded client at a fixed time",
       .enabled(if: recordingsRun, "Vectors/tls/recordings missing (sh Vectors/tls/generate.sh)"))
struct ReplayFlightTests {
    @Test("the set is there: every configuration of the matrix")
    func setIsComplete() {
        #expect(RecordedFlight.all.count >= 18, "\(RecordedFlight.all.count) recordings")
    }

    @Test("the recorded flight completes a trusted handshake; the client sends what it sent", arguments: RecordedFlight.all)
    func replays(_ flight: RecordedFlight) throws {
        let (result, sent) = flight.replay(flight.server)
        let session = try #require(try result?.get(), "the flight did not complete")
        #expect(sent == flight.client, "the seeded client's bytes are the recorded ones")
        #expect(session.protocolVersion.description == flight.manifest.fields["protocol"])
        #expect(session.cipherSuite.description == flight.manifest.fields["cipher_suite"])
        #expect(session.group.description == flight.manifest.fields["group"])
        #expect(String(session.helloRetryRequest) == flight.manifest.fields["hello_retry_request"])
        #expect(session.signatureScheme.description == flight.manifest.fields["signature_scheme"])
        #expect(String(session.certificates.count) == flight.manifest.fields["certificates"])
        #expect(String(session.stapledOCSPResponses.count) == flight.manifest.fields["stapled_ocsp"])
        #expect(String(session.signedCertificateTimestamps.count) == flight.manifest.fields["scts"])
        #expect(session.decision?.isTrusted == true, "\(String(describing: session.decision))")
    }

    @Test("X25519 is taken from the first ClientHello; P-256 and P-384 come through a HelloRetryRequest")
    func groupsThroughHelloRetryRequest() throws {
        let byName = Dictionary(RecordedFlight.all.map { ($0.manifest.name, $0.manifest) }, uniquingKeysWith: { first, _ in first })
        for (name, group, retried) in [("1-3-aes-128-gcm", "x25519", "false"), ("1-3-p-256-via-hrr", "secp256r1", "true"),
                                       ("1-3-p-384-via-hrr", "secp384r1", "true")] {
            let manifest = try #require(byName[name], "\(name) recorded")
            #expect(manifest.fields["group"] == group, "\(name)")
            #expect(manifest.fields["hello_retry_request"] == retried, "\(name)")
        }
    }

    @Test("the flight split anywhere: one byte at a time, and seeded random chunk sizes give the same session",
          arguments: RecordedFlight.all.prefix(3))
    func splitAnywhere(_ flight: RecordedFlight) throws {
        let whole = try #require(try flight.replay(flight.server).result?.get())
        let bytewise = try #require(try flight.replay(flight.server, chunk: 1).result?.get())
        #expect(bytewise.certificates == whole.certificates)
        var stream = DeterministicStream(state: 0x5eed_0034)
        for _ in 0..<4 {
            let chunk = Int(stream.next() % 700) + 1
            let session = try #require(try flight.replay(flight.server, chunk: chunk).result?.get(), "chunks of \(chunk)")
            #expect(session.certificates == whole.certificates)
        }
    }

    @Test("a later time: the same flight is not trusted (the chain expired in 2046), and the handshake stops with tls.untrusted")
    func expiredAtLaterTime() throws {
        let flight = try #require(RecordedFlight.all.first)
        var late = flight.manifest
        late.fields["time"] = "2524608000"  // 2050-01-01
        let replayed = RecordedFlight(manifest: late, server: flight.server, client: flight.client).replay(flight.server)
        guard case .failure(let error)? = replayed.result else {
            Issue.record("an expired chain completed the handshake")
            return
        }
        #expect(error.code.hasPrefix("tls.untrusted"), "\(error.code)")
        #expect(error.alert != nil)
    }
}

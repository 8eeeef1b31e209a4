import TackSignature
import TackTLS
import TackTestSupport
import Testing

/// The records of a server flight: each one's offset and its bytes (header included).
/// Only for recordings, which are well-formed.
func flightRecords(_ flight: [UInt8]) -> [(offset: Int, bytes: ArraySlice<UInt8>)] {
    var found: [(Int, ArraySlice<UInt8>)] = []
    var offset = 0
    while offset + 5 <= flight.count {
        let end = offset + 5 + (Int(flight[offset + 3]) << 8 | Int(flight[offset + 4]))
        guard end <= flight.count else { break }
        found.append((offset, flight[offset..<end]))
        offset = end
    }
    return found
}

/// Hostile variants of the recorded flights: every one must end in a typed TLSError
/// (never a completed handshake, never a crash). The expensive part of a replay is the
/// client's key generation; each variant replays from a copy of one started client.
@Suite("Hostile flights: bit flips, truncation, spliced and oversized records",
       .enabled(if: recordingsRun, "Vectors/tls/recordings missing (sh Vectors/tls/generate.sh)"))
struct HostileFlightTests {
    /// Replays `server` into a copy of `started` (a client after `start`): completed, or
    /// the error, or nil when the bytes ran out first.
    private func outcome(_ started: TLSClient, _ server: [UInt8]) -> Result<Bool, TLSError>? {
        var client = started
        do throws(TLSError) {
            let output = try client.receive(server)
            return output.handshakeCompleted ? .success(true) : nil
        } catch {
            return .failure(error)
        }
    }

    private func started(_ flight: RecordedFlight) throws -> TLSClient {
        var client = flight.makeClient()
        var random = DeterministicStream(state: flight.seed)
        _ = try client.start(random: &random)
        return client
    }

    /// The offsets where a flipped bit may leave the handshake intact: the
    /// legacy_record_version of each record header, which RFC 8446 §5.1 says "MUST be
    /// ignored for all purposes" (TLS 1.3; a TLS 1.2 client may check it).
    private func ignorableOffsets(_ flight: [UInt8]) -> Set<Int> {
        Set(flightRecords(flight).flatMap { [$0.offset + 1, $0.offset + 2] })
    }

    @Test("one bit flipped at every byte offset of the smallest recording, at 48 seeded offsets of every other: each fails typed")
    func bitFlips() throws {
        let flights = RecordedFlight.all
        let smallest = try #require(flights.min { $0.server.count < $1.server.count })
        var stream = DeterministicStream(state: 0xf11b_0034)
        var checked = 0
        for flight in flights {
            let client = try started(flight)
            let ignorable = ignorableOffsets(flight.server)
            let offsets = flight.manifest.name == smallest.manifest.name
                ? Array(flight.server.indices)
                : (0..<48).map { _ in Int(stream.next() % UInt64(flight.server.count)) }
            for offset in offsets {
                var hostile = flight.server
                let bit = UInt8(1) << UInt8(stream.next() % 8)
                hostile[offset] ^= bit
                let result = outcome(client, hostile)
                if case .success = result {
                    #expect(ignorable.contains(offset), "\(flight): a flipped bit at \(offset) completed the handshake")
                } else if case .failure(let error) = result {
                    #expect(error.code.hasPrefix("tls."))
                } else {
                    // The bytes ran out: a flipped length that asks for more than there is.
                    #expect(offset < flight.server.count)
                }
                checked += 1
            }
        }
        #expect(checked >= smallest.server.count)
    }

    @Test("truncated at every length: fed one byte at a time, no prefix completes the handshake", arguments: RecordedFlight.all)
    func truncation(_ flight: RecordedFlight) throws {
        var client = try started(flight)
        for (index, byte) in flight.server.enumerated() {
            let output = try client.receive(CollectionOfOne(byte))
            #expect(output.handshakeCompleted == (index == flight.server.count - 1), "completed after \(index + 1) of \(flight.server.count) bytes")
            if output.handshakeCompleted { break }
        }
    }

    @Test("an oversized record (2^14 + 256 + 1 bytes of ciphertext, 2^14 + 1 of plaintext) is record_overflow")
    func oversizedRecord() throws {
        let flight = try #require(RecordedFlight.all.first { $0.manifest.fields["protocol"] == "TLSv1.3" })
        let client = try started(flight)
        let first = try #require(flightRecords(flight.server).first)
        let big = 16_384 + 256 + 1
        let encrypted = Array(first.bytes) + [23, 3, 3, UInt8(big >> 8), UInt8(big & 0xff)] + [UInt8](repeating: 0, count: big)
        guard case .failure(let error)? = outcome(client, encrypted) else {
            Issue.record("an oversized encrypted record was accepted")
            return
        }
        #expect(error.code == "tls.record_overflow", "\(error.code)")
        let plain = 16_384 + 1
        let handshake = [22, 3, 3, UInt8(plain >> 8), UInt8(plain & 0xff)] + [UInt8](repeating: 0, count: plain)
        guard case .failure(let plainError)? = outcome(client, handshake) else {
            Issue.record("an oversized plaintext record was accepted")
            return
        }
        #expect(plainError.code == "tls.record_overflow", "\(plainError.code)")
    }

    @Test("TLS 1.2 with 1.3 offered: the downgrade sentinel in the server random ends the handshake (RFC 8446 §4.1.3)")
    func downgradeSentinel() throws {
        let flight = try #require(RecordedFlight.all.first { $0.manifest.fields["protocol"] == "TLSv1.2" })
        var hostile = flight.server
        // Record header (5), handshake header (4), legacy_version (2), random (32): its last 8 bytes.
        let sentinel: [UInt8] = Array("DOWNGRD".utf8) + [0x01]
        hostile.replaceSubrange((5 + 4 + 2 + 24)..<(5 + 4 + 2 + 32), with: sentinel)
        guard case .failure(let error)? = outcome(try started(flight), hostile) else {
            Issue.record("the downgrade sentinel was not refused")
            return
        }
        #expect(error.code == "tls.downgrade_detected", "\(error.code)")
    }

    @Test("a second HelloRetryRequest is refused (RFC 8446 §4.1.4)")
    func secondHelloRetryRequest() throws {
        let flight = try #require(RecordedFlight.all.first { $0.manifest.name.contains("hrr") })
        let first = try #require(flightRecords(flight.server).first)
        let hostile = Array(first.bytes) + flight.server
        guard case .failure(let error)? = outcome(try started(flight), hostile) else {
            Issue.record("a second HelloRetryRequest was accepted")
            return
        }
        #expect(["tls.second_hello_retry_request", "tls.unexpected_message"].contains(error.code), "\(error.code)")
    }

    @Test("TLS 1.2: another handshake's ServerKeyExchange (its signature over other randoms) is a bad signature")
    func splicedServerKeyExchange() throws {
        let rsa12 = RecordedFlight.all.filter { $0.manifest.fields["protocol"] == "TLSv1.2" && $0.manifest.name.contains("rsa") }
        try #require(rsa12.count >= 2)
        // The ServerKeyExchange (type 12) is a plaintext handshake message: find it in
        // each flight's handshake stream and put the first flight's in the second's.
        func serverKeyExchange(_ flight: [UInt8]) -> Range<Int>? {
            for record in flightRecords(flight) where record.bytes.first == 22 {
                var position = record.offset + 5
                while position + 4 <= record.offset + record.bytes.count {
                    let length = Int(flight[position + 1]) << 16 | Int(flight[position + 2]) << 8 | Int(flight[position + 3])
                    if flight[position] == 12 { return position..<(position + 4 + length) }
                    position += 4 + length
                }
            }
            return nil
        }
        let donor = rsa12[0].server
        let target = rsa12[1]
        let donorRange = try #require(serverKeyExchange(donor))
        let targetRange = try #require(serverKeyExchange(target.server))
        try #require(donorRange.count == targetRange.count, "same key type, same message length")
        var hostile = target.server
        hostile.replaceSubrange(targetRange, with: donor[donorRange])
        guard case .failure(let error)? = outcome(try started(target), hostile) else {
            Issue.record("a spliced ServerKeyExchange was accepted")
            return
        }
        #expect(error.code.hasPrefix("tls.bad_signature"), "\(error.code)")
    }
}

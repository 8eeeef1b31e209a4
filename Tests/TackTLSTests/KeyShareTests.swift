import TackSignature
import TackTLS
import Testing

/// The first ClientHello's key shares (TLSClientConfiguration.keyShareGroups).
@Suite("TLS client: the first flight's key shares")
struct KeyShareTests {
    /// The extensions of a ClientHello record (the client's own output, well-formed):
    /// type and body, in order.
    private func extensions(_ record: [UInt8]) throws -> [(type: UInt16, body: [UInt8])] {
        // Record header 5, handshake header 4, legacy_version 2, random 32.
        var offset = 5 + 4 + 2 + 32
        offset += 1 + Int(record[offset])  // legacy_session_id
        offset += 2 + (Int(record[offset]) << 8 | Int(record[offset + 1]))  // cipher_suites
        offset += 1 + Int(record[offset])  // legacy_compression_methods
        let end = offset + 2 + (Int(record[offset]) << 8 | Int(record[offset + 1]))
        try #require(end == record.count, "the extension block ends the record")
        offset += 2
        var found: [(UInt16, [UInt8])] = []
        while offset + 4 <= end {
            let type = UInt16(record[offset]) << 8 | UInt16(record[offset + 1])
            let length = Int(record[offset + 2]) << 8 | Int(record[offset + 3])
            found.append((type, Array(record[(offset + 4)..<(offset + 4 + length)])))
            offset += 4 + length
        }
        return found
    }

    /// The groups of key_share's client_shares, and each share's length.
    private func shares(_ body: [UInt8]) -> [(group: UInt16, length: Int)] {
        var offset = 2
        var found: [(UInt16, Int)] = []
        while offset + 4 <= body.count {
            let length = Int(body[offset + 2]) << 8 | Int(body[offset + 3])
            found.append((UInt16(body[offset]) << 8 | UInt16(body[offset + 1]), length))
            offset += 4 + length
        }
        return found
    }

    private func firstFlight(_ groups: [TLSNamedGroup]? = nil) throws(TLSError) -> [UInt8] {
        var configuration = TLSClientConfiguration(serverName: "localhost", verification: .signaturesOnly)
        if let groups { configuration.keyShareGroups = groups }
        var client = TLSClient(configuration: configuration)
        var random = CountingRandom(state: 3)
        return try client.start(random: &random)
    }

    @Test("by default one X25519 share; supported_groups still lists X25519, P-256 and P-384")
    func defaultIsX25519Alone() throws {
        #expect(TLSClientConfiguration.defaultKeyShareGroups == [.x25519])
        let found = try extensions(try firstFlight())
        let keyShare = try #require(found.first { $0.type == 51 }?.body)
        #expect(shares(keyShare).map(\.group) == [29])
        #expect(shares(keyShare).map(\.length) == [32])
        let groups = try #require(found.first { $0.type == 10 }?.body)
        #expect(groups == [0, 6, 0, 29, 0, 23, 0, 24])
    }

    @Test("configured: X25519 and P-256 shares in that order, or P-384 alone")
    func configuredShares() throws {
        let both = try #require(try extensions(try firstFlight([.x25519, .secp256r1])).first { $0.type == 51 }?.body)
        #expect(shares(both).map(\.group) == [29, 23])
        #expect(shares(both).map(\.length) == [32, 65])
        let p384 = try #require(try extensions(try firstFlight([.secp384r1])).first { $0.type == 51 }?.body)
        #expect(shares(p384).map(\.group) == [24])
        #expect(shares(p384).map(\.length) == [97])
    }

    @Test("an empty list, an unsupported group or one listed twice: invalid_state from start")
    func invalidLists() {
        for groups in [[], [TLSNamedGroup(rawValue: 25)], [.x25519, .x25519]] as [[TLSNamedGroup]] {
            do {
                _ = try firstFlight(groups)
                Issue.record("start accepted key share groups \(groups)")
            } catch {
                #expect(error.code == "tls.invalid_state", "\(groups)")
            }
        }
    }

    @Test("the drawn keys do not depend on the shares sent: the same source gives the same X25519 share")
    func sameDrawsWhateverIsSent() throws {
        let alone = try #require(try extensions(try firstFlight()).first { $0.type == 51 }?.body)
        let both = try #require(try extensions(try firstFlight([.x25519, .secp256r1])).first { $0.type == 51 }?.body)
        // client_shares length 2, then group 2, length 2, then the 32-byte X25519 share.
        #expect(alone[6..<38] == both[6..<38])
    }
}

import Testing
@testable import TackTLS

/// The record layer: framing bounds, reassembly, AEAD protection and its nonces.
@Suite("TLS record layer")
struct RecordLayerTests {
    static let key = [UInt8](repeating: 0x42, count: 16)
    static let iv = [UInt8](repeating: 0x24, count: 12)

    static func pair(_ suite: TLSCipherSuite, mode: RecordProtection.Mode) throws -> (RecordProtection, RecordProtection) {
        let parameters = try #require(SuiteParameters(suite))
        let key = [UInt8](repeating: 0x42, count: parameters.keyLength)
        let iv = [UInt8](repeating: 0x24, count: mode == .tls12GCM ? 4 : 12)
        let cipher = try RecordCipher(suite: parameters, key: key)
        return (RecordProtection(cipher: cipher, iv: iv, mode: mode), RecordProtection(cipher: cipher, iv: iv, mode: mode))
    }

    static func read(_ bytes: [UInt8], limit: Int = TLSLimits.maximumTLS13CiphertextLength) throws -> Record {
        var reader = RecordReader()
        reader.append(bytes)
        return try #require(try reader.next(limit: limit))
    }

    @Test("sealed records open in order, for each suite and mode", arguments: [
        (TLSCipherSuite.aes128GCMSHA256, RecordProtection.Mode.tls13), (.chacha20Poly1305SHA256, .tls13), (.aes256GCMSHA384, .tls13),
        (.ecdheRSAWithAES128GCMSHA256, .tls12GCM), (.ecdheRSAWithChaCha20Poly1305SHA256, .tls12ChaCha),
    ])
    func roundTrip(_ suite: TLSCipherSuite, _ mode: RecordProtection.Mode) throws {
        var (writer, reader) = try Self.pair(suite, mode: mode)
        for message in [[UInt8](), [1, 2, 3], [UInt8](repeating: 7, count: 16_384)] {
            let record = try Self.read(try writer.seal(.applicationData, message), limit: TLSLimits.maximumTLS12CiphertextLength)
            let (type, content) = try reader.open(record)
            #expect(type == .applicationData)
            #expect(content == message)
        }
    }

    @Test("a flipped bit or a replayed record fails authentication: bad_record_mac")
    func tampered() throws {
        var (writer, reader) = try Self.pair(.aes128GCMSHA256, mode: .tls13)
        var sealed = try writer.seal(.handshake, [9, 9, 9])
        sealed[7] ^= 1
        #expect(throws: TLSError(.badRecordMAC)) { _ = try reader.open(try Self.read(sealed)) }
        var (writer2, reader2) = try Self.pair(.chacha20Poly1305SHA256, mode: .tls13)
        let first = try writer2.seal(.handshake, [1])
        _ = try reader2.open(try Self.read(first))
        // The same record again is under the next sequence number: it no longer opens.
        #expect(throws: TLSError(.badRecordMAC)) { _ = try reader2.open(try Self.read(first)) }
    }

    @Test("TLS 1.3 inner plaintext: padding stripped, all-zero content refused")
    func innerPlaintext() throws {
        let parameters = try #require(SuiteParameters(.aes128GCMSHA256))
        let cipher = try RecordCipher(suite: parameters, key: Self.key)
        var reader = RecordProtection(cipher: cipher, iv: Self.iv, mode: .tls13)
        func record(_ inner: [UInt8], sequence: UInt64) throws -> Record {
            var nonce = Self.iv
            for index in 0..<8 { nonce[11 - index] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(index))) }
            let length = inner.count + 16
            let header: [UInt8] = [23, 3, 3, UInt8(length >> 8), UInt8(length & 0xFF)]
            return try Self.read(header + (try cipher.seal(inner, nonce: nonce, aad: header)))
        }
        let (type, content) = try reader.open(try record([5, 6, 22, 0, 0, 0], sequence: 0))
        #expect(type == .handshake)
        #expect(content == [5, 6])
        #expect(throws: TLSError.self) { _ = try reader.open(try record([0, 0, 0], sequence: 1)) }
        // More than 2^14 bytes of content: record_overflow.
        var overflow = RecordProtection(cipher: cipher, iv: Self.iv, mode: .tls13)
        #expect(throws: TLSError(.recordOverflow(length: 16_385, limit: 16_384))) {
            _ = try overflow.open(try record([UInt8](repeating: 1, count: 16_385) + [23], sequence: 0))
        }
    }

    @Test("the sequence number never wraps: sequence_number_exhausted before reuse")
    func sequenceExhaustion() throws {
        var (writer, _) = try Self.pair(.aes128GCMSHA256, mode: .tls13)
        writer.sequence = UInt64.max - 1
        _ = try writer.seal(.applicationData, [1])
        #expect(throws: TLSError(.sequenceNumberExhausted)) { _ = try writer.seal(.applicationData, [1]) }
    }

    @Test("framing: protected-record bounds per version, partial records wait")
    func framing() throws {
        var reader = RecordReader()
        reader.append([23, 3, 3, 0x41, 0x01])  // 2^14 + 257
        #expect(throws: TLSError(.recordOverflow(length: 16_641, limit: TLSLimits.maximumTLS13CiphertextLength))) {
            _ = try reader.next(limit: TLSLimits.maximumTLS13CiphertextLength)
        }
        var tls12 = RecordReader()
        tls12.append([23, 3, 3, 0x41, 0x01, 1])
        #expect(try tls12.next(limit: TLSLimits.maximumTLS12CiphertextLength) == nil)  // allowed, incomplete
        #expect(tls12.hasPartialRecord)
    }

    @Test("handshake reassembly: coalesced messages and one spanning records")
    func reassembly() throws {
        var assembler = HandshakeAssembler()
        let first = makeHandshakeMessage(8, [0, 0])
        let second = makeHandshakeMessage(11, [UInt8](repeating: 3, count: 300))
        let stream = first + second
        assembler.append(Array(stream[0..<10]))
        let one = try #require(try assembler.next())
        #expect(one.type == 8 && one.raw == first)
        #expect(try assembler.next() == nil)
        assembler.append(Array(stream[10...]))
        let two = try #require(try assembler.next())
        #expect(two.type == 11 && two.body.count == 300)
        #expect(assembler.isEmpty)
    }
}

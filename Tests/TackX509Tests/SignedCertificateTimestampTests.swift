import Testing

import TackTestSupport
import TackX509

/// Decoding SCTs (RFC 6962 §3.2) and their lists from any source, leniently: each
/// malformed SCT, and a broken list, is an entry with its typed reason.
@Suite("Signed Certificate Timestamps")
struct SignedCertificateTimestampTests {
    /// A v1 SCT: log ID 32 × 0x11, timestamp 0x0102030405060708 ms, no extensions,
    /// ECDSA/SHA-256, a 3-octet signature.
    static let sct: [UInt8] = [0x00] + Array(repeating: 0x11, count: 32) + [1, 2, 3, 4, 5, 6, 7, 8]
        + [0x00, 0x00, 0x04, 0x03, 0x00, 0x03, 0xAA, 0xBB, 0xCC]

    static func list(_ scts: [[UInt8]]) -> [UInt8] {
        let body = scts.flatMap { [UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 }
        return [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    @Test("A v1 SCT decodes field by field")
    func decodes() throws {
        let decoded = try SignedCertificateTimestamp(serialized: Self.sct[...])
        #expect(decoded.logID.elementsEqual(Array(repeating: 0x11, count: 32)))
        #expect(decoded.timestamp == 0x0102030405060708)
        #expect(decoded.timestampSeconds == Int64(0x0102030405060708 / 1000))
        #expect(decoded.extensions.isEmpty)
        #expect(decoded.signatureAlgorithm == .ecdsaSHA256)
        #expect(decoded.signatureAlgorithm.description == "ecdsa-sha256")
        #expect(Array(decoded.signature) == [0xAA, 0xBB, 0xCC])
    }

    static func replacing(_ range: Range<Int>, with bytes: [UInt8]) -> [UInt8] {
        var result = sct
        result.replaceSubrange(range, with: bytes)
        return result
    }

    static let malformedCases: [([UInt8], SCTError)] = [
        (Array(sct.dropLast()), SCTError(.truncated, at: 47)),
        (sct + [0], SCTError(.trailingBytes, at: 50)),
        (replacing(0..<1, with: [0x01]), SCTError(.unsupportedVersion(1), at: 0)),
        (replacing(43..<45, with: [0x02, 0x03]), SCTError(.unsupportedSignatureAlgorithm(.init(hash: 2, signature: 3)), at: 43)),
        (replacing(41..<43, with: [0x00, 0x09]), SCTError(.truncated, at: 43)),
        ([], SCTError(.truncated, at: 0)),
    ]

    @Test("Malformed SCTs are refused with their reason and offset", arguments: malformedCases)
    func malformed(bytes: [UInt8], error: SCTError) {
        #expect(throws: error) { try SignedCertificateTimestamp(serialized: bytes[...]) }
    }

    @Test("Every prefix of an SCT is refused; only the whole one decodes")
    func dripFeed() {
        for length in 0..<Self.sct.count {
            #expect(throws: SCTError.self) { try SignedCertificateTimestamp(serialized: Self.sct[0..<length]) }
        }
        #expect((try? SignedCertificateTimestamp(serialized: Self.sct[...])) != nil)
    }

    @Test("A list decodes each SCT, keeping the malformed ones as typed entries")
    func entries() {
        let bad = Self.replacing(0..<1, with: [0x01])
        let entries = SignedCertificateTimestampList.decodeEntries(Self.list([Self.sct, bad, Self.sct])[...])
        #expect(entries.count == 3)
        #expect((try? entries[0].get()) != nil)
        #expect(throws: SCTError(.unsupportedVersion(1), at: 56)) { try entries[1].get() }
        #expect((try? entries[2].get()) != nil)
    }

    static let brokenLists: [([UInt8], SCTError)] = [
        ([0x00], SCTError(.malformedList(.truncatedSCTList), at: 0)),
        ([0x00, 0x05, 0x00, 0x10, 0x00], SCTError(.malformedList(.sctListLengthMismatch), at: 0)),
        ([0x00, 0x00], SCTError(.malformedList(.sctListLengthMismatch), at: 0)),
        ([0x00, 0x03, 0x00, 0x05, 0xAA], SCTError(.malformedList(.invalidSCTLength), at: 2)),
        ([0x00, 0x01, 0x00], SCTError(.malformedList(.truncatedSCTLength), at: 2)),
    ]

    @Test("A broken list is one malformed entry with its framing fault", arguments: brokenLists)
    func brokenList(bytes: [UInt8], error: SCTError) {
        let entries = SignedCertificateTimestampList.decodeEntries(bytes[...])
        #expect(entries.count == 1)
        #expect(throws: error) { try entries[0].get() }
    }

    @Test("An SCT length running past the list keeps the SCTs before it")
    func lengthPastList() {
        var bytes = Self.list([Self.sct, Self.sct])
        bytes[2 + 2 + Self.sct.count + 1] = 0xFF  // the second SCT's length
        let entries = SignedCertificateTimestampList.decodeEntries(bytes[...])
        #expect(entries.count == 2)
        #expect((try? entries[0].get()) != nil)
        #expect(throws: SCTError(.malformedList(.invalidSCTLength), at: 2 + 2 + Self.sct.count)) { try entries[1].get() }
    }

    @Test("Seeded random mutations of a list never trap, and every SCT gets an entry")
    func mutations() {
        var stream = DeterministicStream(state: 6962)
        let original = Self.list([Self.sct, Self.sct])
        for _ in 0..<2_000 {
            var bytes = original
            let index = Int(stream.next() % UInt64(bytes.count))
            bytes[index] = UInt8(truncatingIfNeeded: stream.next())
            let entries = SignedCertificateTimestampList.decodeEntries(bytes[...])
            #expect(!entries.isEmpty)
        }
    }

    @Test("The signed data of an X.509 entry follows RFC 6962 §3.2")
    func signedData() throws {
        let decoded = try SignedCertificateTimestamp(serialized: Self.sct[...])
        let data = decoded.signedData(for: .x509(certificate: [0x30, 0x00]))
        #expect(data == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 2, 0x30, 0x00, 0, 0])
        let precert = decoded.signedData(for: .precertificate(issuerKeyHash: Array(repeating: 0x22, count: 32), tbsCertificate: [0x30, 0x00]))
        #expect(precert == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1] + Array(repeating: 0x22, count: 32) + [0, 0, 2, 0x30, 0x00, 0, 0])
    }
}

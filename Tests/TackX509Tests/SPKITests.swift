import Foundation
import Testing
import TackDER
import TackTestSupport
import TackX509

@Suite("SPKI: reconstruction from raw key bytes and header prefixes")
struct SPKITests {
    @Test("The RSA-2048 and P-256 headers are the well-known 24 and 26 bytes")
    func wellKnownHeaders() throws {
        let rsa = try #require(SPKIHeader.rsa(modulusBitCount: 2048))
        #expect(rsa.bytes == hexBytes("30 82 01 22 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01 05 00 03 82 01 0f 00"))
        #expect(rsa.rawKeyByteCount == 270)
        let p256 = try #require(SPKIHeader.forKey(.p256, rawKeyByteCount: 65))
        #expect(p256.bytes == hexBytes("30 59 30 13 06 07 2a 86 48 ce 3d 02 01 06 08 2a 86 48 ce 3d 03 01 07 03 42 00"))
    }

    @Test("The common headers have the lengths and first bytes iOS pinning code uses", arguments: [
        ("RSA-1024", "30 81 9f 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01 05 00 03 81 8d 00"),
        ("RSA-2048", "30 82 01 22 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01 05 00 03 82 01 0f 00"),
        ("RSA-3072", "30 82 01 a2 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01 05 00 03 82 01 8f 00"),
        ("RSA-4096", "30 82 02 22 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01 05 00 03 82 02 0f 00"),
        ("RSA-8192", "30 82 04 22 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01 05 00 03 82 04 0f 00"),
        ("EC P-256", "30 59 30 13 06 07 2a 86 48 ce 3d 02 01 06 08 2a 86 48 ce 3d 03 01 07 03 42 00"),
        ("EC P-384", "30 76 30 10 06 07 2a 86 48 ce 3d 02 01 06 05 2b 81 04 00 22 03 62 00"),
        ("EC P-521", "30 81 9b 30 10 06 07 2a 86 48 ce 3d 02 01 06 05 2b 81 04 00 23 03 81 86 00"),
        ("Ed25519", "30 2a 30 05 06 03 2b 65 70 03 21 00"),
    ])
    func commonHeaders(name: String, expected: String) throws {
        let header = try #require(SPKIHeader.common.first { $0.name == name })
        #expect(header.bytes == hexBytes(expected))
    }

    @Test("Every certificate of the system CA bundle: the SPKI rebuilt from its raw key equals its SPKI byte for byte")
    func bundleRebuild() throws {
        let bundle = SystemCABundle.certificates
        try #require(!bundle.isEmpty, "no \(SystemCABundle.path) on this machine")
        var rebuilt = 0
        for (index, der) in bundle.enumerated() {
            let certificate = try Certificate(derEncoded: der)
            let info = certificate.publicKeyInfo
            let type = try #require(info.keyType, "certificate \(index): \(info.algorithm) cannot be rebuilt")
            let spki = try SubjectPublicKeyInfo.encode(rawKey: Array(info.rawKey), type: type)
            #expect(spki[...] == certificate.spkiBytes, "certificate \(index)")
            let header = try #require(SPKIHeader.forKey(type, rawKeyByteCount: info.rawKey.count))
            #expect(header.bytes[...] == certificate.spkiBytes.prefix(header.bytes.count))
            rebuilt += 1
        }
        #expect(rebuilt == bundle.count)
    }

    @Test("An RSA raw key must be one strict RSAPublicKey", arguments: [
        ("30 06 02 01 05 02 01 03 00", X509Error(.der(.trailingData), at: 8)),
        ("30 06 02 01 85 02 01 03", X509Error(.der(.negativeInteger), at: 2)),
        ("30 07 02 02 00 05 02 01 03", X509Error(.der(.nonMinimalInteger), at: 2)),
        ("30 06 02 01 00 02 01 03", X509Error(.invalidPublicKey(.zeroModulus), at: 2)),
        ("30 03 02 01 05", X509Error(.der(.missingElement(expected: .integer)), at: 5)),
        ("31 06 02 01 05 02 01 03", X509Error(.der(.unexpectedTag(expected: .sequence, found: .set)), at: 0)),
    ])
    func rsaRawKeyErrors(raw: String, expected: X509Error) {
        #expect(throws: expected) { try SubjectPublicKeyInfo.encode(rawKey: hexBytes(raw), type: .rsa) }
    }

    @Test("EC and RFC 8410 raw keys must have the exact length (and 04 for EC)")
    func fixedLengthErrors() {
        // A short key is refused where it ends.
        #expect(throws: X509Error(.invalidPublicKey(.wrongLength), at: 64)) {
            try SubjectPublicKeyInfo.encode(rawKey: [0x04] + [UInt8](repeating: 1, count: 63), type: .p256)
        }
        #expect(throws: X509Error(.invalidPublicKey(.notUncompressedPoint), at: 0)) {
            try SubjectPublicKeyInfo.encode(rawKey: [0x02] + [UInt8](repeating: 1, count: 64), type: .p256)
        }
        #expect(throws: X509Error(.invalidPublicKey(.wrongLength), at: 31)) {
            try SubjectPublicKeyInfo.encode(rawKey: [UInt8](repeating: 1, count: 31), type: .ed25519)
        }
        #expect(throws: X509Error(.invalidPublicKey(.wrongLength), at: 0)) { try SubjectPublicKeyInfo.encode(rawKey: [], type: .x448) }
        #expect((try? SubjectPublicKeyInfo.encode(rawKey: [UInt8](repeating: 1, count: 57), type: .ed448)) != nil)
    }

    @Test("A rebuilt SPKI parses back with the same type, size and raw key", arguments: PublicKeyType.allCases)
    func rebuildRoundTrip(type: PublicKeyType) throws {
        let raw: [UInt8]
        switch type {
        case .rsa: raw = hexBytes("30 0a 02 03 00 c3 5b 02 03 01 00 01")
        case .p256, .p384, .p521: raw = [0x04] + [UInt8](repeating: 7, count: type.rawKeyByteCount! - 1)
        default: raw = [UInt8](repeating: 9, count: type.rawKeyByteCount!)
        }
        let info = try SubjectPublicKeyInfo(rawKey: raw, type: type)
        #expect(info.keyType == type)
        #expect(Array(info.rawKey) == raw)
        #expect(info.range == 0..<info.derEncoded.count)
        if type == .rsa {
            #expect(info.keySizeInBits == 16)
            #expect(info.rsaPublicExponent.map(Array.init) == [0x01, 0x00, 0x01])
        }
    }

    /// An SPKI DER with the given algorithm identifier contents and key bytes.
    static func spki(algorithm: (inout DERWriter) -> Void, key: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        try! writer.writeSequence { (spki: inout DERWriter) throws(DERError) in
            spki.writeSequence(algorithm)
            try spki.writeBitString(bytes: key)
        }
        return writer.bytes
    }

    @Test("A compressed P-256 point is accepted and reported as compressed (RFC 5480 §2.2 MAY)")
    func compressedPoint() throws {
        let der = Self.spki(algorithm: {
            $0.writeObjectIdentifier(OID(1, 2, 840, 10045, 2, 1))
            $0.writeObjectIdentifier(OID(1, 2, 840, 10045, 3, 1, 7))
        }, key: [0x03] + [UInt8](repeating: 0xAB, count: 32))
        let info = try SubjectPublicKeyInfo(derEncoded: der)
        #expect(info.algorithm == .ec(.p256) && info.ecPointFormat == .compressed && info.keySizeInBits == 256)
        // The raw-key rebuild takes only the uncompressed form SecKeyCopyExternalRepresentation returns.
        #expect(throws: X509Error(.invalidPublicKey(.notUncompressedPoint), at: 0)) {
            try SubjectPublicKeyInfo.encode(rawKey: Array(info.rawKey), type: .p256)
        }
    }

    @Test("An EC key on another named curve is kept by OID; its point is checked for format only")
    func otherCurve() throws {
        let brainpool = OID(1, 3, 36, 3, 3, 2, 8, 1, 1, 7)
        let der = Self.spki(algorithm: {
            $0.writeObjectIdentifier(OID(1, 2, 840, 10045, 2, 1))
            $0.writeObjectIdentifier(brainpool)
        }, key: [0x04] + [UInt8](repeating: 1, count: 64))
        let info = try SubjectPublicKeyInfo(derEncoded: der)
        #expect(info.algorithm == .ecOtherCurve(brainpool) && info.keyType == nil && info.keySizeInBits == nil)
    }

    @Test("An RSASSA-PSS key without parameters parses as RSA restricted to PSS")
    func pssKey() throws {
        let rsaKey = hexBytes("30 0a 02 03 00 c3 5b 02 03 01 00 01")
        let der = Self.spki(algorithm: { $0.writeObjectIdentifier(OID(1, 2, 840, 113549, 1, 1, 10)) }, key: rsaKey)
        let info = try SubjectPublicKeyInfo(derEncoded: der)
        #expect(info.algorithm == .rsaPSS(nil) && info.keyType == nil && info.keySizeInBits == 16)
        #expect(info.rsaModulus.map(Array.init) == [0xc3, 0x5b])
    }

    @Test("SPKI rule violations give their own errors", arguments: [
        // X25519 key of 31 bytes.
        ("x25519-31", X509Error.Reason.invalidPublicKey(.wrongLength)),
        // EC key with NULL (implicitCurve) parameters.
        ("ec-null", X509Error.Reason.invalidAlgorithmParameters(.notANamedCurve)),
        // Key BIT STRING with unused bits.
        ("ed25519-unused", X509Error.Reason.invalidPublicKey(.unusedBits)),
    ])
    func spkiErrors(name: String, expected: X509Error.Reason) {
        var der: [UInt8]
        switch name {
        case "x25519-31":
            der = Self.spki(algorithm: { $0.writeObjectIdentifier(OID(1, 3, 101, 110)) }, key: [UInt8](repeating: 1, count: 31))
        case "ec-null":
            der = Self.spki(algorithm: { $0.writeObjectIdentifier(OID(1, 2, 840, 10045, 2, 1)); $0.writeNull() },
                            key: [0x04] + [UInt8](repeating: 1, count: 64))
        default:
            var writer = DERWriter()
            try! writer.writeSequence { (spki: inout DERWriter) throws(DERError) in
                spki.writeSequence { $0.writeObjectIdentifier(OID(1, 3, 101, 112)) }
                try spki.writeBitString(bytes: [UInt8](repeating: 0, count: 32), unusedBitCount: 1)
            }
            der = writer.bytes
        }
        let error = #expect(throws: X509Error.self) { try SubjectPublicKeyInfo(derEncoded: der) }
        #expect(error?.reason == expected)
    }
}

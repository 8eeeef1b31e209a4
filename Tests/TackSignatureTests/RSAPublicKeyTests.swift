import Testing

import TackSignature
import TackTestSupport

/// Key validation and the strict PKCS #1 `RSAPublicKey` reader.
@Suite("RSA public keys")
struct RSAPublicKeyTests {
    /// A 2048-bit odd modulus (not a real key; validation does not factor).
    static let modulus2048: [UInt8] = [0xC7] + (1..<255).map { UInt8(truncatingIfNeeded: $0 &* 37) } + [0x35]

    /// Big-endian bytes of a modulus with exactly `bits` bits, odd.
    static func modulus(bits: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xA5, count: (bits + 7) / 8)
        let topBits = bits - 8 * (bytes.count - 1)
        bytes[0] = UInt8(1 << (topBits - 1)) | 0x01
        bytes[bytes.count - 1] |= 0x01
        return bytes
    }

    static func derLength(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        if count < 0x100 { return [0x81, UInt8(count)] }
        return [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
    }

    /// DER INTEGER of a non-negative big-endian magnitude.
    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var content = Array(magnitude.drop(while: { $0 == 0 }))
        if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        return [0x02] + derLength(content.count) + content
    }

    static func sequence(_ content: [UInt8]) -> [UInt8] {
        [0x30] + derLength(content.count) + content
    }

    static let goodDER = sequence(integer(modulus2048) + integer([0x01, 0x00, 0x01]))

    @Test("A PKCS #1 RSAPublicKey parses to the same key as its raw modulus and exponent")
    func parsesDER() throws {
        let parsed = try RSAPublicKey(pkcs1DER: Self.goodDER)
        let raw = try RSAPublicKey(modulus: Self.modulus2048, exponent: 65537)
        #expect(parsed == raw)
        #expect(parsed.modulus == Self.modulus2048)
        #expect(parsed.exponent == 65537)
        #expect(parsed.modulusBitCount == 2048)
        #expect(parsed.signatureByteCount == 256)
    }

    @Test("Every proper prefix of the DER is refused (drip-feed)")
    func dripFeed() {
        for length in 0..<Self.goodDER.count {
            #expect(throws: SignatureError.malformedPublicKey(.encoding(derPrefixError(Self.goodDER, length: length, ifEmpty: .missingElement(expected: .sequence))))) {
                try RSAPublicKey(pkcs1DER: Array(Self.goodDER.prefix(length)))
            }
        }
    }

    static let malformedDER: [(String, [UInt8])] = [
        ("trailing byte after the SEQUENCE", goodDER + [0x00]),
        ("trailing element inside the SEQUENCE",
         sequence(integer(modulus2048) + integer([0x01, 0x00, 0x01]) + [0x05, 0x00])),
        ("exponent missing", sequence(integer(modulus2048))),
        ("non-minimal length of the exponent",
         sequence(integer(modulus2048) + [0x02, 0x81, 0x03, 0x01, 0x00, 0x01])),
        ("non-minimal INTEGER (extra leading zero) for the exponent",
         sequence(integer(modulus2048) + [0x02, 0x04, 0x00, 0x01, 0x00, 0x01])),
        ("negative modulus (sign octet removed)",
         sequence([0x02, 0x82, 0x01, 0x00] + modulus2048 + integer([0x01, 0x00, 0x01]))),
        ("negative exponent", sequence(integer(modulus2048) + [0x02, 0x01, 0xFD])),
        ("indefinite length", [0x30, 0x80] + integer(modulus2048) + integer([0x03]) + [0x00, 0x00]),
        ("SET instead of SEQUENCE", [0x31] + Array(goodDER.dropFirst())),
        ("BIT STRING instead of INTEGER",
         sequence([0x03, 0x82, 0x01, 0x01] + [0x00] + modulus2048 + integer([0x01, 0x00, 0x01]))),
    ]

    @Test("Malformed DER is refused with malformedPublicKey", arguments: 0..<malformedDER.count)
    func malformed(_ index: Int) {
        let (label, der) = Self.malformedDER[index]
        do {
            _ = try RSAPublicKey(pkcs1DER: der)
            Issue.record("accepted: \(label)")
        } catch {
            guard case .malformedPublicKey = error else {
                Issue.record("\(label): wrong error \(error)")
                return
            }
        }
    }

    @Test("Modulus sizes: 1024 and 8192 bits accepted, 1023 and 8193 refused as unsupported")
    func modulusBounds() throws {
        #expect(try RSAPublicKey(modulus: Self.modulus(bits: 1024), exponent: 65537).modulusBitCount == 1024)
        #expect(try RSAPublicKey(modulus: Self.modulus(bits: 8192), exponent: 65537).modulusBitCount == 8192)
        #expect(throws: SignatureError.unsupported(.rsaModulusTooShort(bits: 1023))) {
            try RSAPublicKey(modulus: Self.modulus(bits: 1023), exponent: 65537)
        }
        #expect(throws: SignatureError.unsupported(.rsaModulusTooLong(bits: 8193))) {
            try RSAPublicKey(modulus: Self.modulus(bits: 8193), exponent: 65537)
        }
        // Leading zero bytes do not count.
        #expect(try RSAPublicKey(modulus: [0, 0] + Self.modulus(bits: 1024), exponent: 3).modulusBitCount == 1024)
    }

    @Test("Even and zero moduli are malformed")
    func modulusShape() {
        var even = Self.modulus2048
        even[even.count - 1] &= 0xFE
        #expect(throws: SignatureError.malformedPublicKey(.evenModulus)) {
            try RSAPublicKey(modulus: even, exponent: 65537)
        }
        #expect(throws: SignatureError.malformedPublicKey(.zeroModulus)) {
            try RSAPublicKey(modulus: [0, 0, 0], exponent: 65537)
        }
    }

    @Test("Exponents: odd, at least 3, at most 33 bits")
    func exponentBounds() throws {
        for e: UInt64 in [3, 17, 65537, (1 << 33) - 1] {
            #expect(try RSAPublicKey(modulus: Self.modulus2048, exponent: e).exponent == e)
        }
        for e: UInt64 in [0, 1, 2, 65536] {
            #expect(throws: SignatureError.malformedPublicKey(.invalidExponent)) {
                try RSAPublicKey(modulus: Self.modulus2048, exponent: e)
            }
        }
        for e: UInt64 in [(1 << 33) + 1, UInt64.max] {
            #expect(throws: SignatureError.unsupported(.rsaExponentTooLarge)) {
                try RSAPublicKey(modulus: Self.modulus2048, exponent: e)
            }
        }
        // As bytes: leading zeros are ignored, nine significant bytes refused.
        #expect(try RSAPublicKey(modulus: Self.modulus2048, exponent: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]).exponent == 65537)
        #expect(throws: SignatureError.unsupported(.rsaExponentTooLarge)) {
            try RSAPublicKey(modulus: Self.modulus2048, exponent: [1, 0, 0, 0, 0, 0, 0, 0, 1])
        }
    }

    @Test("PSS parameters follow RFC 4055: trailer field 1, salt length in range")
    func pssParameters() throws {
        let defaults = PSSParameters(hash: .sha384)
        #expect(defaults.mgf1Hash == .sha384 && defaults.saltLength == 48 && defaults.trailerField == 1)
        #expect(throws: SignatureError.invalidParameters(.pssTrailerField)) {
            try PSSParameters(hash: .sha256, mgf1Hash: .sha256, saltLength: 32, trailerField: 2)
        }
        #expect(throws: SignatureError.invalidParameters(.negativeSaltLength)) {
            try PSSParameters(hash: .sha256, mgf1Hash: .sha256, saltLength: -1)
        }
        #expect(throws: SignatureError.invalidParameters(.saltLengthTooLarge)) {
            try PSSParameters(hash: .sha256, mgf1Hash: .sha256, saltLength: 1025)
        }
        // emLen = 128 for 1024 bits: 64 + 63 + 2 > 128.
        let key = try RSAPublicKey(modulus: Self.modulus(bits: 1024), exponent: 65537)
        let parameters = try PSSParameters(hash: .sha512, mgf1Hash: .sha512, saltLength: 63)
        #expect(throws: SignatureError.invalidParameters(.saltTooLongForKey)) {
            try key.verifyPSSSignature([UInt8](repeating: 1, count: 128), for: [UInt8](), parameters: parameters)
        }
    }
}

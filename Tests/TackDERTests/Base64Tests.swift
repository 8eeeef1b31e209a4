import TackDER
import Testing
import TackTestSupport

/// One rejected Base64 input and the exact error it must produce.
struct Base64Rejection: Sendable, CustomTestStringConvertible {
    var input: [UInt8]
    var options: Base64.DecodingOptions
    var error: Base64Error

    init(_ text: String, _ error: Base64Error, options: Base64.DecodingOptions = []) {
        self.input = Array(text.utf8)
        self.options = options
        self.error = error
    }

    init(bytes: [UInt8], _ error: Base64Error) {
        self.input = bytes
        self.options = []
        self.error = error
    }

    var testDescription: String {
        let shown = input.map { byte in
            byte >= 0x20 && byte < 0x7F
                ? String(UnicodeScalar(byte)) : "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }
        return "\"\(shown.joined())\"\(options.isEmpty ? "" : " (whitespace skipped)") → \(error)"
    }
}

@Suite("Base64 (RFC 4648)")
struct Base64Tests {
    /// RFC 4648 §10.
    static let rfcVectors: [(String, String)] = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test("RFC 4648 §10 test vectors encode and decode", arguments: rfcVectors)
    func rfcVector(plain: String, encoded: String) throws {
        let bytes = Array(plain.utf8)
        #expect(Base64.encode(bytes) == encoded)
        #expect(Base64.encodedBytes(bytes) == Array(encoded.utf8))
        #expect(try Base64.decode(encoded) == bytes)
        #expect(try Base64.decode(Array(encoded.utf8)) == bytes)
        #expect(try Base64.decode(encoded[...]) == bytes)
        #expect(try Base64.decode(encoded, options: .ignoringWhitespace) == bytes)
        #expect(Base64.encodedCount(ofByteCount: bytes.count) == encoded.utf8.count)
    }

    @Test("Every alphabet character decodes to its value (RFC 4648 Table 1)")
    func alphabet() throws {
        let table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        // 64 characters = 16 quanta; value i at position i packs into 48 bytes.
        let decoded = try Base64.decode(table)
        #expect(decoded.count == 48)
        var bits: [UInt8] = []
        for byte in decoded {
            for shift in stride(from: 7, through: 0, by: -1) { bits.append((byte >> UInt8(shift)) & 1) }
        }
        for value in 0..<64 {
            let sextet = bits[(value * 6)..<(value * 6 + 6)].reduce(0) { $0 << 1 | Int($1) }
            #expect(sextet == value)
        }
        #expect(Base64.encode(decoded) == table)
    }

    @Test("Random byte strings of every length 0...300 round-trip, strict and with line breaks")
    func randomRoundTrips() throws {
        var rng = DeterministicStream(state: 0x7ACC_BA5E_64)
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            let text = Base64.encode(bytes)
            #expect(text.utf8.count == Base64.encodedCount(ofByteCount: length))
            #expect(try Base64.decode(text) == bytes, "length \(length)")
            // Wrapped at 64 columns with CRLF, as in a PEM body.
            var wrapped = ""
            var line = 0
            for character in text {
                wrapped.append(character)
                line += 1
                if line == 64 {
                    wrapped += "\r\n"
                    line = 0
                }
            }
            #expect(try Base64.decode(wrapped, options: .ignoringWhitespace) == bytes, "length \(length)")
        }
    }

    @Test("A SHA-256 pin (RFC 7469 §2.4 form) decodes to 32 bytes")
    func pin() throws {
        // SHA-256 of the empty string.
        let digest = try Base64.decode("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(digest.count == 32)
        #expect(Array(digest.prefix(4)) == [0xE3, 0xB0, 0xC4, 0x42])
        #expect(Base64.encode(digest) == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    }

    @Test("Accepted counterparts of the rejection rules")
    func accepted() throws {
        #expect(try Base64.decode("") == [])
        #expect(try Base64.decode("Zg==") == [0x66])  // two characters, zero trailing bits
        #expect(try Base64.decode("Zm8=") == [0x66, 0x6F])  // three characters, zero trailing bits
        #expect(try Base64.decode("+/+/") == [0xFB, 0xFF, 0xBF])  // '+' and '/' are in the alphabet
        #expect(try Base64.decode("Zm9v\r\n Ym\tFy\u{0B}\u{0C}", options: .ignoringWhitespace) == Array("foobar".utf8))
        #expect(try Base64.decode("Zg\n=\n=\n", options: .ignoringWhitespace) == [0x66])
        #expect(try Base64.decode("  \n", options: .ignoringWhitespace) == [])
    }

    static let rejections: [Base64Rejection] = [
        // Outside the alphabet.
        Base64Rejection("Zm9v!A==", .invalidCharacter(UInt8(ascii: "!"), offset: 4)),
        Base64Rejection("Zm-_", .invalidCharacter(UInt8(ascii: "-"), offset: 2)),  // base64url is not accepted
        Base64Rejection("Zm 9v", .invalidCharacter(UInt8(ascii: " "), offset: 2)),  // strict: no whitespace
        Base64Rejection("Zm9v\n", .invalidCharacter(UInt8(ascii: "\n"), offset: 4)),
        Base64Rejection(bytes: [0x5A, 0x6D, 0x39, 0xC3, 0xA9], .invalidCharacter(0xC3, offset: 3)),
        Base64Rejection(bytes: [0x5A, 0x00, 0x39, 0x76], .invalidCharacter(0x00, offset: 1)),
        Base64Rejection("Zm9v\n!", .invalidCharacter(UInt8(ascii: "!"), offset: 5), options: .ignoringWhitespace),
        // '=' where padding cannot be.
        Base64Rejection("=Zm9", .misplacedPadding(offset: 0)),
        Base64Rejection("Zm=v", .misplacedPadding(offset: 2)),
        Base64Rejection("Zg==Zm9v", .misplacedPadding(offset: 2)),
        Base64Rejection("Zm9v=", .misplacedPadding(offset: 4)),
        Base64Rejection("====", .misplacedPadding(offset: 0)),
        Base64Rejection("Zg=\n=Zm9v", .misplacedPadding(offset: 2), options: .ignoringWhitespace),
        // Wrong number of '='.
        Base64Rejection("Zm8==", .invalidPadding(offset: 4)),
        Base64Rejection("Zg===", .invalidPadding(offset: 4)),
        Base64Rejection("Zg=", .invalidPadding(offset: 3)),
        Base64Rejection("Zg=\n", .invalidPadding(offset: 3), options: .ignoringWhitespace),
        // No padding at all.
        Base64Rejection("Zg", .missingPadding(offset: 2)),
        Base64Rejection("Zm8", .missingPadding(offset: 3)),
        Base64Rejection("Zm9vYg", .missingPadding(offset: 6)),
        Base64Rejection("Zm9vYg\n", .missingPadding(offset: 6), options: .ignoringWhitespace),
        // Impossible length: a lone character in the last quantum.
        Base64Rejection("Z", .invalidLength(offset: 0)),
        Base64Rejection("Zm9vY", .invalidLength(offset: 4)),
        Base64Rejection("Z===", .invalidLength(offset: 0)),
        Base64Rejection("Zm9vY=", .invalidLength(offset: 4)),
        Base64Rejection("Zm9v\nY\n", .invalidLength(offset: 5), options: .ignoringWhitespace),
        // Non-zero unused bits: 'h' = 0b100001 leaves 0001, '9' = 0b111101 leaves 01.
        Base64Rejection("Zh==", .nonZeroTrailingBits(offset: 1)),
        Base64Rejection("Zm9=", .nonZeroTrailingBits(offset: 2)),
        Base64Rejection("Zm9vZ/==", .nonZeroTrailingBits(offset: 5)),
    ]

    @Test("Each strictness rule rejects with its exact error and offset", arguments: rejections)
    func rejected(_ rejection: Base64Rejection) {
        #expect(throws: rejection.error) {
            try Base64.decode(rejection.input, options: rejection.options)
        }
        if let text = String(validating: rejection.input, as: UTF8.self) {
            #expect(throws: rejection.error) {
                try Base64.decode(text, options: rejection.options)
            }
        }
    }

    @Test("Every prefix of a valid text is rejected unless it ends on a quantum boundary (drip feed)")
    func dripFeed() throws {
        let bytes = Array("drip-feed: any prefix".utf8)  // 21 bytes: the last quantum is padded
        let text = Array(Base64.encode(bytes).utf8)
        for cut in 0...text.count {
            let prefix = text[..<cut]
            if cut % 4 == 0 && cut < text.count {
                // Whole quanta of data: a shorter, still canonical text.
                #expect(try Base64.decode(prefix) == Array(bytes.prefix(cut / 4 * 3)), "prefix of \(cut)")
            } else if cut == text.count {
                #expect(try Base64.decode(prefix) == bytes)
            } else {
                // One character of a quantum encodes no byte; two or three lack their '='.
                let expected: Base64Error = cut % 4 == 1 ? .invalidLength(offset: cut - 1) : .missingPadding(offset: cut)
                #expect(throws: expected, "prefix of \(cut)") { try Base64.decode(prefix) }
            }
        }
    }

    @Test("Offsets in a slice count from the slice's first byte, not its startIndex")
    func sliceOffsets() {
        let buffer = Array("xxZg=!".utf8)
        #expect(throws: Base64Error.invalidCharacter(UInt8(ascii: "!"), offset: 3)) {
            try Base64.decode(buffer[2...])
        }
    }

    @Test("A non-contiguous collection decodes like an array")
    func nonContiguous() throws {
        let text = Array("Zm9vYmFy".utf8)
        #expect(try Base64.decode(text.lazy.map { $0 }) == Array("foobar".utf8))
        #expect(Base64.encode(Array("foobar".utf8).lazy.map { $0 }) == "Zm9vYmFy")
    }

    @Test("The error's offset accessor returns each case's offset")
    func errorOffset() {
        #expect(Base64Error.invalidCharacter(0, offset: 1).offset == 1)
        #expect(Base64Error.misplacedPadding(offset: 2).offset == 2)
        #expect(Base64Error.invalidPadding(offset: 3).offset == 3)
        #expect(Base64Error.missingPadding(offset: 4).offset == 4)
        #expect(Base64Error.invalidLength(offset: 5).offset == 5)
        #expect(Base64Error.nonZeroTrailingBits(offset: 6).offset == 6)
    }

    @Test("encodedCount is exact, and nil for negative or overflowing counts")
    func encodedCount() {
        #expect(Base64.encodedCount(ofByteCount: 0) == 0)
        #expect(Base64.encodedCount(ofByteCount: 1) == 4)
        #expect(Base64.encodedCount(ofByteCount: 3) == 4)
        #expect(Base64.encodedCount(ofByteCount: 4) == 8)
        #expect(Base64.encodedCount(ofByteCount: -1) == nil)
        #expect(Base64.encodedCount(ofByteCount: Int.max) == nil)
    }
}

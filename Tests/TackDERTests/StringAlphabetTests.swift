import Testing
import TackDER

/// The word-at-a-time and set-lookup string checks agree with the one-octet rules.
@Suite("String alphabets")
struct StringAlphabetTests {
    @Test("The PrintableString set check agrees with the one-octet check for all 256 octets")
    func printableSetMatchesOctetRule() {
        for value in 0...255 {
            let byte = UInt8(value)
            let accepted = [byte].withUnsafeBufferPointer { DERStringKind.isPrintable($0) }
            #expect(accepted == DERStringKind.isPrintable(byte), "octet \(value)")
        }
        // The alphabet of X.680 §41.4, counted: 26 + 26 + 10 letters and digits, 12 others.
        #expect((0...255).filter { DERStringKind.isPrintable(UInt8($0)) }.count == 74)
    }

    @Test("One bad octet anywhere in a PrintableString is found", arguments: [1, 7, 8, 9, 16, 17, 40])
    func printableBadOctetAnywhere(length: Int) {
        for position in 0..<length {
            for bad: UInt8 in [0x00, 0x21, 0x40, 0x5F, 0x7F, 0x80, 0xC3, 0xFF] {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = bad
                #expect(!bytes.withUnsafeBufferPointer { DERStringKind.isPrintable($0) })
            }
        }
    }

    @Test("One high octet anywhere defeats the ASCII check", arguments: [0, 1, 7, 8, 9, 15, 16, 17, 33])
    func asciiHighOctetAnywhere(length: Int) {
        let clean = [UInt8](repeating: 0x7F, count: length)
        #expect(clean.withUnsafeBufferPointer { DERStringKind.isASCII($0) })
        for position in 0..<length {
            var bytes = clean
            bytes[position] = 0x80
            #expect(!bytes.withUnsafeBufferPointer { DERStringKind.isASCII($0) })
        }
    }

    @Test("UTF-8 after an ASCII run is still checked sequence by sequence", arguments: [0, 5, 8, 13, 16])
    func utf8AfterASCIIPrefix(prefix: Int) {
        let ascii = [UInt8](repeating: UInt8(ascii: "x"), count: prefix)
        let valid: [[UInt8]] = [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80]]
        let invalid: [[UInt8]] = [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]]
        for tail in valid {
            #expect((ascii + tail + ascii).withUnsafeBufferPointer { DERStringKind.isValidUTF8($0) })
        }
        for tail in invalid {
            #expect(!(ascii + tail + ascii).withUnsafeBufferPointer { DERStringKind.isValidUTF8($0) })
            #expect(!(ascii + tail).withUnsafeBufferPointer { DERStringKind.isValidUTF8($0) })
        }
    }

    @Test("TeletexString, BMPString and UniversalString decode to the text of their scalars", arguments: [
        (DERStringKind.teletex, [0x5A, 0xFC, 0x72, 0x69, 0x63, 0x68, 0xA0, 0xFF], "Zürich\u{A0}ÿ"),
        (.teletex, [], ""),
        (.bmp, [0x20, 0xAC, 0x00, 0x75, 0x00, 0xE9, 0xFF, 0xFD], "€ué\u{FFFD}"),
        (.bmp, [], ""),
        (.universal, [0x00, 0x01, 0xF6, 0x00, 0x00, 0x00, 0x00, 0x41, 0x00, 0x10, 0xFF, 0xFF], "😀A\u{10FFFF}"),
    ] as [(DERStringKind, [UInt8], String)])
    func wideStringsDecode(kind: DERStringKind, contents: [UInt8], text: String) throws {
        let decoded = try contents.withUnsafeBufferPointer { (buffer) throws(DERError) in try kind.decode(buffer, offset: 0) }
        #expect(Array(decoded.utf8) == Array(text.utf8))
    }

    @Test("A surrogate or an odd length is refused in a BMPString, a scalar out of range in a UniversalString")
    func wideStringsRefused() {
        let cases: [(DERStringKind, [UInt8], DERError.Reason)] = [
            (.bmp, [0xD8, 0x3D, 0xDE, 0x00], .invalidBMPString),
            (.bmp, [0x00, 0x41, 0x00], .invalidBMPString),
            (.universal, [0x00, 0x11, 0x00, 0x00], .invalidUniversalString),
            (.universal, [0x00, 0x00, 0xD8, 0x00], .invalidUniversalString),
            (.universal, [0x00, 0x00, 0x41], .invalidUniversalString),
        ]
        for (kind, contents, reason) in cases {
            #expect(throws: DERError(reason, at: 3)) {
                try contents.withUnsafeBufferPointer { (buffer) throws(DERError) in _ = try kind.decode(buffer, offset: 3) }
            }
        }
    }
}

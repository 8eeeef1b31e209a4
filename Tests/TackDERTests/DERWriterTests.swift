import Testing
import TackDER
import TackTestSupport

@Suite("DER writer")
struct DERWriterTests {
    @Test("Integers are written minimally and read back", arguments: [
        0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, -32768, Int64.max, Int64.min,
    ] as [Int64])
    func integerRoundTrip(value: Int64) throws {
        var writer = DERWriter()
        writer.writeInteger(value)
        let read = try DER.read(writer.bytes) { r throws(DERError) in try r.readInteger(Int64.self) }
        #expect(read == value)
        // Minimal: re-reading as a generic tree accepts it (non-minimal would throw).
        #expect(try DERTree.parse(writer.bytes).encoded() == writer.bytes)
    }

    @Test("Known integer encodings")
    func integerEncodings() {
        func encode(_ value: Int) -> [UInt8] { var w = DERWriter(); w.writeInteger(value); return w.bytes }
        #expect(encode(0) == hexBytes("02 01 00"))
        #expect(encode(128) == hexBytes("02 02 00 80"))
        #expect(encode(-128) == hexBytes("02 01 80"))
        #expect(encode(-129) == hexBytes("02 02 FF 7F"))
        var w = DERWriter()
        w.writeInteger(UInt64.max)
        #expect(w.bytes == hexBytes("02 09 00 FF FF FF FF FF FF FF FF"))
    }

    @Test("Magnitudes gain a sign octet and lose leading zeros")
    func magnitude() {
        var w = DERWriter()
        w.writeInteger(magnitude: hexBytes("00 00 80 01"))
        #expect(w.bytes == hexBytes("02 03 00 80 01"))
        var zero = DERWriter()
        zero.writeInteger(magnitude: [])
        #expect(zero.bytes == hexBytes("02 01 00"))
    }

    @Test("Lengths use the minimal form at every boundary", arguments: [0, 1, 127, 128, 255, 256, 65535, 65536])
    func lengths(count: Int) throws {
        var writer = DERWriter()
        writer.writeOctetString([UInt8](repeating: 0xAB, count: count))
        let range = try DER.read(writer.bytes) { r throws(DERError) in try r.readOctetString() }
        #expect(range.count == count)
        let header = writer.bytes.count - count
        #expect(header == (count < 128 ? 2 : count < 256 ? 3 : count < 65536 ? 4 : 5))
    }

    @Test("Nested constructed elements back-patch their lengths")
    func nested() throws {
        var writer = DERWriter()
        writer.writeSequence { (outer: inout DERWriter) in
            outer.writeSequence { (inner: inout DERWriter) in
                inner.writeObjectIdentifier(OID(2, 5, 4, 3))
                inner.writeOctetString([UInt8](repeating: 1, count: 200))
            }
            outer.writeExplicit(0) { (tagged: inout DERWriter) in tagged.writeBoolean(true) }
        }
        let tree = try DERTree.parse(writer.bytes)
        #expect(tree.nodes.map(\.depth) == [0, 1, 2, 2, 1, 2])
        #expect(tree.encoded() == writer.bytes)
    }

    @Test("SET OF is sorted by encoding (X.690 §11.6)")
    func setOfSorted() {
        var writer = DERWriter()
        writer.writeSetOf([hexBytes("02 01 05"), hexBytes("01 01 FF"), hexBytes("02 01 01")])
        #expect(writer.bytes == hexBytes("31 09 01 01 FF 02 01 01 02 01 05"))
    }

    @Test("BIT STRING refuses non-zero padding and counts above 7")
    func bitString() throws {
        var writer = DERWriter()
        try writer.writeBitString(bytes: hexBytes("A0"), unusedBitCount: 5)
        #expect(writer.bytes == hexBytes("03 02 05 A0"))
        #expect(throws: DERError(.unencodableValue, at: 0)) {
            var w = DERWriter()
            try w.writeBitString(bytes: hexBytes("A1"), unusedBitCount: 1)
        }
        #expect(throws: DERError(.unencodableValue, at: 0)) {
            var w = DERWriter()
            try w.writeBitString(bytes: hexBytes("00"), unusedBitCount: 8)
        }
    }

    @Test("Times are written as RFC 5280 requires and read back")
    func times() throws {
        let utc = try DERTime(year: 2049, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        let generalized = try DERTime(year: 2050, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        var writer = DERWriter()
        writer.writeTime(utc)
        writer.writeTime(generalized)
        #expect(writer.bytes == [0x17, 13] + Array("491231235959Z".utf8) + [0x18, 15] + Array("20500101000000Z".utf8))
        let (a, b) = try DER.read(writer.bytes) { r throws(DERError) in (try r.readTime(), try r.readTime()) }
        #expect(a == utc)
        #expect(b == generalized)
        #expect(throws: DERError(.unencodableValue, at: 0)) {
            var w = DERWriter()
            try w.writeUTCTime(generalized)
        }
    }

    @Test("Strings are checked against their alphabets when written")
    func strings() throws {
        var writer = DERWriter()
        try writer.writeString("Example", as: .printable)
        try writer.writeString("€uro", as: .bmp)
        try writer.writeString("Zürich", as: .utf8)
        try writer.writeString("😀", as: .universal)
        let values = try DER.read(writer.bytes) { r throws(DERError) in
            [try r.readString().value, try r.readString().value, try r.readString().value, try r.readString().value]
        }
        #expect(values == ["Example", "€uro", "Zürich", "😀"])
        #expect(throws: DERError(.invalidPrintableString, at: 0)) {
            var w = DERWriter()
            try w.writeString("a@b", as: .printable)
        }
        #expect(throws: DERError(.invalidBMPString, at: 0)) {
            var w = DERWriter()
            try w.writeString("😀", as: .bmp)
        }
    }

    @Test("High tag numbers are written in the minimal high-tag form")
    func highTag() throws {
        var writer = DERWriter()
        writer.writeElement(.contextSpecific(200, isConstructed: false), contents: [])
        #expect(writer.bytes == hexBytes("9F 81 48 00"))
        let element = try DER.read(writer.bytes) { r throws(DERError) in try r.readElement() }
        #expect(element.tag.number == 200)
    }
}

@Suite("Object identifiers")
struct OIDTests {
    @Test("Dotted strings round-trip through the DER form", arguments: [
        "1.2.840.113549.1.1.11", "2.5.4.3", "0.9.2342.19200300.100.1.25", "1.3.6.1.4.1.11129.2.4.2",
        "2.999.1", "2.25.329800735698586629295641978511506172918", "0.0", "1.39", "2.40",
    ])
    func dottedRoundTrip(text: String) throws {
        let oid = try parseDotted(text)
        #expect(oid.dottedString == text)
        var writer = DERWriter()
        writer.writeObjectIdentifier(oid)
        let read = try DER.read(writer.bytes) { r throws(DERError) in try r.readObjectIdentifier() }
        #expect(read == oid)
    }

    /// Each with the index of the character where parsing fails (the end of the text
    /// when it stops too early; 0 for a first arc above 2; 2 for a second arc of 40
    /// or more under 0 and 1).
    @Test("Malformed dotted strings are refused where they break", arguments: [
        ("", 0), ("1", 1), ("3.1", 0), ("1.40", 2), ("1..2", 2), ("1.2.", 4), ("01.2", 1), ("1.a", 2), ("1.2.03", 5), ("0.40", 2),
    ])
    func dottedRejected(text: String, offset: Int) {
        #expect(throws: DERError(.invalidObjectIdentifierString, at: offset)) { try OID(dotted: text) }
    }

    @Test("Long identifiers spill to the heap and still compare by value")
    func longIdentifier() throws {
        let long = try OID(dotted: "1.3.6.1.4.1.311.21.8.1234567.7654321.1111111.2222222.3333333.4444444.5555555.6666666")
        #expect(long.contents.count > 23)
        #expect(long == (try OID(contents: long.contents)))
        #expect(long.dottedString.hasSuffix("6666666"))
    }

    @Test("Arcs above 64 bits render but have no arc array")
    func bigArcs() throws {
        let uuid = try OID(dotted: "2.25") // small
        #expect(uuid.arcs == [2, 25])
        var writer = DERWriter()
        writer.writeElement(.objectIdentifier, contents: hexBytes("69 82 DF DA C2 96 A2 85 B7 DD B1 D6 B2 E7 E1 88 B5 FA 9F 76"))
        let big = try DER.read(writer.bytes) { r throws(DERError) in try r.readObjectIdentifier() }
        #expect(big.arcs == nil)
        #expect(big.dottedString.hasPrefix("2.25."))
    }

    private func parseDotted(_ text: String) throws -> OID { try OID(dotted: text) }
}

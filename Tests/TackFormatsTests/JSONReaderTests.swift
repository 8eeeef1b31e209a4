import Testing
import TackTestSupport
import TackFormats

@Suite("JSON reader (RFC 8259)")
struct JSONReaderTests {
    func parse(_ text: String) throws(JSONError) -> JSONValue {
        try JSONReader.parse(Array(text.utf8))
    }

    /// A location on the first line.
    func at(_ offset: Int) -> TextLocation {
        TextLocation(line: 1, column: offset + 1, offset: offset)
    }

    func error(_ text: String) -> JSONError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("Values of every type, whitespace around them")
    func values() throws {
        #expect(try parse(" \t\r\nnull ") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
        #expect(try parse("[1, \"a\", [true]]") == .array([.number(JSONNumber(literal: "1", integer: 1)), .string("a"), .array([.bool(true)])]))
        let object = try parse("{\"a\": 1, \"b\": {\"c\": null}}")
        guard case .object(let members) = object else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members.map(\.location.offset) == [1, 9])
    }

    @Test("Numbers follow the §6 grammar; integers in Int64 range get a value")
    func numbers() throws {
        for (text, integer) in [("0", Int64(0)), ("-0", 0), ("42", 42), ("-9223372036854775808", Int64.min), ("9223372036854775807", Int64.max)] {
            #expect(try parse(text) == .number(JSONNumber(literal: text, integer: integer)))
        }
        for text in ["1.5", "1e3", "-2.5E-3", "9223372036854775808"] {
            #expect(try parse(text) == .number(JSONNumber(literal: text, integer: nil)))
        }
        for text in ["01", "-", "1.", "1e", "1e+", ".5", "+1", "-01", "0x10", "NaN", "Infinity"] {
            #expect(error(text) != nil, "\(text) must be refused")
        }
    }

    @Test("Strings: the eight escapes, \\u escapes, surrogate pairs, UTF-8")
    func strings() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u20AC""#) == .string("é€"))
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse("\"é😀\"") == .string("é😀"))
        #expect(error(#""\ud83d""#)?.reason == .loneSurrogate)
        #expect(error(#""\ude00""#)?.reason == .loneSurrogate)
        #expect(error(#""\ud83d\u0041""#)?.reason == .loneSurrogate)
        #expect(error(#""\u12""#)?.reason == .invalidUnicodeEscape)
        #expect(error(#""\x""#)?.reason == .invalidEscape)
        #expect(error("\"a\u{01}\"")?.reason == .controlCharacterInString)
        #expect(error("\"abc") == JSONError(.unexpectedEnd, at: at(4)))
    }

    @Test("Invalid UTF-8 is refused with its offset")
    func invalidUTF8() {
        // Overlong, surrogate, above U+10FFFF, truncated, never a lead byte: all at the
        // first byte of the bad sequence, just after the quote.
        for bytes: [UInt8] in [[0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xFF, 0x22]] {
            #expect(throws: JSONError(.invalidUTF8, at: at(1))) { try JSONReader.parse(bytes) }
        }
        #expect(throws: JSONError(.invalidUTF8, at: at(1))) { try JSONReader.parse([0x22, 0xC0, 0x80, 0x22]) }
    }

    @Test("Structure errors carry the offset of the fault")
    func structure() {
        #expect(error("[1,]") == JSONError(.unexpectedByte(UInt8(ascii: "]")), at: at(3)))
        #expect(error("{\"a\":1,}") == JSONError(.unexpectedByte(UInt8(ascii: "}")), at: at(7)))
        #expect(error("{\"a\" 1}") == JSONError(.unexpectedByte(UInt8(ascii: "1")), at: at(5)))
        #expect(error("[1] x") == JSONError(.trailingData, at: at(4)))
        #expect(error("") == JSONError(.unexpectedEnd, at: at(0)))
        #expect(error("tru") == JSONError(.unexpectedEnd, at: at(3)))
        #expect(error("{\"a\":1,\"a\":2}") == JSONError(.duplicateKey, at: at(7)))
        #expect(error("[1,\n 2,\n x]") == JSONError(.unexpectedByte(UInt8(ascii: "x")), at: TextLocation(line: 3, column: 2, offset: 9)))
        #expect(error("[1,\n 2,\n x]")?.description == "3:2: unexpected character 'x'")
        #expect(error("// comment\n1") != nil)
        #expect(error("\u{FEFF}1") != nil)
    }

    @Test("Depth and size are bounded")
    func limits() {
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(error(deep)?.reason == .tooDeep(limit: 32))
        let fine = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(error(fine) == nil)
        // 100 000 levels must not exhaust the stack: the bound stops it at level 33.
        #expect(error(String(repeating: "[", count: 100_000))?.reason == .tooDeep(limit: 32))
        let limits = JSONLimits(maximumSize: 8, maximumDepth: 4)
        #expect(throws: JSONError(.tooLarge(limit: 8), at: at(8))) { try JSONReader.parse(Array("[1,2,3,4]".utf8), limits: limits) }
    }

    @Test("Seeded random mutations of a policy never trap and report offsets inside the input")
    func mutations() throws {
        let base = Array(#"{"version": 1,\#n "domains": {"example.com": {\#n  "caIdentities": ["\u0041é", 1.5e3, -0, true, null]}}}"#.utf8)
        var stream = DeterministicStream(state: 0x9E37_79B9_7F4A_7C15)
        var refused = 0
        for _ in 0..<2000 {
            let bytes = stream.mutate(base, edits: 1...3, kinds: [.replace, .remove, .insert])
            do {
                _ = try JSONReader.parse(bytes)
            } catch {
                refused += 1
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                #expect(error.location == TextLocationTests.location(of: error.offset, in: bytes))
            }
        }
        #expect(refused > 1000)
    }

    @Test("The writer keeps members in order, escapes what RFC 8259 requires, and reads back")
    func writer() throws {
        let value = JSONValue.object([("k", .int(1)), ("s", .string("v\"\\\n\u{1}é")), ("a", .strings(["x"])), ("n", .null),
                                      ("b", .bool(false)), ("o", .object([])), ("e", .array([]))])
        #expect(value.serialized(pretty: false) == #"{"k":1,"s":"v\"\\\n\u0001é","a":["x"],"n":null,"b":false,"o":{},"e":[]}"#)
        #expect(value.serialized() == """
            {
              "k": 1,
              "s": "v\\"\\\\\\n\\u0001é",
              "a": ["x"],
              "n": null,
              "b": false,
              "o": {},
              "e": []
            }
            """)
        #expect(try parse(value.serialized()) == value)
        #expect(try parse(value.serialized(pretty: false)) == value)
        #expect(try parse(#""\ud83d\ude00""#).serialized() == "\"😀\"")
        // Members read from a document carry locations; equality ignores them.
        #expect(try parse(#"{"a": [1, {"b": "c"}]}"#) == .object([("a", .array([.int(1), .object([("b", .string("c"))])]))]))
        #expect(try parse(#"{"a": 1}"#)["a"]?.integerValue == 1)
    }

    @Test("Numbers round-trip: integers at the limits, doubles by their shortest form; no NaN or infinity")
    func writerNumbers() throws {
        for integer in [Int64.min, -1, 0, 1, Int64.max] {
            let text = JSONValue.integer(integer).serialized()
            #expect(try parse(text).integerValue == integer)
        }
        var stream = DeterministicStream(state: 0x4E55_4D42_4552_5321)
        for _ in 0..<2_000 {
            let double = Double(bitPattern: stream.next())
            guard let number = JSONNumber(double) else {
                #expect(!double.isFinite)
                continue
            }
            let read = try parse(JSONValue.number(number).serialized())
            guard case .number(let back) = read, let value = Double(back.literal) else {
                Issue.record("\(double) did not read back as a number"); continue
            }
            #expect(value.bitPattern == double.bitPattern, "\(double)")
            #expect(read == .number(number))
        }
        #expect(JSONNumber(.nan) == nil && JSONNumber(.infinity) == nil && JSONNumber(-.infinity) == nil)
    }

    @Test("Every control character is escaped, and the output is valid JSON that reads back")
    func writerControls() throws {
        for value in UInt32(0)..<0x20 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let literal = JSONValue.string(text).serialized()
            #expect(literal.utf8.allSatisfy { $0 >= 0x20 })
            #expect(try parse(literal) == .string(text))
        }
    }

    @Test("The writer's escaping equals scalar-by-scalar escaping on seeded texts (runs are copied whole)")
    func textMatchesScalarDefinition() throws {
        // Pieces that straddle the escaping rules: combining marks after a quote,
        // controls, multi-byte scalars, astral plane, DEL (not escaped).
        let pieces = ["a", "\"", "\\", "\n", "\r", "\t", "\u{00}", "\u{1F}", "\u{7F}", "é", "e\u{301}",
                      "\"\u{301}", "€", "😀", "CN=", " ", "\u{2028}"]
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        var stream = DeterministicStream(state: 0x4A53_4F4E_5445_5854)
        for _ in 0..<2_000 {
            let count = Int(stream.next() % 12)
            let text = (0..<count).map { _ in pieces[Int(stream.next() % UInt64(pieces.count))] }.joined()
            let literal = JSONValue.string(text).serialized()
            #expect(literal.unicodeScalars.elementsEqual(reference(text).unicodeScalars), "\(Array(text.unicodeScalars))")
            #expect(try parse(literal) == .string(text))
        }
    }
}

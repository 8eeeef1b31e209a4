import Testing
import TackFormats

/// The strict XML property-list reader and writer.
@Suite("PropertyList")
struct PropertyListTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    static func document(_ body: String) -> String {
        header + "<plist version=\"1.0\">\n" + body + "\n</plist>\n"
    }

    @Test("an Info.plist with every value type")
    func everyType() throws {
        let text = PropertyListTests.document("""
            <dict>
            \t<!-- a comment -->
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>NSAllowsArbitraryLoads</key>
            \t\t<false/>
            \t\t<key>NSPinnedDomains</key>
            \t\t<dict/>
            \t</dict>
            \t<key>Numbers</key>
            \t<array>
            \t\t<integer>-42</integer>
            \t\t<integer>9223372036854775807</integer>
            \t\t<real>2.5e3</real>
            \t\t<true/>
            \t</array>
            \t<key>When</key>
            \t<date>2026-01-01T00:00:00Z</date>
            \t<key>Blob</key>
            \t<data>
            \tAAEC
            \t/w==
            \t</data>
            \t<key>Text &amp; more</key>
            \t<string>a &lt;b&gt; &#x263A; &#65; <![CDATA[<raw> & ]]></string>
            \t<key>Empty</key>
            \t<string/>
            </dict>
            """)
        let root = try PropertyList.parse(text)
        let dictionary = try #require(root.dictionaryValue)
        #expect(dictionary.keys == ["NSAppTransportSecurity", "Numbers", "When", "Blob", "Text & more", "Empty"])
        let ats = try #require(dictionary["NSAppTransportSecurity"]?.dictionaryValue)
        #expect(ats["NSAllowsArbitraryLoads"] == .boolean(false))
        #expect(ats["NSPinnedDomains"] == .dictionary(PropertyListDictionary()))
        #expect(dictionary["Numbers"] == .array([.integer(-42), .integer(Int64.max), .real(2500), .boolean(true)]))
        #expect(dictionary["When"] == .date(1_767_225_600))
        #expect(dictionary["Blob"] == .data([0, 1, 2, 0xFF]))
        #expect(dictionary["Text & more"] == .string("a <b> ☺ A <raw> & "))
        #expect(dictionary["Empty"] == .string(""))
        // Key locations: line and column of the <key> element.
        let entry = try #require(dictionary.entry(for: "NSAppTransportSecurity"))
        #expect(entry.location.line == 6)
        #expect(entry.location.column == 2)
        #expect(ats.entry(for: "NSAllowsArbitraryLoads")?.location.line == 8)
    }

    @Test("written documents read back equal, and dictionaries compare in any order")
    func roundTrip() throws {
        var dictionary = PropertyListDictionary()
        dictionary["b"] = .array([.string("x<&>y"), .integer(Int64.min), .real(0.25), .boolean(false)])
        dictionary["a"] = .dictionary(PropertyListDictionary())
        dictionary["d"] = .date(0)
        dictionary["e"] = .data([1, 2, 3])
        let value = PropertyListValue.dictionary(dictionary)
        let text = PropertyList.xmlDocument(value)
        #expect(try PropertyList.parse(text) == value)
        var reordered = PropertyListDictionary()
        for key in ["e", "d", "a", "b"] { reordered[key] = dictionary[key] }
        #expect(reordered == dictionary)
        #expect(reordered.hashValue == dictionary.hashValue)
        reordered["e"] = nil
        #expect(reordered != dictionary)
    }

    @Test("a plist without declaration or DOCTYPE, with a byte order mark")
    func minimal() throws {
        #expect(try PropertyList.parse("\u{FEFF}<plist><string>x</string></plist>") == .string("x"))
        #expect(try PropertyList.parse("<plist version='1.0'>\n<true></true>\n</plist>\n<!-- end -->\n") == .boolean(true))
    }

    @Test("each refusal names its reason, line and column", arguments: [
        ("<plist><dict><key>a</key></dict></plist>", PropertyListError.Reason.missingValue, 1, 14),
        ("<plist><dict><key>a</key><key>b</key><true/></dict></plist>", .missingValue, 1, 14),
        ("<plist><dict><string>x</string></dict></plist>", .missingKey, 1, 14),
        ("<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>", .duplicateKey, 1, 33),
        ("<plist><key>a</key></plist>", .keyOutsideDictionary, 1, 8),
        ("<plist>\n  <integer>12a</integer></plist>", .invalidInteger, 2, 3),
        ("<plist><integer>9223372036854775808</integer></plist>", .integerOverflow, 1, 8),
        ("<plist><integer>-9223372036854775809</integer></plist>", .integerOverflow, 1, 8),
        ("<plist><real>1.2.3</real></plist>", .invalidReal, 1, 8),
        ("<plist><date>2026-02-30T00:00:00Z</date></plist>", .invalidDate, 1, 8),
        ("<plist><data>!!!</data></plist>", .invalidData, 1, 8),
        ("<plist><true>x</true></plist>", .invalidBoolean, 1, 8),
        ("<plist><set/></plist>", .unknownElement, 1, 8),
        ("<plist><string a=\"b\">x</string></plist>", .unexpectedAttribute, 1, 8),
        ("<plist><string>x</key></plist>", .mismatchedEndTag, 1, 17),
        ("<plist><string>a<b/></string></plist>", .unexpectedElement, 1, 17),
        ("<plist>text</plist>", .unexpectedText, 1, 8),
        ("<plist></plist>", .wrongValueCount, 1, 8),
        ("<plist/>", .wrongValueCount, 1, 1),
        ("<plist><true/><true/></plist>", .wrongValueCount, 1, 15),
        ("<plist version=\"2.0\"><true/></plist>", .unsupportedVersion, 1, 1),
        ("<dict/>", .missingPlistElement, 1, 1),
        ("<plist><true/></plist>x", .trailingContent, 1, 23),
        ("<plist><true/>", .unexpectedEnd, 1, 15),
        ("<plist><string>&nbsp;</string></plist>", .unknownEntity, 1, 16),
        ("<plist><string>&#0;</string></plist>", .invalidCharacterReference, 1, 16),
        ("<plist><string>&#xD800;</string></plist>", .invalidCharacterReference, 1, 16),
        ("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><true/></plist>", .unsupportedEncoding, 1, 1),
        ("<?xml-stylesheet href=\"x\"?><plist><true/></plist>", .processingInstruction, 1, 1),
        ("<plist><!-- a -- b --><true/></plist>", .malformedMarkup, 1, 8),
        ("<plist>\u{01}<true/></plist>", .invalidCharacter, 1, 8),
    ])
    func refusals(text: String, reason: PropertyListError.Reason, line: Int, column: Int) {
        do {
            _ = try PropertyList.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.reason == reason, "\(text)")
            #expect(error.location.line == line, "\(text)")
            #expect(error.location.column == column, "\(text)")
        }
    }

    @Test("entity declarations are refused: no billion laughs, no external entities")
    func doctypeEntities() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <plist><string>&lol2;</string></plist>
            """
        #expect(throws: PropertyListError(.doctypeInternalSubset, at: TextLocation(line: 2, column: 17, offset: 38))) {
            try PropertyList.parse(laughs)
        }
        let external = "<!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><plist><string>&xxe;</string></plist>"
        // The external DOCTYPE is never fetched; the entity it would declare is unknown.
        #expect(throws: PropertyListError(.unknownEntity, at: TextLocation(line: 1, column: 60, offset: 59))) { try PropertyList.parse(external) }
    }

    @Test("invalid UTF-8 is refused at its byte")
    func invalidUTF8() {
        var bytes = Array("<plist><string>".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("</string></plist>".utf8)
        #expect(throws: PropertyListError(.invalidUTF8, at: TextLocation(line: 1, column: 16, offset: 15))) {
            try PropertyList.parse(bytes)
        }
    }

    @Test("nesting is bounded at maximumDepth; the limit itself parses")
    func depth() throws {
        func nested(_ depth: Int) -> String {
            "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        }
        _ = try PropertyList.parse(nested(PropertyList.maximumDepth))
        let tooDeep = #expect(throws: PropertyListError.self) { try PropertyList.parse(nested(PropertyList.maximumDepth + 1)) }
        // At the first <array> past the limit: "<plist>" then maximumDepth of them.
        #expect(tooDeep?.reason == .tooDeep)
        #expect(tooDeep?.location.offset == 7 + 7 * PropertyList.maximumDepth)
        // Far deeper than the stack would allow unbounded: refused, not a crash.
        let farTooDeep = #expect(throws: PropertyListError.self) { try PropertyList.parse(nested(100_000)) }
        #expect(farTooDeep?.reason == .tooDeep)
        #expect(farTooDeep?.location.offset == 7 + 7 * PropertyList.maximumDepth)
    }

    @Test("every prefix of a valid document is refused, none traps")
    func prefixes() throws {
        let text = Array(PropertyListTests.document("<dict><key>k</key><array><integer>1</integer><string>s</string></array></dict>").utf8)
        _ = try PropertyList.parse(text)
        for length in 0..<(text.count - 1) {  // the last prefix lacks only the final newline
            let prefix = Array(text[0..<length])
            // The reason depends on where the cut falls (inside a tag, the declaration,
            // before <plist>); the location must be the one its offset names.
            let error = #expect(throws: PropertyListError.self) { try PropertyList.parse(prefix) }
            if let error {
                #expect(error.location == TextLocationTests.location(of: error.location.offset, in: prefix))
            }
        }
    }
}

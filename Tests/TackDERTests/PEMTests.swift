import TackDER
import TackTestSupport
import Testing

/// Reads a file of `Vectors/pem/` (see its README.md).
private func pemVector(_ name: String) throws -> [UInt8] {
    try RepositoryPaths.vectorBytes("pem/" + name)
}

/// The offset of the first occurrence of `needle` in `haystack`, or -1.
private func offset(of needle: String, in haystack: [UInt8], after start: Int = 0) -> Int {
    let pattern = Array(needle.utf8)
    guard haystack.count >= pattern.count, start <= haystack.count - pattern.count else { return -1 }
    for i in start...(haystack.count - pattern.count) where haystack[i..<(i + pattern.count)].elementsEqual(pattern) {
        return i
    }
    return -1
}

@Suite("PEM (RFC 7468)")
struct PEMTests {
    // MARK: Vectors made by openssl

    @Test("A three-certificate chain yields the DER of each certificate, with BEGIN-line offsets")
    func chain() throws {
        let text = try pemVector("chain.pem")
        let blocks = try PEM.parse(text, requiresBlock: true)
        #expect(blocks.map(\.label) == ["CERTIFICATE", "CERTIFICATE", "CERTIFICATE"])
        #expect(blocks.map(\.bytes) == [try pemVector("leaf.der"), try pemVector("intermediate.der"), try pemVector("root.der")])
        let second = offset(of: "-----BEGIN", in: text, after: 1)
        let third = offset(of: "-----BEGIN", in: text, after: second + 1)
        #expect(blocks.map(\.offset) == [0, second, third])
    }

    @Test("CRLF line ends give the same blocks as LF")
    func crlf() throws {
        let lf = try PEM.parse(try pemVector("chain.pem"))
        let crlf = try PEM.parse(try pemVector("chain-crlf.pem"))
        #expect(crlf.map(\.bytes) == lf.map(\.bytes))
        #expect(crlf.map(\.label) == lf.map(\.label))
        #expect(crlf.count == 3)
    }

    @Test("The full output of openssl s_client -showcerts yields the server's certificates")
    func sClient() throws {
        let text = try pemVector("s_client-showcerts.txt")
        let blocks = try PEM.parse(text, requiresBlock: true)
        #expect(blocks.map(\.label) == ["CERTIFICATE", "CERTIFICATE"])
        #expect(blocks.map(\.bytes) == [try pemVector("leaf.der"), try pemVector("intermediate.der")])
        #expect(blocks.first?.offset == offset(of: "-----BEGIN CERTIFICATE-----", in: text))
        // As a String too.
        let string = String(decoding: text, as: UTF8.self)
        #expect(try PEM.parse(string) == blocks)
    }

    @Test("Blocks with different labels and text around them are all reported in order")
    func mixedLabels() throws {
        let blocks = try PEM.parse(try pemVector("mixed-labels.pem"))
        #expect(blocks.map(\.label) == ["PUBLIC KEY", "CERTIFICATE REQUEST", "CERTIFICATE"])
        #expect(blocks.last?.bytes == (try pemVector("leaf.der")))
        // An EC P-256 SubjectPublicKeyInfo is 91 bytes.
        #expect(blocks.first?.bytes.count == 91)
    }

    @Test("The malformed vector files fail with the documented error at the right line")
    func malformedFiles() throws {
        let missingEnd = try pemVector("malformed/missing-end.pem")
        #expect(throws: PEMError.missingEndLine(offset: 0)) { try PEM.parse(missingEnd) }

        let mismatch = try pemVector("malformed/label-mismatch.pem")
        #expect(throws: PEMError.labelMismatch(beginOffset: 0, offset: offset(of: "-----END", in: mismatch))) {
            try PEM.parse(mismatch)
        }

        let badBase64 = try pemVector("malformed/bad-base64.pem")
        #expect(throws: PEMError.invalidBase64(.invalidCharacter(UInt8(ascii: "!"), offset: offset(of: "!", in: badBase64)))) {
            try PEM.parse(badBase64)
        }

        let missingPadding = try pemVector("malformed/missing-padding.pem")
        #expect(throws: PEMError.invalidBase64(.missingPadding(offset: offset(of: "\n-----END", in: missingPadding)))) {
            try PEM.parse(missingPadding)
        }

        let boundary = try pemVector("malformed/malformed-boundary.pem")
        #expect(throws: PEMError.malformedBoundary(offset: 0)) { try PEM.parse(boundary) }

        let unmatched = try pemVector("malformed/unmatched-end.pem")
        #expect(throws: PEMError.unmatchedEndLine(offset: offset(of: "-----END", in: unmatched))) { try PEM.parse(unmatched) }
    }

    // MARK: Inline cases, one per rule

    @Test("Input without blocks gives no blocks, or noBlock when one is required")
    func noBlock() throws {
        #expect(try PEM.parse("") == [])
        #expect(try PEM.parse("just text\n---\n") == [])
        #expect(throws: PEMError.noBlock) { try PEM.parse("", requiresBlock: true) }
        #expect(throws: PEMError.noBlock) { try PEM.parse("just text\n", requiresBlock: true) }
        #expect(PEMError.noBlock.offset == nil)
    }

    @Test("A block without an END line, at the end of input or before the next BEGIN, is missingEndLine")
    func missingEnd() {
        #expect(throws: PEMError.missingEndLine(offset: 5)) {
            try PEM.parse("text\n-----BEGIN A-----\nZm9v\n")
        }
        #expect(throws: PEMError.missingEndLine(offset: 0)) {
            try PEM.parse("-----BEGIN A-----\nZm9v\n-----BEGIN B-----\nZm9v\n-----END B-----\n")
        }
    }

    @Test("An END label that differs from the BEGIN label is labelMismatch at the END line")
    func labelMismatch() {
        #expect(throws: PEMError.labelMismatch(beginOffset: 0, offset: 33)) {
            try PEM.parse("-----BEGIN CERTIFICATE-----\nZm9v\n-----END CERTIFICATES-----\n")
        }
        // Labels compare exactly: case matters.
        #expect(throws: PEMError.labelMismatch(beginOffset: 0, offset: 23)) {
            try PEM.parse("-----BEGIN A-----\nZm9v\n-----END a-----\n")
        }
    }

    @Test("Bad Base64 inside a block is invalidBase64 with the offset in the whole input")
    func invalidBase64() {
        let text = "junk\n-----BEGIN T-----\nZm9v\nZm!v\n-----END T-----\n"
        let bang = offset(of: "!", in: Array(text.utf8))
        #expect(bang == 30)
        #expect(throws: PEMError.invalidBase64(.invalidCharacter(UInt8(ascii: "!"), offset: bang))) {
            try PEM.parse(text)
        }
        #expect(PEMError.invalidBase64(.invalidCharacter(0, offset: 30)).offset == 30)
        // RFC 1421 headers are not Base64.
        #expect(throws: PEMError.invalidBase64(.invalidCharacter(UInt8(ascii: "-"), offset: 36))) {
            try PEM.parse("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nZm9v\n-----END RSA PRIVATE KEY-----\n")
        }
        // Padding in the middle of a body.
        #expect(throws: PEMError.invalidBase64(.misplacedPadding(offset: 20))) {
            try PEM.parse("-----BEGIN T-----\nZg==\nZm9v\n-----END T-----\n")
        }
    }

    @Test("Lines that look like boundaries but break the grammar are malformedBoundary", arguments: [
        "-----BEGIN CERTIFICATE\nZm9v\n-----END CERTIFICATE-----\n",  // no closing dashes
        "-----BEGIN  CERTIFICATE-----\n",  // label starts with a space
        "-----BEGIN CERTIFICATE -----\n",  // label ends with a space
        "-----BEGIN A  B-----\n",  // two separators
        "-----BEGIN A\tB-----\n",  // tab inside the label
        "-----BEGIN CERTIFICATE------\n",  // six closing dashes
        "-----BEGIN CERTIFICATE----- junk\n",  // text after the boundary
        "-----BEGIN \u{E9}-----\n",  // non-ASCII label
    ])
    func malformedBoundary(_ text: String) {
        #expect(throws: PEMError.malformedBoundary(offset: 0)) { try PEM.parse(text) }
    }

    @Test("A malformed END line is reported at its own offset")
    func malformedEndBoundary() {
        #expect(throws: PEMError.malformedBoundary(offset: 23)) {
            try PEM.parse("-----BEGIN A-----\nZm9v\n-----END A----\n")
        }
    }

    @Test("An END line outside any block is unmatchedEndLine")
    func unmatchedEnd() {
        #expect(throws: PEMError.unmatchedEndLine(offset: 5)) { try PEM.parse("Zm9v\n-----END A-----\n") }
    }

    @Test("Boundaries may be indented and followed by spaces, tabs and CR; blank body lines are skipped")
    func tolerated() throws {
        let text = "  -----BEGIN X509 CRL-----  \t\r\n\r\n  Zm9v\r\nYmFy \r\n\t-----END X509 CRL-----\r\n"
        #expect(try PEM.parse(text) == [PEMBlock(label: "X509 CRL", bytes: Array("foobar".utf8), offset: 0)])
        // No final line break, and an empty label and body.
        #expect(try PEM.parse("-----BEGIN -----\n-----END -----") == [PEMBlock(label: "", bytes: [], offset: 0)])
        // "---" lines (as in s_client output) and lines merely containing a boundary are text.
        #expect(try PEM.parse("---\nsee -----BEGIN A----- below\n") == [])
    }

    @Test("String, Substring, bytes and slices parse alike, with offsets from the first byte")
    func inputForms() throws {
        let text = "xx\n-----BEGIN A-----\nZm9v\n-----END A-----\n"
        let expected = [PEMBlock(label: "A", bytes: Array("foo".utf8), offset: 3)]
        #expect(try PEM.parse(text) == expected)
        #expect(try PEM.parse(text[...]) == expected)
        #expect(try PEM.parse(Array(text.utf8)) == expected)
        #expect(try PEM.parse(("zz" + text).utf8.dropFirst(2)) == expected)
        #expect(try PEM.parse(Array(text.utf8).lazy.map { $0 }) == expected)
    }

    // MARK: Encoder

    @Test("The encoder writes BEGIN, 64-column Base64 lines and END")
    func encodeShape() throws {
        #expect(PEM.encode(label: "TEST", bytes: Array("foobar".utf8)) == "-----BEGIN TEST-----\nZm9vYmFy\n-----END TEST-----\n")
        #expect(PEM.encode(label: "TEST", bytes: [UInt8]()) == "-----BEGIN TEST-----\n-----END TEST-----\n")
        let bytes = [UInt8](repeating: 0xA5, count: 100)  // 136 Base64 characters: 64 + 64 + 8
        let lines = PEM.encode(label: "CERTIFICATE", bytes: bytes).split(separator: "\n")
        #expect(lines.map(\.count) == [27, 64, 64, 8, 25])
    }

    @Test("Encoded blocks of random lengths parse back, alone and concatenated")
    func encodeRoundTrip() throws {
        var rng = DeterministicStream(state: 7468)
        var all = ""
        var expected: [PEMBlock] = []
        for length in [0, 1, 2, 3, 47, 48, 49, 50, 300, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            let text = PEM.encode(label: "BLOCK \(length)", bytes: bytes)
            #expect(try PEM.parse(text) == [PEMBlock(label: "BLOCK \(length)", bytes: bytes, offset: 0)])
            expected.append(PEMBlock(label: "BLOCK \(length)", bytes: bytes, offset: all.utf8.count))
            all += text
        }
        #expect(try PEM.parse(all) == expected)
    }

    @Test("No proper prefix of a block parses to a block (drip feed)")
    func dripFeed() throws {
        let full = Array(PEM.encode(label: "CERTIFICATE", bytes: try pemVector("leaf.der")).utf8)
        let block = try PEM.parse(full)
        #expect(block.count == 1)
        // Without the final LF the END line is still complete.
        for cut in 0..<(full.count - 1) {
            let result = try? PEM.parse(full[..<cut])
            #expect(result?.isEmpty ?? true, "prefix of \(cut) bytes")
        }
        #expect(try PEM.parse(full.dropLast()) == block)
    }

    @Test("Label validation follows the RFC 7468 §3 grammar")
    func labels() {
        for valid in ["", "CERTIFICATE", "X509 CRL", "RSA PRIVATE KEY", "A-B", "a!~", String(repeating: "L", count: 64)] {
            #expect(PEM.isValidLabel(valid), "\(valid)")
        }
        for invalid in [" A", "A ", "A  B", "A--B", "A -B", "-A", "A\tB", "\u{E9}", "A\nB", String(repeating: "L", count: 65)] {
            #expect(!PEM.isValidLabel(invalid), "\(invalid)")
        }
    }
}

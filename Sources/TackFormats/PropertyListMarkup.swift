internal import TackDER

// The XML markup beneath the property-list grammar (XML 1.0): the characters
// allowed, the XML declaration, the DOCTYPE, comments, tags, attributes and
// references.

/// A tag as read: its kind, name and attributes.
struct PropertyListTag {
    enum Kind { case start, end, empty }
    var kind: Kind
    var name: [UInt8]
    var attributes: [(name: [UInt8], value: [UInt8])]
    var location: TextLocation

    func isNamed(_ text: StaticString) -> Bool {
        text.withUTF8Buffer { name.elementsEqual($0) }
    }
}

extension PropertyListParser {
    /// Checks the whole document is UTF-8 without XML-forbidden characters (XML 1.0
    /// §2.2 `Char`: tab, LF and CR are the only controls allowed, and U+FFFE and
    /// U+FFFF are not characters), so that the rest of the parser works on bytes.
    func validateCharacters() throws(PropertyListError) {
        let problem = TextCursor.firstProblem(in: cursor.bytes) { scalar in
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
                || scalar.value == 0xFFFE || scalar.value == 0xFFFF
        }
        switch problem {
        case nil: return
        case .invalidEncoding(let offset)?:
            throw PropertyListError(.invalidUTF8, at: TextCursor.location(of: offset, in: cursor.bytes))
        case .refusedScalar(let offset)?:
            throw PropertyListError(.invalidCharacter, at: TextCursor.location(of: offset, in: cursor.bytes))
        }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="..."?>`.
    mutating func skipXMLDeclaration() throws(PropertyListError) {
        let start = cursor.location
        cursor.advance(by: 5)
        guard let next = cursor.peek(), TextCursor.isWhitespace(next) else {
            throw PropertyListError(.processingInstruction, at: start)  // <?xml-stylesheet ...?> and the like
        }
        let attributes = try readAttributes(until: "?>")
        for attribute in attributes where attribute.name.elementsEqual("encoding".utf8) {
            let lowered = attribute.value.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            guard lowered.elementsEqual("utf-8".utf8) || lowered.elementsEqual("utf8".utf8) else {
                throw PropertyListError(.unsupportedEncoding, at: start)
            }
        }
    }

    /// `<!DOCTYPE plist PUBLIC "..." "...">` without an internal subset.
    mutating func skipDoctype() throws(PropertyListError) {
        let start = cursor.location
        cursor.advance(by: 9)
        var quote: UInt8?
        while let byte = cursor.peek() {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B {  // '[': an internal subset, where entities are declared
                throw fail(.doctypeInternalSubset)
            } else if byte == 0x3E {
                cursor.advance()
                return
            } else if byte == 0x3C {
                throw PropertyListError(.malformedMarkup, at: start)
            }
            cursor.advance()
        }
        throw fail(.unexpectedEnd)
    }

    /// White space and comments.
    mutating func skipMisc() throws(PropertyListError) {
        while let byte = cursor.peek() {
            if TextCursor.isWhitespace(byte) {
                cursor.advance()
            } else if cursor.looking(at: "<!--") {
                try skipComment()
            } else if cursor.looking(at: "<?") {
                throw fail(.processingInstruction)
            } else {
                return
            }
        }
    }

    /// `<!-- ... -->`; `--` may not appear inside (XML 1.0 §2.5).
    mutating func skipComment() throws(PropertyListError) {
        let start = cursor.location
        cursor.advance(by: 4)
        while !cursor.atEnd {
            if cursor.looking(at: "--") {
                guard cursor.looking(at: "-->") else { throw PropertyListError(.malformedMarkup, at: start) }
                cursor.advance(by: 3)
                return
            }
            cursor.advance()
        }
        throw PropertyListError(.unexpectedEnd, at: start)
    }

    // MARK: Tags

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D || byte == 0x5F || byte == 0x3A || byte == 0x2E
    }

    /// Reads `<name attr="v">`, `<name/>` or `</name>` at the current `<`.
    mutating func readTag() throws(PropertyListError) -> PropertyListTag {
        let start = cursor.location
        cursor.advance()  // '<'
        var kind = PropertyListTag.Kind.start
        if cursor.peek() == 0x2F {
            kind = .end
            cursor.advance()
        }
        let nameStart = cursor.position
        while let byte = cursor.peek(), PropertyListParser.isNameByte(byte) { cursor.advance() }
        guard cursor.position > nameStart else { throw PropertyListError(.malformedMarkup, at: start) }
        let name = Array(cursor.bytes[nameStart..<cursor.position])
        var attributes: [(name: [UInt8], value: [UInt8])] = []
        if kind == .end {
            while let byte = cursor.peek(), TextCursor.isWhitespace(byte) { cursor.advance() }
            guard cursor.peek() == 0x3E else { throw PropertyListError(.malformedMarkup, at: start) }
            cursor.advance()
        } else {
            guard let next = cursor.peek() else { throw fail(.unexpectedEnd) }
            guard next == 0x3E || next == 0x2F || TextCursor.isWhitespace(next) else {
                throw PropertyListError(.malformedMarkup, at: start)
            }
            attributes = try readAttributes(until: ">")
            if let last = cursor.bytes[..<cursor.position].dropLast().last, last == 0x2F { kind = .empty }
        }
        return PropertyListTag(kind: kind, name: name, attributes: attributes, location: start)
    }

    /// Attributes up to and including `terminator` (`>` or `?>`); a `/` just before
    /// `>` is left for ``readTag()`` to see.
    mutating func readAttributes(until terminator: StaticString) throws(PropertyListError) -> [(name: [UInt8], value: [UInt8])] {
        var attributes: [(name: [UInt8], value: [UInt8])] = []
        while true {
            while let byte = cursor.peek(), TextCursor.isWhitespace(byte) { cursor.advance() }
            guard !cursor.atEnd else { throw fail(.unexpectedEnd) }
            if cursor.looking(at: terminator) {
                cursor.advance(by: terminator.utf8CodeUnitCount)
                return attributes
            }
            if cursor.peek() == 0x2F, cursor.peek(1) == 0x3E, terminator.utf8CodeUnitCount == 1 {
                cursor.advance(by: 2)
                return attributes
            }
            let nameStart = cursor.position
            while let byte = cursor.peek(), PropertyListParser.isNameByte(byte) { cursor.advance() }
            guard cursor.position > nameStart else { throw fail(.malformedMarkup) }
            let name = Array(cursor.bytes[nameStart..<cursor.position])
            while let byte = cursor.peek(), TextCursor.isWhitespace(byte) { cursor.advance() }
            guard cursor.peek() == 0x3D else { throw fail(.malformedMarkup) }
            cursor.advance()
            while let byte = cursor.peek(), TextCursor.isWhitespace(byte) { cursor.advance() }
            guard let quote = cursor.peek(), quote == 0x22 || quote == 0x27 else { throw fail(.malformedMarkup) }
            cursor.advance()
            var value: [UInt8] = []
            while true {
                guard let byte = cursor.peek() else { throw fail(.unexpectedEnd) }
                if byte == quote { break }
                if byte == 0x3C { throw fail(.malformedMarkup) }
                if byte == 0x26 {
                    try readReference(into: &value)
                } else {
                    value.append(byte)
                    cursor.advance()
                }
            }
            cursor.advance()
            if attributes.contains(where: { $0.name == name }) { throw fail(.malformedMarkup) }
            attributes.append((name, value))
        }
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;`, `&#xH;` (XML 1.0 §4.1, §4.6).
    mutating func readReference(into out: inout [UInt8]) throws(PropertyListError) {
        let start = cursor.location
        cursor.advance()  // '&'
        let bodyStart = cursor.position
        while let byte = cursor.peek(), byte != 0x3B {
            guard cursor.position - bodyStart < 12, PropertyListParser.isNameByte(byte) || byte == 0x23 else {
                throw PropertyListError(.unknownEntity, at: start)
            }
            cursor.advance()
        }
        guard cursor.peek() == 0x3B else { throw PropertyListError(.unexpectedEnd, at: start) }
        let body = cursor.bytes[bodyStart..<cursor.position]
        cursor.advance()  // ';'
        switch String(decoding: body, as: UTF8.self) {
        case "lt": out.append(0x3C)
        case "gt": out.append(0x3E)
        case "amp": out.append(0x26)
        case "quot": out.append(0x22)
        case "apos": out.append(0x27)
        default:
            guard body.first == 0x23 else { throw PropertyListError(.unknownEntity, at: start) }
            var digits = body.dropFirst()
            var radix: UInt32 = 10
            if digits.first == 0x78 {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, digits.count <= 8 else { throw PropertyListError(.invalidCharacterReference, at: start) }
            var code: UInt32 = 0
            for digit in digits {
                guard let value = Hex.value(of: digit), UInt32(value) < radix else {
                    throw PropertyListError(.invalidCharacterReference, at: start)
                }
                code = code * radix + UInt32(value)  // at most 8 hex digits: below 2^32
            }
            // XML 1.0 §2.2 Char: tab, LF, CR, U+0020-D7FF, U+E000-FFFD, U+10000-10FFFF.
            let allowed = code == 0x09 || code == 0x0A || code == 0x0D || (0x20...0xD7FF).contains(code)
                || (0xE000...0xFFFD).contains(code) || (0x10000...0x10FFFF).contains(code)
            guard allowed, let scalar = Unicode.Scalar(code) else {
                throw PropertyListError(.invalidCharacterReference, at: start)
            }
            UTF8.encode(scalar) { out.append($0) }
        }
    }
}

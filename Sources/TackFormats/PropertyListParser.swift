import TackDER

// The property-list reader's grammar (see PropertyList.swift for the accepted
// language): the document, its values and their text. The XML markup beneath
// them (declaration, DOCTYPE, comments, tags, references) is in
// PropertyListMarkup.swift.

/// Reads one XML property list with a ``TextCursor``.
struct PropertyListParser {
    var cursor: TextCursor

    init(_ bytes: [UInt8]) { cursor = TextCursor(bytes) }

    /// An error at the cursor.
    func fail(_ reason: PropertyListError.Reason) -> PropertyListError {
        PropertyListError(reason, at: cursor.location)
    }

    // MARK: Document

    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
        try validateCharacters()
        if cursor.looking(at: "\u{FEFF}") { cursor.advance(by: 3) }  // a UTF-8 byte order mark
        if cursor.looking(at: "<?xml") { try skipXMLDeclaration() }
        try skipMisc()
        if cursor.looking(at: "<!DOCTYPE") {
            try skipDoctype()
            try skipMisc()
        }
        guard !cursor.atEnd else { throw fail(.unexpectedEnd) }
        guard cursor.looking(at: "<"), !cursor.looking(at: "</"), !cursor.looking(at: "<!"), !cursor.looking(at: "<?") else {
            if cursor.looking(at: "<?") { throw fail(.processingInstruction) }
            throw fail(.missingPlistElement)
        }
        let root = try readTag()
        guard root.isNamed("plist") else { throw PropertyListError(.missingPlistElement, at: root.location) }
        for attribute in root.attributes {
            guard attribute.name.elementsEqual("version".utf8) else {
                throw PropertyListError(.unexpectedAttribute, at: root.location)
            }
            guard attribute.value.elementsEqual("1.0".utf8) else {
                throw PropertyListError(.unsupportedVersion, at: root.location)
            }
        }
        guard root.kind == .start else { throw PropertyListError(.wrongValueCount, at: root.location) }
        try skipMisc()
        guard !cursor.looking(at: "</") else { throw fail(.wrongValueCount) }
        let value = try parseValue(depth: 1)
        try skipMisc()
        guard cursor.looking(at: "</") else {
            if cursor.atEnd { throw fail(.unexpectedEnd) }
            if cursor.looking(at: "<") { throw fail(.wrongValueCount) }
            throw fail(.unexpectedText)
        }
        let end = try readTag()
        guard end.isNamed("plist") else { throw PropertyListError(.mismatchedEndTag, at: end.location) }
        try skipMisc()
        guard cursor.atEnd else { throw fail(.trailingContent) }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard !cursor.atEnd else { throw fail(.unexpectedEnd) }
        guard cursor.looking(at: "<") else { throw fail(.unexpectedText) }
        if cursor.looking(at: "<![CDATA[") || cursor.looking(at: "<!") { throw fail(.unexpectedText) }
        let tag = try readTag()
        guard tag.kind != .end else { throw PropertyListError(.mismatchedEndTag, at: tag.location) }
        guard tag.attributes.isEmpty else { throw PropertyListError(.unexpectedAttribute, at: tag.location) }
        guard depth <= PropertyList.maximumDepth else { throw PropertyListError(.tooDeep, at: tag.location) }
        if tag.isNamed("dict") { return .dictionary(try parseDictionary(tag, depth: depth)) }
        if tag.isNamed("array") { return .array(try parseArray(tag, depth: depth)) }
        if tag.isNamed("string") { return .string(String(decoding: try readText(tag), as: UTF8.self)) }
        if tag.isNamed("true") || tag.isNamed("false") {
            if tag.kind == .start {
                try skipMisc()  // only <true></true> (and comments) besides <true/>
                guard cursor.looking(at: "</") else { throw PropertyListError(.invalidBoolean, at: tag.location) }
                let end = try readTag()
                guard end.name == tag.name else { throw PropertyListError(.mismatchedEndTag, at: end.location) }
            }
            return .boolean(tag.isNamed("true"))
        }
        if tag.isNamed("integer") { return .integer(try parseInteger(try readText(tag), at: tag.location)) }
        if tag.isNamed("real") { return .real(try parseReal(try readText(tag), at: tag.location)) }
        if tag.isNamed("date") { return .date(try parseDate(try readText(tag), at: tag.location)) }
        if tag.isNamed("data") {
            let text = try readText(tag)
            guard let bytes = try? Base64.decode(text, options: .ignoringWhitespace) else {
                throw PropertyListError(.invalidData, at: tag.location)
            }
            return .data(bytes)
        }
        if tag.isNamed("key") { throw PropertyListError(.keyOutsideDictionary, at: tag.location) }
        throw PropertyListError(.unknownElement, at: tag.location)
    }

    mutating func parseDictionary(_ tag: PropertyListTag, depth: Int) throws(PropertyListError) -> PropertyListDictionary {
        var dictionary = PropertyListDictionary()
        guard tag.kind == .start else { return dictionary }
        while true {
            try skipMisc()
            guard !cursor.atEnd else { throw fail(.unexpectedEnd) }
            guard cursor.looking(at: "<") else { throw fail(.unexpectedText) }
            if cursor.looking(at: "</") {
                let end = try readTag()
                guard end.isNamed("dict") else { throw PropertyListError(.mismatchedEndTag, at: end.location) }
                return dictionary
            }
            let keyTag = try readTag()
            guard keyTag.isNamed("key") else {
                if keyTag.kind == .end { throw PropertyListError(.mismatchedEndTag, at: keyTag.location) }
                throw PropertyListError(.missingKey, at: keyTag.location)
            }
            guard keyTag.attributes.isEmpty else { throw PropertyListError(.unexpectedAttribute, at: keyTag.location) }
            let key = String(decoding: try readText(keyTag), as: UTF8.self)
            try skipMisc()
            if cursor.looking(at: "</dict") { throw PropertyListError(.missingValue, at: keyTag.location) }
            if cursor.looking(at: "<key"), let byte = cursor.peek(4), byte == 0x3E || byte == 0x2F || TextCursor.isWhitespace(byte) {
                throw PropertyListError(.missingValue, at: keyTag.location)
            }
            let value = try parseValue(depth: depth + 1)
            guard dictionary.entry(for: key) == nil else { throw PropertyListError(.duplicateKey, at: keyTag.location) }
            dictionary.entries.append(PropertyListDictionary.Entry(key: key, value: value, location: keyTag.location))
        }
    }

    mutating func parseArray(_ tag: PropertyListTag, depth: Int) throws(PropertyListError) -> [PropertyListValue] {
        var items: [PropertyListValue] = []
        guard tag.kind == .start else { return items }
        while true {
            try skipMisc()
            if cursor.looking(at: "</") {
                let end = try readTag()
                guard end.isNamed("array") else { throw PropertyListError(.mismatchedEndTag, at: end.location) }
                return items
            }
            items.append(try parseValue(depth: depth + 1))
        }
    }

    /// The character data of `tag` up to its end tag: entities and CDATA decoded,
    /// comments skipped, any element refused.
    mutating func readText(_ tag: PropertyListTag) throws(PropertyListError) -> [UInt8] {
        var text: [UInt8] = []
        guard tag.kind == .start else { return text }
        while true {
            guard let byte = cursor.peek() else { throw fail(.unexpectedEnd) }
            if byte == 0x3C {
                if cursor.looking(at: "<![CDATA[") {
                    let start = cursor.location
                    cursor.advance(by: 9)
                    while !cursor.looking(at: "]]>") {
                        guard let inner = cursor.peek() else { throw PropertyListError(.unexpectedEnd, at: start) }
                        text.append(inner)
                        cursor.advance()
                    }
                    cursor.advance(by: 3)
                } else if cursor.looking(at: "<!--") {
                    try skipComment()
                } else if cursor.looking(at: "</") {
                    let end = try readTag()
                    guard end.name == tag.name else { throw PropertyListError(.mismatchedEndTag, at: end.location) }
                    return text
                } else {
                    throw fail(.unexpectedElement)
                }
            } else if byte == 0x26 {
                try readReference(into: &text)
            } else {
                text.append(byte)
                cursor.advance()
            }
        }
    }

    func parseInteger(_ text: [UInt8], at location: TextLocation) throws(PropertyListError) -> Int64 {
        var digits = text[...]
        var negative = false
        if let sign = digits.first, sign == 0x2D || sign == 0x2B {
            negative = sign == 0x2D
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { throw PropertyListError(.invalidInteger, at: location) }
        var magnitude: UInt64 = 0
        for digit in digits {
            guard digit >= 0x30, digit <= 0x39 else { throw PropertyListError(.invalidInteger, at: location) }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - 0x30))
            guard !overflow1, !overflow2 else { throw PropertyListError(.integerOverflow, at: location) }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw PropertyListError(.integerOverflow, at: location) }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw PropertyListError(.integerOverflow, at: location) }
        return Int64(magnitude)
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]`, `[+-].digits...`, or `nan`/`inf`
    /// (both of which CoreFoundation writes).
    func parseReal(_ text: [UInt8], at location: TextLocation) throws(PropertyListError) -> Double {
        let string = String(decoding: text, as: UTF8.self)
        switch string.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        var index = 0
        func digits() -> Int {
            let start = index
            while index < text.count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < text.count, text[index] == 0x2B || text[index] == 0x2D { index += 1 }
        var mantissa = digits()
        if index < text.count, text[index] == 0x2E {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { throw PropertyListError(.invalidReal, at: location) }
        if index < text.count, text[index] == 0x65 || text[index] == 0x45 {
            index += 1
            if index < text.count, text[index] == 0x2B || text[index] == 0x2D { index += 1 }
            guard digits() > 0 else { throw PropertyListError(.invalidReal, at: location) }
        }
        guard index == text.count, let value = Double(string) else { throw PropertyListError(.invalidReal, at: location) }
        return value
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (ISO 8601 in UTC, as CoreFoundation writes dates).
    func parseDate(_ text: [UInt8], at location: TextLocation) throws(PropertyListError) -> Int64 {
        guard text.count == 20, text[4] == 0x2D, text[7] == 0x2D, text[10] == 0x54, text[13] == 0x3A,
              text[16] == 0x3A, text[19] == 0x5A else { throw PropertyListError(.invalidDate, at: location) }
        func number(_ range: Range<Int>) throws(PropertyListError) -> Int {
            var value = 0
            for byte in text[range] {
                guard byte >= 0x30, byte <= 0x39 else { throw PropertyListError(.invalidDate, at: location) }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        let (year, month, day) = (try number(0..<4), try number(5..<7), try number(8..<10))
        let (hour, minute, second) = (try number(11..<13), try number(14..<16), try number(17..<19))
        guard let time = try? DERTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw PropertyListError(.invalidDate, at: location)
        }
        return time.secondsSince1970
    }
}

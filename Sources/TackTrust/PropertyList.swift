import TackDER

// A strict reader and a writer for Apple's XML property lists (the format of
// `Info.plist`), so that `NSAppTransportSecurity` → `NSPinnedDomains` can be read
// where no Foundation is available.
//
// The accepted language is the subset of XML 1.0 that property lists use
// (Apple's DTD, http://www.apple.com/DTDs/PropertyList-1.0.dtd):
//
//   document := BOM? XMLDecl? Misc* doctype? Misc* <plist version="1.0"> value </plist> Misc*
//   value    := dict | array | string | integer | real | true | false | date | data
//   dict     := <dict> (Misc* <key>text</key> Misc* value)* Misc* </dict> | <dict/>
//
// where Misc is white space or a comment. Deliberately refused, each with its own
// reason: a DOCTYPE with an internal subset (`[ ... ]`, where entity declarations
// live: no "billion laughs", no external entities), any entity other than XML's five
// predefined ones and character references, processing instructions other than the
// XML declaration, an encoding other than UTF-8, attributes on anything but
// `<plist version>`, text outside `<string>`/`<key>`/value elements, duplicate keys,
// a key without a value, and nesting deeper than ``PropertyList/maximumDepth``.
// Binary and OpenStep property lists are not read: `plutil -convert xml1` first.

/// Where something is in a property list's text: 1-based line and column (the column
/// counts UTF-8 bytes, as clang and GCC do) and the 0-based byte offset.
public struct PropertyListLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in UTF-8 bytes.
    public var column: Int
    /// The byte offset from the start of the document, from 0.
    public var offset: Int

    /// Creates a location.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// Why a property list was refused, and where.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: Reason
    /// Where: the start of the offending markup or character.
    public var location: PropertyListLocation

    /// Creates an error.
    public init(_ reason: Reason, at location: PropertyListLocation) {
        self.reason = reason
        self.location = location
    }

    /// The rules a property list can break.
    public enum Reason: Sendable, Hashable {
        /// The bytes are not UTF-8.
        case invalidUTF8
        /// A control character XML does not allow (XML 1.0 §2.2).
        case invalidCharacter
        /// The document ends inside markup or before `</plist>`.
        case unexpectedEnd
        /// Markup that is not well-formed XML (a broken tag, comment or CDATA section).
        case malformedMarkup
        /// The XML declaration names an encoding other than UTF-8.
        case unsupportedEncoding
        /// A DOCTYPE with an internal subset, where entity declarations live.
        case doctypeInternalSubset
        /// A processing instruction other than the XML declaration.
        case processingInstruction
        /// An entity reference other than `&lt; &gt; &amp; &quot; &apos;`.
        case unknownEntity
        /// A character reference to a code point XML does not allow.
        case invalidCharacterReference
        /// The root element is not `<plist>`.
        case missingPlistElement
        /// `<plist version>` is not `1.0`.
        case unsupportedVersion
        /// An attribute where none is allowed (any element but `<plist>`).
        case unexpectedAttribute
        /// An element that is not part of the property list format.
        case unknownElement
        /// An end tag that does not close the open element.
        case mismatchedEndTag
        /// Text where an element is expected.
        case unexpectedText
        /// An element where text is expected (inside `<string>`, `<integer>`, ...).
        case unexpectedElement
        /// `<plist>` holds no value, or more than one.
        case wrongValueCount
        /// A `<key>` outside a `<dict>`.
        case keyOutsideDictionary
        /// A value in a `<dict>` without a `<key>` before it.
        case missingKey
        /// A `<key>` at the end of a `<dict>` with no value after it.
        case missingValue
        /// The same key twice in one `<dict>`.
        case duplicateKey
        /// An `<integer>` that is not an optionally signed decimal number.
        case invalidInteger
        /// An `<integer>` outside the 64-bit signed range.
        case integerOverflow
        /// A `<real>` that is not a decimal floating-point number.
        case invalidReal
        /// A `<date>` that is not `YYYY-MM-DDTHH:MM:SSZ` or not a real date.
        case invalidDate
        /// `<data>` that is not Base64.
        case invalidData
        /// `<true>` or `<false>` with content.
        case invalidBoolean
        /// Nesting deeper than ``PropertyList/maximumDepth``.
        case tooDeep
        /// Anything but white space and comments after `</plist>`.
        case trailingContent
    }

    /// `line:column: reason`.
    public var description: String {
        let text: String
        switch reason {
        case .invalidUTF8: text = "not UTF-8"
        case .invalidCharacter: text = "control character not allowed in XML"
        case .unexpectedEnd: text = "unexpected end of the document"
        case .malformedMarkup: text = "malformed markup"
        case .unsupportedEncoding: text = "encoding other than UTF-8"
        case .doctypeInternalSubset: text = "DOCTYPE with an internal subset (entity declarations are refused)"
        case .processingInstruction: text = "processing instruction other than the XML declaration"
        case .unknownEntity: text = "entity other than &lt; &gt; &amp; &quot; &apos;"
        case .invalidCharacterReference: text = "character reference to a character XML does not allow"
        case .missingPlistElement: text = "the root element is not <plist>"
        case .unsupportedVersion: text = "plist version other than 1.0"
        case .unexpectedAttribute: text = "attribute not allowed here"
        case .unknownElement: text = "element that is not part of a property list"
        case .mismatchedEndTag: text = "end tag does not close the open element"
        case .unexpectedText: text = "text where an element is expected"
        case .unexpectedElement: text = "element where text is expected"
        case .wrongValueCount: text = "<plist> must hold exactly one value"
        case .keyOutsideDictionary: text = "<key> outside a <dict>"
        case .missingKey: text = "value in a <dict> without a <key>"
        case .missingValue: text = "<key> without a value"
        case .duplicateKey: text = "duplicate key in a <dict>"
        case .invalidInteger: text = "<integer> is not a decimal integer"
        case .integerOverflow: text = "<integer> does not fit in 64 bits"
        case .invalidReal: text = "<real> is not a decimal number"
        case .invalidDate: text = "<date> is not YYYY-MM-DDTHH:MM:SSZ"
        case .invalidData: text = "<data> is not Base64"
        case .invalidBoolean: text = "<true/> and <false/> have no content"
        case .tooDeep: text = "nested deeper than \(PropertyList.maximumDepth) levels"
        case .trailingContent: text = "content after </plist>"
        }
        return "\(location): \(text)"
    }
}

/// A property list value.
public indirect enum PropertyListValue: Sendable, Hashable {
    /// `<dict>`: keys in document order, each unique.
    case dictionary(PropertyListDictionary)
    /// `<array>`.
    case array([PropertyListValue])
    /// `<string>`.
    case string(String)
    /// `<integer>`, 64-bit signed.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// `<date>`, as seconds since 1970-01-01T00:00:00Z.
    case date(Int64)
    /// `<data>`, decoded from Base64.
    case data([UInt8])

    /// The dictionary, if this is one.
    public var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { value } else { nil }
    }

    /// The array, if this is one.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The Boolean, if this is `<true/>` or `<false/>`.
    public var booleanValue: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    /// The integer, if this is one.
    public var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The date in seconds since 1970, if this is a `<date>`.
    public var dateValue: Int64? {
        if case .date(let value) = self { value } else { nil }
    }

    /// The element name of the value's type: `dict`, `array`, `string`, ...
    public var typeName: String {
        switch self {
        case .dictionary: "dict"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean(let value): value ? "true" : "false"
        case .date: "date"
        case .data: "data"
        }
    }
}

/// A `<dict>`: its entries in document order, with the location of each key.
///
/// Two dictionaries are equal when they have the same keys with equal values, in any
/// order and wherever they appear in their documents.
public struct PropertyListDictionary: Sendable, Hashable {
    /// One key and its value.
    public struct Entry: Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: PropertyListValue
        /// Where the `<key>` element starts (zero for dictionaries built in code).
        public var location: PropertyListLocation

        /// Creates an entry.
        public init(key: String, value: PropertyListValue,
                    location: PropertyListLocation = PropertyListLocation(line: 0, column: 0, offset: 0)) {
            self.key = key
            self.value = value
            self.location = location
        }
    }

    /// The entries in document order; keys are unique.
    public internal(set) var entries: [Entry]

    /// An empty dictionary.
    public init() { entries = [] }

    /// A dictionary of `entries`, or `nil` if a key repeats.
    public init?(_ entries: [Entry]) {
        self.init()
        for entry in entries {
            guard self.entry(for: entry.key) == nil else { return nil }
            self.entries.append(entry)
        }
    }

    /// The entry for `key`, or `nil`.
    public func entry(for key: String) -> Entry? {
        for entry in entries where entry.key == key { return entry }
        return nil
    }

    /// The value for `key`, or `nil`. Setting `nil` removes the key; setting a value
    /// replaces it in place or appends it.
    public subscript(key: String) -> PropertyListValue? {
        get { entry(for: key)?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The keys in document order.
    public var keys: [String] { entries.map { $0.key } }

    /// Whether the dictionary is empty.
    public var isEmpty: Bool { entries.isEmpty }

    /// The number of entries.
    public var count: Int { entries.count }

    /// Same keys, equal values, any order.
    public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for entry in lhs.entries {
            guard let other = rhs[entry.key], other == entry.value else { return false }
        }
        return true
    }

    /// Hashes the entries independently of their order (the sum of their hashes).
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for entry in entries {
            var entryHasher = Hasher()
            entryHasher.combine(entry.key)
            entryHasher.combine(entry.value)
            combined = combined &+ entryHasher.finalize()  // wrapping: an order-free combination
        }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }
}

/// Reading and writing XML property lists.
public enum PropertyList {
    /// The deepest nesting of `<dict>` and `<array>` accepted, counting the root value
    /// as level 1.
    ///
    /// 32, the same bound as ``DERLimits``' default depth: `Info.plist` files nest about
    /// 6 levels (`NSAppTransportSecurity` → `NSPinnedDomains` → domain → pin list →
    /// pin), and CoreFoundation's own parser documents no limit, so this only stops
    /// a hostile document from exhausting the stack.
    public static let maximumDepth = 32

    /// Parses an XML property list.
    ///
    /// - Parameter bytes: The document, UTF-8.
    /// - Returns: The root value.
    /// - Throws: ``PropertyListError`` with the first rule the document breaks and
    ///   its line and column.
    public static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        var parser = PropertyListParser(bytes)
        return try parser.parseDocument()
    }

    /// Parses an XML property list given as a string.
    public static func parse(_ text: String) throws(PropertyListError) -> PropertyListValue {
        try parse(Array(text.utf8))
    }

    /// The XML document for `value`, as Xcode writes it: the XML declaration, Apple's
    /// DOCTYPE, `<plist version="1.0">`, one element per line indented by tabs.
    public static func xmlDocument(_ value: PropertyListValue) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(value, indent: 0, into: &out)
        out += "</plist>\n"
        return out
    }

    /// The XML elements of `value` alone (no declaration or `<plist>`), each line
    /// indented by `indent` tabs: a fragment to paste into an existing `Info.plist`.
    public static func xmlFragment(_ value: PropertyListValue, indent: Int = 0) -> String {
        var out = ""
        write(value, indent: indent, into: &out)
        return out
    }

    private static func write(_ value: PropertyListValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "\t", count: indent)
        switch value {
        case .dictionary(let dictionary):
            if dictionary.isEmpty {
                out += pad + "<dict/>\n"
                return
            }
            out += pad + "<dict>\n"
            for entry in dictionary.entries {
                out += pad + "\t<key>" + escaped(entry.key) + "</key>\n"
                write(entry.value, indent: indent + 1, into: &out)
            }
            out += pad + "</dict>\n"
        case .array(let items):
            if items.isEmpty {
                out += pad + "<array/>\n"
                return
            }
            out += pad + "<array>\n"
            for item in items { write(item, indent: indent + 1, into: &out) }
            out += pad + "</array>\n"
        case .string(let text): out += pad + "<string>" + escaped(text) + "</string>\n"
        case .integer(let number): out += pad + "<integer>\(number)</integer>\n"
        case .real(let number): out += pad + "<real>\(number)</real>\n"
        case .boolean(let flag): out += pad + (flag ? "<true/>\n" : "<false/>\n")
        case .date(let seconds):
            let text = (try? DERTime(secondsSince1970: seconds))?.description ?? "1970-01-01T00:00:00Z"
            out += pad + "<date>" + text + "</date>\n"
        case .data(let bytes): out += pad + "<data>" + Base64.encode(bytes) + "</data>\n"
        }
    }

    /// `text` with `&`, `<` and `>` escaped for element content.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

// MARK: - The parser

/// A tag as read: its kind, name and attributes.
private struct Tag {
    enum Kind { case start, end, empty }
    var kind: Kind
    var name: [UInt8]
    var attributes: [(name: [UInt8], value: [UInt8])]
    var location: PropertyListLocation

    func isNamed(_ text: StaticString) -> Bool {
        text.withUTF8Buffer { name.elementsEqual($0) }
    }
}

private struct PropertyListParser {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var location: PropertyListLocation { location(at: position) }

    /// The location of `offset`, which must be at or after the current line's start.
    func location(at offset: Int) -> PropertyListLocation {
        PropertyListLocation(line: line, column: offset - lineStart + 1, offset: offset)
    }

    func fail(_ reason: PropertyListError.Reason) -> PropertyListError {
        PropertyListError(reason, at: location)
    }

    var atEnd: Bool { position >= bytes.count }

    func peek(_ distance: Int = 0) -> UInt8? {
        let index = position + distance
        return index < bytes.count ? bytes[index] : nil
    }

    func looking(at text: StaticString) -> Bool {
        text.withUTF8Buffer { marker in
            guard bytes.count - position >= marker.count else { return false }
            return bytes[position..<(position + marker.count)].elementsEqual(marker)
        }
    }

    /// Moves past one byte, keeping the line count.
    mutating func advance() {
        if bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        position += 1
    }

    mutating func advance(by count: Int) {
        for _ in 0..<count where !atEnd { advance() }
    }

    // MARK: Document

    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
        try validateCharacters()
        if looking(at: "\u{FEFF}") { position += 3 }  // a UTF-8 byte order mark
        if looking(at: "<?xml") { try skipXMLDeclaration() }
        try skipMisc()
        if looking(at: "<!DOCTYPE") {
            try skipDoctype()
            try skipMisc()
        }
        guard !atEnd else { throw fail(.unexpectedEnd) }
        guard looking(at: "<"), !looking(at: "</"), !looking(at: "<!"), !looking(at: "<?") else {
            if looking(at: "<?") { throw fail(.processingInstruction) }
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
        guard !looking(at: "</") else { throw fail(.wrongValueCount) }
        let value = try parseValue(depth: 1)
        try skipMisc()
        guard looking(at: "</") else {
            if atEnd { throw fail(.unexpectedEnd) }
            if looking(at: "<") { throw fail(.wrongValueCount) }
            throw fail(.unexpectedText)
        }
        let end = try readTag()
        guard end.isNamed("plist") else { throw PropertyListError(.mismatchedEndTag, at: end.location) }
        try skipMisc()
        guard atEnd else { throw fail(.trailingContent) }
        return value
    }

    /// Checks the whole document is UTF-8 without XML-forbidden control characters
    /// (XML 1.0 §2.2: tab, LF and CR are the only ones allowed), so that the rest of
    /// the parser works on bytes.
    mutating func validateCharacters() throws(PropertyListError) {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let width = UTF8.width(scalar)
                if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" {
                    moveTo(before)
                    throw fail(.invalidCharacter)
                }
                if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    moveTo(before)
                    throw fail(.invalidCharacter)
                }
                offset += width
            case .emptyInput:
                return
            case .error:
                moveTo(before)
                throw fail(.invalidUTF8)
            }
        }
    }

    /// Moves to `offset` from the start, counting lines (for error locations).
    mutating func moveTo(_ offset: Int) {
        position = 0
        line = 1
        lineStart = 0
        while position < offset && !atEnd { advance() }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="..."?>`.
    mutating func skipXMLDeclaration() throws(PropertyListError) {
        let start = location
        advance(by: 5)
        guard let next = peek(), next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D else {
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
        let start = location
        advance(by: 9)
        var quote: UInt8?
        while let byte = peek() {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B {  // '[': an internal subset, where entities are declared
                throw fail(.doctypeInternalSubset)
            } else if byte == 0x3E {
                advance()
                return
            } else if byte == 0x3C {
                throw PropertyListError(.malformedMarkup, at: start)
            }
            advance()
        }
        throw fail(.unexpectedEnd)
    }

    /// White space and comments.
    mutating func skipMisc() throws(PropertyListError) {
        while let byte = peek() {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                advance()
            } else if looking(at: "<!--") {
                try skipComment()
            } else if looking(at: "<?") {
                throw fail(.processingInstruction)
            } else {
                return
            }
        }
    }

    /// `<!-- ... -->`; `--` may not appear inside (XML 1.0 §2.5).
    mutating func skipComment() throws(PropertyListError) {
        let start = location
        advance(by: 4)
        while !atEnd {
            if looking(at: "--") {
                guard looking(at: "-->") else { throw PropertyListError(.malformedMarkup, at: start) }
                advance(by: 3)
                return
            }
            advance()
        }
        throw PropertyListError(.unexpectedEnd, at: start)
    }

    // MARK: Tags

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D || byte == 0x5F || byte == 0x3A || byte == 0x2E
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Reads `<name attr="v">`, `<name/>` or `</name>` at the current `<`.
    mutating func readTag() throws(PropertyListError) -> Tag {
        let start = location
        advance()  // '<'
        var kind = Tag.Kind.start
        if peek() == 0x2F {
            kind = .end
            advance()
        }
        let nameStart = position
        while let byte = peek(), PropertyListParser.isNameByte(byte) { advance() }
        guard position > nameStart else { throw PropertyListError(.malformedMarkup, at: start) }
        let name = Array(bytes[nameStart..<position])
        var attributes: [(name: [UInt8], value: [UInt8])] = []
        if kind == .end {
            while let byte = peek(), PropertyListParser.isSpace(byte) { advance() }
            guard peek() == 0x3E else { throw PropertyListError(.malformedMarkup, at: start) }
            advance()
        } else {
            guard let next = peek() else { throw fail(.unexpectedEnd) }
            guard next == 0x3E || next == 0x2F || PropertyListParser.isSpace(next) else {
                throw PropertyListError(.malformedMarkup, at: start)
            }
            attributes = try readAttributes(until: ">")
            if let last = bytes[..<position].dropLast().last, last == 0x2F { kind = .empty }
        }
        return Tag(kind: kind, name: name, attributes: attributes, location: start)
    }

    /// Attributes up to and including `terminator` (`>` or `?>`); a `/` just before
    /// `>` is left for ``readTag()`` to see.
    mutating func readAttributes(until terminator: StaticString) throws(PropertyListError) -> [(name: [UInt8], value: [UInt8])] {
        var attributes: [(name: [UInt8], value: [UInt8])] = []
        while true {
            while let byte = peek(), PropertyListParser.isSpace(byte) { advance() }
            guard !atEnd else { throw fail(.unexpectedEnd) }
            if looking(at: terminator) {
                advance(by: terminator.utf8CodeUnitCount)
                return attributes
            }
            if peek() == 0x2F, peek(1) == 0x3E, terminator.utf8CodeUnitCount == 1 {
                advance(by: 2)
                return attributes
            }
            let nameStart = position
            while let byte = peek(), PropertyListParser.isNameByte(byte) { advance() }
            guard position > nameStart else { throw fail(.malformedMarkup) }
            let name = Array(bytes[nameStart..<position])
            while let byte = peek(), PropertyListParser.isSpace(byte) { advance() }
            guard peek() == 0x3D else { throw fail(.malformedMarkup) }
            advance()
            while let byte = peek(), PropertyListParser.isSpace(byte) { advance() }
            guard let quote = peek(), quote == 0x22 || quote == 0x27 else { throw fail(.malformedMarkup) }
            advance()
            var value: [UInt8] = []
            while true {
                guard let byte = peek() else { throw fail(.unexpectedEnd) }
                if byte == quote { break }
                if byte == 0x3C { throw fail(.malformedMarkup) }
                if byte == 0x26 {
                    try readReference(into: &value)
                } else {
                    value.append(byte)
                    advance()
                }
            }
            advance()
            if attributes.contains(where: { $0.name == name }) { throw fail(.malformedMarkup) }
            attributes.append((name, value))
        }
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;`, `&#xH;` (XML 1.0 §4.1, §4.6).
    mutating func readReference(into out: inout [UInt8]) throws(PropertyListError) {
        let start = location
        advance()  // '&'
        let bodyStart = position
        while let byte = peek(), byte != 0x3B {
            guard position - bodyStart < 12, PropertyListParser.isNameByte(byte) || byte == 0x23 else {
                throw PropertyListError(.unknownEntity, at: start)
            }
            advance()
        }
        guard peek() == 0x3B else { throw PropertyListError(.unexpectedEnd, at: start) }
        let body = bytes[bodyStart..<position]
        advance()  // ';'
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
                let value: UInt32
                switch digit {
                case 0x30...0x39: value = UInt32(digit - 0x30)
                case 0x61...0x66 where radix == 16: value = UInt32(digit - 0x61 + 10)
                case 0x41...0x46 where radix == 16: value = UInt32(digit - 0x41 + 10)
                default: throw PropertyListError(.invalidCharacterReference, at: start)
                }
                code = code * radix + value  // at most 8 hex digits: below 2^32
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

    // MARK: Values

    mutating func parseValue(depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard !atEnd else { throw fail(.unexpectedEnd) }
        guard looking(at: "<") else { throw fail(.unexpectedText) }
        if looking(at: "<![CDATA[") || looking(at: "<!") { throw fail(.unexpectedText) }
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
                guard looking(at: "</") else { throw PropertyListError(.invalidBoolean, at: tag.location) }
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

    mutating func parseDictionary(_ tag: Tag, depth: Int) throws(PropertyListError) -> PropertyListDictionary {
        var dictionary = PropertyListDictionary()
        guard tag.kind == .start else { return dictionary }
        while true {
            try skipMisc()
            guard !atEnd else { throw fail(.unexpectedEnd) }
            guard looking(at: "<") else { throw fail(.unexpectedText) }
            if looking(at: "</") {
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
            if looking(at: "</dict") { throw PropertyListError(.missingValue, at: keyTag.location) }
            if looking(at: "<key"), let byte = peek(4), byte == 0x3E || byte == 0x2F || PropertyListParser.isSpace(byte) {
                throw PropertyListError(.missingValue, at: keyTag.location)
            }
            let value = try parseValue(depth: depth + 1)
            guard dictionary.entry(for: key) == nil else { throw PropertyListError(.duplicateKey, at: keyTag.location) }
            dictionary.entries.append(PropertyListDictionary.Entry(key: key, value: value, location: keyTag.location))
        }
    }

    mutating func parseArray(_ tag: Tag, depth: Int) throws(PropertyListError) -> [PropertyListValue] {
        var items: [PropertyListValue] = []
        guard tag.kind == .start else { return items }
        while true {
            try skipMisc()
            if looking(at: "</") {
                let end = try readTag()
                guard end.isNamed("array") else { throw PropertyListError(.mismatchedEndTag, at: end.location) }
                return items
            }
            items.append(try parseValue(depth: depth + 1))
        }
    }

    /// The character data of `tag` up to its end tag: entities and CDATA decoded,
    /// comments skipped, any element refused.
    mutating func readText(_ tag: Tag) throws(PropertyListError) -> [UInt8] {
        var text: [UInt8] = []
        guard tag.kind == .start else { return text }
        while true {
            guard let byte = peek() else { throw fail(.unexpectedEnd) }
            if byte == 0x3C {
                if looking(at: "<![CDATA[") {
                    let start = location
                    advance(by: 9)
                    while !looking(at: "]]>") {
                        guard let inner = peek() else { throw PropertyListError(.unexpectedEnd, at: start) }
                        text.append(inner)
                        advance()
                    }
                    advance(by: 3)
                } else if looking(at: "<!--") {
                    try skipComment()
                } else if looking(at: "</") {
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
                advance()
            }
        }
    }

    func parseInteger(_ text: [UInt8], at location: PropertyListLocation) throws(PropertyListError) -> Int64 {
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
    func parseReal(_ text: [UInt8], at location: PropertyListLocation) throws(PropertyListError) -> Double {
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
    func parseDate(_ text: [UInt8], at location: PropertyListLocation) throws(PropertyListError) -> Int64 {
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

internal import TackDER

// A small strict JSON reader (RFC 8259) for pin policies, standard library only.
//
// Strict where RFC 8259 is strict: one value, optionally surrounded by the four
// whitespace characters of §2; no comments, no trailing commas, no leading zeros,
// no NaN/Infinity, no control characters inside strings, no lone surrogates
// (§7 allows them in principle; they are not Unicode text, so they are refused),
// valid UTF-8 only (§8.1). Deliberate choices where RFC 8259 leaves room:
// duplicate object keys are refused (§4: names SHOULD be unique; a policy with
// two `"domain"` keys is a mistake, not data), and depth and size are bounded
// (§9: "An implementation may set limits").

/// Limits of ``JSONReader``.
public struct JSONLimits: Sendable, Hashable {
    /// The largest document, in bytes.
    public var maximumSize: Int
    /// The deepest nesting of arrays and objects.
    public var maximumDepth: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumSize: The most bytes a document may have.
    ///   - maximumDepth: The deepest nesting of arrays and objects.
    public init(maximumSize: Int, maximumDepth: Int) {
        self.maximumSize = maximumSize
        self.maximumDepth = maximumDepth
    }

    /// 1 MiB and depth 32: a pin policy for thousands of domains is a few hundred
    /// kilobytes and four levels deep; the bounds keep hostile input cheap.
    public static let `default` = JSONLimits(maximumSize: 1 << 20, maximumDepth: 32)
}

/// Reads one JSON document (RFC 8259) into a ``JSONValue``.
public enum JSONReader {
    /// Parses `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 document (a leading byte-order mark is refused, §8.1).
    ///   - limits: Size and depth bounds.
    /// - Returns: The value.
    /// - Throws: ``JSONError`` with the location of the first problem.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = .default) throws(JSONError) -> JSONValue {
        guard bytes.count <= limits.maximumSize else {
            throw JSONError(.tooLarge(limit: limits.maximumSize), at: TextCursor.location(of: limits.maximumSize, in: bytes))
        }
        // §8.1: UTF-8 only. Checked once up front, so strings are read as bytes.
        if case .invalidEncoding(let offset)? = TextCursor.firstProblem(in: bytes, refusing: { _ in false }) {
            throw JSONError(.invalidUTF8, at: TextCursor.location(of: offset, in: bytes))
        }
        var parser = JSONParser(bytes: bytes, maximumDepth: limits.maximumDepth)
        parser.cursor.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.cursor.skipWhitespace()
        guard parser.cursor.atEnd else { throw parser.fail(.trailingData) }
        return value
    }

    /// Parses the UTF-8 form of `text`, as ``parse(_:limits:)-([UInt8],_)`` does.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - limits: Size and depth bounds.
    /// - Returns: The value.
    /// - Throws: ``JSONError`` with the location of the first problem.
    public static func parse(_ text: String, limits: JSONLimits = .default) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }
}

/// Reads JSON values with a ``TextCursor`` over a document already checked to be UTF-8.
private struct JSONParser {
    var cursor: TextCursor
    let maximumDepth: Int

    init(bytes: [UInt8], maximumDepth: Int) {
        cursor = TextCursor(bytes)
        self.maximumDepth = maximumDepth
    }

    /// An error at the cursor.
    func fail(_ reason: JSONError.Reason) -> JSONError {
        JSONError(reason, at: cursor.location)
    }

    /// The byte at the cursor; the end of the document is an error.
    func next() throws(JSONError) -> UInt8 {
        guard let byte = cursor.peek() else { throw fail(.unexpectedEnd) }
        return byte
    }

    /// Moves past `wanted`, or fails at the first byte that differs.
    mutating func expect(_ wanted: UInt8) throws(JSONError) {
        let byte = try next()
        guard byte == wanted else { throw fail(.unexpectedByte(byte)) }
        cursor.advance()
    }

    mutating func expectLiteral(_ literal: String) throws(JSONError) {
        for wanted in literal.utf8 { try expect(wanted) }
    }

    mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        let byte = try next()
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail(.unexpectedByte(byte))
        }
    }

    /// Moves past `,` and returns `false`, or past `close` and returns `true`.
    mutating func separatorOrEnd(_ close: UInt8) throws(JSONError) -> Bool {
        cursor.skipWhitespace()
        let byte = try next()
        guard byte == close || byte == UInt8(ascii: ",") else { throw fail(.unexpectedByte(byte)) }
        cursor.advance()
        return byte == close
    }

    /// Moves past the opening bracket after checking the depth, and past `close` if
    /// the container is empty: `true` then.
    mutating func open(_ close: UInt8, depth: Int) throws(JSONError) -> Bool {
        guard depth <= maximumDepth else { throw fail(.tooDeep(limit: maximumDepth)) }
        cursor.advance()
        cursor.skipWhitespace()
        guard try next() == close else { return false }
        cursor.advance()
        return true
    }

    mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
        var members: [JSONMember] = []
        if try open(UInt8(ascii: "}"), depth: depth) { return .object(members) }
        var keys: Set<String> = []
        repeat {
            cursor.skipWhitespace()
            let keyLocation = cursor.location
            let byte = try next()
            guard byte == UInt8(ascii: "\"") else { throw fail(.unexpectedByte(byte)) }
            let key = try parseString()
            guard keys.insert(key).inserted else { throw JSONError(.duplicateKey, at: keyLocation) }
            cursor.skipWhitespace()
            try expect(UInt8(ascii: ":"))
            cursor.skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONMember(key: key, value: value, location: keyLocation))
        } while try !separatorOrEnd(UInt8(ascii: "}"))
        return .object(members)
    }

    mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
        var elements: [JSONValue] = []
        if try open(UInt8(ascii: "]"), depth: depth) { return .array(elements) }
        repeat {
            cursor.skipWhitespace()
            elements.append(try parseValue(depth: depth))
        } while try !separatorOrEnd(UInt8(ascii: "]"))
        return .array(elements)
    }

    /// Moves past decimal digits; returns how many.
    mutating func skipDigits() -> Int {
        var count = 0
        while let byte = cursor.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            cursor.advance()
            count += 1
        }
        return count
    }

    /// §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = cursor.position
        if cursor.peek() == UInt8(ascii: "-") { cursor.advance() }
        if cursor.peek() == UInt8(ascii: "0") {
            cursor.advance()
            if let byte = cursor.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { throw fail(.invalidNumber) }
        } else if skipDigits() == 0 {
            throw fail(.invalidNumber)
        }
        var isInteger = true
        if cursor.peek() == UInt8(ascii: ".") {
            isInteger = false
            cursor.advance()
            guard skipDigits() > 0 else { throw fail(.invalidNumber) }
        }
        if cursor.peek() == UInt8(ascii: "e") || cursor.peek() == UInt8(ascii: "E") {
            isInteger = false
            cursor.advance()
            if cursor.peek() == UInt8(ascii: "+") || cursor.peek() == UInt8(ascii: "-") { cursor.advance() }
            guard skipDigits() > 0 else { throw fail(.invalidNumber) }
        }
        let literal = String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self)
        // Int64(_:) checks the range (no overflow trap); "-0" reads as 0.
        return JSONNumber(literal: literal, integer: isInteger ? Int64(literal) : nil)
    }

    /// The four hex digits of a `\u` escape, as one UTF-16 code unit.
    mutating func hexQuad() throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = cursor.peek(), let digit = Hex.value(of: byte) else {
                throw fail(.invalidUnicodeEscape)
            }
            value = value << 4 | UInt16(digit)
            cursor.advance()
        }
        return value
    }

    /// The scalar of a `\u` escape whose `u` the cursor has passed, with its low
    /// surrogate partner if it is a high one (§7).
    mutating func unicodeEscape(at escape: TextLocation) throws(JSONError) -> Unicode.Scalar {
        let unit = try hexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            guard cursor.looking(at: "\\u") else { throw JSONError(.loneSurrogate, at: escape) }
            cursor.advance(by: 2)
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
            else { throw JSONError(.loneSurrogate, at: escape) }
            return scalar
        default:
            // A low surrogate alone is not a scalar, and Unicode.Scalar refuses it.
            guard let scalar = Unicode.Scalar(unit) else { throw JSONError(.loneSurrogate, at: escape) }
            return scalar
        }
    }

    /// A backslash escape (§7) at the cursor, appended to `text` as UTF-8.
    mutating func escape(into text: inout [UInt8]) throws(JSONError) {
        let escape = cursor.location
        cursor.advance()  // backslash
        let byte = try next()
        cursor.advance()
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"): UTF8.encode(try unicodeEscape(at: escape)) { text.append($0) }
        default: throw JSONError(.invalidEscape, at: escape)
        }
    }

    /// A string at its opening quote. The document is valid UTF-8 (checked by
    /// ``JSONReader/parse(_:limits:)``), so bytes other than quote, backslash and
    /// controls are copied as they are.
    mutating func parseString() throws(JSONError) -> String {
        cursor.advance()  // opening quote
        var text: [UInt8] = []
        while true {
            let byte = try next()
            switch byte {
            case UInt8(ascii: "\""):
                cursor.advance()
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case 0x00..<0x20:
                throw fail(.controlCharacterInString)
            default:
                text.append(byte)
                cursor.advance()
            }
        }
    }
}

// Building and reading JSON values in code: the constructors the `tack` command and
// TackTrust's reports build their documents with, and the accessors tests and readers
// take them apart with.

extension JSONValue {
    /// An integer.
    ///
    /// - Parameter value: The value.
    /// - Returns: A number whose literal is the integer's decimal digits.
    public static func integer(_ value: Int64) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// An integer from any integer type, clamped to the 64-bit signed range.
    ///
    /// - Parameter value: The value.
    /// - Returns: A number.
    public static func int(_ value: some BinaryInteger) -> JSONValue {
        .integer(Int64(clamping: value))
    }

    /// A string, or `null` for `nil`.
    ///
    /// - Parameter value: The text, if any.
    /// - Returns: `.string(value)` or `.null`.
    public static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// An array of strings.
    ///
    /// - Parameter values: The texts.
    /// - Returns: An array of `.string` values, in order.
    public static func strings(_ values: [String]) -> JSONValue {
        .array(values.map(JSONValue.string))
    }

    /// An object whose members are given as (key, value) pairs, in the order written.
    ///
    /// - Parameter fields: The members, in order.
    /// - Returns: An object (its members carry no location: they were not read).
    @_disfavoredOverload  // `.object([])` is the case: an empty object either way.
    public static func object(_ fields: [(String, JSONValue)]) -> JSONValue {
        .object(fields.map { JSONMember(key: $0.0, value: $0.1) })
    }

    /// The value of the first member named `key` of an object.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The member's value; `nil` for other values and absent keys.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array.
    ///
    /// - Parameter index: The position, from 0.
    /// - Returns: The element; `nil` for other values and indices out of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The text of a string; `nil` for other values.
    public var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    /// The value of an integer number in the 64-bit range; `nil` for other values.
    public var integerValue: Int64? { if case .number(let number) = self { number.integer } else { nil } }
    /// The value of `true` or `false`; `nil` for other values.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The elements of an array; `nil` for other values.
    public var arrayValue: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    /// The members of an object, in order; `nil` for other values.
    public var objectValue: [JSONMember]? { if case .object(let members) = self { members } else { nil } }
}

extension JSONNumber {
    /// An integer.
    ///
    /// - Parameter value: The value; its literal is its decimal digits.
    public init(_ value: Int64) {
        self.init(literal: String(value), integer: value)
    }

    /// A binary floating-point value, written as the shortest literal that reads back
    /// to the same `Double`; `nil` for infinities and NaN, which JSON cannot hold
    /// (RFC 8259 §6).
    ///
    /// - Parameter value: The value.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        // `description` is the shortest round-tripping form ("0.1", "1e-07", "5.0"), every
        // one an RFC 8259 §6 number with a fraction or an exponent, so, as when
        // JSONReader reads such a literal, it has no `integer`.
        self.init(literal: value.description, integer: nil)
    }
}

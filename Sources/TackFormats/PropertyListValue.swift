// The value model of a property list, XML or binary (PropertyList.swift).

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

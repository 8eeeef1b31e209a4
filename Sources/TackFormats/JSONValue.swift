// The value model of a JSON document: what JSONReader reads and JSONWriter writes.

/// A JSON value.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its text plus its integer value when it is one.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order.
    case object([JSONMember])
}

/// A JSON number: its literal text (RFC 8259 §6 grammar) and, when the literal is an
/// integer without fraction or exponent that fits, its `Int64` value.
public struct JSONNumber: Sendable, Hashable {
    /// The literal as written.
    public let literal: String
    /// The value when the literal is an integer in `Int64` range; `nil` otherwise.
    public let integer: Int64?

    /// Creates a number (for adapters from other document models).
    ///
    /// - Parameters:
    ///   - literal: The number as written.
    ///   - integer: Its value when it is an integer that fits 64 bits.
    public init(literal: String, integer: Int64?) {
        self.literal = literal
        self.integer = integer
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public let key: String
    /// The value.
    public let value: JSONValue
    /// Where the key's opening quote is in the document.
    public let location: TextLocation

    /// Creates a member (for adapters from other document models).
    ///
    /// - Parameters:
    ///   - key: The member name.
    ///   - value: The member value.
    ///   - location: Where the key is.
    public init(key: String, value: JSONValue, location: TextLocation) {
        self.key = key
        self.value = value
        self.location = location
    }

    /// Creates a member built in code rather than read from a document; its
    /// ``location`` is line 0, column 0.
    ///
    /// - Parameters:
    ///   - key: The member name.
    ///   - value: The member value.
    public init(key: String, value: JSONValue) {
        self.init(key: key, value: value, location: TextLocation(line: 0, column: 0, offset: 0))
    }

    /// Two members are equal when their keys and values are: where a member was
    /// written is not part of the value, so a document read back equals the one built.
    public static func == (lhs: JSONMember, rhs: JSONMember) -> Bool {
        lhs.key == rhs.key && lhs.value == rhs.value
    }

    /// Hashes the key and the value (not the location), as equality compares them.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
    }
}

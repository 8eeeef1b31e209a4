// TackVectorSuites: reading the third-party suites' JSON documents (Wycheproof,
// x509-limbo, Tack's own manifests) into typed fields through TackFormats'
// JSONReader, with errors that name the member that is missing or of the wrong
// type (`missing tcId at .testGroups[0].tests[3]`). No Foundation coder.

import TackFormats

/// A JSON document that is not of the shape a suite reader expects: not JSON, or a
/// member missing or of the wrong type, and where.
public struct JSONShapeError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and where, for example `missing tcId at .testGroups[0].tests[3]`
    /// or `not valid JSON (…)`.
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The error for a document JSONReader refused.
    init(_ error: JSONError) {
        self.init("not valid JSON (\(error))")
    }
}

/// The members of one JSON object, read with the path that leads to it so that a
/// missing or mistyped member is named. An absent member and `null` both read as
/// `nil` for the optional accessors; any other type mismatch throws.
public struct JSONFields: Sendable {
    /// The object's members.
    let value: JSONValue
    /// Where the object is (`.testGroups[2]`; empty at the top level).
    let path: String

    /// The object `value`, at `path`.
    ///
    /// - Throws: ``JSONShapeError`` when `value` is not an object.
    init(_ value: JSONValue, path: String = "") throws(JSONShapeError) {
        guard value.objectValue != nil else { throw JSONShapeError("wrong type at \(path.isEmpty ? "top level" : path)") }
        self.value = value
        self.path = path
    }

    /// Reads a whole document: JSON of any size (suites run to tens of megabytes),
    /// whose top level is an object.
    ///
    /// - Parameter bytes: The UTF-8 document.
    /// - Throws: ``JSONShapeError`` when it is not JSON or not an object.
    public init(document bytes: [UInt8]) throws(JSONShapeError) {
        try self.init(try Self.parse(bytes))
    }

    /// Reads a whole document whose top level is an array of objects (a manifest),
    /// each read by `read`; an element is named by its index (`[3].exit`).
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 document.
    ///   - read: The reader of one element.
    /// - Returns: The elements, in document order.
    /// - Throws: ``JSONShapeError`` when it is not JSON, not an array of objects, or
    ///   `read` throws.
    public static func objects<Element>(
        inDocument bytes: [UInt8], _ read: (JSONFields) throws(JSONShapeError) -> Element
    ) throws(JSONShapeError) -> [Element] {
        guard let items = try parse(bytes).arrayValue else { throw JSONShapeError("wrong type at top level") }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            elements.append(try read(try JSONFields(item, path: "[\(index)]")))
        }
        return elements
    }

    /// A document of any size (suites run to tens of megabytes; the depth stays bounded).
    private static func parse(_ bytes: [UInt8]) throws(JSONShapeError) -> JSONValue {
        do {
            return try JSONReader.parse(bytes, limits: JSONLimits(maximumSize: Int.max, maximumDepth: 32))
        } catch {
            throw JSONShapeError(error)
        }
    }

    private func place(_ key: String) -> String { "\(path).\(key)" }
    private func wrongType(_ key: String) -> JSONShapeError { JSONShapeError("wrong type at \(place(key))") }

    /// The member `key`, or nil when it is absent or `null`.
    private func member(_ key: String) -> JSONValue? {
        switch value[key] {
        case .none, .null?: nil
        case let present?: present
        }
    }

    /// A required member.
    private func required(_ key: String) throws(JSONShapeError) -> JSONValue {
        guard let present = member(key) else { throw JSONShapeError("missing \(key) at \(path.isEmpty ? "top level" : path)") }
        return present
    }

    /// A required string member.
    public func string(_ key: String) throws(JSONShapeError) -> String {
        guard let text = try required(key).stringValue else { throw wrongType(key) }
        return text
    }

    /// An optional string member.
    public func optionalString(_ key: String) throws(JSONShapeError) -> String? {
        guard let present = member(key) else { return nil }
        guard let text = present.stringValue else { throw wrongType(key) }
        return text
    }

    /// A required integer member (in the range of `Int`).
    public func int(_ key: String) throws(JSONShapeError) -> Int {
        guard let number = try required(key).integerValue, let value = Int(exactly: number) else { throw wrongType(key) }
        return value
    }

    /// An optional integer member.
    public func optionalInt(_ key: String) throws(JSONShapeError) -> Int? {
        guard member(key) != nil else { return nil }
        return try int(key)
    }

    /// A required array of strings.
    public func strings(_ key: String) throws(JSONShapeError) -> [String] {
        guard let items = try required(key).arrayValue else { throw wrongType(key) }
        var texts: [String] = []
        texts.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else { throw JSONShapeError("wrong type at \(place(key))[\(index)]") }
            texts.append(text)
        }
        return texts
    }

    /// An optional array of strings.
    public func optionalStrings(_ key: String) throws(JSONShapeError) -> [String]? {
        guard member(key) != nil else { return nil }
        return try strings(key)
    }

    /// A required array of objects, each read by `read`.
    public func objects<Element>(_ key: String, _ read: (JSONFields) throws(JSONShapeError) -> Element) throws(JSONShapeError) -> [Element] {
        guard let items = try required(key).arrayValue else { throw wrongType(key) }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            elements.append(try read(try JSONFields(item, path: "\(place(key))[\(index)]")))
        }
        return elements
    }

    /// An optional array of objects.
    public func optionalObjects<Element>(_ key: String, _ read: (JSONFields) throws(JSONShapeError) -> Element) throws(JSONShapeError) -> [Element]? {
        guard member(key) != nil else { return nil }
        return try objects(key, read)
    }

    /// An optional object member, read by `read`.
    public func optionalObject<Element>(_ key: String, _ read: (JSONFields) throws(JSONShapeError) -> Element) throws(JSONShapeError) -> Element? {
        guard let present = member(key) else { return nil }
        return try read(try JSONFields(present, path: place(key)))
    }
}

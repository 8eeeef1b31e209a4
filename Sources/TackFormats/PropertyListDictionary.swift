// A property list's `<dict>` (PropertyList.swift).

/// A `<dict>` (or a binary dictionary): its entries in document order, with the
/// location of each key.
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
        /// Where the `<key>` element starts; in a binary property list, the byte
        /// offset of the key's string object (zero for dictionaries built in code).
        public var location: TextLocation

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - key: The key.
        ///   - value: The value.
        ///   - location: Where the `<key>` is (zero for entries built in code).
        public init(key: String, value: PropertyListValue,
                    location: TextLocation = TextLocation(line: 0, column: 0, offset: 0)) {
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
    ///
    /// - Parameter entries: The entries, in order.
    public init?(_ entries: [Entry]) {
        self.init()
        for entry in entries {
            guard self.entry(for: entry.key) == nil else { return nil }
            self.entries.append(entry)
        }
    }

    /// The entry for `key`, or `nil`.
    ///
    /// - Parameter key: The key.
    /// - Returns: The entry, or `nil`.
    public func entry(for key: String) -> Entry? {
        for entry in entries where entry.key == key { return entry }
        return nil
    }

    /// The value for `key`, or `nil`. Setting `nil` removes the key; setting a value
    /// replaces it in place or appends it.
    ///
    /// - Parameter key: The key.
    /// - Returns: The value, or `nil` when the dictionary has no such key.
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
    ///
    /// - Parameters:
    ///   - lhs: A dictionary.
    ///   - rhs: Another.
    /// - Returns: Whether both have the same keys and values in the same order.
    public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for entry in lhs.entries {
            guard let other = rhs[entry.key], other == entry.value else { return false }
        }
        return true
    }

    /// Hashes the entries independently of their order (the sum of their hashes).
    ///
    /// - Parameter hasher: The hasher to feed the keys and values.
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

// The one reader of TLS presentation-language structures (RFC 8446 §3): a bounded
// cursor over bytes that keeps absolute offsets for its errors.

/// A forward-only cursor over a byte array. Every read is checked against the
/// bytes left; a failure names the structure and its offset (relative to the
/// message or record that was handed in).
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    private(set) var end: Int
    /// The name of the structure being read, for errors.
    let what: String

    init(_ bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
        self.what = what
    }

    private init(bytes: [UInt8], position: Int, end: Int, what: String) {
        self.bytes = bytes
        self.position = position
        self.end = end
        self.what = what
    }

    /// Moves to `position` within `0...end` (used only to rename a reader).
    mutating func skip(to position: Int, end: Int) {
        self.position = position
        self.end = end
    }

    var isAtEnd: Bool { position >= end }
    var remaining: Int { end - position }

    func failure(_ detail: String? = nil) -> TLSError {
        TLSError(.decodeError(what: detail.map { what + " (" + $0 + ")" } ?? what, offset: position))
    }

    mutating func readUInt8() throws(TLSError) -> UInt8 {
        guard position < end else { throw failure("truncated") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readUInt16() throws(TLSError) -> UInt16 {
        guard remaining >= 2 else { throw failure("truncated") }
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func readUInt24() throws(TLSError) -> Int {
        guard remaining >= 3 else { throw failure("truncated") }
        defer { position += 3 }
        return Int(bytes[position]) << 16 | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2])
    }

    mutating func readBytes(_ count: Int) throws(TLSError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw failure("truncated") }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// A sub-reader over the next `count` bytes (a vector's contents).
    mutating func readReader(_ count: Int, what: String? = nil) throws(TLSError) -> ByteReader {
        guard count >= 0, remaining >= count else { throw failure("truncated") }
        defer { position += count }
        return ByteReader(bytes: bytes, position: position, end: position + count, what: what ?? self.what)
    }

    /// A vector with a one-, two- or three-byte length, as a sub-reader; `minimum`
    /// is the vector's floor (`<1..2^8-1>` has 1).
    mutating func readVector(lengthBytes: Int, minimum: Int = 0, what: String? = nil) throws(TLSError) -> ByteReader {
        let length: Int
        switch lengthBytes {
        case 1: length = Int(try readUInt8())
        case 2: length = Int(try readUInt16())
        default: length = try readUInt24()
        }
        guard length >= minimum else { throw failure("vector shorter than " + String(minimum)) }
        return try readReader(length, what: what)
    }

    /// The rest of the bytes.
    mutating func readRest() -> [UInt8] {
        defer { position = end }
        return Array(bytes[position..<end])
    }

    func expectEnd() throws(TLSError) {
        guard position == end else { throw failure("trailing bytes") }
    }
}

/// Appends TLS structures to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append(_ value: UInt8) { bytes.append(value) }

    mutating func append(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func append(_ values: [UInt8]) { bytes += values }

    /// A vector: a `lengthBytes` length, then what `body` writes. The caller keeps
    /// vectors below their limits (the client writes only its own, bounded fields).
    mutating func appendVector(lengthBytes: Int, _ body: (inout ByteWriter) -> Void) {
        var inner = ByteWriter()
        body(&inner)
        let count = inner.bytes.count
        if lengthBytes == 3 { bytes.append(UInt8(truncatingIfNeeded: count >> 16)) }
        if lengthBytes >= 2 { bytes.append(UInt8(truncatingIfNeeded: count >> 8)) }
        bytes.append(UInt8(truncatingIfNeeded: count))
        bytes += inner.bytes
    }
}

/// Compares two byte arrays in time independent of their contents (lengths are public).
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<a.count { difference |= a[index] ^ b[index] }
    return difference == 0
}

/// Overwrites a secret with zeros.
func wipe(_ bytes: inout [UInt8]) {
    for index in bytes.indices { bytes[index] = 0 }
}

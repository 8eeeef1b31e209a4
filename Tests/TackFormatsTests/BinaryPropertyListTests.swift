import Testing
import TackFormats
import TackTestSupport

/// The binary property-list reader (`bplist00`): plistlib's files equal their XML
/// twins; hostile files each fail with their exact reason and byte offset.
@Suite("Binary property lists")
struct BinaryPropertyListTests {
    // MARK: Building documents

    /// `value` as `size` big-endian bytes.
    static func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A `bplist00` document of `objects` (each already encoded), laid out one after
    /// another from offset 8, with its offset table and trailer.
    static func document(_ objects: [[UInt8]], top: Int = 0, offsetSize: Int = 1, referenceSize: Int = 1) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(offset, offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += bigEndian(objects.count, 8) + bigEndian(top, 8) + bigEndian(table, 8)
        return bytes
    }

    /// The error `bytes` fail with (`nil` when they parse).
    static func error(_ bytes: [UInt8]) -> PropertyListError? {
        do {
            _ = try PropertyList.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// `reason` at byte `offset` of a binary document.
    static func failure(_ reason: PropertyListError.Reason, _ offset: Int) -> PropertyListError {
        PropertyListError(reason, at: TextLocation(byteOffset: offset))
    }

    // MARK: plistlib's files

    @Test("plistlib's binary files read equal to their XML twins", arguments: ["info", "scalars", "integers", "counts", "shared", "policy-warnings"])
    func twins(name: String) throws {
        let binary = try RepositoryPaths.vectorBytes("plists/\(name).bplist")
        let xml = try RepositoryPaths.vectorBytes("plists/\(name).plist")
        #expect(PropertyList.isBinary(binary))
        #expect(!PropertyList.isBinary(xml))
        #expect(try PropertyList.parse(binary) == PropertyList.parse(xml))
    }

    @Test("Values of each kind, read from plistlib's binary files")
    func values() throws {
        let integers = try PropertyList.parse(try RepositoryPaths.vectorBytes("plists/integers.bplist"))
        #expect(integers.arrayValue?.compactMap(\.integerValue) == [
            0, 1, 255, 256, 65535, 65536, 4_294_967_295, 4_294_967_296, Int64.max, -1, -256, Int64.min,
        ])
        let scalars = try PropertyList.parse(try RepositoryPaths.vectorBytes("plists/scalars.bplist")).dictionaryValue
        #expect(scalars?["unicode"] == .string("Grüße, 東京, \u{1F512}"))
        #expect(scalars?["date"] == .date(1_796_126_400))  // 2026-12-01T12:00:00Z
        #expect(scalars?["old-date"] == .date(-14_182_940))  // 1969-07-20T20:17:40Z
        #expect(scalars?["real"] == .real(3.25))
        #expect(scalars?["data"] == .data(Array(0..<32)))
        let counts = try PropertyList.parse(try RepositoryPaths.vectorBytes("plists/counts.bplist")).dictionaryValue
        #expect(counts?["string-70000"]?.stringValue?.utf8.count == 70000)
        #expect(counts?["array-300"]?.arrayValue?.count == 300)
    }

    @Test("A dictionary entry's location is its key's byte offset; descriptions say byte N")
    func locations() throws {
        // {"a": true}: the dictionary at 8, the key "a" at 11, true at 13.
        let bytes = BinaryPropertyListTests.document([[0xD1, 1, 2], [0x51, 0x61], [0x09]])
        let root = try PropertyList.parse(bytes)
        let entry = try #require(root.dictionaryValue?.entry(for: "a"))
        #expect(entry.value == .boolean(true))
        #expect(entry.location == TextLocation(byteOffset: 11))
        #expect(entry.location.isBinary)
        #expect(entry.location.description == "byte 11")
        #expect(TextLocation(offset: 11, in: bytes) == TextLocation(byteOffset: 11))
        #expect(BinaryPropertyListTests.failure(.cycle, 9).description == "byte 9: a container contains itself")
        #expect(BinaryPropertyListTests.failure(.cycle, 9).code == "plist.cycle")
        #expect(BinaryPropertyListTests.failure(.invalidTrailer(.topObject), 9).code == "plist.invalid_trailer")
    }

    // MARK: Hostile files

    @Test("Every truncation of a small file is refused, at an offset inside it")
    func truncations() throws {
        let bytes = try RepositoryPaths.vectorBytes("plists/info.bplist")
        #expect(throws: Never.self) { try PropertyList.parse(bytes) }
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            let error = try #require(BinaryPropertyListTests.error(prefix), "prefix of \(length) bytes parsed")
            #expect(error.location.offset <= length)
            // Under 8 bytes there is no header, so the XML reader answers.
            #expect(error.location.isBinary == (length >= 8))
        }
        // Too short for the trailer plus one object and one offset: at the end.
        #expect(BinaryPropertyListTests.error(Array(bytes[..<41])) == BinaryPropertyListTests.failure(.binaryTruncated, 41))
    }

    @Test("Trailer fields out of range, each named, at the field's offset")
    func trailer() {
        let good = BinaryPropertyListTests.document([[0x09]])  // true: 8 + 1 + 1 + 32 bytes
        #expect(throws: Never.self) { try PropertyList.parse(good) }
        let trailer = good.count - 32
        func patched(_ at: Int, _ field: [UInt8]) -> [UInt8] {
            var bytes = good
            bytes.replaceSubrange((trailer + at)..<(trailer + at + field.count), with: field)
            return bytes
        }
        let cases: [([UInt8], PropertyListError)] = [
            (patched(6, [0]), BinaryPropertyListTests.failure(.invalidTrailer(.offsetSize), trailer + 6)),
            (patched(6, [9]), BinaryPropertyListTests.failure(.invalidTrailer(.offsetSize), trailer + 6)),
            (patched(7, [0]), BinaryPropertyListTests.failure(.invalidTrailer(.referenceSize), trailer + 7)),
            (patched(8, BinaryPropertyListTests.bigEndian(0, 8)), BinaryPropertyListTests.failure(.invalidTrailer(.objectCount), trailer + 8)),
            (patched(8, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), BinaryPropertyListTests.failure(.invalidTrailer(.objectCount), trailer + 8)),
            (patched(8, BinaryPropertyListTests.bigEndian(65537, 8)), BinaryPropertyListTests.failure(.tooManyObjects, trailer + 8)),
            // 65,536 objects pass the limit but need a 65,536-byte offset table.
            (patched(8, BinaryPropertyListTests.bigEndian(65536, 8)), BinaryPropertyListTests.failure(.invalidTrailer(.offsetTableOffset), trailer + 24)),
            (patched(16, BinaryPropertyListTests.bigEndian(1, 8)), BinaryPropertyListTests.failure(.invalidTrailer(.topObject), trailer + 16)),
            (patched(16, [0x80, 0, 0, 0, 0, 0, 0, 0]), BinaryPropertyListTests.failure(.invalidTrailer(.topObject), trailer + 16)),
            (patched(24, BinaryPropertyListTests.bigEndian(8, 8)), BinaryPropertyListTests.failure(.invalidTrailer(.offsetTableOffset), trailer + 24)),
            (patched(24, BinaryPropertyListTests.bigEndian(10, 8)), BinaryPropertyListTests.failure(.invalidTrailer(.offsetTableOffset), trailer + 24)),
            (patched(24, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]), BinaryPropertyListTests.failure(.invalidTrailer(.offsetTableOffset), trailer + 24)),
            (patched(8, BinaryPropertyListTests.bigEndian(1 << 61, 8)), BinaryPropertyListTests.failure(.tooManyObjects, trailer + 8)),
        ]
        for (bytes, expected) in cases {
            #expect(BinaryPropertyListTests.error(bytes) == expected)
        }
    }

    @Test("Offsets outside the object area and references to no object")
    func offsetsAndReferences() {
        var header = BinaryPropertyListTests.document([[0x09]])
        header[9] = 7  // the one offset points into the header
        #expect(BinaryPropertyListTests.error(header) == BinaryPropertyListTests.failure(.objectOffsetOutOfRange, 9))
        var table = BinaryPropertyListTests.document([[0x09]])
        table[9] = 9  // ... at the offset table itself
        #expect(BinaryPropertyListTests.error(table) == BinaryPropertyListTests.failure(.objectOffsetOutOfRange, 9))
        // [ref 5] with one object: the reference byte is at 9.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xA1, 5]]))
            == BinaryPropertyListTests.failure(.objectReferenceOutOfRange, 9))
        // A dictionary's value reference out of range (two-byte references).
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xD1, 0, 1, 0, 7], [0x51, 0x61]], referenceSize: 2))
            == BinaryPropertyListTests.failure(.objectReferenceOutOfRange, 11))
        // An array whose references run past the object area.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xA3, 0]]))
            == BinaryPropertyListTests.failure(.objectExceedsBounds, 8))
    }

    @Test("Cycles: a container that contains itself, directly or through another")
    func cycles() throws {
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xA1, 0]]))
            == BinaryPropertyListTests.failure(.cycle, 9))
        // [[0]]: object 1 (at 10) refers back to object 0; its reference is at 11.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xA1, 1], [0xA1, 0]]))
            == BinaryPropertyListTests.failure(.cycle, 11))
        // A dictionary whose value is the dictionary.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xD1, 1, 0], [0x51, 0x61]]))
            == BinaryPropertyListTests.failure(.cycle, 10))
        // Shared, not cyclic: [x, x] where x = [true] is two copies.
        #expect(try PropertyList.parse(BinaryPropertyListTests.document([[0xA2, 1, 1], [0xA1, 2], [0x09]]))
            == .array([.array([.boolean(true)]), .array([.boolean(true)])]))
    }

    /// `levels` arrays, each holding the next, the last holding `true`.
    static func nested(_ levels: Int) -> [UInt8] {
        document((0..<levels).map { [0xA1, UInt8($0 + 1)] } + [[0x09]])
    }

    @Test("Nesting: 32 levels read, 33 refused at the deepest object, shared objects counted where placed")
    func depth() {
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.nested(31)) == nil)  // 31 arrays + true = 32 levels
        // 32 arrays + true: the true (level 33) at 8 + 2 * 32.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.nested(32)) == BinaryPropertyListTests.failure(.tooDeep, 72))
        // A chain of 30 arrays over a true (height 31) under the root: 32 levels.
        let chain: [[UInt8]] = (1..<31).map { [0xA1, UInt8($0 + 1)] } + [[0x09]]
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xA2, 1, 1]] + chain)) == nil)
        // Read first at level 2, the chain is met again at level 3 through a
        // wrapper (object 32): one level too deep, refused at the chain's head (11).
        let wrapped = BinaryPropertyListTests.document([[0xA2, 1, 32]] + chain + [[0xA1, 1]])
        #expect(BinaryPropertyListTests.error(wrapped) == BinaryPropertyListTests.failure(.tooDeep, 11))
    }

    @Test("Shared objects cannot stand for more than maximumValueCount values or maximumPayloadSize bytes")
    func exponential() {
        // 25 arrays, each holding the next twice, over one true: 2^26 - 1 values.
        // Object k levels above the true holds 2^(k+1) - 1; k = 20 first passes
        // 2^20, at object 25 - 20 = 5, offset 8 + 3 * 5.
        let objects: [[UInt8]] = (0..<25).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x09]]
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document(objects)) == BinaryPropertyListTests.failure(.valueTreeTooLarge, 23))
        // 18 levels: 2^19 - 1 values, read.
        let fewer: [[UInt8]] = (0..<18).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x09]]
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document(fewer)) == nil)
        // 17 levels over one 1 KiB string: 2^18 - 1 values but 2^17 KiB of text, over
        // 64 MiB once the root (at 8) adds its second 64 MiB half.
        let string: [UInt8] = [0x5F, 0x11, 0x04, 0x00] + Array(repeating: 0x61, count: 1024)
        let text: [[UInt8]] = (0..<17).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [string]
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document(text)) == BinaryPropertyListTests.failure(.valueTreeTooLarge, 8))
        // 16 levels: exactly 64 MiB, read.
        let sixteen: [[UInt8]] = (0..<16).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [string]
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document(sixteen)) == nil)
    }

    @Test("Huge counts run past the object area")
    func hugeCounts() {
        let big: [UInt8] = [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        for marker: UInt8 in [0x4F, 0x5F, 0x6F, 0xAF, 0xDF] {
            #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[marker] + big]))
                == BinaryPropertyListTests.failure(.objectExceedsBounds, 8), "marker \(marker)")
        }
        // A negative 8-byte count, a count that is not an integer, a count cut short.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
            == BinaryPropertyListTests.failure(.invalidCount, 8))
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0x4F, 0x09]]))
            == BinaryPropertyListTests.failure(.invalidCount, 8))
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0x4F, 0x14, 0, 0]]))
            == BinaryPropertyListTests.failure(.invalidCount, 8))
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0x4F, 0x11, 0]]))
            == BinaryPropertyListTests.failure(.objectExceedsBounds, 8))
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0x4F]]))
            == BinaryPropertyListTests.failure(.objectExceedsBounds, 8))
    }

    @Test("Integers: 1, 2, 4, 8 bytes; 16 only within 64 bits; other sizes refused")
    func integers() throws {
        func read(_ object: [UInt8]) throws -> PropertyListValue { try PropertyList.parse(BinaryPropertyListTests.document([object])) }
        #expect(try read([0x10, 0xFF]) == .integer(255))
        #expect(try read([0x11, 0xFF, 0xFF]) == .integer(65535))
        #expect(try read([0x12, 0xFF, 0xFF, 0xFF, 0xFF]) == .integer(4_294_967_295))
        #expect(try read([0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]) == .integer(-2))
        #expect(try read([0x14] + Array(repeating: 0xFF, count: 15) + [0xFB]) == .integer(-5))
        #expect(try read([0x14] + Array(repeating: 0, count: 8) + [0x7F] + Array(repeating: 0xFF, count: 7)) == .integer(Int64.max))
        // 2^63, as plistlib writes it: 16 bytes, beyond Int64.
        let beyond: [UInt8] = [0x14] + Array(repeating: 0, count: 8) + [0x80] + Array(repeating: 0, count: 7)
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([beyond])) == BinaryPropertyListTests.failure(.integerOverflow, 8))
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0x15] + Array(repeating: 0, count: 32)]))
            == BinaryPropertyListTests.failure(.invalidIntegerSize, 8))
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0x12, 0, 0]]))
            == BinaryPropertyListTests.failure(.objectExceedsBounds, 8))
    }

    @Test("Reals and dates: sizes, finiteness, whole seconds in years 0...9999")
    func realsAndDates() throws {
        func read(_ object: [UInt8]) throws -> PropertyListValue { try PropertyList.parse(BinaryPropertyListTests.document([object])) }
        func double(_ value: Double) -> [UInt8] { BinaryPropertyListTests.bigEndian(Int(bitPattern: UInt(value.bitPattern)), 8) }
        #expect(try read([0x22] + BinaryPropertyListTests.bigEndian(Int(Float(1.5).bitPattern), 4)) == .real(1.5))
        #expect(try read([0x23] + double(-0.25)) == .real(-0.25))
        #expect(try read([0x33] + double(0)) == .date(978_307_200))
        #expect(try read([0x33] + double(-978_307_200)) == .date(0))
        let cases: [([UInt8], PropertyListError.Reason)] = [
            ([0x21, 0, 0], .invalidRealSize),
            ([0x23] + double(.nan), .invalidReal),
            ([0x23] + double(.infinity), .invalidReal),
            ([0x33] + double(0.5), .invalidDate),
            ([0x33] + double(.nan), .invalidDate),
            ([0x33] + double(1e18), .invalidDate),
            ([0x32, 0, 0, 0, 0], .invalidDate),
        ]
        for (object, reason) in cases {
            #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([object])) == BinaryPropertyListTests.failure(reason, 8))
        }
    }

    @Test("Strings: ASCII bytes only, paired surrogates only, XML's characters only")
    func strings() throws {
        func read(_ object: [UInt8]) throws -> PropertyListValue { try PropertyList.parse(BinaryPropertyListTests.document([object])) }
        #expect(try read([0x62, 0xD8, 0x3D, 0xDD, 0x12]) == .string("\u{1F512}"))
        #expect(try read([0x50]) == .string(""))
        let cases: [([UInt8], PropertyListError.Reason)] = [
            ([0x51, 0x80], .invalidString),
            ([0x61, 0xD8, 0x3D], .invalidString),  // a high surrogate alone
            ([0x61, 0xDD, 0x12], .invalidString),  // a low surrogate first
            ([0x51, 0x01], .invalidCharacter),
            ([0x61, 0xFF, 0xFE], .invalidCharacter),
            ([0x62, 0x00, 0x41], .objectExceedsBounds),
        ]
        for (object, reason) in cases {
            #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([object])) == BinaryPropertyListTests.failure(reason, 8))
        }
    }

    @Test("Dictionaries: string keys only, no duplicates")
    func dictionaries() {
        // {1: true}: the key object (an integer) at 11.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xD1, 1, 2], [0x10, 0x01], [0x09]]))
            == BinaryPropertyListTests.failure(.nonStringKey, 11))
        // {"a": true, "a": false}: the second key object, at 15.
        #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([[0xD2, 1, 2, 3, 4], [0x51, 0x61], [0x51, 0x61], [0x09], [0x08]]))
            == BinaryPropertyListTests.failure(.duplicateKey, 15))
    }

    @Test("UIDs, sets, null, fill and unassigned markers are refused by name")
    func unsupported() {
        let cases: [([UInt8], PropertyListError.Reason)] = [
            ([0x80, 0x01], .uid),
            ([0xC0], .set),
            ([0xB0], .set),
            ([0x00], .unsupportedObject(marker: 0x00)),
            ([0x0F], .unsupportedObject(marker: 0x0F)),
            ([0x71, 0x61], .unsupportedObject(marker: 0x71)),
            ([0x90], .unsupportedObject(marker: 0x90)),
            ([0xE0], .unsupportedObject(marker: 0xE0)),
            ([0xF0], .unsupportedObject(marker: 0xF0)),
        ]
        for (object, reason) in cases {
            #expect(BinaryPropertyListTests.error(BinaryPropertyListTests.document([object])) == BinaryPropertyListTests.failure(reason, 8))
        }
    }

    @Test("Objects the top object does not reach are not read; the top object may be any")
    func topObject() throws {
        #expect(try PropertyList.parse(BinaryPropertyListTests.document([[0x80, 0x01], [0x09]], top: 1)) == .boolean(true))
    }
}

// The binary property-list reader (`bplist00`, the format of an Info.plist inside a
// built app), behind PropertyList.parse.
//
// The format, as CoreFoundation writes it (CFBinaryPList.c) and Python's plistlib
// (FMT_BINARY) reads and writes it:
//
//   header   "bplist00"                                 8 bytes
//   objects  one after another                          from offset 8
//   offsets  objectCount big-endian offsets, each offsetSize bytes
//   trailer  5 unused, sortVersion, offsetSize, referenceSize (1 byte each),
//            objectCount, topObject, offsetTableOffset (8 bytes each, big-endian)
//
// An object starts with a marker byte: the high nibble its type, the low nibble a
// size or a count (0xF: the count follows as an integer object).
//
//   0x08 false  0x09 true      0x1n integer, 2^n bytes   0x2n real, 2^n bytes
//   0x33 date (float64 seconds since 2001-01-01)         0x4n data, n bytes
//   0x5n ASCII string, n bytes  0x6n UTF-16BE string, n units
//   0x8n UID    0xAn array, n refs   0xBn/0xCn (ordered) set   0xDn dict, n key refs, n value refs
//
// Containers hold object references (referenceSize bytes each, an index into the
// offset table), so one object may be referenced many times (writers unique
// strings and numbers) and a crafted file may make a container contain itself.
// Each object is decoded once and remembered (shared copies are free), an object
// being decoded that is reached again is a cycle, and the value tree the file
// stands for is counted as it would be written out, so a small file of shared
// containers cannot stand for an exponential tree.
//
// Refused, each with its own reason: a trailer whose sizes or counts do not fit the
// file (checked arithmetic throughout), an offset outside the object area (between
// the header and the offset table), an object running past that area, a reference
// to no object, cycles, nesting deeper than PropertyList.maximumDepth, more than
// PropertyList.maximumObjectCount objects, or a tree of more than
// PropertyList.maximumValueCount values or PropertyList.maximumPayloadSize bytes, 16-byte integers outside Int64 (the only ones that need 16 bytes), dates
// with a fraction of a second or outside years 0...9999 (the XML reader's dates),
// strings with characters XML does not allow and reals that are not finite (so
// that every value also has an XML form), non-string dictionary keys, duplicate keys, UIDs (NSKeyedArchiver's
// object graphs, not property lists) and sets (bplist00 writers never write them).
// Objects the top object does not reach are not decoded.

/// Reads one binary property list.
struct BinaryPropertyListReader {
    /// The document.
    private let bytes: [UInt8]
    /// Where the objects end (the offset table's start).
    private let objectAreaEnd: Int
    /// Bytes per object reference.
    private let referenceSize: Int
    /// Each object's offset.
    private var offsets: [Int] = []
    /// Each decoded object, with the size and depth of its value tree.
    private var decoded: [Decoded?] = []
    /// Whether each object is being decoded (one of its containers is on the stack).
    private var inProgress: [Bool] = []
    /// The top object's index.
    private let topObject: Int

    private struct Decoded {
        var value: PropertyListValue
        /// The number of values in the tree, this one included.
        var count: Int
        /// The levels of the tree, this one included.
        var height: Int
        /// The bytes of strings (UTF-8) and data in the tree.
        var payload = 0

        /// Counts `child` into this container's tree, refusing a tree of more than
        /// ``PropertyList/maximumValueCount`` values or
        /// ``PropertyList/maximumPayloadSize`` bytes of strings and data.
        mutating func add(_ child: Decoded, at start: Int) throws(PropertyListError) {
            // Each term is at most its limit, or (a leaf) the length of a string or
            // data inside the document, so the sums cannot overflow.
            count += child.count
            payload += child.payload
            guard count <= PropertyList.maximumValueCount, payload <= PropertyList.maximumPayloadSize else {
                throw PropertyListError(.valueTreeTooLarge, at: TextLocation(byteOffset: start))
            }
            height = max(height, child.height + 1)
        }
    }

    /// The header, `bplist00`.
    static let magic: [UInt8] = Array("bplist00".utf8)
    /// The trailer's size.
    static let trailerSize = 32

    /// Seconds from 1970-01-01 to 2001-01-01, CoreFoundation's reference date.
    static let referenceDateOffset: Int64 = 978_307_200

    /// Reads and checks the header, trailer and offset table.
    init(_ bytes: [UInt8]) throws(PropertyListError) {
        self.bytes = bytes
        let magic = BinaryPropertyListReader.magic
        guard bytes.count >= magic.count, bytes[0..<magic.count].elementsEqual(magic) else {
            throw PropertyListError(.binaryTruncated, at: TextLocation(byteOffset: 0))
        }
        // The smallest document: the header, one one-byte object, one one-byte
        // offset and the trailer.
        let trailerStart = bytes.count - BinaryPropertyListReader.trailerSize
        guard trailerStart >= magic.count + 2 else {
            throw PropertyListError(.binaryTruncated, at: TextLocation(byteOffset: bytes.count))
        }
        func field(_ offset: Int) -> UInt64 {
            var value: UInt64 = 0
            for byte in bytes[(trailerStart + offset)..<(trailerStart + offset + 8)] { value = value << 8 | UInt64(byte) }
            return value
        }
        func invalid(_ which: PropertyListError.TrailerField, _ offset: Int) -> PropertyListError {
            PropertyListError(.invalidTrailer(which), at: TextLocation(byteOffset: trailerStart + offset))
        }
        let offsetSize = Int(bytes[trailerStart + 6])
        guard (1...8).contains(offsetSize) else { throw invalid(.offsetSize, 6) }
        referenceSize = Int(bytes[trailerStart + 7])
        guard (1...8).contains(referenceSize) else { throw invalid(.referenceSize, 7) }
        guard let objectCount = Int(exactly: field(8)), objectCount >= 1 else { throw invalid(.objectCount, 8) }
        guard objectCount <= PropertyList.maximumObjectCount else {
            throw PropertyListError(.tooManyObjects, at: TextLocation(byteOffset: trailerStart + 8))
        }
        guard let top = Int(exactly: field(16)), top < objectCount else { throw invalid(.topObject, 16) }
        topObject = top
        // The offset table lies after at least one object byte and ends where the
        // trailer starts, exactly: no unread bytes.
        guard let tableOffset = Int(exactly: field(24)), tableOffset > magic.count, tableOffset < trailerStart,
              case let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize), !overflow,
              tableSize == trailerStart - tableOffset
        else { throw invalid(.offsetTableOffset, 24) }
        objectAreaEnd = tableOffset

        offsets.reserveCapacity(objectCount)
        for index in 0..<objectCount {
            let entry = tableOffset + index * offsetSize  // < trailerStart: the table fits, checked above
            var value: UInt64 = 0
            for byte in bytes[entry..<(entry + offsetSize)] { value = value << 8 | UInt64(byte) }
            guard let offset = Int(exactly: value), offset >= magic.count, offset < objectAreaEnd else {
                throw PropertyListError(.objectOffsetOutOfRange, at: TextLocation(byteOffset: entry))
            }
            offsets.append(offset)
        }
        decoded = Array(repeating: nil, count: objectCount)
        inProgress = Array(repeating: false, count: objectCount)
    }

    /// Decodes the top object.
    mutating func read() throws(PropertyListError) -> PropertyListValue {
        try decode(topObject, depth: 1, referencedAt: offsets[topObject]).value
    }

    // MARK: Objects

    private func fail(_ reason: PropertyListError.Reason, _ offset: Int) -> PropertyListError {
        PropertyListError(reason, at: TextLocation(byteOffset: offset))
    }

    /// Object `index` at nesting level `depth` (the top object is level 1);
    /// `referencedAt` is where the reference to it is, for errors about the reference.
    private mutating func decode(_ index: Int, depth: Int, referencedAt: Int) throws(PropertyListError) -> Decoded {
        guard index < decoded.count else { throw fail(.objectReferenceOutOfRange, referencedAt) }
        guard !inProgress[index] else { throw fail(.cycle, referencedAt) }
        let start = offsets[index]
        if let known = decoded[index] {
            // depth + height - 1 is the level of the deepest value once placed here.
            guard known.height <= PropertyList.maximumDepth - depth + 1 else { throw fail(.tooDeep, start) }
            return known
        }
        guard depth <= PropertyList.maximumDepth else { throw fail(.tooDeep, start) }
        inProgress[index] = true
        let result = try decodeObject(at: start, depth: depth)
        inProgress[index] = false
        decoded[index] = result
        return result
    }

    private mutating func decodeObject(at start: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let marker = bytes[start]  // start < objectAreaEnd <= bytes.count
        let info = Int(marker & 0x0F)
        func leaf(_ value: PropertyListValue, payload: Int = 0) -> Decoded {
            Decoded(value: value, count: 1, height: 1, payload: payload)
        }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return leaf(.boolean(false))
            case 0x09: return leaf(.boolean(true))
            default: throw fail(.unsupportedObject(marker: marker), start)
            }
        case 0x1:
            return leaf(.integer(try integer(at: start)))
        case 0x2:
            guard info == 2 || info == 3 else { throw fail(.invalidRealSize, start) }
            let raw = try unsigned(at: start + 1, size: 1 << info, objectAt: start)
            let number = info == 2 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
            // Finite only, as the XML reader's <real> grammar has no NaN or infinity.
            guard number.isFinite else { throw fail(.invalidReal, start) }
            return leaf(.real(number))
        case 0x3:
            guard marker == 0x33 else { throw fail(.invalidDate, start) }
            let seconds = Double(bitPattern: try unsigned(at: start + 1, size: 8, objectAt: start))
            // Whole seconds in years 0...9999, as the XML reader's <date> (a fraction,
            // NaN and the infinities all fail Int64(exactly:)).
            guard let whole = Int64(exactly: seconds),
                  case let (since1970, overflow) = whole.addingReportingOverflow(BinaryPropertyListReader.referenceDateOffset),
                  !overflow, PropertyList.isValidDate(since1970)
            else { throw fail(.invalidDate, start) }
            return leaf(.date(since1970))
        case 0x4:
            let (content, count) = try counted(at: start, info: info, unit: 1)
            return leaf(.data(Array(bytes[content..<(content + count)])), payload: count)
        case 0x5:
            let (content, count) = try counted(at: start, info: info, unit: 1)
            let text = bytes[content..<(content + count)]
            guard !text.contains(where: { $0 >= 0x80 }) else { throw fail(.invalidString, start) }
            return leaf(.string(try checkedString(String(decoding: text, as: UTF8.self), at: start)), payload: count)
        case 0x6:
            let (content, units) = try counted(at: start, info: info, unit: 2)
            var codeUnits: [UInt16] = []
            codeUnits.reserveCapacity(units)
            for unit in 0..<units {
                let at = content + 2 * unit
                codeUnits.append(UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]))
            }
            var scalars = String.UnicodeScalarView()
            var decoder = UTF16()
            var iterator = codeUnits.makeIterator()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: break decoding
                case .error: throw fail(.invalidString, start)
                }
            }
            let string = try checkedString(String(scalars), at: start)
            return leaf(.string(string), payload: string.utf8.count)
        case 0x8:
            throw fail(.uid, start)
        case 0xB, 0xC:
            throw fail(.set, start)
        case 0xA:
            let (content, count) = try counted(at: start, info: info, unit: referenceSize)
            var items: [PropertyListValue] = []
            items.reserveCapacity(count)
            var total = Decoded(value: .array([]), count: 1, height: 1)
            for item in 0..<count {
                let child = try child(at: content + item * referenceSize, depth: depth)
                try total.add(child, at: start)
                items.append(child.value)
            }
            total.value = .array(items)
            return total
        case 0xD:
            let (content, pairs) = try counted(at: start, info: info, unit: 2 * referenceSize)
            let valuesStart = content + pairs * referenceSize
            var dictionary = PropertyListDictionary()
            var total = Decoded(value: .dictionary(dictionary), count: 1, height: 1)
            for pair in 0..<pairs {
                let keyReference = content + pair * referenceSize
                let keyIndex = try reference(at: keyReference)
                let key = try decode(keyIndex, depth: depth + 1, referencedAt: keyReference)
                guard case .string(let name) = key.value else { throw fail(.nonStringKey, offsets[keyIndex]) }
                let value = try child(at: valuesStart + pair * referenceSize, depth: depth)
                try total.add(value, at: start)
                let location = TextLocation(byteOffset: offsets[keyIndex])
                guard dictionary.entry(for: name) == nil else { throw fail(.duplicateKey, location.offset) }
                dictionary.entries.append(PropertyListDictionary.Entry(key: name, value: value.value, location: location))
            }
            total.value = .dictionary(dictionary)
            return total
        default:
            throw fail(.unsupportedObject(marker: marker), start)
        }
    }

    /// The object whose reference is at `offset`, one level below `depth`.
    private mutating func child(at offset: Int, depth: Int) throws(PropertyListError) -> Decoded {
        try decode(try reference(at: offset), depth: depth + 1, referencedAt: offset)
    }

    /// The object reference at `offset` (inside a container already bounds-checked).
    private func reference(at offset: Int) throws(PropertyListError) -> Int {
        let value = try unsigned(at: offset, size: referenceSize, objectAt: offset)
        guard let index = Int(exactly: value), index < offsets.count else {
            throw fail(.objectReferenceOutOfRange, offset)
        }
        return index
    }

    /// The integer object at `start`: 1, 2 and 4 bytes unsigned, 8 bytes signed,
    /// 16 bytes signed and only when the value fits 64 bits.
    private func integer(at start: Int) throws(PropertyListError) -> Int64 {
        let info = Int(bytes[start] & 0x0F)
        switch info {
        case 0, 1, 2:
            return Int64(try unsigned(at: start + 1, size: 1 << info, objectAt: start))  // below 2^32
        case 3:
            return Int64(bitPattern: try unsigned(at: start + 1, size: 8, objectAt: start))
        case 4:
            let high = try unsigned(at: start + 1, size: 8, objectAt: start)
            let low = Int64(bitPattern: try unsigned(at: start + 9, size: 8, objectAt: start))
            // Fits 64 bits when the high half only extends the low half's sign.
            guard high == (low < 0 ? UInt64.max : 0) else { throw fail(.integerOverflow, start) }
            return low
        default:
            throw fail(.invalidIntegerSize, start)
        }
    }

    /// `size` bytes at `offset`, big-endian, when they lie inside the object area;
    /// `objectAt` is the object they belong to, for the error.
    private func unsigned(at offset: Int, size: Int, objectAt: Int) throws(PropertyListError) -> UInt64 {
        guard case let (end, overflow) = offset.addingReportingOverflow(size), !overflow, end <= objectAreaEnd else {
            throw fail(.objectExceedsBounds, objectAt)
        }
        var value: UInt64 = 0
        for byte in bytes[offset..<end] { value = value << 8 | UInt64(byte) }
        return value
    }

    /// The content offset and element count of the counted object at `start` (data,
    /// strings, arrays, dictionaries), whose elements are `unit` bytes each: the
    /// count is the marker's low nibble, or with 0xF the integer object after the
    /// marker. The content is checked to lie inside the object area.
    private func counted(at start: Int, info: Int, unit: Int) throws(PropertyListError) -> (content: Int, count: Int) {
        var content = start + 1
        var count = info
        if info == 0x0F {
            guard content < objectAreaEnd else { throw fail(.objectExceedsBounds, start) }
            let marker = bytes[content]
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw fail(.invalidCount, start) }
            let size = 1 << Int(marker & 0x0F)
            let value = try unsigned(at: content + 1, size: size, objectAt: start)
            guard let exact = Int(exactly: value), exact >= 0 else { throw fail(.invalidCount, start) }
            count = exact
            content += 1 + size
        }
        guard case let (length, overflow) = count.multipliedReportingOverflow(by: unit), !overflow,
              case let (end, overflow2) = content.addingReportingOverflow(length), !overflow2, end <= objectAreaEnd
        else { throw fail(.objectExceedsBounds, start) }
        return (content, count)
    }

    /// `text` when every character may appear in an XML property list (XML 1.0
    /// §2.2, as the XML reader checks), so that every value read has an XML form.
    private func checkedString(_ text: String, at start: Int) throws(PropertyListError) -> String {
        for scalar in text.unicodeScalars
        where (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            || scalar.value == 0xFFFE || scalar.value == 0xFFFF
        {
            throw fail(.invalidCharacter, start)
        }
        return text
    }
}

// Record framing (RFC 8446 §5.1, RFC 5246 §6.2): the five-byte header, content
// types, and the length bounds, checked before a record's body is buffered.

/// A record content type (RFC 8446 §5.1).
enum ContentType: UInt8 {
    case changeCipherSpec = 20
    case alert = 21
    case handshake = 22
    case applicationData = 23
}

/// One record as received: its type and fragment (still protected if the epoch is).
struct Record {
    var contentType: ContentType
    /// The header's five bytes (the additional data of TLS 1.3 protection).
    var header: [UInt8]
    var fragment: [UInt8]
}

/// Buffers received bytes and cuts them into records.
struct RecordReader {
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes consumed so far, for error offsets.
    private(set) var consumed = 0

    /// Appends received bytes.
    mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 16_384 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete record, or `nil` until more bytes arrive.
    ///
    /// - Parameter limit: The most fragment bytes allowed in this epoch (2^14 in
    ///   plaintext, 2^14 + 256 or + 2048 protected); over it is record_overflow,
    ///   reported as soon as the header is read.
    mutating func next(limit: Int) throws(TLSError) -> Record? {
        guard buffer.count - start >= 5 else { return nil }
        let typeByte = buffer[start]
        guard let type = ContentType(rawValue: typeByte) else {
            throw TLSError(.unexpectedMessage(type: typeByte, expected: "a record content type (20-23)"))
        }
        // legacy_record_version is otherwise ignored (RFC 8446 §5.1); a major
        // version other than 3 is not TLS at all.
        guard buffer[start + 1] == 3 else { throw TLSError(.decodeError(what: "record header (not TLS)", offset: consumed + 1)) }
        let length = Int(buffer[start + 3]) << 8 | Int(buffer[start + 4])
        guard length <= limit else { throw TLSError(.recordOverflow(length: length, limit: limit)) }
        guard buffer.count - start - 5 >= length else { return nil }
        let header = Array(buffer[start..<start + 5])
        let fragment = Array(buffer[start + 5..<start + 5 + length])
        start += 5 + length
        consumed += 5 + length
        return Record(contentType: type, header: header, fragment: fragment)
    }

    /// Whether bytes of an incomplete record are buffered.
    var hasPartialRecord: Bool { buffer.count > start }
}

/// Writes a record header and fragment.
func makeRecord(_ type: ContentType, version: UInt16 = 0x0303, _ fragment: [UInt8]) -> [UInt8] {
    var record: [UInt8] = [type.rawValue, UInt8(truncatingIfNeeded: version >> 8), UInt8(truncatingIfNeeded: version)]
    record.reserveCapacity(5 + fragment.count)
    record.append(UInt8(truncatingIfNeeded: fragment.count >> 8))
    record.append(UInt8(truncatingIfNeeded: fragment.count))
    record += fragment
    return record
}

/// Splits plaintext into fragments of at most 2^14 bytes (RFC 8446 §5.1).
func fragments(_ bytes: [UInt8]) -> [[UInt8]] {
    var pieces: [[UInt8]] = []
    var index = 0
    while index < bytes.count {
        let stop = min(bytes.count, index + TLSLimits.maximumPlaintextLength)
        pieces.append(Array(bytes[index..<stop]))
        index = stop
    }
    return pieces
}

/// Reassembles handshake messages from handshake records (RFC 8446 §5.1: messages
/// may be coalesced into one record or span several).
struct HandshakeAssembler {
    private var buffer: [UInt8] = []

    mutating func append(_ fragment: [UInt8]) { buffer += fragment }

    var isEmpty: Bool { buffer.isEmpty }

    /// The next complete message: its type, body, and all its bytes (for the
    /// transcript); `nil` until it is complete. The length is checked against
    /// ``TLSLimits/maximumHandshakeMessageLength`` as soon as its header arrives.
    mutating func next() throws(TLSError) -> (type: UInt8, body: [UInt8], raw: [UInt8])? {
        guard buffer.count >= 4 else { return nil }
        let length = Int(buffer[1]) << 16 | Int(buffer[2]) << 8 | Int(buffer[3])
        guard length <= TLSLimits.maximumHandshakeMessageLength else {
            throw TLSError(.handshakeMessageTooLong(length: length, limit: TLSLimits.maximumHandshakeMessageLength))
        }
        guard buffer.count >= 4 + length else { return nil }
        let raw = Array(buffer[0..<4 + length])
        buffer.removeFirst(4 + length)
        return (raw[0], Array(raw[4...]), raw)
    }
}

/// A handshake message with its four-byte header.
func makeHandshakeMessage(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
    var message: [UInt8] = [type]
    message.append(UInt8(truncatingIfNeeded: body.count >> 16))
    message.append(UInt8(truncatingIfNeeded: body.count >> 8))
    message.append(UInt8(truncatingIfNeeded: body.count))
    return message + body
}

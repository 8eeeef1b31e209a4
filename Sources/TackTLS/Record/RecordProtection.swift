import TackCipher

// AEAD record protection: TLS 1.3 (RFC 8446 §5.2, §5.3) and TLS 1.2's AEAD
// suites (RFC 5246 §6.2.3.3; GCM nonces RFC 5288 §3, ChaCha20-Poly1305 RFC 7905 §2).

/// The AEAD of a cipher suite, keyed.
enum RecordCipher: Sendable {
    case aesGCM(AESGCM)
    case chacha(ChaCha20Poly1305)

    init(suite: SuiteParameters, key: [UInt8]) throws(TLSError) {
        do throws(AEADError) {
            self = suite.isChaCha ? .chacha(try ChaCha20Poly1305(key: key)) : .aesGCM(try AESGCM(key: key))
        } catch {
            throw TLSError(.internalError("AEAD key: " + error.description))
        }
    }

    func seal(_ plaintext: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(TLSError) -> [UInt8] {
        do throws(AEADError) {
            switch self {
            case .aesGCM(let cipher): return try cipher.seal(plaintext, nonce: nonce, authenticating: aad)
            case .chacha(let cipher): return try cipher.seal(plaintext, nonce: nonce, authenticating: aad)
            }
        } catch {
            throw TLSError(.internalError("seal: " + error.description))
        }
    }

    func open(_ ciphertext: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(TLSError) -> [UInt8] {
        do throws(AEADError) {
            switch self {
            case .aesGCM(let cipher): return try cipher.open(ciphertext, nonce: nonce, authenticating: aad)
            case .chacha(let cipher): return try cipher.open(ciphertext, nonce: nonce, authenticating: aad)
            }
        } catch {
            throw TLSError(.badRecordMAC)
        }
    }
}

/// One direction's keys and sequence number.
struct RecordProtection: Sendable {
    enum Mode: Sendable {
        /// TLS 1.3: nonce = iv XOR seq; inner content type and padding.
        case tls13
        /// TLS 1.2 AES-GCM: 4-byte salt, 8-byte explicit nonce (the sequence number) sent.
        case tls12GCM
        /// TLS 1.2 ChaCha20-Poly1305: nonce = iv XOR seq, nothing explicit (RFC 7905).
        case tls12ChaCha
    }

    let cipher: RecordCipher
    let mode: Mode
    private var iv: [UInt8]
    /// The next record's sequence number (internal so tests can bring it to the edge).
    var sequence: UInt64 = 0

    init(cipher: RecordCipher, iv: [UInt8], mode: Mode) {
        self.cipher = cipher
        self.iv = iv
        self.mode = mode
    }

    /// The next sequence number; it never wraps (RFC 8446 §5.3, RFC 5246 §6.1).
    private mutating func nextSequence() throws(TLSError) -> UInt64 {
        guard sequence < UInt64.max else { throw TLSError(.sequenceNumberExhausted) }
        defer { sequence += 1 }
        return sequence
    }

    private func xorNonce(_ sequence: UInt64) -> [UInt8] {
        var nonce = iv
        for index in 0..<8 { nonce[nonce.count - 1 - index] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(index))) }
        return nonce
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    /// Protects one fragment (≤ 2^14 bytes) into a whole record.
    mutating func seal(_ type: ContentType, _ content: [UInt8]) throws(TLSError) -> [UInt8] {
        let sequence = try nextSequence()
        switch mode {
        case .tls13:
            let inner = content + [type.rawValue]
            let length = inner.count + 16
            let header: [UInt8] = [23, 3, 3, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            return header + (try cipher.seal(inner, nonce: xorNonce(sequence), aad: header))
        case .tls12GCM, .tls12ChaCha:
            let aad = Self.bigEndian(sequence) + [type.rawValue, 3, 3, UInt8(truncatingIfNeeded: content.count >> 8), UInt8(truncatingIfNeeded: content.count)]
            var body: [UInt8]
            if mode == .tls12GCM {
                let explicit = Self.bigEndian(sequence)
                body = explicit + (try cipher.seal(content, nonce: iv + explicit, aad: aad))
            } else {
                body = try cipher.seal(content, nonce: xorNonce(sequence), aad: aad)
            }
            return makeRecord(type, body)
        }
    }

    /// Opens a protected record: its real content type and content.
    mutating func open(_ record: Record) throws(TLSError) -> (ContentType, [UInt8]) {
        let sequence = try nextSequence()
        switch mode {
        case .tls13:
            // RFC 8446 §5.2: the outer type of a protected record is application_data.
            guard record.contentType == .applicationData else {
                throw TLSError(.unexpectedMessage(type: record.contentType.rawValue, expected: "a protected record"))
            }
            let plaintext = try cipher.open(record.fragment, nonce: xorNonce(sequence), aad: record.header)
            // TLSInnerPlaintext: content, type, zero padding; the type is the last non-zero byte.
            var index = plaintext.count - 1
            while index >= 0 && plaintext[index] == 0 { index -= 1 }
            guard index >= 0 else { throw TLSError(.unexpectedMessage(type: 0, expected: "an inner content type")) }
            guard let type = ContentType(rawValue: plaintext[index]), type != .changeCipherSpec else {
                throw TLSError(.unexpectedMessage(type: plaintext[index], expected: "an inner content type"))
            }
            guard index <= TLSLimits.maximumPlaintextLength else {
                throw TLSError(.recordOverflow(length: index, limit: TLSLimits.maximumPlaintextLength))
            }
            return (type, Array(plaintext[0..<index]))
        case .tls12GCM, .tls12ChaCha:
            var fragment = record.fragment
            var nonce: [UInt8]
            if mode == .tls12GCM {
                guard fragment.count >= 8 + 16 else { throw TLSError(.badRecordMAC) }
                nonce = iv + fragment[0..<8]
                fragment = Array(fragment[8...])
            } else {
                guard fragment.count >= 16 else { throw TLSError(.badRecordMAC) }
                nonce = xorNonce(sequence)
            }
            let length = fragment.count - 16
            guard length <= TLSLimits.maximumPlaintextLength else {
                throw TLSError(.recordOverflow(length: length, limit: TLSLimits.maximumPlaintextLength))
            }
            let aad = Self.bigEndian(sequence) + [record.contentType.rawValue, 3, 3, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            return (record.contentType, try cipher.open(fragment, nonce: nonce, aad: aad))
        }
    }
}

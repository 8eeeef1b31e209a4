import TackDigest

/// The handshake transcript (RFC 8446 §4.4.1, RFC 5246 §7.4.9 and RFC 7627 §3): the
/// messages are kept as bytes only until the ServerHello fixes the suite's hash, then
/// absorbed by a running hash, so that each Transcript-Hash costs one finalization,
/// not a pass over every message so far.
///
/// Before the hash is known only the first ClientHello is buffered: a
/// HelloRetryRequest replaces it by message_hash (``restartAfterHelloRetryRequest(_:)``),
/// which is the one place the whole message is needed again.
struct Transcript: Sendable {
    private enum State: Sendable {
        case buffered([UInt8])
        case sha256(SHA256)
        #if TACK_SHA512
        case sha384(SHA384)
        #endif
    }

    private var state: State = .buffered([])

    /// Adds a handshake message (header included).
    mutating func append(_ message: [UInt8]) {
        switch state {
        case .buffered(let bytes): state = .buffered(bytes + message)
        case .sha256(var hasher):
            hasher.update(message)
            state = .sha256(hasher)
        #if TACK_SHA512
        case .sha384(var hasher):
            hasher.update(message)
            state = .sha384(hasher)
        #endif
        }
    }

    /// Fixes the hash (the negotiated suite's): the messages so far are absorbed and
    /// every later one goes straight into the hash. Fixing it again with the same hash
    /// changes nothing (a ServerHello after a HelloRetryRequest keeps the suite).
    mutating func fix(_ hash: DigestAlgorithm) throws(TLSError) {
        switch (state, hash) {
        case (.buffered(let bytes), .sha256):
            var hasher = SHA256()
            hasher.update(bytes)
            state = .sha256(hasher)
        case (.sha256, .sha256): return
        #if TACK_SHA512
        case (.buffered(let bytes), .sha384):
            var hasher = SHA384()
            hasher.update(bytes)
            state = .sha384(hasher)
        case (.sha384, .sha384): return
        #endif
        default:
            throw TLSError(.internalError("transcript hash " + hash.description + " unavailable or changed"))
        }
    }

    /// Transcript-Hash of the messages so far.
    func hash() throws(TLSError) -> [UInt8] {
        switch state {
        case .buffered: throw TLSError(.internalError("transcript hash before the suite is known"))
        case .sha256(let hasher): return Array(hasher.finalize())
        #if TACK_SHA512
        case .sha384(let hasher): return Array(hasher.finalize())
        #endif
        }
    }

    /// After a HelloRetryRequest (RFC 8446 §4.4.1): the transcript so far is
    /// ClientHello1 alone (the hash fixed by the HelloRetryRequest's suite); it becomes
    /// message_hash(Hash(ClientHello1)) followed by the HelloRetryRequest `raw`.
    mutating func restartAfterHelloRetryRequest(_ raw: [UInt8]) throws(TLSError) {
        let firstHash = try hash()
        let restarted = makeHandshakeMessage(HandshakeType.messageHash, firstHash) + raw
        switch state {
        case .buffered: throw TLSError(.internalError("transcript hash before the suite is known"))
        case .sha256:
            var hasher = SHA256()
            hasher.update(restarted)
            state = .sha256(hasher)
        #if TACK_SHA512
        case .sha384:
            var hasher = SHA384()
            hasher.update(restarted)
            state = .sha384(hasher)
        #endif
        }
    }

    /// Forgets the messages (after the handshake).
    mutating func clear() {
        state = .buffered([])
    }
}

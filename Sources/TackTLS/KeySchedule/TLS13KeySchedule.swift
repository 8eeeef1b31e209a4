import TackDigest

// The TLS 1.3 key schedule (RFC 8446 §7.1) without PSK: the early secret from
// zeros, the handshake secret from the (EC)DHE shared secret, the master secret,
// and the traffic secrets, keys, IVs and Finished keys derived from them.

/// The key schedule's secrets for one handshake; each is wiped when replaced.
struct TLS13KeySchedule: Sendable {
    let hash: DigestAlgorithm
    private(set) var handshakeSecret: [UInt8] = []
    private(set) var masterSecret: [UInt8] = []
    private(set) var clientHandshakeTrafficSecret: [UInt8] = []
    private(set) var serverHandshakeTrafficSecret: [UInt8] = []
    private(set) var clientApplicationTrafficSecret: [UInt8] = []
    private(set) var serverApplicationTrafficSecret: [UInt8] = []

    init(hash: DigestAlgorithm) { self.hash = hash }

    private func run<T>(_ body: () throws(HashError) -> T) throws(TLSError) -> T {
        do throws(HashError) { return try body() } catch { throw TLSError(.internalError(error.description)) }
    }

    private func derive(_ secret: [UInt8], _ label: String, _ transcriptHash: [UInt8]) throws(TLSError) -> [UInt8] {
        try run { () throws(HashError) in
            try HKDF.deriveSecret(secret: secret, label: Array(label.utf8), transcriptHash: transcriptHash, hash: hash)
        }
    }

    /// Early secret → handshake secret → the handshake traffic secrets.
    ///
    /// - Parameters:
    ///   - sharedSecret: The (EC)DHE shared secret.
    ///   - transcriptHash: Transcript-Hash(ClientHello…ServerHello).
    mutating func deriveHandshakeSecrets(sharedSecret: [UInt8], transcriptHash: [UInt8]) throws(TLSError) {
        let zeros = [UInt8](repeating: 0, count: hash.byteCount)
        let emptyHash = try digest(hash, [])
        var early = try run { () throws(HashError) in try HKDF.extract(salt: [], inputKeyMaterial: zeros, hash: hash) }
        defer { wipe(&early) }
        var derived = try derive(early, "derived", emptyHash)
        defer { wipe(&derived) }
        handshakeSecret = try run { () throws(HashError) in try HKDF.extract(salt: derived, inputKeyMaterial: sharedSecret, hash: hash) }
        clientHandshakeTrafficSecret = try derive(handshakeSecret, "c hs traffic", transcriptHash)
        serverHandshakeTrafficSecret = try derive(handshakeSecret, "s hs traffic", transcriptHash)
    }

    /// Master secret → the application traffic secrets.
    ///
    /// - Parameter transcriptHash: Transcript-Hash(ClientHello…server Finished).
    mutating func deriveApplicationSecrets(transcriptHash: [UInt8]) throws(TLSError) {
        let zeros = [UInt8](repeating: 0, count: hash.byteCount)
        var derived = try derive(handshakeSecret, "derived", try digest(hash, []))
        defer { wipe(&derived) }
        masterSecret = try run { () throws(HashError) in try HKDF.extract(salt: derived, inputKeyMaterial: zeros, hash: hash) }
        wipe(&handshakeSecret)
        clientApplicationTrafficSecret = try derive(masterSecret, "c ap traffic", transcriptHash)
        serverApplicationTrafficSecret = try derive(masterSecret, "s ap traffic", transcriptHash)
    }

    /// Drops the handshake traffic secrets and the master secret once the handshake is over.
    mutating func wipeHandshakeSecrets() {
        wipe(&clientHandshakeTrafficSecret)
        wipe(&serverHandshakeTrafficSecret)
        wipe(&masterSecret)
    }

    func expandLabel(_ secret: [UInt8], _ label: String, length: Int) throws(TLSError) -> [UInt8] {
        try run { () throws(HashError) in
            try HKDF.expandLabel(secret: secret, label: Array(label.utf8), context: [], outputByteCount: length, hash: hash)
        }
    }

    /// The record key and IV of a traffic secret (RFC 8446 §7.3).
    func trafficKeys(_ secret: [UInt8], keyLength: Int) throws(TLSError) -> (key: [UInt8], iv: [UInt8]) {
        (try expandLabel(secret, "key", length: keyLength), try expandLabel(secret, "iv", length: 12))
    }

    /// Finished's verify_data (RFC 8446 §4.4.4) under a handshake traffic secret.
    func finishedData(_ secret: [UInt8], transcriptHash: [UInt8]) throws(TLSError) -> [UInt8] {
        var finishedKey = try expandLabel(secret, "finished", length: hash.byteCount)
        defer { wipe(&finishedKey) }
        return try hmac(hash, key: finishedKey, transcriptHash)
    }

    /// The next application traffic secret (RFC 8446 §7.2).
    func nextTrafficSecret(_ secret: [UInt8]) throws(TLSError) -> [UInt8] {
        try expandLabel(secret, "traffic upd", length: hash.byteCount)
    }

    /// Record protection for a traffic secret.
    func protection(_ secret: [UInt8], suite: SuiteParameters) throws(TLSError) -> RecordProtection {
        var (key, iv) = try trafficKeys(secret, keyLength: suite.keyLength)
        defer { wipe(&key) }
        return RecordProtection(cipher: try RecordCipher(suite: suite, key: key), iv: iv, mode: .tls13)
    }
}

/// TLS 1.2's PRF (RFC 5246 §5): P_hash over HMAC with the suite's hash.
func tls12PRF(_ hash: DigestAlgorithm, secret: [UInt8], label: String, seed: [UInt8], length: Int) throws(TLSError) -> [UInt8] {
    let labelSeed = Array(label.utf8) + seed
    var output: [UInt8] = []
    output.reserveCapacity(length + hash.byteCount)
    var a = labelSeed
    while output.count < length {
        a = try hmac(hash, key: secret, a)
        output += try hmac(hash, key: secret, a + labelSeed)
    }
    return Array(output[0..<length])
}

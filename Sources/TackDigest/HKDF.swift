// HKDF (RFC 5869) over this module's HMAC, and the TLS 1.3 key-schedule
// helpers built on it (RFC 8446 §7.1): HKDF-Expand-Label and Derive-Secret.

/// The HMAC-based extract-and-expand key derivation function of RFC 5869,
/// with HMAC over a ``DigestAlgorithm`` (SHA-256, SHA-384 and SHA-512 for TLS
/// 1.3; every hash this module computes is accepted), and the TLS 1.3
/// helpers of RFC 8446 §7.1.
///
/// ```swift
/// let pseudorandomKey = try HKDF.extract(salt: salt, inputKeyMaterial: sharedSecret, hash: .sha256)
/// let key = try HKDF.expand(pseudorandomKey: pseudorandomKey, info: info, outputByteCount: 32, hash: .sha256)
/// ```
///
/// Keys and derived bytes are never part of an error or a description.
public enum HKDF {
    /// Extracts a pseudorandom key from input keying material (RFC 5869 §2.2):
    /// `PRK = HMAC-Hash(salt, IKM)`.
    ///
    /// - Parameters:
    ///   - salt: The optional salt; an empty salt stands for `HashLen` zero
    ///     bytes, which HMAC's zero padding makes the same key (RFC 5869 §2.2).
    ///   - inputKeyMaterial: The input keying material IKM (a shared secret).
    ///   - hash: The hash under HMAC.
    /// - Returns: The pseudorandom key PRK, `hash.byteCount` bytes.
    /// - Throws: ``HashError/unsupportedDigest(_:)`` for MD5.
    public static func extract(salt: [UInt8], inputKeyMaterial: [UInt8], hash: DigestAlgorithm) throws(HashError) -> [UInt8] {
        try hash.authenticationCode(for: inputKeyMaterial, key: salt)
    }

    /// Expands a pseudorandom key into output keying material (RFC 5869 §2.3):
    /// `T(i) = HMAC-Hash(PRK, T(i−1) ‖ info ‖ i)`, truncated to the length asked for.
    ///
    /// - Parameters:
    ///   - pseudorandomKey: The pseudorandom key PRK (from ``extract(salt:inputKeyMaterial:hash:)``
    ///     or a secret of a key schedule); RFC 5869 asks for at least `HashLen` bytes,
    ///     any length is computed.
    ///   - info: Context and application-specific information; may be empty.
    ///   - outputByteCount: The length L of the output, in `0...255·HashLen` bytes.
    ///   - hash: The hash under HMAC.
    /// - Returns: The output keying material OKM, `outputByteCount` bytes.
    /// - Throws: ``HashError/keyByteCountOutOfRange(count:limit:)`` when
    ///   `outputByteCount` is negative or above 255·HashLen (RFC 5869 §2.3), and
    ///   ``HashError/unsupportedDigest(_:)`` for MD5.
    public static func expand(
        pseudorandomKey: [UInt8], info: [UInt8], outputByteCount: Int, hash: DigestAlgorithm
    ) throws(HashError) -> [UInt8] {
        let limit = 255 * hash.byteCount
        guard outputByteCount >= 0 && outputByteCount <= limit else {
            throw .keyByteCountOutOfRange(count: outputByteCount, limit: limit)
        }
        return try hash.dispatch(Expansion(pseudorandomKey: pseudorandomKey, info: info, outputByteCount: outputByteCount))
    }

    /// Extract then expand in one call (RFC 5869 §2): `HKDF(salt, IKM, info, L)`.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: The input keying material IKM.
    ///   - salt: The optional salt (empty for none).
    ///   - info: Context and application-specific information.
    ///   - outputByteCount: The length L of the output, in `0...255·HashLen` bytes.
    ///   - hash: The hash under HMAC.
    /// - Returns: The output keying material OKM.
    /// - Throws: As ``expand(pseudorandomKey:info:outputByteCount:hash:)``.
    public static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int, hash: DigestAlgorithm
    ) throws(HashError) -> [UInt8] {
        var pseudorandomKey = try extract(salt: salt, inputKeyMaterial: inputKeyMaterial, hash: hash)
        defer { wipe(&pseudorandomKey) }
        return try expand(pseudorandomKey: pseudorandomKey, info: info, outputByteCount: outputByteCount, hash: hash)
    }

    // MARK: TLS 1.3 (RFC 8446 §7.1)

    /// The TLS 1.3 `HKDF-Expand-Label` (RFC 8446 §7.1): HKDF-Expand with the
    /// `HkdfLabel` structure as its info:
    ///
    /// ```
    /// struct {
    ///     uint16 length = Length;
    ///     opaque label<7..255> = "tls13 " + Label;
    ///     opaque context<0..255> = Context;
    /// } HkdfLabel;
    /// ```
    ///
    /// - Parameters:
    ///   - secret: The secret to expand (a PRK of the key schedule).
    ///   - label: The label without its `tls13 ` prefix, for example `Array("key".utf8)`;
    ///     at most 249 bytes, so that the prefixed label fits `label<7..255>`.
    ///   - context: The context (a transcript hash, or empty), at most 255 bytes.
    ///   - outputByteCount: The length, in `0...min(65535, 255·HashLen)` bytes.
    ///   - hash: The cipher suite's hash.
    /// - Returns: `outputByteCount` bytes.
    /// - Throws: ``HashError/labelTooLong(_:)``, ``HashError/contextTooLong(_:)``,
    ///   or the errors of ``expand(pseudorandomKey:info:outputByteCount:hash:)``.
    public static func expandLabel(
        secret: [UInt8], label: [UInt8], context: [UInt8], outputByteCount: Int, hash: DigestAlgorithm
    ) throws(HashError) -> [UInt8] {
        let prefix: [UInt8] = Array("tls13 ".utf8)
        guard label.count <= 255 - prefix.count else { throw .labelTooLong(label.count) }
        guard context.count <= 255 else { throw .contextTooLong(context.count) }
        let limit = min(Int(UInt16.max), 255 * hash.byteCount)
        guard outputByteCount >= 0 && outputByteCount <= limit else {
            throw .keyByteCountOutOfRange(count: outputByteCount, limit: limit)
        }
        var info: [UInt8] = []
        info.reserveCapacity(4 + prefix.count + label.count + context.count)
        info.append(UInt8(truncatingIfNeeded: outputByteCount >> 8))  // ≤ 65535, checked above
        info.append(UInt8(truncatingIfNeeded: outputByteCount))
        info.append(UInt8(truncatingIfNeeded: prefix.count + label.count))  // ≤ 255, checked above
        info += prefix
        info += label
        info.append(UInt8(truncatingIfNeeded: context.count))  // ≤ 255, checked above
        info += context
        return try expand(pseudorandomKey: secret, info: info, outputByteCount: outputByteCount, hash: hash)
    }

    /// The TLS 1.3 `Derive-Secret` (RFC 8446 §7.1):
    /// `HKDF-Expand-Label(Secret, Label, Transcript-Hash(Messages), Hash.length)`.
    ///
    /// The caller hashes the handshake messages (the transcript is the TLS
    /// client's to keep); for the `derived` secrets of the schedule it is the
    /// hash of the empty string.
    ///
    /// - Parameters:
    ///   - secret: The secret (early, handshake or master secret).
    ///   - label: The label without `tls13 `, for example `Array("c hs traffic".utf8)`.
    ///   - transcriptHash: `Transcript-Hash(Messages)`, `hash.byteCount` bytes.
    ///   - hash: The cipher suite's hash.
    /// - Returns: The derived secret, `hash.byteCount` bytes.
    /// - Throws: As ``expandLabel(secret:label:context:outputByteCount:hash:)``.
    public static func deriveSecret(
        secret: [UInt8], label: [UInt8], transcriptHash: [UInt8], hash: DigestAlgorithm
    ) throws(HashError) -> [UInt8] {
        try expandLabel(secret: secret, label: label, context: transcriptHash, outputByteCount: hash.byteCount, hash: hash)
    }

    /// Overwrites a secret's bytes with zeros.
    static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}

/// RFC 5869 §2.3 for one hash function: T(1) ‖ T(2) ‖ … truncated to L.
private struct Expansion: HashFunctionVisitor {
    let pseudorandomKey: [UInt8]
    let info: [UInt8]
    let outputByteCount: Int

    func visit<Function: BlockHashFunction>(_: Function.Type) -> [UInt8] {
        let keyed = HMAC<Function>(key: pseudorandomKey)
        var output: [UInt8] = []
        output.reserveCapacity(outputByteCount)
        var previous: Function.Digest?
        // outputByteCount ≤ 255·HashLen (checked by the caller): the counter fits a byte.
        var counter: UInt8 = 1
        while output.count < outputByteCount {
            var authenticator = keyed
            if let previous { previous.withUnsafeBytes { authenticator.update($0) } }
            authenticator.update(info)
            withUnsafeBytes(of: counter) { authenticator.update($0) }
            let block = authenticator.finalize()
            let take = min(Function.digestByteCount, outputByteCount - output.count)
            block.withUnsafeBytes { bytes in output += bytes.prefix(take) }
            previous = block
            counter &+= 1
        }
        return output
    }
}

// ChaCha20-Poly1305 (RFC 8439 §2.8), the AEAD of TLS 1.3's
// TLS_CHACHA20_POLY1305_SHA256 (RFC 8446 §B.4).

/// The ChaCha20-Poly1305 authenticated encryption of RFC 8439 §2.8 under one
/// 256-bit key.
///
/// ``seal(_:nonce:authenticating:)`` encrypts and appends the 16-byte tag;
/// ``open(_:nonce:authenticating:)`` checks the tag in constant time before
/// anything is decrypted, and returns nothing when it does not verify.
///
/// ```swift
/// let aead = try ChaCha20Poly1305(key: key)
/// let record = try aead.seal(plaintext, nonce: nonce, authenticating: header)
/// let opened = try aead.open(record, nonce: nonce, authenticating: header)
/// ```
///
/// A nonce must never repeat under one key. The key is held as a value (eight
/// words): Swift gives a struct no deinitialiser, so its copies cannot be
/// wiped when they go away; the keystream and Poly1305 key blocks each call
/// makes are overwritten before it returns. `description` is the type's name
/// only, never the key.
public struct ChaCha20Poly1305: Sendable, CustomStringConvertible {
    /// The key length: 32 bytes.
    public static let keyByteCount = 32
    /// The nonce length: 12 bytes (RFC 8439 §2.8).
    public static let nonceByteCount = 12
    /// The tag length: 16 bytes.
    public static let tagByteCount = 16
    /// The longest plaintext one nonce may protect: 2³² − 1 blocks of 64
    /// bytes, as block 0 keys Poly1305 and the counter is 32 bits (RFC 8439 §2.8).
    public static let maximumPlaintextByteCount: UInt64 = (1 << 32 - 1) * 64

    private let cipher: ChaCha20

    /// Prepares the AEAD for a key.
    ///
    /// - Parameter key: 32 bytes.
    /// - Throws: ``AEADError/invalidKeyLength(_:)`` for another length.
    public init(key: some Collection<UInt8>) throws(AEADError) {
        guard key.count == Self.keyByteCount else { throw .invalidKeyLength(key.count) }
        var bytes = Array(key)
        cipher = bytes.withUnsafeBytes { ChaCha20(key: $0) }
        for index in bytes.indices { bytes[index] = 0 }
    }

    /// The type's name; never the key.
    public var description: String { "ChaCha20Poly1305" }

    /// Encrypts and authenticates a record (RFC 8439 §2.8).
    ///
    /// - Parameters:
    ///   - plaintext: The bytes to encrypt (any length up to
    ///     ``maximumPlaintextByteCount``, empty included).
    ///   - nonce: 12 bytes, never repeated under this key.
    ///   - additionalData: Associated data authenticated but not encrypted (a
    ///     TLS record header, say); may be empty.
    /// - Returns: The ciphertext (as long as the plaintext) followed by the 16-byte tag.
    /// - Throws: ``AEADError/invalidNonceLength(_:)`` or ``AEADError/inputTooLong``.
    public func seal(
        _ plaintext: some Collection<UInt8>, nonce: some Collection<UInt8>, authenticating additionalData: some Collection<UInt8>
    ) throws(AEADError) -> [UInt8] {
        let nonceWords = try Self.nonceWords(nonce)
        guard UInt64(plaintext.count) <= Self.maximumPlaintextByteCount else { throw .inputTooLong }
        let count = plaintext.count
        return Self.contiguous(plaintext) { input in
            Self.contiguous(additionalData) { aad in
                [UInt8](unsafeUninitializedCapacity: count + Self.tagByteCount) { output, initialized in
                    let body = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(output)[0..<count])
                    let tag = seal(input, into: body, additionalData: aad, nonce: nonceWords, wide: chaCha20WideIsAvailable)
                    withUnsafeBytes(of: tag) { tagBytes in
                        for index in 0..<Self.tagByteCount { output[count + index] = tagBytes[index] }
                    }
                    initialized = count + Self.tagByteCount
                }
            }
        }
    }

    /// Checks and decrypts a record (RFC 8439 §2.8).
    ///
    /// The tag is recomputed over the ciphertext and compared in constant
    /// time first; only a record that authenticates is decrypted.
    ///
    /// - Parameters:
    ///   - ciphertext: The ciphertext followed by its 16-byte tag, as
    ///     ``seal(_:nonce:authenticating:)`` returns it.
    ///   - nonce: The 12-byte nonce of the seal.
    ///   - additionalData: The associated data of the seal.
    /// - Returns: The plaintext.
    /// - Throws: ``AEADError/invalidNonceLength(_:)``, ``AEADError/ciphertextTooShort(_:)``,
    ///   ``AEADError/inputTooLong`` or ``AEADError/authenticationFailed``.
    public func open(
        _ ciphertext: some Collection<UInt8>, nonce: some Collection<UInt8>, authenticating additionalData: some Collection<UInt8>
    ) throws(AEADError) -> [UInt8] {
        let nonceWords = try Self.nonceWords(nonce)
        guard ciphertext.count >= Self.tagByteCount else { throw .ciphertextTooShort(ciphertext.count) }
        let count = ciphertext.count - Self.tagByteCount
        guard UInt64(count) <= Self.maximumPlaintextByteCount else { throw .inputTooLong }
        let opened: [UInt8]? = Self.contiguous(ciphertext) { record in
            Self.contiguous(additionalData) { aad in
                let body = UnsafeRawBufferPointer(rebasing: record[0..<count])
                let expected = authenticationTag(
                    ciphertext: body, additionalData: aad, nonce: nonceWords, wide: chaCha20WideIsAvailable)
                // Both sides as the tag's bytes in memory order.
                let received = (
                    record.loadUnaligned(fromByteOffset: count, as: UInt64.self),
                    record.loadUnaligned(fromByteOffset: count + 8, as: UInt64.self)
                )
                // Constant time: one OR of the XORed words, one branch on the verdict.
                guard (expected.0 ^ received.0) | (expected.1 ^ received.1) == 0 else { return nil }
                return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                    cipher.xor(body, into: UnsafeMutableRawBufferPointer(output), counter: 1, nonce: nonceWords)
                    initialized = count
                }
            }
        }
        guard let opened else { throw .authenticationFailed }
        return opened
    }

    /// Encrypts `input` into `output` (as long) from block 1 and returns the tag
    /// over the ciphertext (RFC 8439 §2.8). With `wide` (and the AVX-512 code
    /// compiled in), whole kilobytes of ChaCha20 run sixteen blocks at a time and
    /// whole 128-byte groups of Poly1305 eight blocks at a time (TackCipherAVX512);
    /// the seeded differential test `wideSealMatchesPortable`
    /// (ChaCha20Poly1305Tests.swift) holds that to the portable paths; measured by
    /// tack-bench's `chacha20poly1305-16k`.
    func seal(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, additionalData: UnsafeRawBufferPointer,
        nonce: SIMD3<UInt32>, wide: Bool
    ) -> (UInt64, UInt64) {
        cipher.xor(input, into: output, counter: 1, nonce: nonce, wide: wide)
        return authenticationTag(ciphertext: UnsafeRawBufferPointer(output), additionalData: additionalData, nonce: nonce, wide: wide)
    }

    /// The tag over `aad ‖ pad16 ‖ ciphertext ‖ pad16 ‖ len(aad) ‖ len(ciphertext)`
    /// under the Poly1305 key from keystream block 0 (RFC 8439 §2.6, §2.8).
    private func authenticationTag(
        ciphertext: UnsafeRawBufferPointer, additionalData: UnsafeRawBufferPointer, nonce: SIMD3<UInt32>, wide: Bool
    ) -> (UInt64, UInt64) {
        var mac = authenticator(additionalData: additionalData, nonce: nonce)
        mac.absorbPadded(ciphertext, wide: wide)
        return Self.finish(&mac, additionalDataCount: additionalData.count, ciphertextCount: ciphertext.count)
    }

    /// Poly1305 under the key from keystream block 0 (RFC 8439 §2.6), having
    /// absorbed `aad ‖ pad16`.
    private func authenticator(additionalData: UnsafeRawBufferPointer, nonce: SIMD3<UInt32>) -> Poly1305 {
        // The Poly1305 key: the first 32 bytes of keystream block 0, wiped after.
        var mac = withUnsafeTemporaryAllocation(byteCount: 64, alignment: 16) { keyBlock in
            cipher.block(counter: 0, nonce: nonce, into: keyBlock)
            let mac = Poly1305(key: UnsafeRawBufferPointer(rebasing: keyBlock[0..<32]))
            keyBlock.initializeMemory(as: UInt8.self, repeating: 0)
            return mac
        }
        mac.absorbPadded(additionalData)
        return mac
    }

    /// Absorbs `len(aad) ‖ len(ciphertext)` and returns the tag.
    private static func finish(_ mac: inout Poly1305, additionalDataCount: Int, ciphertextCount: Int) -> (UInt64, UInt64) {
        let lengths = (UInt64(additionalDataCount).littleEndian, UInt64(ciphertextCount).littleEndian)
        withUnsafeBytes(of: lengths) { mac.absorb($0) }
        return mac.finalize()
    }

    /// The nonce as three little-endian words.
    private static func nonceWords(_ nonce: some Collection<UInt8>) throws(AEADError) -> SIMD3<UInt32> {
        guard nonce.count == nonceByteCount else { throw .invalidNonceLength(nonce.count) }
        // Through `contiguous`, not `enumerated()`: unspecialised (the caller's
        // collection type is not known here), its (offset, element) tuples cost a
        // metadata lookup per byte, 2% of a 16 KiB seal (perf, chacha20poly1305-16k).
        return contiguous(nonce) { bytes in
            SIMD3(
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        }
    }

    /// Runs `body` on the bytes of `collection`: in place when they are
    /// contiguous (an array, a slice), else on a copy.
    private static func contiguous<Value>(
        _ collection: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) -> Value
    ) -> Value {
        if let direct = collection.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return direct }
        return Array(collection).withUnsafeBytes { body($0) }
    }
}

// HMAC (RFC 2104; FIPS 198-1) over any hash function of this module.

/// A keyed message authentication code over a hash function (RFC 2104):
/// `H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message))`.
///
/// Like the hashers, an `HMAC` value streams: create it with the key, call
/// ``update(_:)-(UnsafeRawBufferPointer)`` any number of times, and read the
/// code with ``finalize()``, which leaves the value unchanged (so one keyed
/// value can be copied and reused for many messages, as PBKDF2 does).
///
/// ```swift
/// let code = HMAC<SHA256>.authenticationCode(for: message, key: key)
/// ```
///
/// Compare codes with `==` on the digest type, which runs in constant time.
public struct HMAC<H: HashFunction>: Sendable {
    /// The inner hasher, already fed `K ⊕ ipad`.
    var inner: H
    /// The outer hasher, already fed `K ⊕ opad`.
    var outer: H

    /// Creates an authenticator with the given key.
    ///
    /// A key longer than the hash's block size is first hashed, and a shorter
    /// one padded with zeros (RFC 2104 §2). Keys shorter than the digest size
    /// are allowed but weak (RFC 2104 §3).
    ///
    /// - Parameter key: The secret key; read during the call only.
    public init(key: UnsafeRawBufferPointer) {
        let blockByteCount = H.blockByteCount
        inner = H()
        outer = H()
        // One block of padded key on the stack (64 or 128 bytes): no heap.
        withUnsafeTemporaryAllocation(byteCount: blockByteCount, alignment: 8) { padded in
            padded.initializeMemory(as: UInt8.self, repeating: 0)
            if key.count > blockByteCount {
                H.hash(key).withUnsafeBytes { digest in
                    // digestByteCount < blockByteCount for every function here.
                    padded.copyMemory(from: digest)
                }
            } else {
                padded.copyMemory(from: key)
            }
            // RFC 2104 §2: ipad is 0x36 repeated, opad is 0x5c repeated; the
            // second XOR (0x36 ^ 0x5c) turns the first pad into the second.
            for index in 0..<blockByteCount { padded[index] ^= 0x36 }
            inner.update(UnsafeRawBufferPointer(padded))
            for index in 0..<blockByteCount { padded[index] ^= 0x36 ^ 0x5c }
            outer.update(UnsafeRawBufferPointer(padded))
            // Do not leave key material in the stack slot.
            for index in 0..<blockByteCount { padded[index] = 0 }
        }
    }

    /// Creates an authenticator with the key held in an array.
    ///
    /// - Parameter key: The secret key.
    public init(key: [UInt8]) {
        self = key.withUnsafeBytes { Self(key: $0) }
    }

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        inner.update(bytes)
    }

    /// Absorbs the bytes of an array.
    ///
    /// - Parameter bytes: The next bytes of the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { inner.update($0) }
    }

    /// Absorbs the bytes of an array slice, without copying them.
    ///
    /// - Parameter bytes: The next bytes of the message.
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { inner.update($0) }
    }

    /// Returns the authentication code of every byte absorbed so far, leaving
    /// this value unchanged.
    ///
    /// - Returns: The full-length code, a digest of `H`. RFC 2104 §5
    ///   truncation, where a protocol wants it, is the caller's prefix.
    public func finalize() -> H.Digest {
        let innerDigest = inner.finalize()
        var outer = self.outer
        innerDigest.withUnsafeBytes { outer.update($0) }
        return outer.finalize()
    }

    /// Computes the authentication code of a whole message.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - key: The secret key.
    /// - Returns: `HMAC-H(key, message)`.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> H.Digest {
        var authenticator = Self(key: key)
        authenticator.update(message)
        return authenticator.finalize()
    }
}

extension DigestAlgorithm {
    /// Computes HMAC (RFC 2104) with this hash over a whole message: the
    /// entry point for a hash chosen at run time (a PKCS #12 MAC, a PBES2
    /// PRF). ``HMAC`` is the generic, streaming form.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - key: The secret key.
    /// - Returns: The full-length code, ``byteCount`` bytes.
    /// - Throws: ``HashError/unsupportedDigest(_:)`` for ``md5``.
    public func authenticationCode(for message: [UInt8], key: [UInt8]) throws(HashError) -> [UInt8] {
        try dispatch(OneShotHMAC(message: message, key: key))
    }
}

private struct OneShotHMAC: HashFunctionVisitor {
    let message: [UInt8]
    let key: [UInt8]
    func visit<Function: BlockHashFunction>(_: Function.Type) -> [UInt8] {
        Array(HMAC<Function>.authenticationCode(for: message, key: key))
    }
}

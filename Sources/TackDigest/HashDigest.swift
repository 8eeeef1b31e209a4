// The digest type: a fixed-size byte string stored inline, so that producing,
// copying and comparing a digest never touches the heap. One generic shape
// for every function; the names below are its instances.

internal import TackDER

/// A SHA-1 digest: 20 bytes.
public typealias SHA1Digest = HashDigest<SHA1>
/// A SHA-224 digest: 28 bytes.
public typealias SHA224Digest = HashDigest<SHA224>
/// A SHA-256 digest: 32 bytes.
public typealias SHA256Digest = HashDigest<SHA256>
/// A SHA-384 digest: 48 bytes.
public typealias SHA384Digest = HashDigest<SHA384>
/// A SHA-512 digest: 64 bytes.
public typealias SHA512Digest = HashDigest<SHA512>
/// A SHA-512/224 digest: 28 bytes.
public typealias SHA512_224Digest = HashDigest<SHA512_224>
/// A SHA-512/256 digest: 32 bytes.
public typealias SHA512_256Digest = HashDigest<SHA512_256>

/// The output of a hash function: `Function.digestByteCount` bytes held
/// inline (no heap allocation), compared in constant time.
///
/// A digest is a random-access collection of its bytes, indexed from 0, so
/// `Array(digest)`, `digest.elementsEqual(other)` and `digest[0]` all work.
/// Use ``withUnsafeBytes(_:)`` to read the bytes without copying.
public struct HashDigest<Function: HashFunction>: Sendable, Hashable, RandomAccessCollection {
    /// Room for the longest digest (SHA-512's 64 bytes); the first
    /// ``byteCount`` bytes are the digest, the rest are zero.
    @usableFromInline
    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// The number of bytes in every digest of this type.
    @inlinable
    public static var byteCount: Int { Function.digestByteCount }

    /// Creates a digest by letting `body` write its ``byteCount`` bytes.
    @inlinable
    init(writing body: (UnsafeMutableRawBufferPointer) -> Void) {
        storage = (0, 0, 0, 0, 0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &storage) { body(UnsafeMutableRawBufferPointer(rebasing: $0[0..<Self.byteCount])) }
    }

    /// Creates a digest from exactly ``byteCount`` bytes, for example an
    /// expected value decoded from hex or read from a certificate extension.
    ///
    /// - Parameter bytes: The digest's bytes.
    /// - Returns: `nil` if `bytes` does not hold exactly ``byteCount`` bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.init { buffer in
            for (offset, byte) in zip(buffer.indices, bytes) { buffer[offset] = byte }
        }
    }

    /// Calls a closure with a view of the digest's bytes.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid
    ///   only for the duration of the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Swift.withUnsafeBytes(of: storage) { (buffer) throws(E) -> R in
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<Self.byteCount]))
        }
    }

    #if !hasFeature(Embedded)
    /// Calls `body` with the digest's bytes in place: a digest is contiguous, so code
    /// generic over collections of bytes (the signature schemes' `forDigest` forms)
    /// reads it without copying it into an array. Without this, each such call
    /// allocated (issue 35: one allocation per `trust-rsa2048-newleaf-sigcache` verdict).
    /// Not in Embedded Swift, where the requirement's untyped `rethrows` cannot be
    /// implemented: there such a call copies the digest (no image's verdict makes one).
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid only for
    ///   the duration of the call.
    /// - Returns: What `body` returns; never `nil` for a digest.
    /// - Throws: What `body` throws.
    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try Swift.withUnsafeBytes(of: storage) { raw in
            try UnsafeRawBufferPointer(rebasing: raw[0..<Self.byteCount]).withMemoryRebound(to: UInt8.self) { try body($0) }
        }
    }
    #endif

    /// Calls a closure with a mutable view of the digest's bytes (PBKDF2
    /// accumulates its blocks in place).
    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        Swift.withUnsafeMutableBytes(of: &storage) { body(UnsafeMutableRawBufferPointer(rebasing: $0[0..<Self.byteCount])) }
    }

    /// The position of the first byte: always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The position one past the last byte: always ``byteCount``.
    @inlinable
    public var endIndex: Int { Self.byteCount }

    /// The number of bytes: always ``byteCount``.
    @inlinable
    public var count: Int { Self.byteCount }

    /// Accesses the byte at `position`.
    ///
    /// - Parameter position: An index in `0..<byteCount`; any other value is
    ///   a programming error and traps, as it would for an array.
    /// - Returns: The byte.
    @inlinable
    public subscript(position: Int) -> UInt8 {
        // Same contract as Array's subscript: an out-of-range index is a
        // caller's programming error, not a property of untrusted input.
        precondition(position >= 0 && position < Self.byteCount, "HashDigest index out of range")
        return withUnsafeBytes { $0[position] }
    }

    /// The digest as lowercase hexadecimal, two characters per byte.
    public var hexString: String {
        withUnsafeBytes { Hex.encode($0) }
    }

    /// The digest in standard Base64 with padding (RFC 4648 §4), the form of
    /// `NSPinnedDomains` SPKI pins and of `openssl dgst -binary | base64`.
    public var base64String: String {
        withUnsafeBytes { Base64.encode($0) }
    }

    /// Compares two digests in time that depends only on their length, never
    /// on where they first differ, so that comparing a computed digest with an
    /// expected one leaks nothing through timing.
    ///
    /// - Parameters:
    ///   - lhs: A digest.
    ///   - rhs: Another digest of the same function.
    /// - Returns: Whether every byte is equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                var difference: UInt8 = 0
                for index in 0..<Self.byteCount {
                    difference |= left[index] ^ right[index]
                }
                return difference == 0
            }
        }
    }

    /// Feeds the digest's bytes to a hasher.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

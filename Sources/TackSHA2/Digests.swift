// The digest types: fixed-size byte strings stored inline in tuples, so that
// producing, copying and comparing a digest never touches the heap. Their
// collection, equality, hashing and hex behaviour comes from `SHA2Digest`.

/// A SHA-224 digest: 28 bytes, held inline.
public struct SHA224Digest: SHA2Digest {
    /// The number of bytes in a SHA-224 digest: 28 (FIPS 180-4 §1, Figure 1).
    public static var byteCount: Int { 28 }

    /// The bytes in digest order; `MemoryLayout<Storage>.size` is exactly 28.
    @usableFromInline
    var storage: (UInt64, UInt64, UInt64, UInt32)

    /// Creates a digest by letting `body` write its 28 bytes.
    @inlinable
    init(writing body: (UnsafeMutableRawBufferPointer) -> Void) {
        storage = (0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &storage) { body($0) }
    }

    /// Creates a digest from exactly 28 bytes, for example an expected
    /// value decoded from hex or read from a certificate extension.
    ///
    /// - Parameter bytes: The digest's bytes.
    /// - Returns: `nil` if `bytes` does not hold exactly 28 bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 28 else { return nil }
        self.init { buffer in
            for (offset, byte) in zip(buffer.indices, bytes) { buffer[offset] = byte }
        }
    }

    /// Calls a closure with a view of the digest's 28 bytes.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid
    ///   only for the duration of the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Swift.withUnsafeBytes(of: storage) { (buffer) throws(E) -> R in try body(buffer) }
    }
}

/// A SHA-256 digest: 32 bytes, held inline.
public struct SHA256Digest: SHA2Digest {
    /// The number of bytes in a SHA-256 digest: 32 (FIPS 180-4 §1, Figure 1).
    public static var byteCount: Int { 32 }

    /// The bytes in digest order; `MemoryLayout<Storage>.size` is exactly 32.
    @usableFromInline
    var storage: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a digest by letting `body` write its 32 bytes.
    @inlinable
    init(writing body: (UnsafeMutableRawBufferPointer) -> Void) {
        storage = (0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &storage) { body($0) }
    }

    /// Creates a digest from exactly 32 bytes, for example an expected
    /// value decoded from hex or read from a certificate extension.
    ///
    /// - Parameter bytes: The digest's bytes.
    /// - Returns: `nil` if `bytes` does not hold exactly 32 bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self.init { buffer in
            for (offset, byte) in zip(buffer.indices, bytes) { buffer[offset] = byte }
        }
    }

    /// Calls a closure with a view of the digest's 32 bytes.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid
    ///   only for the duration of the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Swift.withUnsafeBytes(of: storage) { (buffer) throws(E) -> R in try body(buffer) }
    }
}

/// A SHA-384 digest: 48 bytes, held inline.
public struct SHA384Digest: SHA2Digest {
    /// The number of bytes in a SHA-384 digest: 48 (FIPS 180-4 §1, Figure 1).
    public static var byteCount: Int { 48 }

    /// The bytes in digest order; `MemoryLayout<Storage>.size` is exactly 48.
    @usableFromInline
    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// Creates a digest by letting `body` write its 48 bytes.
    @inlinable
    init(writing body: (UnsafeMutableRawBufferPointer) -> Void) {
        storage = (0, 0, 0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &storage) { body($0) }
    }

    /// Creates a digest from exactly 48 bytes, for example an expected
    /// value decoded from hex or read from a certificate extension.
    ///
    /// - Parameter bytes: The digest's bytes.
    /// - Returns: `nil` if `bytes` does not hold exactly 48 bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 48 else { return nil }
        self.init { buffer in
            for (offset, byte) in zip(buffer.indices, bytes) { buffer[offset] = byte }
        }
    }

    /// Calls a closure with a view of the digest's 48 bytes.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid
    ///   only for the duration of the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Swift.withUnsafeBytes(of: storage) { (buffer) throws(E) -> R in try body(buffer) }
    }
}

/// A SHA-512 digest: 64 bytes, held inline.
public struct SHA512Digest: SHA2Digest {
    /// The number of bytes in a SHA-512 digest: 64 (FIPS 180-4 §1, Figure 1).
    public static var byteCount: Int { 64 }

    /// The bytes in digest order; `MemoryLayout<Storage>.size` is exactly 64.
    @usableFromInline
    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// Creates a digest by letting `body` write its 64 bytes.
    @inlinable
    init(writing body: (UnsafeMutableRawBufferPointer) -> Void) {
        storage = (0, 0, 0, 0, 0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &storage) { body($0) }
    }

    /// Creates a digest from exactly 64 bytes, for example an expected
    /// value decoded from hex or read from a certificate extension.
    ///
    /// - Parameter bytes: The digest's bytes.
    /// - Returns: `nil` if `bytes` does not hold exactly 64 bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 64 else { return nil }
        self.init { buffer in
            for (offset, byte) in zip(buffer.indices, bytes) { buffer[offset] = byte }
        }
    }

    /// Calls a closure with a view of the digest's 64 bytes.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid
    ///   only for the duration of the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Swift.withUnsafeBytes(of: storage) { (buffer) throws(E) -> R in try body(buffer) }
    }
}

/// A SHA-512/256 digest: 32 bytes, held inline.
public struct SHA512_256Digest: SHA2Digest {
    /// The number of bytes in a SHA-512/256 digest: 32 (FIPS 180-4 §1, Figure 1).
    public static var byteCount: Int { 32 }

    /// The bytes in digest order; `MemoryLayout<Storage>.size` is exactly 32.
    @usableFromInline
    var storage: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a digest by letting `body` write its 32 bytes.
    @inlinable
    init(writing body: (UnsafeMutableRawBufferPointer) -> Void) {
        storage = (0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &storage) { body($0) }
    }

    /// Creates a digest from exactly 32 bytes, for example an expected
    /// value decoded from hex or read from a certificate extension.
    ///
    /// - Parameter bytes: The digest's bytes.
    /// - Returns: `nil` if `bytes` does not hold exactly 32 bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self.init { buffer in
            for (offset, byte) in zip(buffer.indices, bytes) { buffer[offset] = byte }
        }
    }

    /// Calls a closure with a view of the digest's 32 bytes.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid
    ///   only for the duration of the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Swift.withUnsafeBytes(of: storage) { (buffer) throws(E) -> R in try body(buffer) }
    }
}

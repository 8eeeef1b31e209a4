// The SHA-2 family of FIPS 180-4 ("Secure Hash Standard", August 2015):
// the protocols shared by every hash function and digest in this module.

internal import TackDER

/// A SHA-2 hash function (FIPS 180-4) used as a streaming hasher.
///
/// A hasher is a small value type. Create one with ``init()``, feed it bytes
/// with ``update(_:)-(UnsafeRawBufferPointer)`` any number of times with any
/// split, and read the digest with ``finalize()``. Because `finalize()` does not
/// mutate the hasher, a hasher can be copied to fork a computation over a
/// common prefix (as HMAC does with its inner and outer keys), or finalized and
/// then fed more bytes.
///
/// Code that is generic over the hash function (HMAC, RSA `DigestInfo`, PSS's
/// MGF1) is written against this protocol:
///
/// ```swift
/// func fingerprint<H: SHA2HashFunction>(_ bytes: [UInt8], using _: H.Type) -> H.Digest {
///     H.hash(bytes)
/// }
/// ```
public protocol SHA2HashFunction: Sendable {
    /// The digest type this function produces.
    associatedtype Digest: SHA2Digest

    /// The size of the digest in bytes (for example 32 for SHA-256).
    static var digestByteCount: Int { get }

    /// The size of the compression function's input block in bytes: 64 for
    /// SHA-224/256 and 128 for SHA-384/512 (FIPS 180-4 §1, Figure 1). HMAC pads
    /// its key to this size (RFC 2104 §2).
    static var blockByteCount: Int { get }

    /// Creates a hasher in the function's initial state (FIPS 180-4 §5.3).
    init()

    /// Absorbs more message bytes.
    ///
    /// - Parameter bytes: The next bytes of the message. The buffer is read
    ///   during the call only and may be empty.
    mutating func update(_ bytes: UnsafeRawBufferPointer)

    /// Returns the digest of every byte absorbed so far (FIPS 180-4 §5.1
    /// padding, then the final compression).
    ///
    /// The hasher itself is left unchanged, so it can be updated further or
    /// finalized again.
    ///
    /// - Returns: The message digest.
    func finalize() -> Digest
}

extension SHA2HashFunction {
    /// Absorbs the bytes of an array.
    ///
    /// - Parameter bytes: The next bytes of the message.
    @inlinable
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Absorbs the bytes of an array slice, without copying them.
    ///
    /// - Parameter bytes: The next bytes of the message.
    @inlinable
    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Hashes a complete message held in contiguous memory.
    ///
    /// - Parameter bytes: The whole message.
    /// - Returns: Its digest.
    @inlinable
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes a complete message held in an array.
    ///
    /// - Parameter bytes: The whole message.
    /// - Returns: Its digest.
    @inlinable
    public static func hash(_ bytes: [UInt8]) -> Digest {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// Hashes a complete message held in an array slice, without copying it.
    ///
    /// - Parameter bytes: The whole message.
    /// - Returns: Its digest.
    @inlinable
    public static func hash(_ bytes: ArraySlice<UInt8>) -> Digest {
        bytes.withUnsafeBytes { hash($0) }
    }
}

/// The output of a SHA-2 hash function: a fixed number of bytes held inline
/// (no heap allocation), compared in constant time.
///
/// A digest is a random-access collection of its bytes, indexed from 0, so
/// `Array(digest)`, `digest.elementsEqual(other)` and `digest[0]` all work.
/// Use ``withUnsafeBytes(_:)`` to read the bytes without copying.
public protocol SHA2Digest: Sendable, Hashable, RandomAccessCollection
where Element == UInt8, Index == Int {
    /// The number of bytes in every digest of this type.
    static var byteCount: Int { get }

    /// Calls a closure with a view of the digest's bytes.
    ///
    /// - Parameter body: A closure that reads the bytes. The buffer is valid
    ///   only for the duration of the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R
}

extension SHA2Digest {
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
    @inlinable
    public subscript(position: Int) -> UInt8 {
        // Same contract as Array's subscript: an out-of-range index is a
        // caller's programming error, not a property of untrusted input.
        precondition(position >= 0 && position < Self.byteCount, "SHA2Digest index out of range")
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
    ///   - rhs: Another digest of the same type.
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

/// Which compression function a SHA-256 or SHA-224 hasher runs.
///
/// Both implementations compute exactly the same function; they differ only in
/// speed. ``SHA256/init()`` picks ``bestAvailable``; the tests and benchmarks
/// pick each one explicitly with ``SHA256/init(implementation:)``.
public enum SHA2Implementation: Sendable, Hashable {
    /// Plain Swift, on every platform.
    case portable
    /// The CPU's SHA-256 instructions, only when the module was built with the
    /// hardware path (the `HardwareSHA` package trait, on by default, when Tack
    /// is the root package or a path dependency: see Package.swift, SwiftPM does
    /// not allow the compiler flags this path needs in a package resolved by
    /// version) and the CPU has them:
    /// - x86-64: the SHA extensions (`SHA256RNDS2`, `SHA256MSG1`, `SHA256MSG2`),
    ///   where CPUID reports them (leaf 7, EBX bit 29) along with SSSE3;
    /// - arm64: the ARMv8 Cryptographic Extension (`SHA256H`, `SHA256H2`,
    ///   `SHA256SU0`, `SHA256SU1`) on Apple platforms, whose arm64 CPUs all have
    ///   it, and in builds that state the CPU has it (`-D TACK_ASSUME_ARMV8_SHA2`).
    ///   Elsewhere (Linux arm64) only the C library can ask the CPU
    ///   (`getauxval`), which the core does not call, so the portable path runs.
    case hardware

    /// Whether this implementation can run on the current CPU.
    public var isAvailable: Bool {
        switch self {
        case .portable: true
        case .hardware: hardwareSHA256IsAvailable
        }
    }

    /// The fastest implementation this CPU supports.
    public static var bestAvailable: SHA2Implementation {
        hardwareSHA256IsAvailable ? .hardware : .portable
    }
}

// The hash functions of FIPS 180-4 ("Secure Hash Standard", August 2015):
// the protocols every hasher of this module conforms to, and the choice of
// compression function.

/// A hash function of this module (SHA-1 or a SHA-2 function, FIPS 180-4)
/// used as a streaming hasher.
///
/// A hasher is a small value type. Create one with ``init()``, feed it bytes
/// with ``update(_:)-(UnsafeRawBufferPointer)`` any number of times with any
/// split, and read the digest with ``finalize()``. Because `finalize()` does not
/// mutate the hasher, a hasher can be copied to fork a computation over a
/// common prefix (as HMAC does with its inner and outer keys), or finalized and
/// then fed more bytes.
///
/// Code that is generic over the hash function (HMAC, PBKDF2) is written
/// against this protocol; code that must not accept SHA-1 (signatures) is
/// written against ``SHA2HashFunction``:
///
/// ```swift
/// func fingerprint<H: HashFunction>(_ bytes: [UInt8], using _: H.Type) -> HashDigest<H> {
///     H.hash(bytes)
/// }
/// ```
public protocol HashFunction: Sendable {
    /// The size of the digest in bytes (for example 32 for SHA-256).
    static var digestByteCount: Int { get }

    /// The size of the compression function's input block in bytes: 64 for
    /// SHA-1 and SHA-224/256, 128 for the SHA-512 family (FIPS 180-4 §1,
    /// Figure 1). HMAC pads its key to this size (RFC 2104 §2).
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
    func finalize() -> HashDigest<Self>
}

/// A SHA-2 hash function (FIPS 180-4 §6.2 to §6.7): the functions whose
/// collision resistance still holds, and so the only ones signature code
/// accepts. SHA-1 (``SHA1``) is a ``HashFunction`` but not a
/// `SHA2HashFunction`, so a signature API generic over this protocol refuses
/// it at compile time.
public protocol SHA2HashFunction: HashFunction {}

extension HashFunction {
    /// This function's digest type.
    public typealias Digest = HashDigest<Self>

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
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> HashDigest<Self> {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes a complete message held in an array.
    ///
    /// - Parameter bytes: The whole message.
    /// - Returns: Its digest.
    @inlinable
    public static func hash(_ bytes: [UInt8]) -> HashDigest<Self> {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// Hashes a complete message held in an array slice, without copying it.
    ///
    /// - Parameter bytes: The whole message.
    /// - Returns: Its digest.
    @inlinable
    public static func hash(_ bytes: ArraySlice<UInt8>) -> HashDigest<Self> {
        bytes.withUnsafeBytes { hash($0) }
    }
}

/// Which compression function a SHA-256, SHA-224 or SHA-1 hasher runs.
///
/// Both implementations compute exactly the same function; they differ only in
/// speed. ``HashFunction/init()`` picks ``bestAvailable`` for SHA-1 and SHA-256; the
/// tests and benchmarks pick each one explicitly with
/// ``SHA256/init(implementation:)`` and ``SHA1/init(implementation:)``. The
/// SHA-512 family has the portable implementation only.
public enum SHA2Implementation: Sendable, Hashable {
    /// Plain Swift, on every platform.
    case portable
    /// The CPU's SHA instructions, only when the module was built with the
    /// hardware path (the `HardwareSHA` package trait, on by default, when Tack
    /// is the root package or a path dependency: see Package.swift, SwiftPM does
    /// not allow the compiler flags this path needs in a package resolved by
    /// version) and the CPU has them:
    /// - x86-64: the SHA extensions (`SHA256RNDS2`, `SHA256MSG1`, `SHA256MSG2`),
    ///   where CPUID reports them (leaf 7, EBX bit 29) along with SSSE3, for
    ///   SHA-256 and SHA-224 (SHA-1 stays portable there: Swift cannot call
    ///   `SHA1RNDS4`, whose intrinsic is a C macro; see ``SHA1``);
    /// - arm64: the ARMv8 Cryptographic Extension (`SHA256H`, `SHA256H2`,
    ///   `SHA256SU0`, `SHA256SU1`; `SHA1C`, `SHA1P`, `SHA1M`, `SHA1H`,
    ///   `SHA1SU0`, `SHA1SU1`) on Apple platforms, whose arm64 CPUs all have
    ///   it, and in builds that state the CPU has it (`-D TACK_ASSUME_ARMV8_SHA2`).
    ///   Elsewhere (Linux arm64) only the C library can ask the CPU
    ///   (`getauxval`), which the core does not call, so the portable path runs.
    case hardware

    /// Whether this implementation can run SHA-256 on the current CPU (SHA-1:
    /// ``SHA1/hardwareIsAvailable``).
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

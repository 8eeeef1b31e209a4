// The one type that names a message digest in Tack, in the lowest module that
// needs to choose one at run time (HMAC, PBKDF2 and the PKCS #12 key
// derivation take it; TackX509 reads it from signature algorithms).

public import TackDER

/// A message digest algorithm: named by a signature algorithm, by RSASSA-PSS
/// parameters, by a PKCS #12 MAC or a PBES2 pseudorandom function.
///
/// Every case but ``md5`` is computed by this module (see
/// ``isComputable``); MD5 is recognised only so that it can be refused by
/// name. Whether a digest may serve a signature is a separate question,
/// answered by ``isCollisionResistant``.
public enum DigestAlgorithm: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// MD5 (RFC 1321). Broken; recognised only so that it can be refused by name.
    case md5
    /// SHA-1 (FIPS 180-4 §6.1). Collisions are practical: for HMAC, key
    /// derivation and identifiers only, never for signatures.
    case sha1
    /// SHA-224 (FIPS 180-4 §6.3).
    case sha224
    /// SHA-256 (FIPS 180-4 §6.2).
    case sha256
    /// SHA-384 (FIPS 180-4 §6.5).
    case sha384
    /// SHA-512 (FIPS 180-4 §6.4).
    case sha512
    /// SHA-512/224 (FIPS 180-4 §6.6).
    case sha512_224
    /// SHA-512/256 (FIPS 180-4 §6.7).
    case sha512_256

    /// Whether the digest still resists collisions: `false` for MD5 and SHA-1, whose
    /// collisions are practical (RFC 6151, SHA-1 "SHAttered" 2017), so signatures made
    /// with them must not be trusted.
    public var isCollisionResistant: Bool {
        switch self {
        case .md5, .sha1: false
        case .sha224, .sha256, .sha384, .sha512, .sha512_224, .sha512_256: true
        }
    }

    /// Whether this module computes the digest (and HMAC, PBKDF2 and the PKCS
    /// #12 key derivation over it): every case but ``md5``, and with the
    /// `SHA512` package trait off (Package.swift), none of the SHA-512 family
    /// (``sha384``, ``sha512``, ``sha512_224``, ``sha512_256``).
    public var isComputable: Bool {
        #if TACK_SHA512
        self != .md5
        #else
        switch self {
        case .md5, .sha384, .sha512, .sha512_224, .sha512_256: false
        case .sha1, .sha224, .sha256: true
        }
        #endif
    }

    /// The digest's output length in bytes.
    public var byteCount: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha224, .sha512_224: 28
        case .sha256, .sha512_256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The size of the compression function's input block in bytes (FIPS
    /// 180-4 §1, Figure 1; RFC 1321 for MD5): the HMAC key block (RFC 2104
    /// §2), and the PKCS #12 key derivation's `v` (RFC 7292 appendix B.2).
    public var blockByteCount: Int {
        switch self {
        case .md5, .sha1, .sha224, .sha256: 64
        case .sha384, .sha512, .sha512_224, .sha512_256: 128
        }
    }

    /// The digest's object identifier (RFC 3279 §2.2.1, RFC 4055 §2.1,
    /// RFC 5754 §2; NIST CSOR for SHA-512/224 and SHA-512/256).
    public var oid: OID {
        switch self {
        case .md5: OID(1, 2, 840, 113549, 2, 5)
        case .sha1: OID(1, 3, 14, 3, 2, 26)
        case .sha224: OID(2, 16, 840, 1, 101, 3, 4, 2, 4)
        case .sha256: OID(2, 16, 840, 1, 101, 3, 4, 2, 1)
        case .sha384: OID(2, 16, 840, 1, 101, 3, 4, 2, 2)
        case .sha512: OID(2, 16, 840, 1, 101, 3, 4, 2, 3)
        case .sha512_224: OID(2, 16, 840, 1, 101, 3, 4, 2, 5)
        case .sha512_256: OID(2, 16, 840, 1, 101, 3, 4, 2, 6)
        }
    }

    /// The object identifier of HMAC over this digest, as a PBKDF2 pseudorandom
    /// function or a PBMAC1 MAC names it (RFC 8018 §B.1.2: hmacWithSHA1 to
    /// hmacWithSHA512-256); `nil` for MD5, which those schemes do not define.
    public var hmacOID: OID? {
        switch self {
        case .md5: nil
        case .sha1: OID(1, 2, 840, 113549, 2, 7)
        case .sha224: OID(1, 2, 840, 113549, 2, 8)
        case .sha256: OID(1, 2, 840, 113549, 2, 9)
        case .sha384: OID(1, 2, 840, 113549, 2, 10)
        case .sha512: OID(1, 2, 840, 113549, 2, 11)
        case .sha512_224: OID(1, 2, 840, 113549, 2, 12)
        case .sha512_256: OID(1, 2, 840, 113549, 2, 13)
        }
    }

    /// The name in the form OpenSSL prints: `SHA256`, `MD5`, `SHA512-256`, ...
    public var description: String {
        switch self {
        case .md5: "MD5"
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        case .sha512_224: "SHA512-224"
        case .sha512_256: "SHA512-256"
        }
    }

    /// The digest whose object identifier is `oid`.
    ///
    /// - Parameter oid: An algorithm identifier's OID.
    /// - Returns: `nil` if `oid` names no digest of this type.
    public init?(oid: OID) {
        guard let match = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = match
    }

    /// The digest whose HMAC has the object identifier `oid` (``hmacOID``).
    ///
    /// - Parameter oid: An HMAC algorithm identifier's OID.
    /// - Returns: `nil` if `oid` names no HMAC of this type.
    public init?(hmacOID oid: OID) {
        guard let match = Self.allCases.first(where: { $0.hmacOID == oid }) else { return nil }
        self = match
    }

    /// The digest of `message`.
    ///
    /// - Parameter message: The whole message.
    /// - Returns: ``byteCount`` bytes.
    /// - Throws: ``HashError/unsupportedDigest(_:)`` for ``md5``.
    public func hash(_ message: [UInt8]) throws(HashError) -> [UInt8] {
        try dispatch(OneShotHash(message: message))
    }

    /// Calls `visitor` with the hash function this case names: the one
    /// switch from the enumeration to the generic code.
    func dispatch<Visitor: HashFunctionVisitor>(_ visitor: Visitor) throws(HashError) -> Visitor.Result {
        switch self {
        case .md5: throw .unsupportedDigest(self)
        case .sha1: visitor.visit(SHA1.self)
        case .sha224: visitor.visit(SHA224.self)
        case .sha256: visitor.visit(SHA256.self)
        #if TACK_SHA512
        case .sha384: visitor.visit(SHA384.self)
        case .sha512: visitor.visit(SHA512.self)
        case .sha512_224: visitor.visit(SHA512_224.self)
        case .sha512_256: visitor.visit(SHA512_256.self)
        #else
        // The `SHA512` package trait off (Package.swift): the family is left out.
        case .sha384, .sha512, .sha512_224, .sha512_256: throw .unsupportedDigest(self)
        #endif
        }
    }
}

/// Generic work over a hash function chosen at run time through
/// ``DigestAlgorithm/dispatch(_:)`` (Swift has no generic closures, and the
/// core uses no existentials).
protocol HashFunctionVisitor {
    associatedtype Result
    func visit<Function: BlockHashFunction>(_ function: Function.Type) -> Result
}

/// A hash function of this module built on ``BlockHashCore``: what the fast
/// paths of HMAC and PBKDF2 reach into.
protocol BlockHashFunction: HashFunction {
    associatedtype Compression: BlockCompression
    var core: BlockHashCore<Compression> { get set }
}

extension SHA1: BlockHashFunction {}
extension SHA224: BlockHashFunction {}
extension SHA256: BlockHashFunction {}
extension SHA384: BlockHashFunction {}
extension SHA512: BlockHashFunction {}
extension SHA512_224: BlockHashFunction {}
extension SHA512_256: BlockHashFunction {}

private struct OneShotHash: HashFunctionVisitor {
    let message: [UInt8]
    func visit<Function: BlockHashFunction>(_: Function.Type) -> [UInt8] {
        Array(Function.hash(message))
    }
}

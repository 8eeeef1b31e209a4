public import TackDER

/// An elliptic curve Tack knows by name: the NIST prime curves of FIPS 186-4
/// (SEC 2 v2 §2.4.2, §2.5.1, §2.6.1), named in certificates by the OIDs of
/// RFC 5480 §2.1.1.1.
///
/// It is the one curve vocabulary of every module: a SubjectPublicKeyInfo's
/// ``PublicKeyAlgorithm/ec(_:)``, a raw key's ``PublicKeyType/curve`` and
/// TackSignature's ECDSA keys all use it. A named curve outside this list is kept
/// by identifier (``PublicKeyAlgorithm/ecOtherCurve(_:)``).
public enum ECCurve: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NIST P-256 (`secp256r1`, `prime256v1`, 1.2.840.10045.3.1.7).
    case p256
    /// NIST P-384 (`secp384r1`, 1.3.132.0.34).
    case p384
    /// NIST P-521 (`secp521r1`, 1.3.132.0.35).
    case p521

    /// Looks a curve up by its object identifier.
    ///
    /// - Parameter oid: A `namedCurve` OID (RFC 5480 §2.1.1.1).
    public init?(oid: OID) {
        if oid == AlgorithmOID.secp256r1 { self = .p256 }
        else if oid == AlgorithmOID.secp384r1 { self = .p384 }
        else if oid == AlgorithmOID.secp521r1 { self = .p521 }
        else { return nil }
    }

    /// The curve's object identifier.
    public var oid: OID {
        switch self {
        case .p256: AlgorithmOID.secp256r1
        case .p384: AlgorithmOID.secp384r1
        case .p521: AlgorithmOID.secp521r1
        }
    }

    /// The length in bytes of one coordinate (a field element): 32, 48 or 66
    /// (SEC 1 v2 §2.3.5: ⌈log₂ p / 8⌉).
    public var coordinateByteCount: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// The length in bytes of a scalar (an integer modulo the group order n): 32,
    /// 48 or 66, the width of each of ECDSA's r and s.
    public var scalarByteCount: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// The field size in bits: 256, 384 or 521 (what OpenSSL reports as the key size).
    public var bitCount: Int {
        switch self {
        case .p256: 256
        case .p384: 384
        case .p521: 521
        }
    }

    /// The curve's name in FIPS 186-4: "P-256", "P-384" or "P-521".
    public var name: String {
        switch self {
        case .p256: "P-256"
        case .p384: "P-384"
        case .p521: "P-521"
        }
    }

    /// The curve's name (``name``).
    public var description: String { name }
}

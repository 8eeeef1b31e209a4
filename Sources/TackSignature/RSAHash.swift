/// A hash function usable with RSA signatures (PKCS #1 v1.5 and PSS) and as
/// the hash of PSS's mask generation function MGF1.
///
/// The SHA-2 functions of FIPS 180-4 that TackSHA2 implements. SHA-1 is not
/// offered: TackSHA2 has no SHA-1, and SHA-1 signatures have been forgeable
/// in practice since 2020 (SHAmbles). SHA-512/224 and SHA-512/256 have no
/// use in X.509 RSA signatures and are not offered either.
public enum RSAHash: Sendable, Hashable, CaseIterable {
    /// SHA-224 (FIPS 180-4 §6.3), OID 2.16.840.1.101.3.4.2.4.
    case sha224
    /// SHA-256 (FIPS 180-4 §6.2), OID 2.16.840.1.101.3.4.2.1.
    case sha256
    /// SHA-384 (FIPS 180-4 §6.5), OID 2.16.840.1.101.3.4.2.2.
    case sha384
    /// SHA-512 (FIPS 180-4 §6.4), OID 2.16.840.1.101.3.4.2.3.
    case sha512

    /// The digest length in bytes (hLen in RFC 8017).
    public var digestByteCount: Int {
        switch self {
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The DER encoding of `DigestInfo` up to, and including, the header of
    /// the digest OCTET STRING: RFC 8017 §9.2, note 1.
    ///
    /// ```
    /// DigestInfo ::= SEQUENCE {
    ///     digestAlgorithm AlgorithmIdentifier,  -- { OID, NULL }
    ///     digest OCTET STRING
    /// }
    /// ```
    ///
    /// The `parameters` are always an explicit NULL (05 00), as RFC 8017
    /// writes them; see ``RSAPublicKey/verifyPKCS1v15Signature(_:forDigest:hash:)``
    /// for why the form without parameters is refused.
    var digestInfoPrefix: [UInt8] {
        switch self {
        case .sha224:
            [0x30, 0x2D, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1C]
        case .sha256:
            [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        case .sha384:
            [0x30, 0x41, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30]
        case .sha512:
            [0x30, 0x51, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
        }
    }
}

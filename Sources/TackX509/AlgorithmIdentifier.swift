import TackDER

/// The object identifiers of the algorithms TackX509 recognises.
///
/// Sources: RFC 3279 §2.2.1 and §2.3.1 (RSA, MD5, SHA-1), RFC 4055 §2.1, §3.1, §5 (SHA-2,
/// RSASSA-PSS, MGF1), RFC 5480 §2.1.1.1 (EC keys and named curves), RFC 5758 §3.2
/// (ECDSA with SHA-2), RFC 8410 §3 (Ed25519, Ed448, X25519, X448).
internal enum AlgorithmOID {
    // The digests' identifiers are TackDigest's `DigestAlgorithm.oid`.

    // RSA (PKCS #1, RFC 8017 Appendix C; RFC 4055).
    static let rsaEncryption = OID(1, 2, 840, 113549, 1, 1, 1)
    static let md5WithRSAEncryption = OID(1, 2, 840, 113549, 1, 1, 4)
    static let sha1WithRSAEncryption = OID(1, 2, 840, 113549, 1, 1, 5)
    static let mgf1 = OID(1, 2, 840, 113549, 1, 1, 8)
    static let rsassaPSS = OID(1, 2, 840, 113549, 1, 1, 10)
    static let sha256WithRSAEncryption = OID(1, 2, 840, 113549, 1, 1, 11)
    static let sha384WithRSAEncryption = OID(1, 2, 840, 113549, 1, 1, 12)
    static let sha512WithRSAEncryption = OID(1, 2, 840, 113549, 1, 1, 13)
    static let sha224WithRSAEncryption = OID(1, 2, 840, 113549, 1, 1, 14)

    // Elliptic curves (RFC 5480, RFC 5758 §3.2).
    static let ecPublicKey = OID(1, 2, 840, 10045, 2, 1)
    static let ecdsaWithSHA1 = OID(1, 2, 840, 10045, 4, 1)
    static let ecdsaWithSHA224 = OID(1, 2, 840, 10045, 4, 3, 1)
    static let ecdsaWithSHA256 = OID(1, 2, 840, 10045, 4, 3, 2)
    static let ecdsaWithSHA384 = OID(1, 2, 840, 10045, 4, 3, 3)
    static let ecdsaWithSHA512 = OID(1, 2, 840, 10045, 4, 3, 4)
    static let secp256r1 = OID(1, 2, 840, 10045, 3, 1, 7)
    static let secp384r1 = OID(1, 3, 132, 0, 34)
    static let secp521r1 = OID(1, 3, 132, 0, 35)

    // Edwards and Montgomery curves (RFC 8410 §3).
    static let x25519 = OID(1, 3, 101, 110)
    static let x448 = OID(1, 3, 101, 111)
    static let ed25519 = OID(1, 3, 101, 112)
    static let ed448 = OID(1, 3, 101, 113)
}

/// An AlgorithmIdentifier as read from DER, before its algorithm is interpreted
/// (RFC 5280 §4.1.1.2):
///
/// ```asn1
/// AlgorithmIdentifier  ::=  SEQUENCE  {
///      algorithm               OBJECT IDENTIFIER,
///      parameters              ANY DEFINED BY algorithm OPTIONAL  }
/// ```
internal struct RawAlgorithmIdentifier {
    /// The algorithm's identifier.
    var oid: OID
    /// The parameters element, or `nil` when absent.
    var parameters: DERElement?
    /// The absolute range of the whole AlgorithmIdentifier (its TLV).
    var range: Range<Int>

    /// The offset of the parameters if present, else of the AlgorithmIdentifier.
    var parametersOffset: Int { parameters?.offset ?? range.lowerBound }

    /// Whether the parameters are exactly one NULL (05 00).
    var hasNullParameters: Bool {
        guard let parameters else { return false }
        return parameters.tag == .null && parameters.contentLength == 0
    }
}

extension DERReader {
    /// Reads an AlgorithmIdentifier SEQUENCE without interpreting its parameters.
    internal mutating func readAlgorithmIdentifier() throws(DERError) -> RawAlgorithmIdentifier {
        let start = offset
        let (oid, parameters) = try readSequence { (sequence) throws(DERError) -> (OID, DERElement?) in
            let oid = try sequence.readObjectIdentifier()
            // ANY: at most one element; readSequence rejects anything after it.
            let parameters = sequence.isAtEnd ? nil : try sequence.readElement()
            return (oid, parameters)
        }
        return RawAlgorithmIdentifier(oid: oid, parameters: parameters, range: start..<offset)
    }
}

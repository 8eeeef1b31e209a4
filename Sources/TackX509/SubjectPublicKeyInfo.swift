public import TackDER

/// The encoding of an EC public key's point (SEC 1 §2.3.3, RFC 5480 §2.2).
public enum ECPointFormat: Sendable, Hashable {
    /// `04 ‖ X ‖ Y`, which RFC 5480 §2.2 says implementations MUST support and which
    /// every Web PKI certificate uses.
    case uncompressed
    /// `02 ‖ X` or `03 ‖ X` (Y's parity in the first octet), which RFC 5480 §2.2
    /// allows ("MAY support").
    case compressed
}

/// The algorithm of a public key, from its SubjectPublicKeyInfo's AlgorithmIdentifier.
public enum PublicKeyAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// RSA (`rsaEncryption`, RFC 3279 §2.3.1); the parameters are NULL.
    case rsa
    /// RSA restricted to RSASSA-PSS (`id-RSASSA-PSS`, RFC 4055 §1.2), with the
    /// parameters if present (they may be absent in a public key, RFC 4055 §3.1).
    case rsaPSS(RSAPSSParameters?)
    /// An EC key on P-256, P-384 or P-521 (`id-ecPublicKey`, RFC 5480 §2.1.1).
    case ec(ECCurve)
    /// An EC key on another named curve (for example brainpoolP256r1), kept by
    /// identifier. Its points are checked only for a valid format octet.
    case ecOtherCurve(OID)
    /// Ed25519 (RFC 8410 §3).
    case ed25519
    /// Ed448 (RFC 8410 §3).
    case ed448
    /// X25519 (RFC 8410 §3).
    case x25519
    /// X448 (RFC 8410 §3).
    case x448
    /// An algorithm TackX509 does not know; its parameters and key are not checked.
    case unknown(OID)

    /// A short name: `RSA`, `RSASSA-PSS`, `EC P-256`, `Ed25519`, ... or the dotted OID.
    public var description: String {
        switch self {
        case .rsa: "RSA"
        case .rsaPSS: "RSASSA-PSS"
        case .ec(let curve): "EC " + curve.name
        case .ecOtherCurve(let oid): "EC " + oid.dottedString
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .x25519: "X25519"
        case .x448: "X448"
        case .unknown(let oid): PublicKeyAlgorithm.name(of: oid)
        }
    }

    /// The name of a public key algorithm TackX509 does not decode but people meet,
    /// for messages: `DSA` (`id-dsa`, RFC 3279 §2.3.2), `DH` (`dhpublicnumber`, RFC 3279
    /// §2.3.3), `GOST R 34.10-2012` (RFC 9215 §3); the dotted OID for any other.
    ///
    /// - Parameter oid: The AlgorithmIdentifier's algorithm.
    /// - Returns: The name, or the dotted OID.
    public static func name(of oid: OID) -> String {
        switch oid {
        case OID(1, 2, 840, 10040, 4, 1): "DSA"
        case OID(1, 2, 840, 10046, 2, 1): "DH"
        case OID(1, 2, 643, 7, 1, 1, 1, 1), OID(1, 2, 643, 7, 1, 1, 1, 2): "GOST R 34.10-2012"
        default: oid.dottedString
        }
    }
}

/// A SubjectPublicKeyInfo (RFC 5280 §4.1.2.7): a public key and its algorithm,
/// decoded without copying.
///
/// ```asn1
/// SubjectPublicKeyInfo  ::=  SEQUENCE  {
///      algorithm            AlgorithmIdentifier,
///      subjectPublicKey     BIT STRING  }
/// ```
///
/// The value keeps a reference to the buffer it was read from (a certificate's DER,
/// or the SPKI alone) and absolute ranges into it, so ``derEncoded`` is exactly the
/// bytes that were signed and that the SPKI pin hashes.
///
/// Rules enforced, per algorithm:
/// - `subjectPublicKey` has no unused bits for every known algorithm.
/// - RSA (RFC 3279 §2.3.1): the parameters are NULL; the key is
///   `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`, both
///   minimal and positive, with nothing after it. Any modulus size is accepted up to
///   the element-size limit; policy on sizes belongs to the verifier.
/// - RSASSA-PSS keys (RFC 4055 §3.1): parameters absent or valid ``RSAPSSParameters``.
/// - EC (RFC 5480 §2.1.1): the parameters are a named-curve OID. Explicit curve
///   parameters (a SEQUENCE, `specifiedCurve`) are rejected with
///   ``X509Error/Reason/explicitCurveParameters``, and NULL (`implicitCurve`) or absent
///   parameters with ``X509Error/Reason/invalidAlgorithmParameters(_:)``, as RFC
///   5480 §2.1.1 forbids both in certificates. On P-256, P-384 and P-521 the point is
///   `04 ‖ X ‖ Y` (65, 97 or 133 bytes) or compressed `02/03 ‖ X` (33, 49 or 67 bytes);
///   the point at infinity (`00`) and the hybrid forms (`06`, `07`) are rejected.
///   Whether the point lies on the curve is the signature verifier's check.
/// - Ed25519, Ed448, X25519, X448 (RFC 8410 §3): parameters absent; keys of 32, 57,
///   32 and 56 bytes (RFC 8032 §5.1.5, §5.2.5; RFC 7748 §5).
public struct SubjectPublicKeyInfo: Sendable, Hashable {
    /// The buffer the SubjectPublicKeyInfo was read from: a certificate's DER, or the
    /// SPKI's own DER when it was parsed alone. All ranges index it. Internal: the
    /// public view is ``derEncoded`` and the slices, never the whole certificate.
    internal let buffer: [UInt8]
    /// The absolute range of the whole SubjectPublicKeyInfo SEQUENCE (its TLV).
    public let range: Range<Int>
    /// The key's algorithm.
    public let algorithm: PublicKeyAlgorithm
    /// The absolute range of the AlgorithmIdentifier SEQUENCE (its TLV).
    public let algorithmRange: Range<Int>
    /// The absolute range of the key bytes: the `subjectPublicKey` BIT STRING's
    /// contents after its unused-bits octet.
    public let keyRange: Range<Int>
    /// For RSA keys, the absolute range of the modulus's magnitude octets (big-endian,
    /// without a leading 0x00 sign octet).
    public let rsaModulusRange: Range<Int>?
    /// For RSA keys, the absolute range of the public exponent's magnitude octets.
    public let rsaPublicExponentRange: Range<Int>?
    /// For EC keys, how the point is encoded.
    public let ecPointFormat: ECPointFormat?

    /// The exact DER of the SubjectPublicKeyInfo: what the SPKI pin hashes.
    public var derEncoded: ArraySlice<UInt8> { buffer[range] }

    /// The key bytes inside the BIT STRING, in the form
    /// `SecKeyCopyExternalRepresentation` returns: the PKCS #1 `RSAPublicKey` DER for
    /// RSA, the point `04 ‖ X ‖ Y` for EC, the raw key for the RFC 8410 algorithms.
    public var rawKey: ArraySlice<UInt8> { buffer[keyRange] }

    /// For RSA keys, the modulus's big-endian magnitude octets.
    public var rsaModulus: ArraySlice<UInt8>? { rsaModulusRange.map { buffer[$0] } }

    /// For RSA keys, the public exponent's big-endian magnitude octets.
    public var rsaPublicExponent: ArraySlice<UInt8>? { rsaPublicExponentRange.map { buffer[$0] } }

    /// The key type for SPKI reconstruction (``SubjectPublicKeyInfo/init(rawKey:type:)``),
    /// or `nil` for RSASSA-PSS keys, curves other than P-256/384/521 and unknown algorithms.
    public var keyType: PublicKeyType? {
        switch algorithm {
        case .rsa: .rsa
        case .ec(.p256): .p256
        case .ec(.p384): .p384
        case .ec(.p521): .p521
        case .ed25519: .ed25519
        case .ed448: .ed448
        case .x25519: .x25519
        case .x448: .x448
        case .rsaPSS, .ecOtherCurve, .unknown: nil
        }
    }

    /// The key's size in bits, as OpenSSL's `EVP_PKEY_get_bits` reports it: the
    /// modulus length for RSA, the field size for EC (256, 384, 521), 256 for Ed25519,
    /// 456 for Ed448, 253 for X25519 and 448 for X448; `nil` when unknown.
    public var keySizeInBits: Int? {
        switch algorithm {
        case .rsa, .rsaPSS:
            guard let modulus = rsaModulus, let first = modulus.first else { return nil }
            return modulus.count * 8 - first.leadingZeroBitCount
        case .ec(let curve): return curve.bitCount
        case .ecOtherCurve, .unknown: return nil
        case .ed25519: return 256
        case .ed448: return 456
        case .x25519: return 253
        case .x448: return 448
        }
    }

    /// Parses a DER SubjectPublicKeyInfo on its own, for example the output of
    /// `openssl pkey -pubin -outform der`.
    ///
    /// - Parameters:
    ///   - bytes: The DER of exactly one SubjectPublicKeyInfo.
    ///   - limits: DER limits; ``Certificate/defaultLimits`` by default.
    /// - Throws: ``X509Error`` at the offending byte: ``X509Error/Reason/der(_:)``,
    ///   ``X509Error/Reason/invalidAlgorithmParameters(_:)``,
    ///   ``X509Error/Reason/explicitCurveParameters`` or
    ///   ``X509Error/Reason/invalidPublicKey(_:)``.
    public init(derEncoded bytes: [UInt8], limits: DERLimits = Certificate.defaultLimits) throws(X509Error) {
        try self.init(derEncoded: bytes, range: 0..<bytes.count, limits: limits)
    }

    /// Parses the SubjectPublicKeyInfo whose TLV occupies `range` in `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: The absolute range of the SubjectPublicKeyInfo SEQUENCE.
    ///   - limits: DER limits; ``Certificate/defaultLimits`` by default.
    /// - Throws: As ``init(derEncoded:limits:)``.
    public init(derEncoded bytes: [UInt8], range: Range<Int>,
                limits: DERLimits = Certificate.defaultLimits) throws(X509Error) {
        let raw: RawSubjectPublicKeyInfo
        do {
            raw = try DER.read(bytes, range: range, limits: limits) { (reader) throws(DERError) in
                try reader.readSubjectPublicKeyInfo()
            }
        } catch {
            throw X509Error(error)
        }
        try self.init(raw, in: bytes, limits: limits)
    }

    /// Interprets a SubjectPublicKeyInfo already read from `bytes`.
    internal init(_ raw: RawSubjectPublicKeyInfo, in bytes: [UInt8], limits: DERLimits) throws(X509Error) {
        let oid = raw.algorithm.oid
        let key = raw.key
        var modulusRange: Range<Int>? = nil
        var exponentRange: Range<Int>? = nil
        var pointFormat: ECPointFormat? = nil
        let algorithm: PublicKeyAlgorithm

        if oid == AlgorithmOID.rsaEncryption || oid == AlgorithmOID.rsassaPSS {
            if oid == AlgorithmOID.rsaEncryption {
                // RFC 3279 §2.3.1: "the parameters component of that type SHALL be the ASN.1 type NULL".
                guard raw.algorithm.hasNullParameters else {
                    throw X509Error(.invalidAlgorithmParameters(.mustBeNull),
                                    at: raw.algorithm.parametersOffset)
                }
                algorithm = .rsa
            } else if let parameters = raw.algorithm.parameters {
                algorithm = .rsaPSS(try RSAPSSParameters(derEncoded: bytes, range: parameters.encodedRange))
            } else {
                algorithm = .rsaPSS(nil)
            }
            try SubjectPublicKeyInfo.requireWholeOctets(raw)
            let (modulus, exponent) = try SubjectPublicKeyInfo.readRSAPublicKey(bytes, range: key.bytesRange,
                                                                                 limits: limits)
            modulusRange = modulus
            exponentRange = exponent
        } else if oid == AlgorithmOID.ecPublicKey {
            guard let parameters = raw.algorithm.parameters else {
                throw X509Error(.invalidAlgorithmParameters(.missingNamedCurve),
                                at: raw.algorithm.range.lowerBound)
            }
            if parameters.tag == .sequence {
                throw X509Error(.explicitCurveParameters, at: parameters.offset)
            }
            guard parameters.tag == .objectIdentifier else {
                throw X509Error(.invalidAlgorithmParameters(.notANamedCurve),
                                at: parameters.offset)
            }
            let curveOID: OID
            do {
                curveOID = try DER.read(bytes, range: parameters.encodedRange) { (reader) throws(DERError) in
                    try reader.readObjectIdentifier()
                }
            } catch {
                throw X509Error(error)
            }
            let curve = ECCurve(oid: curveOID)
            algorithm = curve.map { .ec($0) } ?? .ecOtherCurve(curveOID)
            try SubjectPublicKeyInfo.requireWholeOctets(raw)
            pointFormat = try SubjectPublicKeyInfo.checkPoint(bytes, range: key.bytesRange, curve: curve,
                                                              offset: raw.keyOffset)
        } else if let (kind, length) = SubjectPublicKeyInfo.rfc8410Algorithm(oid) {
            guard raw.algorithm.parameters == nil else {
                throw X509Error(.invalidAlgorithmParameters(.mustBeAbsent),
                                at: raw.algorithm.parametersOffset)
            }
            try SubjectPublicKeyInfo.requireWholeOctets(raw)
            guard key.bytesRange.count == length else {
                throw X509Error(.invalidPublicKey(.wrongLength),
                                at: raw.keyOffset)
            }
            algorithm = kind
        } else {
            algorithm = .unknown(oid)
        }

        self.buffer = bytes
        self.range = raw.range
        self.algorithm = algorithm
        self.algorithmRange = raw.algorithm.range
        self.keyRange = key.bytesRange
        self.rsaModulusRange = modulusRange
        self.rsaPublicExponentRange = exponentRange
        self.ecPointFormat = pointFormat
    }

    /// Two values are equal when their DER encodings are equal.
    public static func == (lhs: SubjectPublicKeyInfo, rhs: SubjectPublicKeyInfo) -> Bool {
        lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derEncoded)
    }

    // MARK: Checks

    private static func rfc8410Algorithm(_ oid: OID) -> (PublicKeyAlgorithm, Int)? {
        if oid == AlgorithmOID.ed25519 { return (.ed25519, 32) }
        if oid == AlgorithmOID.x25519 { return (.x25519, 32) }
        if oid == AlgorithmOID.ed448 { return (.ed448, 57) }
        if oid == AlgorithmOID.x448 { return (.x448, 56) }
        return nil
    }

    private static func requireWholeOctets(_ raw: RawSubjectPublicKeyInfo) throws(X509Error) {
        guard raw.key.unusedBitCount == 0 else {
            throw X509Error(.invalidPublicKey(.unusedBits), at: raw.keyOffset)
        }
    }

    /// Reads `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`
    /// (RFC 8017 §A.1.1) and returns the magnitude ranges; both must be positive.
    internal static func readRSAPublicKey(_ bytes: [UInt8], range: Range<Int>,
                                          limits: DERLimits) throws(X509Error) -> (Range<Int>, Range<Int>) {
        let result: (Range<Int>, Int, Range<Int>, Int)
        do {
            result = try DER.read(bytes, range: range, limits: limits) { (reader) throws(DERError) in
                try reader.readSequence { (sequence) throws(DERError) in
                    let modulusOffset = sequence.offset
                    let modulus = try sequence.readUnsignedIntegerMagnitude()
                    let exponentOffset = sequence.offset
                    let exponent = try sequence.readUnsignedIntegerMagnitude()
                    return (modulus, modulusOffset, exponent, exponentOffset)
                }
            }
        } catch {
            throw X509Error(error)
        }
        let (modulus, modulusOffset, exponent, exponentOffset) = result
        // A minimal non-negative INTEGER's magnitude is a single 0x00 only for zero.
        if modulus.count == 1 && bytes[modulus.lowerBound] == 0 {
            throw X509Error(.invalidPublicKey(.zeroModulus), at: modulusOffset)
        }
        if exponent.count == 1 && bytes[exponent.lowerBound] == 0 {
            throw X509Error(.invalidPublicKey(.zeroExponent), at: exponentOffset)
        }
        return (modulus, exponent)
    }

    /// Checks an EC point's format octet and length for `curve`.
    private static func checkPoint(_ bytes: [UInt8], range: Range<Int>, curve: ECCurve?,
                                   offset: Int) throws(X509Error) -> ECPointFormat {
        guard let first = range.first.map({ bytes[$0] }) else {
            throw X509Error(.invalidPublicKey(.emptyPoint), at: offset)
        }
        let format: ECPointFormat
        switch first {
        case 0x04: format = .uncompressed
        case 0x02, 0x03: format = .compressed
        default: throw X509Error(.invalidPublicKey(.invalidPointEncoding), at: offset)
        }
        if let size = curve?.coordinateByteCount {
            let expected = format == .uncompressed ? 1 + 2 * size : 1 + size
            guard range.count == expected else {
                throw X509Error(.invalidPublicKey(.wrongLength), at: offset)
            }
        }
        return format
    }
}

/// A SubjectPublicKeyInfo as read from DER, before its algorithm is interpreted.
internal struct RawSubjectPublicKeyInfo {
    /// The absolute range of the whole SEQUENCE.
    var range: Range<Int>
    /// The AlgorithmIdentifier.
    var algorithm: RawAlgorithmIdentifier
    /// The `subjectPublicKey` BIT STRING.
    var key: DERBitString
    /// The absolute offset of the BIT STRING element.
    var keyOffset: Int
}

extension DERReader {
    /// Reads a SubjectPublicKeyInfo SEQUENCE without interpreting the algorithm.
    internal mutating func readSubjectPublicKeyInfo() throws(DERError) -> RawSubjectPublicKeyInfo {
        let start = offset
        let (algorithm, key, keyOffset) = try readSequence {
            (sequence) throws(DERError) -> (RawAlgorithmIdentifier, DERBitString, Int) in
            let algorithm = try sequence.readAlgorithmIdentifier()
            let keyOffset = sequence.offset
            let key = try sequence.readBitString()
            return (algorithm, key, keyOffset)
        }
        return RawSubjectPublicKeyInfo(range: start..<offset, algorithm: algorithm, key: key, keyOffset: keyOffset)
    }
}

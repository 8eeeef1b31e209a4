import TackDER
import TackDigest
import TackX509

/// The object identifiers of private key algorithms (RFC 3279 §2.3.1, RFC 5480
/// §2.1.1, RFC 8410 §3).
enum PrivateKeyOID {
    static let rsaEncryption = OID(1, 2, 840, 113549, 1, 1, 1)
    static let ecPublicKey = OID(1, 2, 840, 10045, 2, 1)
    static let x25519 = OID(1, 3, 101, 110)
    static let x448 = OID(1, 3, 101, 111)
    static let ed25519 = OID(1, 3, 101, 112)
    static let ed448 = OID(1, 3, 101, 113)
}

/// Reads and checks the private key structures (see ``PrivateKey``).
enum PrivateKeyReader {
    /// DER limits for a private key: the deepest structure (PKCS #8 around an
    /// ECPrivateKey's explicit parameters) is 4 levels; 64 KiB holds an 8192-bit
    /// RSA key (about 4.7 KiB) many times over.
    static let limits = DERLimits(maximumDepth: 8, maximumElementLength: 1 << 16)

    static func read(_ bytes: [UInt8], range: Range<Int>, format: PrivateKeyFormat) throws(PrivateKeyError) -> PrivateKey {
        switch format {
        case .pkcs8: return try readPKCS8(bytes, range: range)
        case .pkcs1:
            let rsa = try readRSA(bytes, range: range)
            return PrivateKey(algorithm: .rsa, format: .pkcs1, isChecked: true, publicKeyInfo: rsa.spki,
                              keySizeInBits: rsa.bits, secret: Array(bytes[range]))
        case .sec1:
            let ec = try readEC(bytes, range: range, algorithmCurve: nil)
            return PrivateKey(algorithm: .ec(ec.curve), format: .sec1, isChecked: true, publicKeyInfo: ec.spki,
                              keySizeInBits: ec.curve.bitCount, secret: ec.scalar)
        }
    }

    /// Runs a DER read, wrapping its errors.
    private static func der<T>(
        _ bytes: [UInt8], _ range: Range<Int>, _ body: (inout DERReader) throws(DERError) -> T
    ) throws(PrivateKeyError) -> T {
        do {
            return try DER.read(bytes, range: range, limits: limits, body)
        } catch {
            throw PrivateKeyError(error)
        }
    }

    // MARK: PKCS #8

    /// The fields of a PrivateKeyInfo / OneAsymmetricKey.
    private struct RawPKCS8 {
        var version: Int
        var versionOffset: Int
        var algorithm: OID
        var algorithmOffset: Int
        var parameters: DERElement?
        var privateKey: Range<Int>
        var privateKeyOffset: Int
        var publicKey: DERBitString?
        var publicKeyOffset: Int
    }

    /// ```asn1
    /// OneAsymmetricKey ::= SEQUENCE {
    ///   version                   Version,            -- v1(0), v2(1)
    ///   privateKeyAlgorithm       PrivateKeyAlgorithmIdentifier,
    ///   privateKey                PrivateKey,         -- OCTET STRING
    ///   attributes            [0] Attributes OPTIONAL,
    ///   ...,
    ///   [[2: publicKey        [1] PublicKey OPTIONAL ]],  -- BIT STRING
    ///   ... }
    /// ```
    /// (RFC 5958 §2, IMPLICIT tags; PrivateKeyInfo of RFC 5208 is its version 0.)
    private static func readPKCS8(_ bytes: [UInt8], range: Range<Int>) throws(PrivateKeyError) -> PrivateKey {
        let raw = try der(bytes, range) { (reader) throws(DERError) -> RawPKCS8 in
            try reader.readSequence { (key) throws(DERError) -> RawPKCS8 in
                let versionOffset = key.offset
                let version = try key.readInteger(Int.self)
                let algorithmOffset = key.offset
                let (oid, parameters) = try key.readSequence { (algorithm) throws(DERError) -> (OID, DERElement?) in
                    let oid = try algorithm.readObjectIdentifier()
                    let parameters = algorithm.isAtEnd ? nil : try algorithm.readElement()
                    return (oid, parameters)
                }
                let privateKeyOffset = key.offset
                let privateKey = try key.readOctetString()
                // Attributes are not key material and nothing here uses them.
                _ = try key.readOptionalElement(.contextSpecific(0, isConstructed: true))
                let publicKeyOffset = key.offset
                let publicKey = key.isAtEnd ? nil : try key.readBitString(tag: .contextSpecific(1, isConstructed: false))
                return RawPKCS8(version: version, versionOffset: versionOffset, algorithm: oid,
                                algorithmOffset: algorithmOffset, parameters: parameters, privateKey: privateKey,
                                privateKeyOffset: privateKeyOffset, publicKey: publicKey, publicKeyOffset: publicKeyOffset)
            }
        }
        guard raw.version == 0 || raw.version == 1 else {
            throw PrivateKeyError(.unsupportedVersion(raw.version), at: raw.versionOffset)
        }
        if raw.version == 0 && raw.publicKey != nil {
            throw PrivateKeyError(.publicKeyInVersion1, at: raw.publicKeyOffset)
        }
        var embedded: [UInt8]? = nil
        if let publicKey = raw.publicKey {
            guard publicKey.unusedBitCount == 0 else { throw PrivateKeyError(.invalidPublicKey, at: raw.publicKeyOffset) }
            embedded = Array(bytes[publicKey.bytesRange])
        }

        let oid = raw.algorithm
        if oid == PrivateKeyOID.rsaEncryption {
            guard let parameters = raw.parameters, parameters.tag == .null, parameters.contentLength == 0 else {
                throw PrivateKeyError(.invalidAlgorithmParameters, at: raw.parameters?.offset ?? raw.algorithmOffset)
            }
            let rsa = try readRSA(bytes, range: raw.privateKey)
            if let embedded, !PrivateKeyArithmetic.bytesEqual(embedded, rsa.spki.rawKey) {
                throw PrivateKeyError(.publicKeyMismatch, at: raw.publicKeyOffset)
            }
            return PrivateKey(algorithm: .rsa, format: .pkcs8, isChecked: true, publicKeyInfo: rsa.spki,
                              keySizeInBits: rsa.bits, secret: Array(bytes[raw.privateKey]))
        }
        if oid == PrivateKeyOID.ecPublicKey {
            guard let parameters = raw.parameters else {
                throw PrivateKeyError(.invalidAlgorithmParameters, at: raw.algorithmOffset)
            }
            let curve = try namedCurve(bytes, parameters)
            let ec = try readEC(bytes, range: raw.privateKey, algorithmCurve: curve)
            if let embedded {
                try requireSamePoint(embedded, ec.spki.rawKey, curve: curve, at: raw.publicKeyOffset)
            }
            return PrivateKey(algorithm: .ec(curve), format: .pkcs8, isChecked: true, publicKeyInfo: ec.spki,
                              keySizeInBits: curve.bitCount, secret: ec.scalar)
        }
        let rfc8410: (PrivateKeyAlgorithm, PublicKeyType, Int, Int)
        if oid == PrivateKeyOID.ed25519 { rfc8410 = (.ed25519, .ed25519, 32, 256) }
        else if oid == PrivateKeyOID.x25519 { rfc8410 = (.x25519, .x25519, 32, 253) }
        else if oid == PrivateKeyOID.ed448 { rfc8410 = (.ed448, .ed448, 57, 456) }
        else if oid == PrivateKeyOID.x448 { rfc8410 = (.x448, .x448, 56, 448) }
        else { throw PrivateKeyError(.unknownAlgorithm(oid), at: raw.algorithmOffset) }
        let (algorithm, type, length, bits) = rfc8410
        // RFC 8410 §3: "the parameters MUST be absent".
        if let parameters = raw.parameters { throw PrivateKeyError(.invalidAlgorithmParameters, at: parameters.offset) }
        // RFC 8410 §7: CurvePrivateKey ::= OCTET STRING, inside the privateKey OCTET STRING.
        let seedRange = try der(bytes, raw.privateKey) { (reader) throws(DERError) in try reader.readOctetString() }
        guard seedRange.count == length else {
            throw PrivateKeyError(.wrongKeyLength(expected: length, found: seedRange.count), at: raw.privateKeyOffset)
        }
        let seed = Array(bytes[seedRange])
        var embeddedInfo: SubjectPublicKeyInfo? = nil
        if let embedded {
            do { embeddedInfo = try SubjectPublicKeyInfo(rawKey: embedded, type: type) } catch {
                throw PrivateKeyError(.invalidPublicKey, at: raw.publicKeyOffset)
            }
        }
        guard algorithm == .ed25519 else {
            return PrivateKey(algorithm: algorithm, format: .pkcs8, isChecked: false, publicKeyInfo: embeddedInfo,
                              keySizeInBits: bits, secret: seed)
        }
        let derived = ed25519PublicKey(seed: seed)
        if let embedded, !PrivateKeyArithmetic.bytesEqual(embedded, derived) {
            throw PrivateKeyError(.publicKeyMismatch, at: raw.publicKeyOffset)
        }
        return PrivateKey(algorithm: .ed25519, format: .pkcs8, isChecked: true,
                          publicKeyInfo: try spki(derived, type: .ed25519, at: raw.privateKeyOffset),
                          keySizeInBits: 256, secret: seed)
    }

    /// The curve named by EC parameters (an OID element), as RFC 5480 §2.1.1 requires.
    private static func namedCurve(_ bytes: [UInt8], _ parameters: DERElement) throws(PrivateKeyError) -> ECCurve {
        if parameters.tag == .sequence { throw PrivateKeyError(.explicitCurveParameters, at: parameters.offset) }
        guard parameters.tag == .objectIdentifier else {
            throw PrivateKeyError(.invalidAlgorithmParameters, at: parameters.offset)
        }
        let oid = try der(bytes, parameters.encodedRange) { (reader) throws(DERError) in try reader.readObjectIdentifier() }
        guard let curve = ECCurve(oid: oid) else { throw PrivateKeyError(.unsupportedCurve(oid), at: parameters.offset) }
        return curve
    }

    /// Builds the SubjectPublicKeyInfo around a derived raw key (which always fits its type).
    private static func spki(_ rawKey: [UInt8], type: PublicKeyType, at offset: Int) throws(PrivateKeyError) -> SubjectPublicKeyInfo {
        do { return try SubjectPublicKeyInfo(rawKey: rawKey, type: type) } catch {
            throw PrivateKeyError(.invalidPublicKey, at: offset)
        }
    }

    // MARK: RSA

    /// ```asn1
    /// RSAPrivateKey ::= SEQUENCE {
    ///     version           Version,          -- two-prime(0), multi(1)
    ///     modulus           INTEGER,  -- n
    ///     publicExponent    INTEGER,  -- e
    ///     privateExponent   INTEGER,  -- d
    ///     prime1            INTEGER,  -- p
    ///     prime2            INTEGER,  -- q
    ///     exponent1         INTEGER,  -- d mod (p-1)
    ///     exponent2         INTEGER,  -- d mod (q-1)
    ///     coefficient       INTEGER,  -- (inverse of q) mod p
    ///     otherPrimeInfos   OtherPrimeInfos OPTIONAL }
    /// ```
    /// (RFC 8017 §A.1.2.)
    private static func readRSA(_ bytes: [UInt8], range: Range<Int>) throws(PrivateKeyError) -> (spki: SubjectPublicKeyInfo, bits: Int) {
        let (version, versionOffset, fields) = try der(bytes, range) { (reader) throws(DERError) -> (Int, Int, [Range<Int>]) in
            try reader.readSequence { (key) throws(DERError) -> (Int, Int, [Range<Int>]) in
                let versionOffset = key.offset
                let version = try key.readInteger(Int.self)
                var fields: [Range<Int>] = []
                if version == 0 {
                    for _ in 0..<8 { fields.append(try key.readUnsignedIntegerMagnitude()) }
                } else {
                    while !key.isAtEnd { _ = try key.readElement() }
                }
                return (version, versionOffset, fields)
            }
        }
        guard version == 0 else {
            throw PrivateKeyError(version == 1 ? .multiPrimeRSA : .unsupportedVersion(version), at: versionOffset)
        }
        let at = range.lowerBound
        let n = bytes[fields[0]], e = bytes[fields[1]], d = bytes[fields[2]]
        let p = bytes[fields[3]], q = bytes[fields[4]]
        let dP = bytes[fields[5]], dQ = bytes[fields[6]], qInv = bytes[fields[7]]

        // Sizes (public: the encoding shows them).
        let nBits = n.count * 8 - (n.first ?? 0).leadingZeroBitCount
        guard nBits >= RSAPublicKey.minimumModulusBitCount, nBits <= RSAPublicKey.maximumModulusBitCount else {
            throw PrivateKeyError(.unsupportedRSAModulus(bits: nBits), at: at)
        }
        guard let eLast = e.last, eLast & 1 == 1, e.count <= n.count, e.count > 1 || eLast >= 3 else {
            throw PrivateKeyError(.invalidRSAPublicExponent, at: at)
        }
        for component in [d, p, q, dP, dQ, qInv] where component.count == 1 && component.first == 0 {
            throw PrivateKeyError(.inconsistentRSAKey(.zeroComponent), at: at)
        }
        guard p.last.map({ $0 & 1 == 1 }) == true, q.last.map({ $0 & 1 == 1 }) == true,
              p.count > 1 || p.first != 1, q.count > 1 || q.first != 1 else {
            throw PrivateKeyError(.inconsistentRSAKey(.primeNotOdd), at: at)
        }
        for component in [d, p, q, dP, dQ, qInv] where component.count > n.count {
            throw PrivateKeyError(.inconsistentRSAKey(.modulusNotProduct), at: at)
        }

        typealias A = PrivateKeyArithmetic
        let nL = A.limbs(n), eL = A.limbs(e), dL = A.limbs(d)
        let pL = A.limbs(p), qL = A.limbs(q)
        let dPL = A.limbs(dP), dQL = A.limbs(dQ), qInvL = A.limbs(qInv)
        // p and q are odd: p − 1 and q − 1 clear bit 0, and are at least 2.
        var pMinusOne = pL
        pMinusOne[0] &= ~1
        var qMinusOne = qL
        qMinusOne[0] &= ~1

        guard A.isEqual(A.product(pL, qL), nL) else {
            throw PrivateKeyError(.inconsistentRSAKey(.modulusNotProduct), at: at)
        }
        guard A.isEqual(A.remainder(dL, pMinusOne), dPL) else {
            throw PrivateKeyError(.inconsistentRSAKey(.exponent1Mismatch), at: at)
        }
        guard A.isEqual(A.remainder(dL, qMinusOne), dQL) else {
            throw PrivateKeyError(.inconsistentRSAKey(.exponent2Mismatch), at: at)
        }
        guard A.isEqual(A.remainder(qInvL, pL), qInvL), A.isOne(A.remainder(A.product(qL, qInvL), pL)) else {
            throw PrivateKeyError(.inconsistentRSAKey(.coefficientMismatch), at: at)
        }
        guard A.isOne(A.remainder(A.product(eL, dPL), pMinusOne)),
              A.isOne(A.remainder(A.product(eL, dQL), qMinusOne)) else {
            throw PrivateKeyError(.inconsistentRSAKey(.exponentsNotInverse), at: at)
        }

        var writer = DERWriter(capacity: n.count + e.count + 16)
        writer.writeSequence { (sequence: inout DERWriter) in
            sequence.writeInteger(magnitude: n)
            sequence.writeInteger(magnitude: e)
        }
        return (try spki(writer.bytes, type: .rsa, at: at), nBits)
    }

    // MARK: EC

    /// ```asn1
    /// ECPrivateKey ::= SEQUENCE {
    ///   version        INTEGER { ecPrivkeyVer1(1) } (ecPrivkeyVer1),
    ///   privateKey     OCTET STRING,
    ///   parameters [0] ECParameters {{ NamedCurve }} OPTIONAL,
    ///   publicKey  [1] BIT STRING OPTIONAL }
    /// ```
    /// (RFC 5915 §3, EXPLICIT tags.) `algorithmCurve` is the curve of the PKCS #8
    /// AlgorithmIdentifier, `nil` for a bare SEC 1 key.
    private static func readEC(
        _ bytes: [UInt8], range: Range<Int>, algorithmCurve: ECCurve?
    ) throws(PrivateKeyError) -> (curve: ECCurve, spki: SubjectPublicKeyInfo, scalar: [UInt8]) {
        struct RawEC {
            var version: Int
            var scalar: Range<Int>
            var scalarOffset: Int
            var parameters: DERElement?
            var publicKey: DERBitString?
            var publicKeyOffset: Int
        }
        let raw = try der(bytes, range) { (reader) throws(DERError) -> RawEC in
            try reader.readSequence { (key) throws(DERError) -> RawEC in
                let version = try key.readInteger(Int.self)
                let scalarOffset = key.offset
                let scalar = try key.readOctetString()
                let parameters = try key.readOptionalExplicit(0) { (inner) throws(DERError) in try inner.readElement() }
                let publicKeyOffset = key.offset
                let publicKey = try key.readOptionalExplicit(1) { (inner) throws(DERError) in try inner.readBitString() }
                return RawEC(version: version, scalar: scalar, scalarOffset: scalarOffset, parameters: parameters,
                             publicKey: publicKey, publicKeyOffset: publicKeyOffset)
            }
        }
        guard raw.version == 1 else { throw PrivateKeyError(.unsupportedVersion(raw.version), at: range.lowerBound) }
        let curve: ECCurve
        if let parameters = raw.parameters {
            let named = try namedCurve(bytes, parameters)
            if let algorithmCurve, algorithmCurve != named {
                throw PrivateKeyError(.curveMismatch, at: parameters.offset)
            }
            curve = named
        } else if let algorithmCurve {
            curve = algorithmCurve
        } else {
            throw PrivateKeyError(.missingCurve, at: range.lowerBound)
        }
        // The `P384` and `P521` traits off (Package.swift): the curve is left out.
        #if !TACK_P384
        if curve == .p384 { throw PrivateKeyError(.unsupportedCurve(curve.oid), at: range.lowerBound) }
        #endif
        #if !TACK_P521
        if curve == .p521 { throw PrivateKeyError(.unsupportedCurve(curve.oid), at: range.lowerBound) }
        #endif
        let scalar = bytes[raw.scalar]
        guard scalar.count == curve.scalarByteCount, let point = ecPublicPoint(curve: curve, scalar: scalar) else {
            throw PrivateKeyError(.invalidPrivateScalar, at: raw.scalarOffset)
        }
        if let publicKey = raw.publicKey {
            guard publicKey.unusedBitCount == 0 else { throw PrivateKeyError(.invalidPublicKey, at: raw.publicKeyOffset) }
            try requireSamePoint(Array(bytes[publicKey.bytesRange]), point[...], curve: curve, at: raw.publicKeyOffset)
        }
        let type: PublicKeyType
        switch curve {
        case .p256: type = .p256
        case .p384: type = .p384
        case .p521: type = .p521
        }
        return (curve, try spki(point, type: type, at: raw.scalarOffset), Array(scalar))
    }

    /// Checks that an embedded point (any SEC 1 form) is the derived one.
    private static func requireSamePoint(
        _ embedded: [UInt8], _ derived: ArraySlice<UInt8>, curve: ECCurve, at offset: Int
    ) throws(PrivateKeyError) {
        let decoded: ECDSAPublicKey
        do { decoded = try ECDSAPublicKey(curve: curve, x962Representation: embedded) } catch {
            throw PrivateKeyError(.invalidPublicKey, at: offset)
        }
        guard PrivateKeyArithmetic.bytesEqual(decoded.x962Representation, derived) else {
            throw PrivateKeyError(.publicKeyMismatch, at: offset)
        }
    }

    /// d·G as `04 ‖ X ‖ Y`, or `nil` when d is 0 or not below n (or the curve's
    /// trait is off: the caller refuses those curves first).
    static func ecPublicPoint(curve: ECCurve, scalar: ArraySlice<UInt8>) -> [UInt8]? {
        switch curve {
        case .p256: return derivePoint(P256.curve, scalar)
        case .p384:
            #if TACK_P384
            return derivePoint(P384.curve, scalar)
            #else
            return nil
            #endif
        case .p521:
            #if TACK_P521
            return derivePoint(P521.curve, scalar)
            #else
            return nil
            #endif
        }
    }

    /// d·G with the constant-time multiplication of ECDH (a complete-formula fixed
    /// window and a Fermat inverse), not the verifier's: d is the secret.
    private static func derivePoint<Limbs: ECLimbs>(_ curve: ECWeierstrassCurve<Limbs>, _ scalar: ArraySlice<UInt8>) -> [UInt8]? {
        // The range check's branch reveals only whether the key is valid.
        guard let d = Limbs(bigEndian: scalar), !d.isZero, d.isLess(than: curve.order.modulus) else { return nil }
        guard let point = curve.multiplySecret(d, curve.generator) else { return nil }
        return curve.encodeUncompressed(point)
    }

    // MARK: Ed25519

    /// The public key of an Ed25519 seed (RFC 8032 §5.1.5): the first half of
    /// SHA-512(seed), pruned, times the base point B.
    static func ed25519PublicKey(seed: [UInt8]) -> [UInt8] {
        let digest = SHA512.hash(seed)
        var a = Array(digest.prefix(32))
        a[0] &= 248
        a[31] &= 127
        a[31] |= 64
        // The secret scalar: the constant-time multiplication, not the verifier's.
        return Ed25519Curve.shared.encodedBaseMultipleSecret(a)
    }
}

import TackDER

// SubjectPublicKeyInfo reconstruction: the "ASN.1 header trap".
//
// Apple's SecKeyCopyExternalRepresentation returns a public key without its
// SubjectPublicKeyInfo wrapper, so iOS code that pins SPKI hashes prepends a header
// copied from somewhere; the header depends on the key type and, for RSA, on the
// exact length of the RSAPublicKey DER. Here the header is never a table: the SPKI is
// encoded with DERWriter around the raw bytes, for any length, and the "prefix" that
// developers compare against is sliced out of that same encoding.

extension SubjectPublicKeyInfo {
    /// Rebuilds the DER SubjectPublicKeyInfo around raw public key bytes.
    ///
    /// The raw bytes are checked first:
    /// - ``PublicKeyType/rsa``: exactly one PKCS #1 `RSAPublicKey` (RFC 8017 §A.1.1),
    ///   a SEQUENCE of two minimal, positive INTEGERs, with nothing after it;
    /// - ``PublicKeyType/p256``, ``PublicKeyType/p384``, ``PublicKeyType/p521``: an
    ///   uncompressed point `04 ‖ X ‖ Y` of 65, 97 or 133 bytes (what
    ///   `SecKeyCopyExternalRepresentation` returns; compressed points are refused);
    /// - ``PublicKeyType/ed25519``, ``PublicKeyType/x25519``: 32 bytes;
    ///   ``PublicKeyType/ed448``: 57 bytes; ``PublicKeyType/x448``: 56 bytes.
    ///
    /// The SPKI is then `SEQUENCE { AlgorithmIdentifier, BIT STRING (0 unused bits) }`
    /// with the AlgorithmIdentifier of RFC 3279 §2.3.1 (`rsaEncryption`, NULL), RFC 5480
    /// §2.1.1 (`id-ecPublicKey`, named curve) or RFC 8410 §3 (OID, no parameters): the
    /// encoding every CA and OpenSSL produce, so its SHA-256 is the certificate's SPKI pin.
    ///
    /// - Parameters:
    ///   - rawKey: The raw key bytes.
    ///   - type: The key type.
    /// - Returns: The SubjectPublicKeyInfo DER.
    /// - Throws: ``X509Error`` with ``X509Error/Reason/invalidPublicKey(_:)`` or, for
    ///   a malformed RSA key, ``X509Error/Reason/der(_:)``; offsets index `rawKey`.
    public static func encode(rawKey: [UInt8], type: PublicKeyType) throws(X509Error) -> [UInt8] {
        try validateRawKey(rawKey, type: type)
        return encodeUnchecked(rawKey: rawKey, type: type)
    }

    /// Rebuilds a SubjectPublicKeyInfo from raw key bytes and parses the result.
    ///
    /// The value reads the rebuilt DER, so ``derEncoded`` is all of it.
    ///
    /// - Parameters:
    ///   - rawKey: The raw key bytes (see ``encode(rawKey:type:)``).
    ///   - type: The key type.
    /// - Throws: As ``encode(rawKey:type:)``.
    public init(rawKey: [UInt8], type: PublicKeyType) throws(X509Error) {
        let der = try SubjectPublicKeyInfo.encode(rawKey: rawKey, type: type)
        try self.init(derEncoded: der)
    }

    /// Checks raw key bytes for `type` (see ``encode(rawKey:type:)``).
    internal static func validateRawKey(_ rawKey: [UInt8], type: PublicKeyType) throws(X509Error) {
        switch type {
        case .rsa:
            _ = try readRSAPublicKey(rawKey, range: 0..<rawKey.count, limits: Certificate.defaultLimits)
        case .p256, .p384, .p521:
            guard rawKey.first == 0x04 else {
                throw X509Error(.invalidPublicKey(.notUncompressedPoint), at: 0)
            }
            fallthrough
        case .ed25519, .ed448, .x25519, .x448:
            guard rawKey.count == type.rawKeyByteCount else {
                throw X509Error(.invalidPublicKey(.wrongLength),
                                at: min(rawKey.count, type.rawKeyByteCount ?? 0))
            }
        }
    }

    /// Encodes the SPKI around `rawKey` without checking it.
    internal static func encodeUnchecked(rawKey: some Collection<UInt8>, type: PublicKeyType) -> [UInt8] {
        var writer = DERWriter(capacity: rawKey.count + 32)
        do {
            try writer.writeSequence { (spki: inout DERWriter) throws(DERError) in
                spki.writeSequence { (algorithm: inout DERWriter) in
                    switch type {
                    case .rsa:
                        algorithm.writeObjectIdentifier(AlgorithmOID.rsaEncryption)
                        algorithm.writeNull()
                    case .p256, .p384, .p521:
                        algorithm.writeObjectIdentifier(AlgorithmOID.ecPublicKey)
                        if let curve = type.curve { algorithm.writeObjectIdentifier(curve.oid) }
                    case .ed25519: algorithm.writeObjectIdentifier(AlgorithmOID.ed25519)
                    case .ed448: algorithm.writeObjectIdentifier(AlgorithmOID.ed448)
                    case .x25519: algorithm.writeObjectIdentifier(AlgorithmOID.x25519)
                    case .x448: algorithm.writeObjectIdentifier(AlgorithmOID.x448)
                    }
                }
                try spki.writeBitString(bytes: rawKey)
            }
        } catch {
            // writeBitString fails only for unused bits, and there are none.
            preconditionFailure("a BIT STRING without unused bits is always encodable")
        }
        return writer.bytes
    }
}

/// The bytes that precede the raw key in a SubjectPublicKeyInfo: the header an iOS
/// developer prepends to `SecKeyCopyExternalRepresentation`'s output before hashing.
///
/// Each header is computed by encoding a SubjectPublicKeyInfo around a key of the
/// right length with the same encoder as ``SubjectPublicKeyInfo/encode(rawKey:type:)``
/// and slicing off the key, never from a table, so it is right for any length. For
/// example RSA-2048 (exponent 65537) gives the 24 bytes
/// `30 82 01 22 30 0d 06 09 2a 86 48 86 f7 0d 01 01 01 05 00 03 82 01 0f 00` and P-256
/// the 26 bytes `30 59 30 13 06 07 2a 86 48 ce 3d 02 01 06 08 2a 86 48 ce 3d 03 01 07 03 42 00`.
public struct SPKIHeader: Sendable, Hashable, CustomStringConvertible {
    /// The key type.
    public let keyType: PublicKeyType
    /// The length of the raw key that follows the header.
    public let rawKeyByteCount: Int
    /// For RSA, the modulus size the header was computed for; `nil` otherwise.
    public let modulusBitCount: Int?
    /// The header bytes.
    public let bytes: [UInt8]

    /// The header for a raw key of `rawKeyByteCount` bytes of type `keyType`.
    ///
    /// For RSA the raw key is the `RSAPublicKey` DER, whose length depends on the
    /// modulus and exponent; ``rsa(modulusBitCount:publicExponentByteCount:)`` computes
    /// it from the modulus size.
    ///
    /// - Parameters:
    ///   - keyType: The key type.
    ///   - rawKeyByteCount: The raw key length; for the fixed-size types it must equal
    ///     ``PublicKeyType/rawKeyByteCount``.
    /// - Returns: The header, or `nil` if the length is impossible for the type.
    public static func forKey(_ keyType: PublicKeyType, rawKeyByteCount: Int) -> SPKIHeader? {
        guard rawKeyByteCount > 0, rawKeyByteCount <= Certificate.defaultLimits.maximumElementLength else { return nil }
        if let fixed = keyType.rawKeyByteCount, fixed != rawKeyByteCount { return nil }
        return SPKIHeader(keyType: keyType, rawKeyByteCount: rawKeyByteCount, modulusBitCount: nil)
    }

    /// The header for an RSA key with a modulus of `modulusBitCount` bits.
    ///
    /// - Parameters:
    ///   - modulusBitCount: The modulus size in bits (its top bit set), 8 through 65536.
    ///   - publicExponentByteCount: The minimal length of the public exponent's
    ///     INTEGER contents: 3 for the usual 65537.
    /// - Returns: The header, or `nil` for sizes out of range.
    public static func rsa(modulusBitCount: Int, publicExponentByteCount: Int = 3) -> SPKIHeader? {
        guard (8...65536).contains(modulusBitCount), (1...512).contains(publicExponentByteCount) else { return nil }
        // A modulus with its top bit set: ⌈bits/8⌉ magnitude octets.
        let byteCount = (modulusBitCount + 7) / 8
        var modulus = [UInt8](repeating: 0xFF, count: byteCount)
        modulus[0] = UInt8(truncatingIfNeeded: 0xFF >> ((8 - modulusBitCount % 8) % 8))
        let exponent = [UInt8](repeating: 0x01, count: publicExponentByteCount)
        var writer = DERWriter(capacity: byteCount + 16)
        writer.writeSequence { (key: inout DERWriter) in
            key.writeInteger(magnitude: modulus)
            key.writeInteger(magnitude: exponent)
        }
        return SPKIHeader(keyType: .rsa, rawKeyByteCount: writer.bytes.count, modulusBitCount: modulusBitCount)
    }

    private init(keyType: PublicKeyType, rawKeyByteCount: Int, modulusBitCount: Int?) {
        self.keyType = keyType
        self.rawKeyByteCount = rawKeyByteCount
        self.modulusBitCount = modulusBitCount
        let spki = SubjectPublicKeyInfo.encodeUnchecked(
            rawKey: repeatElement(UInt8(0), count: rawKeyByteCount), type: keyType)
        self.bytes = Array(spki.dropLast(rawKeyByteCount))
    }

    /// The headers of the common key types: RSA 1024, 2048, 3072, 4096 and 8192 with
    /// exponent 65537, P-256, P-384, P-521 and Ed25519.
    public static var common: [SPKIHeader] {
        var headers: [SPKIHeader] = []
        for bits in [1024, 2048, 3072, 4096, 8192] {
            if let header = rsa(modulusBitCount: bits) { headers.append(header) }
        }
        for type in [PublicKeyType.p256, .p384, .p521, .ed25519] {
            if let count = type.rawKeyByteCount, let header = forKey(type, rawKeyByteCount: count) {
                headers.append(header)
            }
        }
        return headers
    }

    /// A name such as `RSA-2048`, `EC P-256` or `Ed25519` (`RSA, 270-byte key` when
    /// only the raw length is known).
    public var name: String {
        if let bits = modulusBitCount { return "RSA-" + String(bits) }
        if keyType == .rsa { return "RSA, " + String(rawKeyByteCount) + "-byte key" }
        return keyType.description
    }

    /// The name and the header in lowercase hex, bytes separated by spaces.
    public var description: String {
        name + ": " + Hex.encode(bytes, separator: " ")
    }
}

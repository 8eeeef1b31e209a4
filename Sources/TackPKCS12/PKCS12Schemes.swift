public import TackDER
public import TackDigest

/// The integrity scheme of a PFX's MacData (RFC 7292 §4, RFC 9579).
public struct PKCS12MACScheme: Sendable, Hashable, CustomStringConvertible {
    /// How the MAC key is derived.
    public enum Kind: Sendable, Hashable {
        /// HMAC with the key from the PKCS #12 KDF (RFC 7292 appendix B) over `hash`.
        case pkcs12KDF(hash: DigestAlgorithm)
        /// PBMAC1 (RFC 9579): HMAC-`mac` with a `keyLength`-byte key from
        /// PBKDF2-HMAC-`prf`; the scheme's salt and iterations are PBKDF2's (those
        /// of the MacData are ignored, RFC 9579 §3).
        case pbmac1(prf: DigestAlgorithm, mac: DigestAlgorithm, keyLength: Int)
    }

    /// The kind and hash.
    public let kind: Kind
    /// The iteration count (`iterations`, DEFAULT 1).
    public let iterations: Int
    /// The salt.
    public let salt: [UInt8]
    /// The expected MAC value.
    public let digest: [UInt8]
    /// For PBMAC1, the DER of the AlgorithmIdentifier's parameters (empty otherwise).
    public let parameters: [UInt8]

    /// The object identifier that names the scheme in the MacData: the digest's
    /// (PKCS #12 KDF) or PBMAC1's.
    public var algorithm: OID {
        switch kind {
        case .pkcs12KDF(let hash): hash.oid
        case .pbmac1: PKCS12OID.pbmac1
        }
    }

    /// `HMAC-SHA-256 (PKCS #12 KDF)` or `PBMAC1`.
    public var description: String {
        switch kind {
        case .pkcs12KDF(let hash): "HMAC-\(hash) (PKCS #12 KDF)"
        case .pbmac1(let prf, let mac, _): "PBMAC1 (PBKDF2-HMAC-\(prf), HMAC-\(mac))"
        }
    }
}

/// A cipher named by a PKCS #12 or PBES2 encryption scheme.
public enum PKCS12Cipher: Sendable, Hashable, CustomStringConvertible {
    /// AES-128-CBC.
    case aes128CBC
    /// AES-192-CBC.
    case aes192CBC
    /// AES-256-CBC.
    case aes256CBC
    /// Three-key triple DES (DES-EDE3-CBC).
    case desEDE3CBC
    /// Two-key triple DES (the PKCS #12 PBE `…2-KeyTripleDES-CBC`).
    case desEDE2CBC
    /// RC2-CBC with an effective key of `bits` (40 or 128 in PKCS #12 files).
    case rc2CBC(bits: Int)

    /// `AES-256-CBC`, `DES-EDE3-CBC`, `RC2-40-CBC`, ...
    public var description: String {
        switch self {
        case .aes128CBC: "AES-128-CBC"
        case .aes192CBC: "AES-192-CBC"
        case .aes256CBC: "AES-256-CBC"
        case .desEDE3CBC: "DES-EDE3-CBC"
        case .desEDE2CBC: "DES-EDE-CBC (two-key)"
        case .rc2CBC(let bits): "RC2-\(bits)-CBC"
        }
    }
}

extension PKCS12Cipher {
    /// The key size in bytes (RC2: its effective bits, as the PKCS #12 PBEs use it).
    var keyByteCount: Int {
        switch self {
        case .aes128CBC: 16
        case .aes192CBC: 24
        case .aes256CBC: 32
        case .desEDE3CBC: 24
        case .desEDE2CBC: 16
        case .rc2CBC(let bits): bits / 8
        }
    }

    /// The block (and IV) size in bytes.
    var blockByteCount: Int {
        switch self {
        case .aes128CBC, .aes192CBC, .aes256CBC: 16
        case .desEDE3CBC, .desEDE2CBC, .rc2CBC: 8
        }
    }
}

/// The password-based encryption of an encryptedData ContentInfo or a
/// pkcs8ShroudedKeyBag.
public struct PKCS12EncryptionScheme: Sendable, Hashable, CustomStringConvertible {
    /// How the key is derived.
    public enum KeyDerivation: Sendable, Hashable {
        /// The PKCS #12 KDF over SHA-1 (RFC 7292 appendix B, the PBEs of appendix C).
        case pkcs12KDF
        /// PBKDF2 (RFC 8018 §5.2) with HMAC over `prf`, deriving `keyLength`
        /// bytes when the parameters say.
        case pbkdf2(prf: DigestAlgorithm, keyLength: Int?)
    }

    /// The key derivation.
    public let keyDerivation: KeyDerivation
    /// The cipher.
    public let cipher: PKCS12Cipher
    /// The iteration count.
    public let iterations: Int
    /// The salt.
    public let salt: [UInt8]
    /// The CBC initialisation vector, for PBES2 (the PKCS #12 PBEs derive it).
    public let initializationVector: [UInt8]?

    /// `PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC)` or `PKCS #12 PBE (SHA-1, RC2-40-CBC)`.
    public var description: String {
        switch keyDerivation {
        case .pkcs12KDF: "PKCS #12 PBE (SHA-1, \(cipher))"
        case .pbkdf2(let prf, _): "PBES2 (PBKDF2-HMAC-\(prf), \(cipher))"
        }
    }

    /// The key size of `cipher` in bytes.
    var keyByteCount: Int { cipher.keyByteCount }

    /// Whether the scheme is weak enough to warn about: RC2 with a 40-bit key.
    public var isWeak: Bool { cipher == .rc2CBC(bits: 40) }
}

/// Object identifiers of RFC 7292 and RFC 8018.
enum PKCS12OID {
    static let data = OID(1, 2, 840, 113549, 1, 7, 1)
    static let signedData = OID(1, 2, 840, 113549, 1, 7, 2)
    static let envelopedData = OID(1, 2, 840, 113549, 1, 7, 3)
    static let encryptedData = OID(1, 2, 840, 113549, 1, 7, 6)

    static let keyBag = OID(1, 2, 840, 113549, 1, 12, 10, 1, 1)
    static let pkcs8ShroudedKeyBag = OID(1, 2, 840, 113549, 1, 12, 10, 1, 2)
    static let certBag = OID(1, 2, 840, 113549, 1, 12, 10, 1, 3)
    static let crlBag = OID(1, 2, 840, 113549, 1, 12, 10, 1, 4)
    static let secretBag = OID(1, 2, 840, 113549, 1, 12, 10, 1, 5)
    static let safeContentsBag = OID(1, 2, 840, 113549, 1, 12, 10, 1, 6)

    static let x509Certificate = OID(1, 2, 840, 113549, 1, 9, 22, 1)
    static let x509CRL = OID(1, 2, 840, 113549, 1, 9, 23, 1)
    static let friendlyName = OID(1, 2, 840, 113549, 1, 9, 20)
    static let localKeyID = OID(1, 2, 840, 113549, 1, 9, 21)

    static let pbes2 = OID(1, 2, 840, 113549, 1, 5, 13)
    static let pbkdf2 = OID(1, 2, 840, 113549, 1, 5, 12)
    static let pbmac1 = OID(1, 2, 840, 113549, 1, 5, 14)
    static let aes128CBC = OID(2, 16, 840, 1, 101, 3, 4, 1, 2)
    static let aes192CBC = OID(2, 16, 840, 1, 101, 3, 4, 1, 22)
    static let aes256CBC = OID(2, 16, 840, 1, 101, 3, 4, 1, 42)
    static let desEDE3CBC = OID(1, 2, 840, 113549, 3, 7)

    /// pkcs-12PbeIds (RFC 7292 appendix C): 1, 2 RC4 (refused); 3, 4 triple DES; 5, 6 RC2.
    /// The name of an encryption algorithm's OID in messages: the RC4 PBEs that
    /// Tack refuses by name, the dotted form otherwise.
    static func name(of oid: OID) -> String {
        switch pkcs12PBE(oid) {
        case 1?: "pbeWithSHAAnd128BitRC4 (\(oid.dottedString))"
        case 2?: "pbeWithSHAAnd40BitRC4 (\(oid.dottedString))"
        default: oid.dottedString
        }
    }

    static func pkcs12PBE(_ oid: OID) -> Int? {
        for number: UInt64 in 1...6 where OID(1, 2, 840, 113549, 1, 12, 1, number) == oid {
            return Int(number)
        }
        return nil
    }
}

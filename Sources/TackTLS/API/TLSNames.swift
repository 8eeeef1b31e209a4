// The registry values the client names: protocol versions, cipher suites, named
// groups and signature schemes (IANA "TLS Parameters"), each with its registry name.

/// A protocol version Tack speaks: TLS 1.2 (RFC 5246) or TLS 1.3 (RFC 8446).
public enum TLSProtocolVersion: Sendable, Hashable, CustomStringConvertible {
    /// TLS 1.2 (RFC 5246), ECDHE suites only.
    case tls12
    /// TLS 1.3 (RFC 8446).
    case tls13

    /// The wire value (`ProtocolVersion`): 0x0303 or 0x0304.
    public var rawValue: UInt16 {
        switch self {
        case .tls12: 0x0303
        case .tls13: 0x0304
        }
    }

    /// The name OpenSSL prints: `TLSv1.2`, `TLSv1.3`.
    public var description: String {
        switch self {
        case .tls12: "TLSv1.2"
        case .tls13: "TLSv1.3"
        }
    }
}

/// A cipher suite (IANA TLS Cipher Suites registry), by its two-byte value.
public struct TLSCipherSuite: Sendable, Hashable, CustomStringConvertible {
    /// The registry value.
    public var rawValue: UInt16

    /// A suite by its registry value.
    ///
    /// - Parameter rawValue: The two-byte value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// TLS_AES_128_GCM_SHA256 (RFC 8446 §B.4).
    public static let aes128GCMSHA256 = TLSCipherSuite(rawValue: 0x1301)
    /// TLS_AES_256_GCM_SHA384 (RFC 8446 §B.4).
    public static let aes256GCMSHA384 = TLSCipherSuite(rawValue: 0x1302)
    /// TLS_CHACHA20_POLY1305_SHA256 (RFC 8446 §B.4).
    public static let chacha20Poly1305SHA256 = TLSCipherSuite(rawValue: 0x1303)
    /// TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 (RFC 5289).
    public static let ecdheECDSAWithAES128GCMSHA256 = TLSCipherSuite(rawValue: 0xC02B)
    /// TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 (RFC 5289).
    public static let ecdheECDSAWithAES256GCMSHA384 = TLSCipherSuite(rawValue: 0xC02C)
    /// TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 (RFC 5289).
    public static let ecdheRSAWithAES128GCMSHA256 = TLSCipherSuite(rawValue: 0xC02F)
    /// TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 (RFC 5289).
    public static let ecdheRSAWithAES256GCMSHA384 = TLSCipherSuite(rawValue: 0xC030)
    /// TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 (RFC 7905).
    public static let ecdheRSAWithChaCha20Poly1305SHA256 = TLSCipherSuite(rawValue: 0xCCA8)
    /// TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 (RFC 7905).
    public static let ecdheECDSAWithChaCha20Poly1305SHA256 = TLSCipherSuite(rawValue: 0xCCA9)

    /// The TLS 1.3 suites the client offers, in preference order.
    public static let tls13Suites: [TLSCipherSuite] = [.aes128GCMSHA256, .aes256GCMSHA384, .chacha20Poly1305SHA256]
    /// The TLS 1.2 suites the client offers, in preference order.
    public static let tls12Suites: [TLSCipherSuite] = [
        .ecdheECDSAWithAES128GCMSHA256, .ecdheRSAWithAES128GCMSHA256,
        .ecdheECDSAWithAES256GCMSHA384, .ecdheRSAWithAES256GCMSHA384,
        .ecdheECDSAWithChaCha20Poly1305SHA256, .ecdheRSAWithChaCha20Poly1305SHA256,
    ]

    /// The IANA name, or `0xNNNN` for a value Tack does not know.
    public var description: String {
        switch rawValue {
        case 0x1301: "TLS_AES_128_GCM_SHA256"
        case 0x1302: "TLS_AES_256_GCM_SHA384"
        case 0x1303: "TLS_CHACHA20_POLY1305_SHA256"
        case 0xC02B: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
        case 0xC02C: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"
        case 0xC02F: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
        case 0xC030: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"
        case 0xCCA8: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"
        case 0xCCA9: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"
        default: hexName(rawValue)
        }
    }
}

/// A key-exchange group (IANA Supported Groups registry), by its two-byte value.
public struct TLSNamedGroup: Sendable, Hashable, CustomStringConvertible {
    /// The registry value.
    public var rawValue: UInt16

    /// A group by its registry value.
    ///
    /// - Parameter rawValue: The two-byte value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// secp256r1 (NIST P-256).
    public static let secp256r1 = TLSNamedGroup(rawValue: 23)
    /// secp384r1 (NIST P-384).
    public static let secp384r1 = TLSNamedGroup(rawValue: 24)
    /// x25519 (RFC 7748).
    public static let x25519 = TLSNamedGroup(rawValue: 29)

    /// The groups the client supports, in preference order.
    public static let supported: [TLSNamedGroup] = [.x25519, .secp256r1, .secp384r1]

    /// The registry name (`x25519`, `secp256r1`, `secp384r1`), or `0xNNNN`.
    public var description: String {
        switch rawValue {
        case 23: "secp256r1"
        case 24: "secp384r1"
        case 29: "x25519"
        default: hexName(rawValue)
        }
    }
}

/// A signature scheme (IANA TLS SignatureScheme registry), by its two-byte value.
public struct TLSSignatureScheme: Sendable, Hashable, CustomStringConvertible {
    /// The registry value.
    public var rawValue: UInt16

    /// A scheme by its registry value.
    ///
    /// - Parameter rawValue: The two-byte value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// rsa_pkcs1_sha256 (TLS 1.2 signatures and certificates only).
    public static let rsaPKCS1SHA256 = TLSSignatureScheme(rawValue: 0x0401)
    /// rsa_pkcs1_sha384 (TLS 1.2 signatures and certificates only).
    public static let rsaPKCS1SHA384 = TLSSignatureScheme(rawValue: 0x0501)
    /// rsa_pkcs1_sha512 (TLS 1.2 signatures and certificates only).
    public static let rsaPKCS1SHA512 = TLSSignatureScheme(rawValue: 0x0601)
    /// ecdsa_secp256r1_sha256.
    public static let ecdsaSECP256R1SHA256 = TLSSignatureScheme(rawValue: 0x0403)
    /// ecdsa_secp384r1_sha384.
    public static let ecdsaSECP384R1SHA384 = TLSSignatureScheme(rawValue: 0x0503)
    /// ecdsa_secp521r1_sha512.
    public static let ecdsaSECP521R1SHA512 = TLSSignatureScheme(rawValue: 0x0603)
    /// rsa_pss_rsae_sha256.
    public static let rsaPSSRSAESHA256 = TLSSignatureScheme(rawValue: 0x0804)
    /// rsa_pss_rsae_sha384.
    public static let rsaPSSRSAESHA384 = TLSSignatureScheme(rawValue: 0x0805)
    /// rsa_pss_rsae_sha512.
    public static let rsaPSSRSAESHA512 = TLSSignatureScheme(rawValue: 0x0806)
    /// ed25519.
    public static let ed25519 = TLSSignatureScheme(rawValue: 0x0807)
    /// rsa_pss_pss_sha256.
    public static let rsaPSSPSSSHA256 = TLSSignatureScheme(rawValue: 0x0809)
    /// rsa_pss_pss_sha384.
    public static let rsaPSSPSSSHA384 = TLSSignatureScheme(rawValue: 0x080A)
    /// rsa_pss_pss_sha512.
    public static let rsaPSSPSSSHA512 = TLSSignatureScheme(rawValue: 0x080B)

    /// What the client accepts in a TLS 1.3 CertificateVerify, in preference order
    /// (RSA PKCS #1 v1.5 is not among them, RFC 8446 §4.2.3).
    public static let tls13Handshake: [TLSSignatureScheme] = [
        .ecdsaSECP256R1SHA256, .ecdsaSECP384R1SHA384, .ecdsaSECP521R1SHA512, .ed25519,
        .rsaPSSRSAESHA256, .rsaPSSRSAESHA384, .rsaPSSRSAESHA512,
        .rsaPSSPSSSHA256, .rsaPSSPSSSHA384, .rsaPSSPSSSHA512,
    ]
    /// What the client accepts in a TLS 1.2 ServerKeyExchange: the TLS 1.3 list
    /// and RSA PKCS #1 v1.5 with SHA-2.
    public static let tls12Handshake: [TLSSignatureScheme] = tls13Handshake + [.rsaPKCS1SHA256, .rsaPKCS1SHA384, .rsaPKCS1SHA512]
    /// What the client accepts in certificates (`signature_algorithms_cert`).
    public static let certificates: [TLSSignatureScheme] = tls12Handshake

    /// The registry name (`rsa_pss_rsae_sha256`, `ecdsa_secp256r1_sha256`, `ed25519`, ...), or `0xNNNN`.
    public var description: String {
        switch rawValue {
        case 0x0401: "rsa_pkcs1_sha256"
        case 0x0501: "rsa_pkcs1_sha384"
        case 0x0601: "rsa_pkcs1_sha512"
        case 0x0403: "ecdsa_secp256r1_sha256"
        case 0x0503: "ecdsa_secp384r1_sha384"
        case 0x0603: "ecdsa_secp521r1_sha512"
        case 0x0804: "rsa_pss_rsae_sha256"
        case 0x0805: "rsa_pss_rsae_sha384"
        case 0x0806: "rsa_pss_rsae_sha512"
        case 0x0807: "ed25519"
        case 0x0809: "rsa_pss_pss_sha256"
        case 0x080A: "rsa_pss_pss_sha384"
        case 0x080B: "rsa_pss_pss_sha512"
        default: hexName(rawValue)
        }
    }
}

/// `0xNNNN` for a registry value without a name.
func hexName(_ value: UInt16) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    var text = "0x"
    for shift in [12, 8, 4, 0] { text.append(digits[Int((value >> UInt16(shift)) & 0xF)]) }
    return text
}

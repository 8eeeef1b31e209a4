// Alerts (RFC 8446 §6, RFC 5246 §7.2): a level and a description, named as the RFC names them.

/// An alert: its level and description (RFC 8446 §6).
public struct TLSAlert: Sendable, Hashable, CustomStringConvertible {
    /// The level: 1 warning, 2 fatal. TLS 1.3 treats every alert but
    /// close_notify and user_canceled as fatal whatever its level (§6).
    public var level: UInt8
    /// The description value (`AlertDescription`).
    public var alertDescription: UInt8

    /// An alert from its two bytes.
    ///
    /// - Parameters:
    ///   - level: 1 (warning) or 2 (fatal).
    ///   - description: The `AlertDescription` value.
    public init(level: UInt8, description: UInt8) {
        self.level = level
        self.alertDescription = description
    }

    /// A fatal alert with this description.
    static func fatal(_ description: UInt8) -> TLSAlert { TLSAlert(level: 2, description: description) }

    /// close_notify (0), a warning.
    public static let closeNotify = TLSAlert(level: 1, description: 0)
    /// unexpected_message (10).
    public static let unexpectedMessage = fatal(10)
    /// bad_record_mac (20).
    public static let badRecordMAC = fatal(20)
    /// record_overflow (22).
    public static let recordOverflow = fatal(22)
    /// handshake_failure (40).
    public static let handshakeFailure = fatal(40)
    /// bad_certificate (42).
    public static let badCertificate = fatal(42)
    /// unsupported_certificate (43).
    public static let unsupportedCertificate = fatal(43)
    /// certificate_revoked (44).
    public static let certificateRevoked = fatal(44)
    /// certificate_expired (45).
    public static let certificateExpired = fatal(45)
    /// certificate_unknown (46).
    public static let certificateUnknown = fatal(46)
    /// illegal_parameter (47).
    public static let illegalParameter = fatal(47)
    /// unknown_ca (48).
    public static let unknownCA = fatal(48)
    /// decode_error (50).
    public static let decodeError = fatal(50)
    /// decrypt_error (51).
    public static let decryptError = fatal(51)
    /// protocol_version (70).
    public static let protocolVersion = fatal(70)
    /// insufficient_security (71).
    public static let insufficientSecurity = fatal(71)
    /// internal_error (80).
    public static let internalError = fatal(80)
    /// inappropriate_fallback (86).
    public static let inappropriateFallback = fatal(86)
    /// no_renegotiation (100), a warning (TLS 1.2 only).
    public static let noRenegotiation = TLSAlert(level: 1, description: 100)
    /// missing_extension (109).
    public static let missingExtension = fatal(109)
    /// unsupported_extension (110).
    public static let unsupportedExtension = fatal(110)
    /// bad_certificate_status_response (113).
    public static let badCertificateStatusResponse = fatal(113)
    /// no_application_protocol (120).
    public static let noApplicationProtocol = fatal(120)

    /// The description's name as the RFCs spell it (`handshake_failure`), or its number.
    public var name: String {
        switch alertDescription {
        case 0: "close_notify"
        case 10: "unexpected_message"
        case 20: "bad_record_mac"
        case 21: "decryption_failed"
        case 22: "record_overflow"
        case 40: "handshake_failure"
        case 42: "bad_certificate"
        case 43: "unsupported_certificate"
        case 44: "certificate_revoked"
        case 45: "certificate_expired"
        case 46: "certificate_unknown"
        case 47: "illegal_parameter"
        case 48: "unknown_ca"
        case 49: "access_denied"
        case 50: "decode_error"
        case 51: "decrypt_error"
        case 70: "protocol_version"
        case 71: "insufficient_security"
        case 80: "internal_error"
        case 86: "inappropriate_fallback"
        case 90: "user_canceled"
        case 100: "no_renegotiation"
        case 109: "missing_extension"
        case 110: "unsupported_extension"
        case 112: "unrecognized_name"
        case 113: "bad_certificate_status_response"
        case 115: "unknown_psk_identity"
        case 116: "certificate_required"
        case 120: "no_application_protocol"
        default: "alert_" + String(alertDescription)
        }
    }

    /// `fatal handshake_failure`, `warning close_notify`.
    public var description: String { (level == 1 ? "warning " : "fatal ") + name }

    /// The two bytes of the alert's record body.
    var bytes: [UInt8] { [level, alertDescription] }
}

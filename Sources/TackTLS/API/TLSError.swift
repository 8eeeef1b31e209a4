public import TackSignature
public import TackTrust
public import TackX509

/// Why the TLS client stopped: an enumerated reason, its stable `code`, and the
/// alert the client sent (or would send) for it.
///
/// Once a ``TLSClient`` has thrown, it stays failed: every later call throws
/// ``Reason/connectionFailed``.
public struct TLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var reason: Reason
    /// The alert the client sends for it (`nil` for a peer's alert, a closed
    /// connection, or misuse of the API).
    public var alert: TLSAlert?

    /// Creates an error; the alert is the reason's own.
    ///
    /// - Parameter reason: What went wrong.
    public init(_ reason: Reason) {
        self.reason = reason
        self.alert = reason.alert
    }

    /// The reasons.
    public enum Reason: Sendable, Hashable {
        /// The method is not implemented yet (development builds).
        case notImplemented(String)
        /// The server sent a fatal alert (or a warning other than close_notify in TLS 1.3).
        case peerAlert(TLSAlert)
        /// A message or record of this type where the state machine expects another.
        case unexpectedMessage(type: UInt8, expected: String)
        /// A malformed structure: what, and the offset in the message or record.
        case decodeError(what: String, offset: Int)
        /// A record longer than the protocol allows (RFC 8446 §5.1, §5.2; RFC 5246 §6.2).
        case recordOverflow(length: Int, limit: Int)
        /// A handshake message longer than ``TLSLimits/maximumHandshakeMessageLength``.
        case handshakeMessageTooLong(length: Int, limit: Int)
        /// A field with a value the protocol forbids here (named).
        case illegalParameter(String)
        /// An extension the client did not offer, or not allowed in this message.
        case unsupportedExtension(UInt16)
        /// The same extension twice in one message (RFC 8446 §4.2).
        case duplicateExtension(UInt16)
        /// A required extension is missing (named by value).
        case missingExtension(UInt16)
        /// The server's random carries the downgrade sentinel of RFC 8446 §4.1.3.
        case downgradeDetected
        /// A second HelloRetryRequest (RFC 8446 §4.1.4).
        case secondHelloRetryRequest
        /// No version the client allows (RFC 8446 §4.2.1).
        case protocolVersion(UInt16)
        /// No cipher suite, group or signature scheme in common, or a selection the
        /// client did not offer (named).
        case handshakeFailure(String)
        /// The CertificateVerify (1.3) or ServerKeyExchange (1.2) signature does not verify.
        case badSignature(SignatureError)
        /// The server's Finished does not match the transcript.
        case badFinished
        /// A record failed authentication (RFC 8446 §5.2).
        case badRecordMAC
        /// The server's certificate does not parse.
        case certificateParse(X509Error)
        /// A stapled OCSP response does not parse (RFC 6066 §8: bad_certificate_status_response).
        case badCertificateStatus(X509Error)
        /// The server sent no certificate.
        case emptyCertificate
        /// Tack's trust decision refused the chain.
        case untrusted(TrustFailure)
        /// The chain is valid but the host's pins do not hold.
        case pinMismatch
        /// The server's key share is invalid.
        case keyAgreement(KeyAgreementError)
        /// The random source failed.
        case randomSource(RandomSourceError)
        /// A record sequence number would wrap (RFC 8446 §5.3).
        case sequenceNumberExhausted
        /// The server asked to renegotiate (TLS 1.2); Tack refuses (RFC 5746).
        case renegotiationRefused
        /// An internal computation failed (a key length, say); a bug, reported not trapped.
        case internalError(String)
        /// The API was used out of order (`receive` before `start`, `seal` before the
        /// handshake completed, anything after close or failure).
        case invalidState(String)
        /// The client failed or closed before; nothing more is processed.
        case connectionFailed
    }

    /// The stable code: `tls.<snake_case>`, wrapped codes as `tls.untrusted.<trust code>`.
    public var code: String { "tls." + reason.code }

    /// A readable sentence (no secret ever appears).
    public var description: String {
        var text = reason.text
        if let alert, reason.isLocal { text += " (alert " + alert.name + ")" }
        return text
    }
}

extension TLSError.Reason {
    var code: String {
        switch self {
        case .notImplemented: "not_implemented"
        case .peerAlert(let alert): "peer_alert." + alert.name
        case .unexpectedMessage: "unexpected_message"
        case .decodeError: "decode_error"
        case .recordOverflow: "record_overflow"
        case .handshakeMessageTooLong: "handshake_message_too_long"
        case .illegalParameter: "illegal_parameter"
        case .unsupportedExtension: "unsupported_extension"
        case .duplicateExtension: "duplicate_extension"
        case .missingExtension: "missing_extension"
        case .downgradeDetected: "downgrade_detected"
        case .secondHelloRetryRequest: "second_hello_retry_request"
        case .protocolVersion: "protocol_version"
        case .handshakeFailure: "handshake_failure"
        case .badSignature(let error): "bad_signature." + error.code
        case .badFinished: "bad_finished"
        case .badRecordMAC: "bad_record_mac"
        case .certificateParse(let error): "certificate_parse." + error.code
        case .badCertificateStatus(let error): "bad_certificate_status." + error.code
        case .emptyCertificate: "empty_certificate"
        case .untrusted(let failure): "untrusted." + failure.code
        case .pinMismatch: "pin_mismatch"
        case .keyAgreement(let error): "key_agreement." + error.code
        case .randomSource(let error): "random_source." + error.code
        case .sequenceNumberExhausted: "sequence_number_exhausted"
        case .renegotiationRefused: "renegotiation_refused"
        case .internalError: "internal_error"
        case .invalidState: "invalid_state"
        case .connectionFailed: "connection_failed"
        }
    }

    /// Whether the client detected it (and so sends the alert).
    var isLocal: Bool {
        switch self {
        case .peerAlert, .invalidState, .connectionFailed, .notImplemented: false
        default: true
        }
    }

    var text: String {
        switch self {
        case .notImplemented(let what): "not implemented yet: " + what
        case .peerAlert(let alert): "the server sent the alert " + alert.description
        case .unexpectedMessage(let type, let expected): "unexpected message of type " + String(type) + " (expected " + expected + ")"
        case .decodeError(let what, let offset): "malformed " + what + " at offset " + String(offset)
        case .recordOverflow(let length, let limit): "a record of " + String(length) + " bytes exceeds the limit of " + String(limit)
        case .handshakeMessageTooLong(let length, let limit):
            "a handshake message of " + String(length) + " bytes exceeds the limit of " + String(limit)
        case .illegalParameter(let what): "illegal parameter: " + what
        case .unsupportedExtension(let type): "the server sent extension " + String(type) + ", which is not allowed there or was not offered"
        case .duplicateExtension(let type): "extension " + String(type) + " appears twice"
        case .missingExtension(let type): "required extension " + String(type) + " is missing"
        case .downgradeDetected: "the server random carries the downgrade sentinel (RFC 8446 §4.1.3)"
        case .secondHelloRetryRequest: "a second HelloRetryRequest"
        case .protocolVersion(let version): "the server chose version " + hexName(version) + ", which the client does not allow"
        case .handshakeFailure(let what): "handshake failure: " + what
        case .badSignature(let error): "the server's handshake signature does not verify: " + error.description
        case .badFinished: "the server's Finished does not match the handshake"
        case .badRecordMAC: "a record failed authentication"
        case .certificateParse(let error): "the server's certificate does not parse: " + error.description
        case .badCertificateStatus(let error): "a stapled OCSP response does not parse: " + error.description
        case .emptyCertificate: "the server sent no certificate"
        case .untrusted(let failure): "the server's chain is not trusted: " + failure.description
        case .pinMismatch: "the server's chain is valid but the pins do not hold"
        case .keyAgreement(let error): "the server's key share is invalid: " + error.description
        case .randomSource(let error): error.description
        case .sequenceNumberExhausted: "the record sequence number would wrap"
        case .renegotiationRefused: "the server asked to renegotiate, which Tack refuses"
        case .internalError(let what): "internal error: " + what
        case .invalidState(let what): "invalid use: " + what
        case .connectionFailed: "the connection failed or was closed before"
        }
    }

    /// The alert the client sends for this reason.
    var alert: TLSAlert? {
        switch self {
        case .notImplemented, .invalidState, .connectionFailed, .peerAlert: nil
        case .unexpectedMessage, .renegotiationRefused: .unexpectedMessage
        case .decodeError: .decodeError
        case .recordOverflow: .recordOverflow
        case .handshakeMessageTooLong: .illegalParameter
        case .illegalParameter, .downgradeDetected, .keyAgreement: .illegalParameter
        case .secondHelloRetryRequest: .unexpectedMessage
        case .unsupportedExtension: .unsupportedExtension
        case .duplicateExtension: .illegalParameter
        case .missingExtension: .missingExtension
        case .protocolVersion: .protocolVersion
        case .handshakeFailure: .handshakeFailure
        case .badSignature, .badFinished: .decryptError
        case .badRecordMAC: .badRecordMAC
        case .certificateParse, .emptyCertificate: .badCertificate
        case .badCertificateStatus: .badCertificateStatusResponse
        case .untrusted(let failure): failure.tlsAlert
        case .pinMismatch: .badCertificate
        case .randomSource, .sequenceNumberExhausted, .internalError: .internalError
        }
    }
}

extension TrustFailure {
    /// The alert for a refused chain (RFC 8446 §6.2's certificate alerts).
    var tlsAlert: TLSAlert {
        switch reason {
        case .expired, .notYetValid: .certificateExpired
        case .revoked, .responderRevoked: .certificateRevoked
        case .unknownIssuer, .untrustedRoot: .unknownCA
        case .malformed, .unknownCriticalExtension: .badCertificate
        case .weakKey, .weakSignatureAlgorithm: .unsupportedCertificate
        case .badSignature: .badCertificate
        default: .certificateUnknown
        }
    }
}

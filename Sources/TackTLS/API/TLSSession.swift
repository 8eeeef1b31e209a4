public import TackTrust

/// What a completed, verified handshake established.
public struct TLSSession: Sendable {
    /// The version negotiated.
    public var protocolVersion: TLSProtocolVersion
    /// The cipher suite negotiated.
    public var cipherSuite: TLSCipherSuite
    /// The key-exchange group.
    public var group: TLSNamedGroup
    /// Whether the server answered the first ClientHello with a HelloRetryRequest
    /// (TLS 1.3, RFC 8446 §4.1.4: it wanted a group the client sent no key share for,
    /// see ``TLSClientConfiguration/keyShareGroups``, or a cookie).
    public var helloRetryRequest: Bool
    /// The scheme of the server's handshake signature.
    public var signatureScheme: TLSSignatureScheme
    /// The ALPN protocol the server selected, if any.
    public var applicationProtocol: String?
    /// The served certificates, DER, leaf first, as sent.
    public var certificates: [[UInt8]]
    /// The stapled OCSP responses, DER.
    public var stapledOCSPResponses: [[UInt8]]
    /// The SCTs from the handshake (each TLS-encoded `SerializedSCT`, not the list).
    public var signedCertificateTimestamps: [[UInt8]]
    /// The trust decision; `nil` with ``TLSServerVerification/signaturesOnly``.
    public var decision: TrustDecision?
}

/// What one ``TLSClient/receive(_:)`` call produced.
public struct TLSClientOutput: Sendable {
    /// Records to send to the server, in order.
    public var bytesToSend: [UInt8]
    /// Application data received.
    public var applicationData: [UInt8]
    /// Whether the handshake completed during this call.
    public var handshakeCompleted: Bool
    /// Whether the server's close_notify arrived.
    public var peerClosed: Bool

    /// Creates an output; with no argument, an empty one.
    ///
    /// - Parameters:
    ///   - bytesToSend: Records to send to the server, in order.
    ///   - applicationData: Application data received.
    ///   - handshakeCompleted: Whether the handshake completed during the call.
    ///   - peerClosed: Whether the server's close_notify arrived.
    public init(bytesToSend: [UInt8] = [], applicationData: [UInt8] = [], handshakeCompleted: Bool = false, peerClosed: Bool = false) {
        self.bytesToSend = bytesToSend
        self.applicationData = applicationData
        self.handshakeCompleted = handshakeCompleted
        self.peerClosed = peerClosed
    }
}

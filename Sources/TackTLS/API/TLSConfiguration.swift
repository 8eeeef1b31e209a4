public import TackTrust

/// What the client offers and how it judges the server.
public struct TLSClientConfiguration: Sendable {
    /// The SNI `host_name` (RFC 6066 §3); `nil` sends no server_name (an IP literal).
    public var serverName: String?
    /// The ALPN offer (RFC 7301), in preference order; empty sends no ALPN.
    public var applicationProtocols: [String]
    /// The versions allowed; `[.tls13, .tls12]` by default.
    public var versions: [TLSProtocolVersion]
    /// The groups the first TLS 1.3 ClientHello sends a key share for, in preference
    /// order: `[.x25519]` by default (``defaultKeyShareGroups``). supported_groups
    /// always lists every group of ``TLSNamedGroup/supported``; a server that wants
    /// one without a share asks for it with a HelloRetryRequest (RFC 8446 §4.1.4),
    /// which costs a round trip, while each share sent costs its key generation in
    /// every handshake (a P-256 share about 40% of the client's CPU for a whole
    /// handshake, `tack-bench tls13-handshake`). Each group must be in
    /// ``TLSNamedGroup/supported``, at most once, and the list not empty, or `start`
    /// throws ``TLSError/Reason/invalidState(_:)``.
    public var keyShareGroups: [TLSNamedGroup]
    /// How the server is verified.
    public var verification: TLSServerVerification

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - serverName: The SNI host name, or `nil` for none.
    ///   - applicationProtocols: The ALPN offer, in preference order.
    ///   - versions: The versions allowed.
    ///   - keyShareGroups: The groups with a key share in the first ClientHello.
    ///   - verification: How the server is verified.
    public init(
        serverName: String?, applicationProtocols: [String] = [], versions: [TLSProtocolVersion] = [.tls13, .tls12],
        keyShareGroups: [TLSNamedGroup] = TLSClientConfiguration.defaultKeyShareGroups, verification: TLSServerVerification
    ) {
        self.serverName = serverName
        self.applicationProtocols = applicationProtocols
        self.versions = versions
        self.keyShareGroups = keyShareGroups
        self.verification = verification
    }

    /// The first ClientHello's key shares by default: X25519 alone, as rustls and Go
    /// send (P-256 and P-384 through a HelloRetryRequest).
    public static let defaultKeyShareGroups: [TLSNamedGroup] = [.x25519]
}

/// How the client verifies the server.
public enum TLSServerVerification: Sendable {
    /// CertificateVerify (1.3) or the ServerKeyExchange signature (1.2) and Finished
    /// are checked against the leaf's key; no trust decision (`tack fetch`).
    case signaturesOnly
    /// Tack's decision before the client's Finished: the served chain, the stapled
    /// OCSP response(s) and the handshake's SCTs go through the evaluator (the client
    /// adds the staples to its options' `stapledResponses` and the SCT lists to its
    /// CT requirement's `tlsSCTLists`). A decision that is not trusted aborts with the
    /// matching alert.
    case decision(TrustEvaluator, host: PeerHost?, pinning: PinPolicy, time: Int64)
}

/// The client's fixed limits, each with its reason.
public enum TLSLimits {
    /// The largest handshake message accepted, in bytes: 64 KiB. The longest message a
    /// client receives is the server's Certificate; a chain of four 4096-bit RSA
    /// certificates with OCSP staples and SCTs is about 12 KiB, and 64 KiB leaves room
    /// for unusual chains while bounding what a hostile server can make the client
    /// buffer (the protocol's own limit, 2^24 − 1, is 16 MiB). Larger messages fail
    /// with ``TLSError/Reason/handshakeMessageTooLong(length:limit:)``.
    public static let maximumHandshakeMessageLength = 65_536
    /// The largest plaintext fragment (RFC 8446 §5.1, RFC 5246 §6.2.1): 2^14.
    public static let maximumPlaintextLength = 16_384
    /// The most bytes a TLS 1.3 record's ciphertext may carry: 2^14 + 256 (RFC 8446 §5.2).
    public static let maximumTLS13CiphertextLength = 16_384 + 256
    /// The most bytes a TLS 1.2 record's ciphertext may carry: 2^14 + 2048 (RFC 5246 §6.2.3).
    public static let maximumTLS12CiphertextLength = 16_384 + 2048
    /// The most certificates accepted in a Certificate message: 16 (a chain longer
    /// than the trust evaluator's budget allows is refused before it is parsed).
    public static let maximumCertificateCount = 16
    /// The most consecutive records without progress (empty or change_cipher_spec
    /// records, warning alerts, KeyUpdates) tolerated: 32, so a server cannot keep the
    /// client busy with records that carry nothing.
    public static let maximumEmptyRecords = 32
}

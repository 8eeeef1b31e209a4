public import TackSignature

/// A sans-I/O TLS client: bytes in, bytes out; time and randomness handed in.
///
/// ```swift
/// var client = TLSClient(configuration: configuration)
/// send(try client.start(random: &random))
/// while !client.isHandshakeComplete {
///     let output = try client.receive(readFromSocket())
///     send(output.bytesToSend)
/// }
/// send(try client.seal(Array("GET / HTTP/1.0\r\n\r\n".utf8)))
/// ```
public struct TLSClient: Sendable {
    /// The configuration.
    public let configuration: TLSClientConfiguration

    /// Creates a client.
    ///
    /// - Parameter configuration: What to offer and how to verify.
    public init(configuration: TLSClientConfiguration) {
        self.configuration = configuration
    }

    /// The first flight (the ClientHello record). All randomness is drawn here.
    ///
    /// - Parameter random: The entropy source.
    /// - Returns: The bytes to send.
    /// - Throws: ``TLSError``.
    public mutating func start(random: inout some RandomSource) throws(TLSError) -> [UInt8] {
        throw TLSError(.notImplemented("start"))
    }

    /// Processes received bytes, split anywhere.
    ///
    /// - Parameter bytes: Bytes from the server.
    /// - Returns: What to send, application data, and events.
    /// - Throws: ``TLSError``; the client is failed afterwards.
    public mutating func receive(_ bytes: some Collection<UInt8>) throws(TLSError) -> TLSClientOutput {
        throw TLSError(.notImplemented("receive"))
    }

    /// Protects application data (after the handshake).
    ///
    /// - Parameter applicationData: The bytes to send.
    /// - Returns: The records.
    /// - Throws: ``TLSError``.
    public mutating func seal(_ applicationData: some Collection<UInt8>) throws(TLSError) -> [UInt8] {
        throw TLSError(.notImplemented("seal"))
    }

    /// The close_notify record.
    ///
    /// - Returns: The record to send.
    /// - Throws: ``TLSError``.
    public mutating func close() throws(TLSError) -> [UInt8] {
        throw TLSError(.notImplemented("close"))
    }

    /// Whether the handshake completed.
    public var isHandshakeComplete: Bool { false }

    /// The session, once the handshake completed and was verified.
    public var session: TLSSession? { nil }
}

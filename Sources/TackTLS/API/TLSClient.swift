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
///
/// A thrown ``TLSError`` ends the connection: its ``TLSError/alert`` is the alert to
/// send (``alertRecord`` gives it as a record), and every later call throws
/// ``TLSError/Reason/connectionFailed``.
public struct TLSClient: Sendable {
    /// The configuration.
    public let configuration: TLSClientConfiguration
    private var engine: ClientEngine? = nil
    private var failed = false
    private var closedByClient = false
    private var failureAlert: TLSAlert? = nil

    /// Creates a client.
    ///
    /// - Parameter configuration: What to offer and how to verify.
    public init(configuration: TLSClientConfiguration) {
        self.configuration = configuration
    }

    private mutating func guarded<T>(_ body: (inout ClientEngine) throws(TLSError) -> T) throws(TLSError) -> T {
        guard !failed, !closedByClient else { throw TLSError(.connectionFailed) }
        guard var engine else { throw TLSError(.invalidState("start was not called")) }
        self.engine = nil
        do throws(TLSError) {
            let result = try body(&engine)
            self.engine = engine
            return result
        } catch {
            failed = true
            failureAlert = error.alert
            throw error
        }
    }

    /// The first flight (the ClientHello record). All randomness is drawn here:
    /// the client random, the legacy_session_id, and the key shares for every group
    /// the client may need (after a HelloRetryRequest, or in a TLS 1.2
    /// ServerKeyExchange).
    ///
    /// - Parameter random: The entropy source.
    /// - Returns: The bytes to send.
    /// - Throws: ``TLSError`` (the random source failed, no version allowed, or
    ///   `start` was called twice).
    public mutating func start(random: inout some RandomSource) throws(TLSError) -> [UInt8] {
        guard engine == nil, !failed else { throw TLSError(.invalidState("start was called before")) }
        var created = try ClientEngine(configuration: configuration, random: &random)
        let flight = try created.firstFlight()
        engine = created
        return flight
    }

    /// Processes received bytes, split anywhere.
    ///
    /// - Parameter bytes: Bytes from the server.
    /// - Returns: What to send, application data, and events.
    /// - Throws: ``TLSError``; the client is failed afterwards.
    public mutating func receive(_ bytes: some Collection<UInt8>) throws(TLSError) -> TLSClientOutput {
        try guarded { (engine: inout ClientEngine) throws(TLSError) in try engine.receive(bytes) }
    }

    /// Protects application data (after the handshake), in records of at most 2^14 bytes.
    ///
    /// - Parameter applicationData: The bytes to send.
    /// - Returns: The records.
    /// - Throws: ``TLSError/Reason/invalidState(_:)`` before the handshake completed
    ///   or after the server closed.
    public mutating func seal(_ applicationData: some Collection<UInt8>) throws(TLSError) -> [UInt8] {
        let data = Array(applicationData)
        return try guarded { (engine: inout ClientEngine) throws(TLSError) in
            guard engine.handshakeDone else { throw TLSError(.invalidState("seal before the handshake completed")) }
            guard !data.isEmpty else { return [] }
            try engine.send(.applicationData, data)
            defer { engine.outgoing = [] }
            return engine.outgoing
        }
    }

    /// The close_notify record; the client sends nothing after it.
    ///
    /// - Returns: The record to send (protected once keys are in place).
    /// - Throws: ``TLSError/Reason/invalidState(_:)`` before `start`.
    public mutating func close() throws(TLSError) -> [UInt8] {
        let record = try guarded { (engine: inout ClientEngine) throws(TLSError) in
            try engine.send(.alert, TLSAlert.closeNotify.bytes)
            defer { engine.outgoing = [] }
            return engine.outgoing
        }
        closedByClient = true
        return record
    }

    /// The alert record for the error that ended the connection (protected if the
    /// keys allow), to send before closing the transport; `nil` when there is none.
    public var alertRecord: [UInt8]? {
        guard failed, let failureAlert else { return nil }
        // The engine is gone after a failure; the alert goes in plaintext, which
        // a server that lost sync of keys still reads (RFC 8446 §6 allows no
        // better once protection state is unknown).
        return makeRecord(.alert, failureAlert.bytes)
    }

    /// Whether the handshake completed (and was verified).
    public var isHandshakeComplete: Bool { engine?.handshakeDone ?? false }

    /// The session, once the handshake completed and was verified; `nil` before and
    /// after a failure.
    public var session: TLSSession? { failed ? nil : engine?.session }
}

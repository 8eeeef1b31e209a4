// A TLS connection from the command line: TackTLS's sans-I/O client driven over
// TCPConnection (start → send → receive → … until the handshake completes, then
// close_notify), with the options every connecting command shares (`--servername`,
// `--timeout`, `--tls`) read in one place.

import TackDER
import TackSignature
import TackTLS
import TackTrust
import TackX509

/// Where and how to connect: `tack fetch HOST[:PORT]`, `--connect HOST[:PORT]`.
struct Connection {
    /// The server.
    let address: ServerAddress
    /// The server_name sent (`--servername`; by default the host, none for an IP address).
    let serverName: String?
    /// The versions offered (`--tls 1.2|1.3`; by default both).
    let versions: [TLSProtocolVersion]
    /// `--timeout`: name resolution, connect and handshake together, in seconds.
    let timeout: Double
    /// How the host becomes addresses: the system's resolver; tests put a stand-in here.
    var resolver = NameResolver.system

    /// The options every connecting command takes with a value.
    static let valued: [String] = ["--servername", "--timeout", "--tls"]

    /// The default `--timeout`, in seconds.
    static let defaultTimeout = 10.0

    /// The options' help lines, the same in every command.
    static let optionsHelp = """
          --servername NAME  the server_name (SNI) to send; by default HOST, none
                             for an IP address (RFC 6066 §3)
          --timeout SECONDS  bound name resolution, connect and handshake together
                             (default 10)
          --tls 1.2|1.3      offer only this version (default: both, 1.3 preferred)
        """

    /// A connection to `text` (`HOST[:PORT]`) with the connecting options in `args`.
    /// - Throws: Usage errors (exit status 2) for a malformed address or option.
    init(_ text: String, option: String, args: Arguments) throws(CLIError) {
        address = try ServerAddress(text, option: option)
        if let name = try args.value("--servername") {
            // The name goes on the wire as a host_name: the one host grammar applies.
            let host = try parsePeer(name, option: "--servername")
            guard case .dnsName(let dnsName) = host.kind else {
                throw .usage("--servername \(name): an IP address cannot be a server_name (RFC 6066 §3)", code: "bad_server_name")
            }
            serverName = dnsName
        } else {
            serverName = address.serverName
        }
        if let text = try args.value("--timeout") {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw .usage("--timeout needs a number of seconds between 0 and 3600, not \(text)", code: "bad_timeout")
            }
            timeout = seconds
        } else {
            timeout = Self.defaultTimeout
        }
        switch try args.value("--tls") {
        case nil: versions = [.tls13, .tls12]
        case "1.3": versions = [.tls13]
        case "1.2": versions = [.tls12]
        case let other?: throw .usage("unknown --tls \(other) (1.2, 1.3)", code: "bad_tls_version")
        }
    }

    /// `--connect HOST[:PORT]` if given, with the connecting options; a usage error
    /// when a connecting option comes without it.
    static func option(_ args: Arguments) throws(CLIError) -> Connection? {
        guard let text = try args.value("--connect") else {
            for name in valued where try args.value(name) != nil { throw .usage("\(name) goes with --connect") }
            return nil
        }
        return try Connection(text, option: "--connect", args: args)
    }

    /// The handshake, with CertificateVerify and Finished checked and no trust decision
    /// (`tack fetch`, and `pin`/`show` with `--connect`).
    func fetch() throws(CLIError) -> TLSSession {
        try handshake(verification: .signaturesOnly)
    }

    /// Connects, runs the handshake under `verification`, sends close_notify and
    /// returns the verified session.
    ///
    /// - Parameters:
    ///   - verification: What the client checks (``TLSServerVerification``).
    ///   - random: The handshake's randomness: the system's generator, except when
    ///     Vectors/tls/generate.sh records flights with a seeded one.
    ///   - record: Called with every chunk sent (`true`) and received (`false`), in
    ///     order: the recorder of Vectors/tls.
    /// - Throws: `name_not_resolved`, `connection_refused`, `timed_out`,
    ///   `connection_failed`, `connection_closed` (the server hung up mid-handshake),
    ///   `not_tls` (the server's first bytes are no TLS record), or the handshake's
    ///   ``TLSError`` code (`tls.…`; the server's alert is `tls.peer_alert`).
    func handshake(verification: TLSServerVerification, random: inout some RandomSource,
                   record: ((_ sent: Bool, _ bytes: [UInt8]) -> Void)? = nil) throws(CLIError) -> TLSSession {
        let deadline = Deadline(seconds: timeout)
        let socket = try TCPConnection.open(address, deadline: deadline, resolver: resolver)
        var client = TLSClient(configuration: TLSClientConfiguration(serverName: serverName, versions: versions, verification: verification))
        let hello = try tls { () throws(TLSError) in try client.start(random: &random) }
        record?(true, hello)
        try socket.send(hello, phase: "handshaking")
        var received = 0
        while !client.isHandshakeComplete {
            let bytes = try socket.receive(phase: "waiting for the server's handshake")
            guard !bytes.isEmpty else {
                throw CLIError("\(address): the server closed the connection during the handshake", code: "connection_closed")
            }
            record?(false, bytes)
            if received < 5 { try Self.checkRecordHeader(bytes, at: received, address: address) }
            received += bytes.count
            let output = try tls { () throws(TLSError) in try client.receive(bytes) }
            if !output.bytesToSend.isEmpty {
                record?(true, output.bytesToSend)
                try socket.send(output.bytesToSend, phase: "handshaking")
            }
            if output.handshakeCompleted { break }
        }
        guard let session = client.session else {
            throw CLIError("\(address): the handshake ended without a verified session", code: "tls.no_session")
        }
        // close_notify (RFC 8446 §6.1); a server that already left is no failure here.
        if let closing = try? client.close() { try? socket.send(closing, phase: "closing") }
        return session
    }

    /// ``handshake(verification:random:record:)`` with the system's generator.
    func handshake(verification: TLSServerVerification) throws(CLIError) -> TLSSession {
        var random = SystemRandomNumberGenerator()
        return try handshake(verification: verification, random: &random)
    }

    /// Runs a TLS step, its failure as a CLIError with the library's code.
    private func tls<T>(_ step: () throws(TLSError) -> T) throws(CLIError) -> T {
        do {
            return try step()
        } catch {
            throw CLIError("\(address): TLS handshake failed: \(error)", code: error.code)
        }
    }

    /// The TLS record header's first bytes (RFC 8446 §5.1: a content type 20...24 and
    /// legacy_record_version 0x03xx): anything else (an HTTP reply, an SSH banner) is
    /// `not_tls`, shown as the text it starts with.
    static func checkRecordHeader(_ bytes: [UInt8], at offset: Int, address: ServerAddress) throws(CLIError) {
        var position = offset
        for byte in bytes.prefix(5 - offset) {
            let fits = switch position {
            case 0: (20...24).contains(byte)
            case 1: byte == 3
            default: true
            }
            guard fits else {
                let start = bytes.prefix(24)
                let firstLine = String(decoding: start, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
                let shown = isPlainText(start) ? "\"" + firstLine + "\"" : Hex.encode(start, separator: " ")
                throw CLIError("\(address): the server does not speak TLS (it answered \(shown))", code: "not_tls")
            }
            position += 1
        }
    }
}

extension Connection {
    /// What `verify --connect` judged: the decision made inside the handshake and the
    /// chain it was made on.
    struct Verified {
        let decision: TrustDecision
        let served: [Certificate]
    }

    /// The handshake with Tack's decision inside it (`verify --connect`).
    ///
    /// - Throws: The connection's failures (exit status 1); a decision that refused the
    ///   chain ends the handshake, and comes out as exit status 3 (not trusted:
    ///   `tls.untrusted.…`) or 4 (`tls.pin_mismatch`).
    func verify(_ evaluator: TrustEvaluator, host: PeerHost, policy: PinPolicy, time: Int64) throws(CLIError) -> Verified {
        let session: TLSSession
        do {
            session = try handshake(verification: .decision(evaluator, host: host, pinning: policy, time: time))
        } catch {
            if error.code.hasPrefix("tls.untrusted") { throw CLIError(error.description, status: .untrusted, code: error.code) }
            if error.code == "tls.pin_mismatch" { throw CLIError(error.description, status: .pinFailure, code: error.code) }
            throw error
        }
        guard let decision = session.decision else {
            throw CLIError("\(address): the handshake completed without a trust decision", code: "tls.no_decision")
        }
        var served: [Certificate] = []
        for (index, der) in session.certificates.enumerated() {
            switch decodeCertificate(der) {
            case .success(let certificate): served.append(certificate)
            case .failure(let failure):
                throw CLIError("\(address): certificate \(index + 1) of the served chain: \(failure)", code: "malformed_certificate")
            }
        }
        return Verified(decision: decision, served: served)
    }
}

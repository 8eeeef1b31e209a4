// `tack fetch`: the chain a server serves, from a TLS handshake Tack runs itself
// (CertificateVerify and Finished checked, no trust decision: that is `verify
// --connect`'s job, and a private CA's server must be fetchable).

import TackDER
import TackFormats
import TackTLS

enum FetchCommand {
    static let help = """
        USAGE: tack fetch HOST[:PORT] [--servername NAME] [--timeout SECONDS] [--tls 1.2|1.3]
                          [--format pem|json] [--json]

        Connects to HOST (port 443 unless given; an IPv6 address in brackets:
        [2001:db8::1]:443), runs a TLS 1.3 or 1.2 handshake with Tack's own client, and
        prints the chain the server sent as PEM, leaf first: what `openssl s_client
        -connect HOST:443 -showcerts` shows, without the rest. The server's signature
        (CertificateVerify, or the TLS 1.2 ServerKeyExchange) and its Finished are
        checked; whether the chain is trusted is not (see tack verify --connect).

        OPTIONS:
        \(Connection.optionsHelp)
          --format json      (or --json) one JSON object: protocol, cipher_suite, group,
                             signature_scheme, alpn, certificates (Base64 DER, leaf
                             first), stapled_ocsp and scts (Base64 of each)

        EXAMPLES:
          tack fetch example.com | tack show -
          tack fetch 192.0.2.1:8443 --servername api.example.com --json | jq .protocol
          tack fetch example.com | tack pin -
          tack fetch --help

        Exit status: 0 when the handshake completed and the server's signature and Finished
        checked out; 1 for a network or protocol failure (the message and code name it:
        connection_refused, timed_out, name_not_resolved, not_tls, connection_closed, or
        the handshake's tls.* code, such as tls.peer_alert with the server's alert);
        2 on a usage error, including an address that is not HOST[:PORT].
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: Set(["--format"] + Connection.valued), switches: ["--json"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        let named = try args.value("--format")
        if let named, !["pem", "text", "json"].contains(named) { throw .usage("unknown format \(named) (pem, json)") }
        if args.isSet("--json"), let named, named != "json" { throw .usage("--json and --format \(named) disagree") }
        let isJSON = args.isSet("--json") || named == "json"
        guard let target = args.operands.first else { throw .usage("tack fetch needs HOST[:PORT]") }
        guard args.operands.count == 1 else { throw .usage("tack fetch takes one HOST[:PORT], not \(args.operands.count)") }
        let session = try Connection(target, option: "HOST", args: args).fetch()
        if isJSON {
            io.emit(json(session).serialized())
        } else {
            io.writeOutput(pemChain(session.certificates))
        }
        return .success
    }

    /// The certificates as PEM blocks, leaf first.
    static func pemChain(_ certificates: [[UInt8]]) -> String {
        certificates.map { PEM.encode(label: "CERTIFICATE", bytes: $0) }.joined()
    }

    /// The session as `--format json` prints it.
    static func json(_ session: TLSSession) -> JSONValue {
        .object([
            ("protocol", .string(session.protocolVersion.description)),
            ("cipher_suite", .string(session.cipherSuite.description)),
            ("group", .string(session.group.description)),
            ("signature_scheme", .string(session.signatureScheme.description)),
            ("alpn", session.applicationProtocol.map(JSONValue.string) ?? .null),
            ("certificates", .strings(session.certificates.map(Base64.encode))),
            ("stapled_ocsp", .strings(session.stapledOCSPResponses.map(Base64.encode))),
            ("scts", .strings(session.signedCertificateTimestamps.map(Base64.encode))),
        ])
    }
}

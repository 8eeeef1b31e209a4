import Foundation
import TackFormats
import TackTLS
import TackTestSupport
import Testing

@testable import tack

/// The generator of Vectors/tls/recordings (run by Vectors/tls/generate.sh, which sets
/// TACK_RECORD_FLIGHTS=1; skipped otherwise): for each configuration of the loopback
/// matrix it starts `openssl s_server`, runs Tack's client with a seeded random source
/// (`DeterministicStream(state: seed)`) over a real socket, and writes what the server
/// sent (`NAME.server.bin`), what the client sent (`NAME.client.bin`) and the
/// manifest entry (the configuration and the negotiated parameters). The replay tests
/// (Tests/TackTLSTests/Replay*.swift) feed the server bytes to the same seeded client.
@Suite("Vectors/tls recorder", .enabled(if: ProcessInfo.processInfo.environment["TACK_RECORD_FLIGHTS"] != nil,
                                         "records only under Vectors/tls/generate.sh (TACK_RECORD_FLIGHTS=1)"))
struct FlightRecorder {
    @Test("record every server flight of the matrix")
    func record() throws {
        let directory = CLI.root + "/Vectors/tls/recordings"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var entries: [JSONValue] = []
        for (index, server) in serverCases.enumerated() {
            let stem = server.name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
                .split(separator: "-").joined(separator: "-")
            let seed = UInt64(0x7461_636B_0000_0000) | UInt64(index + 1)
            let process = try OpenSSLServer(leaf: server.leaf, arguments: server.arguments, connections: 1)
            let connection = try Connection("127.0.0.1:\(process.port)", option: "HOST",
                                            args: Arguments(["--servername", "localhost", "--timeout", "30"], valued: Set(Connection.valued)))
            var random = DeterministicStream(state: seed)
            var sent: [UInt8] = []
            var received: [UInt8] = []
            let session = try connection.handshake(verification: .signaturesOnly, random: &random) { isSent, bytes in
                if isSent { sent += bytes } else { received += bytes }
            }
            try Data(received).write(to: URL(fileURLWithPath: "\(directory)/\(stem).server.bin"))
            try Data(sent).write(to: URL(fileURLWithPath: "\(directory)/\(stem).client.bin"))
            entries.append(.object([
                ("name", .string(server.name)), ("stem", .string(stem)), ("seed", .string(String(seed, radix: 16))),
                ("server_name", .string("localhost")), ("versions", .strings(["TLSv1.3", "TLSv1.2"])),
                ("openssl_s_server", .strings(["-cert", "pki/leaf-\(server.leaf).pem", "-cert_chain", "pki/intermediate.pem"]
                    + server.arguments.map { $0.replacingOccurrences(of: "Vectors/tls/", with: "") })),
                ("chain", .string("pki/chain-\(server.leaf).pem")), ("anchor", .string("pki/root.pem")),
                ("time", .string("2030-01-01T00:00:00Z")),
                ("protocol", .string(session.protocolVersion.description)), ("cipher_suite", .string(session.cipherSuite.description)),
                ("group", .string(session.group.description)), ("signature_scheme", .string(session.signatureScheme.description)),
                ("certificates", .int(session.certificates.count)), ("stapled_ocsp", .int(session.stapledOCSPResponses.count)),
                ("scts", .int(session.signedCertificateTimestamps.count)),
                ("server_bytes", .int(received.count)), ("client_bytes", .int(sent.count)),
            ]))
        }
        let manifest = JSONValue.object([("recordings", .array(entries))]).serialized() + "\n"
        try manifest.write(toFile: "\(directory)/manifest.json", atomically: true, encoding: .utf8)
    }
}

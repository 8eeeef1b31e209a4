import Foundation
import TackFormats
import TackSignature
import TackTLS
import TackTestSupport
import Testing

@testable import tack

/// Whether TackTLS does more than throw not_implemented (its skeleton): the tests
/// that need a handshake started are skipped, with this reason, until it does.
let tlsClientImplemented: Bool = {
    var client = TLSClient(configuration: TLSClientConfiguration(serverName: "localhost", verification: .signaturesOnly))
    var random = SystemRandomNumberGenerator()
    let implemented: Bool
    do throws(TLSError) {
        _ = try client.start(random: &random)
        implemented = true
    } catch {
        implemented = error.code != "tls.not_implemented"
    }
    return implemented
}()

/// Whether the loopback tests run: openssl present (always in CI, where its absence
/// fails), and a TackTLS client.
private let loopbackRuns = tlsClientImplemented && VectorAvailability.runs(when: LoopbackServers.openssl != nil, requiredInCI: true)

/// One `openssl s_server` configuration and what `tack fetch --json` must report.
struct ServerCase: CustomStringConvertible, Sendable {
    let name: String
    let leaf: String
    let arguments: [String]
    let protocolName: String
    let cipherSuite: String
    let group: String?
    var staple = false
    var scts = false

    var description: String { name }
}

private let pki = LoopbackServers.pki
private let tls13 = ["-tls1_3"]
private let tls12 = ["-tls1_2"]

/// The matrix of issue 34 (without -ciphersuites the server takes the client's first
/// suite, AES-128-GCM): TLS 1.3 × each suite, × each group (P-256 and P-384 through a
/// HelloRetryRequest: the client's first key share is X25519 alone), × each leaf
/// key type; TLS 1.2 × each suite; the OCSP staple; SCTs; a chain over several records.
let serverCases: [ServerCase] = [
    ServerCase(name: "1.3 AES-128-GCM", leaf: "rsa", arguments: tls13 + ["-ciphersuites", "TLS_AES_128_GCM_SHA256", "-groups", "X25519"],
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: "x25519"),
    ServerCase(name: "1.3 AES-256-GCM", leaf: "rsa", arguments: tls13 + ["-ciphersuites", "TLS_AES_256_GCM_SHA384", "-groups", "X25519"],
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_256_GCM_SHA384", group: "x25519"),
    ServerCase(name: "1.3 ChaCha20-Poly1305", leaf: "rsa", arguments: tls13 + ["-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256", "-groups", "X25519"],
               protocolName: "TLSv1.3", cipherSuite: "TLS_CHACHA20_POLY1305_SHA256", group: "x25519"),
    ServerCase(name: "1.3 P-256 via HRR", leaf: "rsa", arguments: tls13 + ["-groups", "P-256"],
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: "secp256r1"),
    ServerCase(name: "1.3 P-384 via HRR", leaf: "rsa", arguments: tls13 + ["-groups", "P-384"],
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: "secp384r1"),
    ServerCase(name: "1.3 ECDSA P-256 leaf", leaf: "p256", arguments: tls13,
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: nil),
    ServerCase(name: "1.3 ECDSA P-384 leaf", leaf: "p384", arguments: tls13,
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: nil),
    ServerCase(name: "1.3 Ed25519 leaf", leaf: "ed25519", arguments: tls13,
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: nil),
    ServerCase(name: "1.3 OCSP staple", leaf: "rsa", arguments: tls13 + ["-status_file", "\(pki)/ocsp-leaf-rsa.der"],
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: nil, staple: true),
    ServerCase(name: "1.3 SCTs", leaf: "rsa", arguments: tls13 + ["-serverinfo", "\(pki)/serverinfo-sct.pem"],
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: nil, scts: true),
    ServerCase(name: "1.3 chain over several records", leaf: "big", arguments: tls13,
               protocolName: "TLSv1.3", cipherSuite: "TLS_AES_128_GCM_SHA256", group: nil),
    ServerCase(name: "1.2 ECDHE-RSA-AES128-GCM", leaf: "rsa", arguments: tls12 + ["-cipher", "ECDHE-RSA-AES128-GCM-SHA256"],
               protocolName: "TLSv1.2", cipherSuite: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", group: nil),
    ServerCase(name: "1.2 ECDHE-RSA-AES256-GCM", leaf: "rsa", arguments: tls12 + ["-cipher", "ECDHE-RSA-AES256-GCM-SHA384"],
               protocolName: "TLSv1.2", cipherSuite: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", group: nil),
    ServerCase(name: "1.2 ECDHE-RSA-CHACHA20", leaf: "rsa", arguments: tls12 + ["-cipher", "ECDHE-RSA-CHACHA20-POLY1305"],
               protocolName: "TLSv1.2", cipherSuite: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", group: nil),
    ServerCase(name: "1.2 ECDHE-ECDSA-AES128-GCM", leaf: "p256", arguments: tls12 + ["-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"],
               protocolName: "TLSv1.2", cipherSuite: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", group: nil),
    ServerCase(name: "1.2 ECDHE-ECDSA-AES256-GCM", leaf: "p256", arguments: tls12 + ["-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384"],
               protocolName: "TLSv1.2", cipherSuite: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", group: nil),
    ServerCase(name: "1.2 ECDHE-ECDSA-CHACHA20", leaf: "p256", arguments: tls12 + ["-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"],
               protocolName: "TLSv1.2", cipherSuite: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", group: nil),
    ServerCase(name: "1.2 OCSP staple and SCTs", leaf: "rsa",
               arguments: tls12 + ["-status_file", "\(pki)/ocsp-leaf-rsa.der", "-serverinfo", "\(pki)/serverinfo-sct.pem"],
               protocolName: "TLSv1.2", cipherSuite: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", group: nil, staple: true, scts: true),
]

/// A time inside the test PKI's validity (2026-01-01 to 2046-01-01).
private let testTime = "2030-01-01T00:00:00Z"

@Suite("tack fetch and --connect against openssl s_server on 127.0.0.1",
       .enabled(if: loopbackRuns, "needs openssl on PATH and a TackTLS handshake (the skeleton throws not_implemented)"),
       .serialized)
struct LoopbackTLSTests {
    @Test("fetch --json reports the negotiated parameters and the served chain", arguments: serverCases)
    func fetch(_ server: ServerCase) throws {
        let process = try OpenSSLServer(leaf: server.leaf, arguments: server.arguments, connections: 2)
        defer { process.stop() }
        let address = "127.0.0.1:\(process.port)"
        let document = try CLI.json(["fetch", address, "--servername", "localhost", "--timeout", "20", "--json"], schema: "fetch")
        #expect(document["protocol"]?.stringValue == server.protocolName)
        #expect(document["cipher_suite"]?.stringValue == server.cipherSuite)
        if let group = server.group { #expect(document["group"]?.stringValue == group) }
        let certificates = document["certificates"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let expected = try PEMChain.base64DER(CLI.text("\(pki)/chain-\(server.leaf).pem"))
        #expect(certificates == expected, "the served chain, leaf first")
        #expect((document["stapled_ocsp"]?.arrayValue?.count ?? 0) == (server.staple ? 1 : 0))
        if server.staple {
            let staple = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/\(pki)/ocsp-leaf-rsa.der")).base64EncodedString()
            #expect(document["stapled_ocsp"]?.arrayValue?.first?.stringValue == staple)
        }
        if server.scts {
            let sct = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/\(pki)/sct.bin")).base64EncodedString()
            #expect(document["scts"]?.arrayValue?.compactMap(\.stringValue) == [sct])
        } else {
            #expect(document["scts"]?.arrayValue?.isEmpty == true)
        }
        // The PEM form: the same chain.
        let pem = CLI.run(["fetch", address, "--servername", "localhost", "--timeout", "20"])
        #expect(pem.status == .success, "\(pem.errors)")
        #expect(PEMChain.base64DER(pem.output) == expected)
    }

    @Test("verify --connect: trusted to the test root; not trusted (3) to another; a pin failure (4)",
          arguments: serverCases.filter { ["1.3 AES-128-GCM", "1.3 OCSP staple", "1.2 ECDHE-ECDSA-AES128-GCM"].contains($0.name) })
    func verify(_ server: ServerCase) throws {
        let process = try OpenSSLServer(leaf: server.leaf, arguments: server.arguments, connections: 3)
        defer { process.stop() }
        let address = "127.0.0.1:\(process.port)"
        let trusted = try CLI.json(["verify", "--connect", address, "--servername", "localhost", "--roots", "\(pki)/root.pem",
                                    "--at", testTime, "--json"], schema: "verify")
        #expect(trusted["verdict"]?.stringValue == "trusted")
        #expect(trusted["host"]?.stringValue == "localhost", "--host defaults to the server name")
        #expect(trusted["path"]?.arrayValue?.count == 3)

        let untrusted = CLI.run(["verify", "--connect", address, "--servername", "localhost", "--roots", "Vectors/certs/chain-root.pem",
                                 "--at", testTime])
        #expect(untrusted.status == .untrusted, "\(untrusted.errors)")
        #expect(untrusted.failure?.code.hasPrefix("tls.untrusted") == true, "\(String(describing: untrusted.failure?.code))")

        let policy = try pinPolicy(host: "localhost", pin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        defer { try? FileManager.default.removeItem(atPath: policy) }
        let pinned = CLI.run(["verify", "--connect", address, "--servername", "localhost", "--roots", "\(pki)/root.pem",
                              "--at", testTime, "--policy", policy])
        #expect(pinned.status == .pinFailure, "\(pinned.errors)")
    }

    @Test("pin --connect and show --connect print what they print for the chain's file")
    func pinAndShow() throws {
        let process = try OpenSSLServer(leaf: "p256", arguments: tls13, connections: 2)
        defer { process.stop() }
        let address = "127.0.0.1:\(process.port)"
        let pin = CLI.run(["pin", "--connect", address, "--servername", "localhost"])
        let pinFile = CLI.run(["pin", "\(pki)/chain-p256.pem"])
        #expect(pin.status == .success, "\(pin.errors)")
        #expect(pin.output == pinFile.output)
        let show = CLI.run(["show", "--connect", address, "--servername", "localhost", "--at", testTime])
        let showFile = CLI.run(["show", "\(pki)/chain-p256.pem", "--at", testTime])
        #expect(show.status == .success, "\(show.errors)")
        #expect(show.output == showFile.output.replacingOccurrences(of: "\(pki)/chain-p256.pem", with: address))
    }

    @Test("--tls 1.2 against a 1.3-only server fails with the server's alert, status 1")
    func versionRestricted() throws {
        let process = try OpenSSLServer(leaf: "rsa", arguments: tls13, connections: 1)
        defer { process.stop() }
        let run = CLI.run(["fetch", "127.0.0.1:\(process.port)", "--tls", "1.2", "--timeout", "20"])
        #expect(run.status == .failure)
        #expect(run.failure?.code.hasPrefix("tls.") == true, "\(String(describing: run.failure?.code))")
    }
}

@Suite("tack fetch: network failures, each with its code (no openssl needed)", .serialized)
struct LoopbackFailureTests {
    @Test("a server that answers HTTP is not TLS", .enabled(if: tlsClientImplemented, "TackTLS throws not_implemented"))
    func notTLS() throws {
        let server = try PlainServer(reply: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { server.stop() }
        let run = CLI.run(["fetch", "127.0.0.1:\(server.port)", "--timeout", "5"])
        #expect(run.status == .failure)
        #expect(run.failure?.code == "not_tls")
        #expect(run.errors.contains("HTTP/1.1 400 Bad Request"))
    }

    @Test("a server that accepts and stays silent times out within the bound", .enabled(if: tlsClientImplemented, "TackTLS throws not_implemented"))
    func silent() throws {
        let server = try PlainServer(reply: nil)
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let run = CLI.run(["fetch", "127.0.0.1:\(server.port)", "--timeout", "0.5", "--json"])
        let elapsed = clock.now - start
        #expect(run.status == .failure)
        #expect(run.failure?.code == "timed_out")
        #expect(elapsed < .seconds(5), "bounded by --timeout 0.5 (took \(elapsed))")
        let error = try run.json()
        #expect(error["error"]?["code"]?.stringValue == "timed_out")
    }

    @Test("a port where nothing listens is refused")
    func refused() throws {
        let port = try PlainServer.refusedPort()
        let run = CLI.run(["fetch", "127.0.0.1:\(port)", "--timeout", "5"])
        #expect(run.status == .failure)
        #expect(run.failure?.code == "connection_refused")
    }

    @Test("addresses: HOST[:PORT], [v6]:port, and usage errors (status 2)")
    func addresses() throws {
        let v6 = try ServerAddress("[::1]:8443", option: "HOST")
        #expect(v6.port == 8443 && v6.isIPAddress && v6.serverName == nil && v6.description == "[::1]:8443")
        let bare = try ServerAddress("::1", option: "HOST")
        #expect(bare.port == 443 && bare.isIPAddress)
        let name = try ServerAddress("Example.COM", option: "HOST")
        #expect(name.port == 443 && name.serverName == "example.com" && name.description == "example.com:443")
        let ipv4 = try ServerAddress("192.0.2.1:1", option: "HOST")
        #expect(ipv4.serverName == nil && ipv4.port == 1)
        for bad in ["example.com:0", "example.com:65536", "example.com:https", ":443", "[::1", "[::1]x", "exa mple.com"] {
            let run = CLI.run(["fetch", bad])
            #expect(run.status == .usage, "\(bad)")
        }
        #expect(CLI.run(["fetch"]).status == .usage)
        #expect(CLI.run(["fetch", "a.example", "b.example"]).status == .usage)
        #expect(CLI.run(["fetch", "a.example", "--tls", "1.1"]).status == .usage)
        #expect(CLI.run(["fetch", "a.example", "--timeout", "-1"]).status == .usage)
        #expect(CLI.run(["fetch", "a.example", "--servername", "192.0.2.1"]).status == .usage)
        #expect(CLI.run(["pin", "--servername", "a.example", "x.pem"]).status == .usage, "--servername goes with --connect")
        #expect(CLI.run(["pin", "--connect", "a.example", "x.pem"]).status == .usage, "FILEs or --connect")
    }

    @Test("a name that does not resolve")
    func unresolved() throws {
        // .invalid never resolves (RFC 6761 §6.4).
        let run = CLI.run(["fetch", "no-such-host.tack.invalid", "--timeout", "5"])
        #expect(run.status == .failure)
        #expect(run.failure?.code == "name_not_resolved")
    }
}

/// The certificates of PEM text, as Base64 DER.
enum PEMChain {
    static func base64DER(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("-----BEGIN CERTIFICATE") {
                current = ""
            } else if line.hasPrefix("-----END CERTIFICATE") {
                if let body = current, let der = Data(base64Encoded: body) { blocks.append(der.base64EncodedString()) }
                current = nil
            } else if current != nil {
                current? += line.trimmingCharacters(in: .whitespaces)
            }
        }
        return blocks
    }
}

/// A Tack JSON pin policy for `host` with one (wrong) enforced pin, in a temporary file.
private func pinPolicy(host: String, pin: String) throws -> String {
    let path = NSTemporaryDirectory() + "tack-loopback-policy-\(getpid()).json"
    let json = """
        {"version": 1, "domains": {"\(host)": {"leafIdentities": ["\(pin)", "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA="]}}}
        """
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

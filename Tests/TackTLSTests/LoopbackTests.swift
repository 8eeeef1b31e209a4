import Foundation
import Testing
import TackTLS
import TackTrust
import TackTestSupport

/// Handshakes against `openssl s_server` on 127.0.0.1: each TLS 1.3 suite and group
/// (HelloRetryRequest with a P-256-only or P-384-only server), each leaf key type, each TLS 1.2
/// suite. Skipped with a message where openssl is absent, failing when CI=true.
/// Whether the loopback suites run: where openssl is installed, and always in CI,
/// where its absence fails them (LoopbackServer.start throws) instead of skipping.
let loopbackTestsRun = VectorAvailability.runs(when: LoopbackServer.opensslPath != nil, requiredInCI: true)

@Suite("TLS loopback against openssl s_server", .serialized,
       .enabled(if: loopbackTestsRun, "openssl is not installed (a failure when CI=true)"))
struct LoopbackTests {
    struct Case: CustomStringConvertible, Sendable {
        let identity: String
        let arguments: [String]
        let version: TLSProtocolVersion
        let suite: TLSCipherSuite
        let group: TLSNamedGroup
        var description: String { identity + " " + suite.description + " " + group.description }
    }

    static let cases: [Case] = [
        Case(identity: "rsa", arguments: ["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256", "-groups", "x25519"], version: .tls13, suite: .aes128GCMSHA256, group: .x25519),
        Case(identity: "rsa", arguments: ["-tls1_3", "-ciphersuites", "TLS_AES_256_GCM_SHA384", "-groups", "P-256"], version: .tls13, suite: .aes256GCMSHA384, group: .secp256r1),
        Case(identity: "p256", arguments: ["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256", "-groups", "x25519"], version: .tls13, suite: .chacha20Poly1305SHA256, group: .x25519),
        // A P-256-only (above) or P-384-only server answers the X25519 share with a HelloRetryRequest.
        Case(identity: "p384", arguments: ["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256", "-groups", "P-384"], version: .tls13, suite: .aes128GCMSHA256, group: .secp384r1),
        Case(identity: "ed25519", arguments: ["-tls1_3", "-groups", "x25519"], version: .tls13, suite: .aes128GCMSHA256, group: .x25519),
        Case(identity: "rsapss", arguments: ["-tls1_3", "-groups", "x25519"], version: .tls13, suite: .aes128GCMSHA256, group: .x25519),
        Case(identity: "rsa", arguments: ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256", "-groups", "x25519"], version: .tls12, suite: .ecdheRSAWithAES128GCMSHA256, group: .x25519),
        // A CertificateRequest (-verify: optional) answered with an empty Certificate, in 1.3 and 1.2.
        Case(identity: "p256", arguments: ["-tls1_3", "-verify", "1", "-groups", "x25519"], version: .tls13, suite: .aes128GCMSHA256, group: .x25519),
        Case(identity: "p256", arguments: ["-tls1_2", "-verify", "1", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-groups", "x25519"], version: .tls12, suite: .ecdheECDSAWithAES128GCMSHA256, group: .x25519),
        Case(identity: "rsa", arguments: ["-tls1_2", "-cipher", "ECDHE-RSA-AES256-GCM-SHA384", "-groups", "P-256"], version: .tls12, suite: .ecdheRSAWithAES256GCMSHA384, group: .secp256r1),
        Case(identity: "rsa", arguments: ["-tls1_2", "-cipher", "ECDHE-RSA-CHACHA20-POLY1305", "-groups", "x25519"], version: .tls12, suite: .ecdheRSAWithChaCha20Poly1305SHA256, group: .x25519),
        Case(identity: "p256", arguments: ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-groups", "P-384"], version: .tls12, suite: .ecdheECDSAWithAES128GCMSHA256, group: .secp384r1),
        Case(identity: "p384", arguments: ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384", "-groups", "x25519"], version: .tls12, suite: .ecdheECDSAWithAES256GCMSHA384, group: .x25519),
        Case(identity: "p256", arguments: ["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305", "-groups", "x25519"], version: .tls12, suite: .ecdheECDSAWithChaCha20Poly1305SHA256, group: .x25519),
    ]

    /// The scheme family each leaf's key must sign with.
    static let schemePrefix = ["rsa": "rsa_", "p256": "ecdsa_secp256r1", "p384": "ecdsa_secp384r1", "ed25519": "ed25519", "rsapss": "rsa_pss_pss"]

    @Test("a handshake, a GET and close_notify", arguments: cases)
    func handshake(_ testCase: Case) throws {
        let server = try LoopbackServer.start(identity: testCase.identity, arguments: testCase.arguments)
        defer { server.stop() }
        let configuration = TLSClientConfiguration(serverName: "localhost", verification: .signaturesOnly)
        let (session, response, error) = try server.exchange(configuration)
        #expect(error == nil, "\(error?.description ?? "")")
        let session2 = try #require(session)
        #expect(session2.protocolVersion == testCase.version)
        #expect(session2.cipherSuite == testCase.suite)
        #expect(session2.group == testCase.group)
        #expect(session2.certificates.count == 2)
        // TLS 1.2's ECDSA schemes name the hash only (any curve may sign with SHA-256).
        let family = testCase.version == .tls12 && testCase.identity.hasPrefix("p") ? "ecdsa_" : Self.schemePrefix[testCase.identity] ?? "?"
        #expect(session2.signatureScheme.description.hasPrefix(family))
        #expect(response.hasPrefix("HTTP/1.0 200 ok"))
    }

    static func decision(anchored: Bool) throws -> TLSServerVerification {
        let anchors = anchored ? try AnchorStore(pemBundle: RepositoryPaths.vectorBytes("tls/pki/root.pem")) : AnchorStore()
        return .decision(
            TrustEvaluator(anchors: anchors), host: try PeerHost("localhost"), pinning: PinPolicy(rules: []),
            time: Int64(Date().timeIntervalSince1970))
    }

    @Test("Tack's decision before the client Finished: the test CA trusted, the chain accepted")
    func trustedDecision() throws {
        let server = try LoopbackServer.start(identity: "p256", arguments: ["-tls1_3"])
        defer { server.stop() }
        let (session, response, error) = try server.exchange(
            TLSClientConfiguration(serverName: "localhost", verification: try Self.decision(anchored: true)))
        #expect(error == nil, "\(error?.description ?? "")")
        #expect(session?.decision?.isTrusted == true)
        #expect(response.hasPrefix("HTTP/1.0 200 ok"))
    }

    @Test("an unknown CA aborts the handshake with unknown_ca and the trust failure", arguments: [TLSProtocolVersion.tls13, .tls12])
    func untrustedDecision(_ version: TLSProtocolVersion) throws {
        let server = try LoopbackServer.start(identity: "rsa", arguments: [version == .tls13 ? "-tls1_3" : "-tls1_2"])
        defer { server.stop() }
        let (session, _, error) = try server.exchange(
            TLSClientConfiguration(serverName: "localhost", verification: try Self.decision(anchored: false)))
        #expect(session == nil)
        #expect(error?.code.hasPrefix("tls.untrusted.") == true, "\(error?.code ?? "no error")")
        #expect(error?.alert == .unknownCA)
    }

    @Test("a stapled OCSP response reaches the session and the decision; a revoked one aborts with certificate_revoked",
          arguments: [TLSProtocolVersion.tls13, .tls12])
    func stapledOCSP(_ version: TLSProtocolVersion) throws {
        let directory = RepositoryPaths.vectors("tls/pki").path
        let versionFlag = version == .tls13 ? "-tls1_3" : "-tls1_2"
        let good = try LoopbackServer.start(identity: "p256", arguments: [versionFlag, "-status_file", directory + "/ocsp-leaf-p256.der"])
        let (session, _, error) = try good.exchange(
            TLSClientConfiguration(serverName: "localhost", verification: try Self.decision(anchored: true)))
        good.stop()
        #expect(error == nil, "\(error?.description ?? "")")
        #expect(session?.stapledOCSPResponses.count == 1)
        #expect(session?.decision?.isTrusted == true)

        let revoked = try LoopbackServer.start(identity: "p256", arguments: [versionFlag, "-status_file", directory + "/ocsp-leaf-p256-revoked.der"])
        defer { revoked.stop() }
        let (refused, _, failure) = try revoked.exchange(
            TLSClientConfiguration(serverName: "localhost", verification: try Self.decision(anchored: true)))
        #expect(refused == nil)
        #expect(failure?.code == "tls.untrusted.revoked", "\(failure?.code ?? "no error")")
        #expect(failure?.alert == .certificateRevoked)
    }
}

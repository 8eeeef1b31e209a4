import Testing
import TackTLS

@Suite("TLS registry names")
struct TLSNamesTests {
    @Test("cipher suites, groups, schemes and alerts carry their IANA names")
    func names() {
        #expect(TLSCipherSuite.aes128GCMSHA256.description == "TLS_AES_128_GCM_SHA256")
        #expect(TLSCipherSuite.ecdheRSAWithAES128GCMSHA256.description == "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256")
        #expect(TLSCipherSuite(rawValue: 0x00FF).description == "0x00ff")
        #expect(TLSNamedGroup.x25519.description == "x25519")
        #expect(TLSSignatureScheme.rsaPSSRSAESHA256.description == "rsa_pss_rsae_sha256")
        #expect(TLSAlert.handshakeFailure.description == "fatal handshake_failure")
        #expect(TLSProtocolVersion.tls13.description == "TLSv1.3")
        #expect(TLSError(.downgradeDetected).code == "tls.downgrade_detected")
        #expect(TLSError(.downgradeDetected).alert == .illegalParameter)
    }
}

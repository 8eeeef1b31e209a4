import Foundation
import Testing
import TackDER
import TackTestSupport
import TackTrust
import TackX509
@testable import TackPKCS12

/// Identities' chains (built by TackTrust's path builder over the file's
/// certificates) and their trust, on the generated CA → intermediate → client chain
/// (Vectors/pkcs12/trusted-*.pem: key identifiers, key usage, clientAuth EKU).
@Suite("PKCS #12 chains and trust")
struct PKCS12ChainTests {
    /// 2026-12-01T00:00:00Z, inside the generated certificates' validity.
    static let now: Int64 = 1_796_083_200

    static func anchors(_ file: String) throws -> AnchorStore {
        try AnchorStore(pemBundle: try RepositoryPaths.vectorBytes("pkcs12/" + file))
    }

    static func certificate(_ file: String) throws -> Certificate {
        let pem = try RepositoryPaths.vectorBytes("pkcs12/" + file)
        return try #require(try AnchorStore(pemBundle: pem).certificates.first)
    }

    @Test("The chain is the path builder's: a decoy with the intermediate's name and another key is passed over")
    func decoyIssuer() throws {
        let file = try PKCS12Tests.vector("assembled-decoy-issuer.p12").read()
        // File order: leaf, decoy, intermediate, root.
        #expect(file.certificates.count == 4)
        let decoy = file.certificates[1].certificate
        let intermediate = file.certificates[2].certificate
        // Matching by issuer name alone would have taken the decoy, first in the file.
        #expect(decoy.subjectBytes.elementsEqual(intermediate.subjectBytes))
        let identity = try #require(file.identities.first)
        #expect(identity.certificateIndex == 0)
        #expect(identity.chain.indices == [0, 2, 3])
        #expect(identity.chain.end == .selfIssued)
        #expect(!file.warnings.contains { if case .chainIncomplete = $0 { true } else { false } })
    }

    @Test("OpenSSL's file ends in the intermediate: the chain needs no anchor")
    func chainEndsInIntermediate() throws {
        let file = try PKCS12Tests.vector("openssl-trusted-client.p12").read()
        let identity = try #require(file.identities.first)
        let chain = identity.chain.indices.map { sha256Hex(file.certificates[$0].certificate) }
        #expect(chain == [sha256Hex(try Self.certificate("trusted-client-leaf.pem")),
                          sha256Hex(try Self.certificate("trusted-intermediate.pem"))])
        #expect(identity.chain.end == .issuerNotFound)
        #expect(identity.chain.signatureChecks == 1)
    }

    @Test("An issuer whose key does not verify the signature ends the chain with that failure")
    func rejectedIssuer() throws {
        let leaf = try Self.certificate("trusted-client-leaf.pem")
        let decoy = try Self.certificate("trusted-decoy-intermediate.pem")
        let chain = IssuerChain(leafAt: 0, in: [leaf, decoy])
        #expect(chain.indices == [0])
        guard case .issuerRejected(let failure) = chain.end else {
            Issue.record("expected issuerRejected, got \(chain.end)")
            return
        }
        #expect(failure.code == "bad_signature")
    }

    @Test("The file's chain budget is shared and, when spent, said: chainIncomplete")
    func chainBudget() throws {
        var options = PKCS12Options()
        options.readsFilesWithoutMAC = true
        options.chainBudget = Budget(signatureChecks: 1, buildSteps: 100, maxIntermediates: 6)
        let bytes = try PKCS12Tests.vector("assembled-decoy-issuer.p12").bytes()
        let file = try PKCS12File(berEncoded: bytes, passphrase: nil, options: options)
        let identity = try #require(file.identities.first)
        // The intermediate (its subject key identifier names the leaf's issuer key) is
        // tried first and linked with the one check; the root needs a second.
        #expect(identity.chain.indices == [0, 2])
        guard case .budgetExhausted(let failure) = identity.chain.end else {
            Issue.record("expected budgetExhausted, got \(identity.chain.end)")
            return
        }
        #expect(failure.code == "signature_budget_exhausted")
        #expect(file.warnings.contains(.chainIncomplete(certificateIndex: 0, identity.chain.end)))
    }

    @Test("The identity's chain is trusted as a TLS client under its root, and only so")
    func trustedIdentity() throws {
        let file = try PKCS12Tests.vector("openssl-trusted-client.p12").read()
        let identity = try #require(file.identities.first)
        let served = identity.chain.indices.map { file.certificates[$0].certificate }
        let root = try Self.certificate("trusted-root.pem")

        let client = TrustEvaluator(anchors: try Self.anchors("trusted-root.pem"),
                                    options: TrustOptions(purpose: .clientAuthentication))
        let trusted = client.evaluate(servedChain: served, host: nil, at: Self.now)
        #expect(trusted.isTrusted)
        guard case .trusted(let path, _) = trusted else { return }
        #expect(path.certificates == served + [root])

        // The leaf's EKU is clientAuth only: not a server certificate.
        let server = TrustEvaluator(anchors: try Self.anchors("trusted-root.pem"))
        #expect(server.evaluate(servedChain: served, host: try PeerHost("a.example"), at: Self.now).code
                == "extended_key_usage_mismatch")
        // Another CA: unknown issuer.
        let other = TrustEvaluator(anchors: try Self.anchors("ca.pem"), options: TrustOptions(purpose: .clientAuthentication))
        #expect(other.evaluate(servedChain: served, host: nil, at: Self.now).code == "unknown_issuer")
        // After the validity period (it ends 2035-12-30): expired.
        #expect(client.evaluate(servedChain: served, host: nil, at: 2_082_844_800).code == "expired")
    }
}

import Foundation
import Testing
import TackDER
import TackDigest
import TackSignature
import TackTestSupport
import TackX509

/// Certificates from a PEM file under the repository's Vectors/.
private func certificates(_ relativePath: String) throws -> [Certificate] {
    let url = RepositoryPaths.root.appendingPathComponent(relativePath)
    let blocks = try PEM.parse([UInt8](Data(contentsOf: url)))
    return try blocks.filter { $0.label == "CERTIFICATE" }.map { try Certificate(derEncoded: $0.bytes) }
}

private func certificate(_ relativePath: String) throws -> Certificate {
    try #require(try certificates(relativePath).first)
}

@Suite("Certificate signatures")
struct CertificateSignatureTests {
    static let pairs = ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa8192", "p256", "p384", "p521", "ed25519"]

    @Test("Each generated leaf verifies under its CA and each CA under itself", arguments: pairs)
    func generatedPairs(name: String) throws {
        let ca = try certificate("Vectors/certs/\(name)-ca.pem")
        let leaf = try certificate("Vectors/certs/\(name)-leaf.pem")
        try ca.verifySignature(issuedBy: ca, policy: .permissive)
        try leaf.verifySignature(issuedBy: ca, policy: .permissive)
        // Not under itself: a leaf's own key did not sign it.
        #expect(throws: SignatureError.invalidSignature) { try leaf.verifySignature(issuedBy: leaf, policy: .permissive) }
    }

    @Test("The bundled three-certificate chain verifies link by link")
    func chain() throws {
        let chain = try certificates("Vectors/certs/chain-example.pem")
        try #require(chain.count == 3)
        try chain[0].verifySignature(issuedBy: chain[1])
        try chain[1].verifySignature(issuedBy: chain[2])
        try chain[2].verifySignature(issuedBy: chain[2])
        // The root did not sign the leaf: same algorithm family, wrong key.
        #expect(throws: SignatureError.invalidSignature) { try chain[0].verifySignature(issuedBy: chain[2]) }
    }

    @Test("A keytool certificate whose ECDSA identifiers carry NULL (a deliberate leniency) verifies under its own key")
    func keytoolNullParameters() throws {
        let keytool = try certificate("Vectors/leniencies/keytool-ecdsa-null.pem")
        #expect(keytool.hasNullECDSASignatureParameters)
        try keytool.verifySignature(issuedBy: keytool, policy: .webPKI)
        // Not under another P-256 key.
        let other = try certificate("Vectors/certs/p256-ca.pem")
        #expect(throws: SignatureError.invalidSignature) { try keytool.verifySignature(issuedBy: other) }
    }

    @Test("A flipped bit in the signed bytes is an invalid signature, for every key type", arguments: pairs)
    func tamperedTBS(name: String) throws {
        let ca = try certificate("Vectors/certs/\(name)-ca.pem")
        let key = try SignatureVerificationKey(ca.publicKeyInfo)
        var tbs = Array(ca.tbsBytes)
        tbs[tbs.count / 2] ^= 0x01
        #expect(throws: SignatureError.invalidSignature) {
            try key.verifySignature(ca.signatureBytes, for: tbs, algorithm: ca.signatureAlgorithm, policy: .permissive)
        }
    }

    /// The digest form's answer and the message form's, as results.
    private static func bothForms(
        _ key: SignatureVerificationKey, signature: [UInt8], tbs: [UInt8], algorithm: SignatureAlgorithm
    ) throws -> (message: SignatureError?, digest: SignatureError?) {
        let digestAlgorithm = try #require(algorithm.digest)
        let digest = try digestAlgorithm.hash(tbs)
        var message: SignatureError?
        do { try key.verifySignature(signature, for: tbs, algorithm: algorithm, policy: .permissive) } catch { message = error }
        var byDigest: SignatureError?
        do { try key.verifySignature(signature, forDigest: digest, algorithm: algorithm, policy: .permissive) } catch { byDigest = error }
        return (message, byDigest)
    }

    @Test("The digest form answers as the message form, for every hash-then-sign key type, over seeded flips of the signed bytes and the signature",
          arguments: pairs.filter { $0 != "ed25519" } + ["pss-sig", "pss-key"])
    func digestForm(name: String) throws {
        let (ca, leaf): (Certificate, Certificate) = switch name {
        case "pss-sig": (try certificate("Vectors/signatures/certs/rsa-pss-sig-root.pem"), try certificate("Vectors/signatures/certs/rsa-pss-sig-root.pem"))
        case "pss-key": (try certificate("Vectors/signatures/certs/pss-key-root.pem"), try certificate("Vectors/signatures/certs/pss-key-root.pem"))
        default: (try certificate("Vectors/certs/\(name)-ca.pem"), try certificate("Vectors/certs/\(name)-leaf.pem"))
        }
        let key = try SignatureVerificationKey(ca.publicKeyInfo)
        let tbs = Array(leaf.tbsBytes)
        let signature = Array(leaf.signatureBytes)
        let untouched = try Self.bothForms(key, signature: signature, tbs: tbs, algorithm: leaf.signatureAlgorithm)
        #expect(untouched.message == nil && untouched.digest == nil)
        var stream = DeterministicStream(state: name.utf8.reduce(0xD16E_57F0) { $0 &* 31 &+ UInt64($1) })
        var failures = 0
        for round in 0..<12 {
            var flippedTBS = tbs
            var flippedSignature = signature
            if round % 2 == 0 {
                flippedTBS[Int(stream.next() % UInt64(tbs.count))] ^= 1 << UInt8(stream.next() % 8)
            } else {
                flippedSignature[Int(stream.next() % UInt64(signature.count))] ^= 1 << UInt8(stream.next() % 8)
            }
            let answers = try Self.bothForms(key, signature: flippedSignature, tbs: flippedTBS, algorithm: leaf.signatureAlgorithm)
            #expect(answers.message == answers.digest, "round \(round)")
            if answers.message != nil { failures += 1 }
        }
        #expect(failures == 12)
        // A digest of another length is named, not checked.
        let digest = try #require(leaf.signatureAlgorithm.digest).hash(tbs)
        #expect(throws: SignatureError.invalidParameters(.digestLengthMismatch)) {
            try key.verifySignature(signature, forDigest: digest.dropLast(), algorithm: leaf.signatureAlgorithm, policy: .permissive)
        }
    }

    @Test("Ed25519 signs the message itself: its digest form is refused by name")
    func digestFormEd25519() throws {
        let ca = try certificate("Vectors/certs/ed25519-ca.pem")
        let key = try SignatureVerificationKey(ca.publicKeyInfo)
        #expect(throws: SignatureError.unsupported(.messageRequired)) {
            try key.verifySignature(ca.signatureBytes, forDigest: try DigestAlgorithm.sha512.hash(Array(ca.tbsBytes)), algorithm: ca.signatureAlgorithm)
        }
        // The message form still verifies.
        try key.verifySignature(ca.signatureBytes, for: ca.tbsBytes, algorithm: ca.signatureAlgorithm)
    }

    @Test("An RSA signature algorithm with an EC key is a named mismatch, not a failed check")
    func algorithmKeyMismatch() throws {
        let rsaSigned = try certificate("Vectors/certs/rsa2048-leaf.pem")
        let ecIssuer = try certificate("Vectors/certs/p256-ca.pem")
        do {
            try rsaSigned.verifySignature(issuedBy: ecIssuer)
            Issue.record("expected a mismatch")
        } catch {
            #expect(error == .algorithmKeyMismatch(.algorithm(rsaSigned.signatureAlgorithm, key: ecIssuer.publicKeyInfo.algorithm)))
        }
        let ed = try certificate("Vectors/certs/ed25519-leaf.pem")
        let rsaIssuer = try certificate("Vectors/certs/rsa2048-ca.pem")
        #expect(throws: SignatureError.algorithmKeyMismatch(.algorithm(ed.signatureAlgorithm, key: rsaIssuer.publicKeyInfo.algorithm))) {
            try ed.verifySignature(issuedBy: rsaIssuer)
        }
    }

    @Test("A P-384 key with ECDSA-SHA256 verifies by default and is refused by the Web PKI policy")
    func curveHashPolicy() throws {
        let root = try certificate("Vectors/signatures/certs/p384-sha256-root.pem")
        try root.verifySignature(issuedBy: root)
        do {
            try root.verifySignature(issuedBy: root, policy: .webPKI)
            Issue.record("expected the Web PKI policy to refuse P-384 with SHA-256")
        } catch {
            guard case .algorithmKeyMismatch = error else {
                Issue.record("expected algorithmKeyMismatch, got \(error)")
                return
            }
        }
    }

    @Test("RSA keys below the policy minimum are refused by name")
    func rsaMinimum() throws {
        let ca = try certificate("Vectors/certs/rsa1024-ca.pem")
        #expect(throws: SignatureError.unsupported(.rsaModulusBelowPolicy(bits: 1024, minimum: 2048))) {
            try ca.verifySignature(issuedBy: ca)
        }
        try ca.verifySignature(issuedBy: ca, policy: .permissive)
    }

    @Test("RSASSA-PSS signatures verify under rsaEncryption keys and under PSS-restricted keys")
    func pss() throws {
        let pssSigned = try certificate("Vectors/signatures/certs/rsa-pss-sig-root.pem")
        try pssSigned.verifySignature(issuedBy: pssSigned)
        let pssKey = try certificate("Vectors/signatures/certs/pss-key-root.pem")
        try pssKey.verifySignature(issuedBy: pssKey)
        let leaf = try certificate("Vectors/certs/rsa3072-leaf.pem")
        try leaf.verifySignature(issuedBy: try certificate("Vectors/certs/rsa3072-ca.pem"))
        // A PSS-restricted key cannot verify a PKCS #1 v1.5 signature (RFC 4055 §1.2).
        let pkcs1 = try certificate("Vectors/certs/rsa2048-leaf.pem")
        let key = try SignatureVerificationKey(pssKey.publicKeyInfo)
        do {
            try key.verifySignature(pkcs1.signatureBytes, for: pkcs1.tbsBytes, algorithm: pkcs1.signatureAlgorithm)
            Issue.record("expected a mismatch")
        } catch {
            guard case .algorithmKeyMismatch = error else {
                Issue.record("expected algorithmKeyMismatch, got \(error)")
                return
            }
        }
    }

    @Test("Ed448 is refused by name")
    func ed448() throws {
        let ca = try certificate("Vectors/certs/ed448-ca.pem")
        #expect(throws: SignatureError.unsupported(.ed448)) {
            try ca.verifySignature(issuedBy: ca)
        }
    }

    @Test("Every self-signed root of the system CA bundle with a supported algorithm verifies")
    func systemBundleRoots() throws {
        try #require(!bundleRoots.isEmpty, "no \(SystemCABundle.path)")
        var verified = 0
        var refused: [String: Int] = [:]
        for root in bundleRoots where root.isSelfIssued {
            do {
                try root.verifySignature(issuedBy: root, policy: .permissive)
                verified += 1
            } catch {
                switch error {
                case .unsupported(let reason):
                    refused[reason.code, default: 0] += 1
                default:
                    Issue.record("root \(root.subjectBytes.count)-byte subject: \(error) (\(root.signatureAlgorithm))")
                }
            }
        }
        print("CA bundle: \(verified) self-signatures verified; refused by name: \(refused)")
        #expect(verified >= 100)
    }
}

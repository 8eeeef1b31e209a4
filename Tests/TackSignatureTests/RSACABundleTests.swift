import Testing

import TackDER
import TackX509
import TackDigest
import TackSignature
import TackTestSupport

/// Every RSA self-signature of the system CA bundle's roots verifies, through
/// `RSAPublicKey` directly (fields from TackX509's `Certificate`).
@Suite("RSA signatures of the system CA bundle")
struct RSACABundleTests {
    /// sha{224,256,384,512}WithRSAEncryption (RFC 4055 §5).
    static let pkcs1Hashes: Set<DigestAlgorithm> = [.sha224, .sha256, .sha384, .sha512]

    @Test("Every self-signed RSA root with a SHA-2 PKCS #1 v1.5 signature verifies; a flipped TBS bit does not")
    func selfSignatures() throws {
        try #require(!bundleRoots.isEmpty, "no \(SystemCABundle.path) on this machine")
        var verified = 0
        var skipped: [String: Int] = [:]
        for (index, certificate) in bundleRoots.enumerated() {
            guard certificate.publicKeyInfo.algorithm == .rsa else {
                skipped["non-RSA key", default: 0] += 1
                continue
            }
            guard certificate.isSelfIssued else {
                skipped["not self-issued", default: 0] += 1
                continue
            }
            guard case .rsaPKCS1v15(let digest) = certificate.signatureAlgorithm, Self.pkcs1Hashes.contains(digest) else {
                skipped["signature algorithm \(certificate.signatureAlgorithm)", default: 0] += 1
                continue
            }
            // RFC 4055 §5: the parameters of these algorithms are NULL.
            if let parameters = try certificate.signatureParameters() {
                #expect(parameters == [0x05, 0x00], "certificate \(index)")
            }
            let key = try RSAPublicKey(pkcs1DER: Array(certificate.publicKeyInfo.rawKey))
            let tbs = Array(certificate.tbsBytes)
            let signature = Array(certificate.signatureBytes)
            do {
                try key.verifyPKCS1v15Signature(signature, for: tbs, hash: digest)
                verified += 1
            } catch {
                Issue.record("certificate \(index): \(error)")
            }
            var tampered = tbs
            tampered[tampered.count / 2] ^= 0x01
            #expect(throws: SignatureError.invalidSignature) {
                try key.verifyPKCS1v15Signature(signature, for: tampered, hash: digest)
            }
        }
        let skipNote = skipped.keys.sorted().map { "\($0): \(skipped[$0] ?? 0)" }.joined(separator: ", ")
        print("CA bundle: \(verified) RSA self-signatures verified of \(bundleRoots.count) certificates; skipped \(skipNote)")
        #expect(verified > 50)
    }
}

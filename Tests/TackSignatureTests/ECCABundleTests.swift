import Foundation
import Testing

import TackDER
import TackX509
import TackDigest
import TackSignature
import TackTestSupport

/// Every ECDSA (and Ed25519, if any) self-signature of the system CA bundle's
/// roots verifies, through `ECDSAPublicKey` and `Ed25519PublicKey` directly
/// (fields, including the key's named curve, from TackX509's `Certificate`).
@Suite("ECDSA and Ed25519 signatures of the system CA bundle")
struct ECCABundleTests {
    /// ecdsa-with-SHA256/384/512 (RFC 5758 §3.2).
    static let ecdsaHashes: [DigestAlgorithm: String] = [.sha256: "SHA-256", .sha384: "SHA-384", .sha512: "SHA-512"]

    static func verify(_ key: ECDSAPublicKey, _ signature: [UInt8], _ message: [UInt8], hash: String) throws(SignatureError) {
        switch hash {
        case "SHA-256": try key.verifySignature(signature, for: message, hash: SHA256.self)
        case "SHA-384": try key.verifySignature(signature, for: message, hash: SHA384.self)
        default: try key.verifySignature(signature, for: message, hash: SHA512.self)
        }
    }

    @Test("Every self-signed ECDSA root verifies; a flipped TBS bit does not")
    func selfSignatures() throws {
        try #require(!bundleRoots.isEmpty, "no \(SystemCABundle.path) on this machine")
        var verified: [String: Int] = [:]
        var skipped: [String: Int] = [:]
        for (index, certificate) in bundleRoots.enumerated() {
            let keyAlgorithm = certificate.publicKeyInfo.algorithm
            let namedCurve: ECCurve?
            switch keyAlgorithm {
            case .ec(let curve): namedCurve = curve
            case .ecOtherCurve(let oid):
                skipped["curve \(oid)", default: 0] += 1
                continue
            case .ed25519: namedCurve = nil
            default:
                skipped["non-EC key", default: 0] += 1
                continue
            }
            guard certificate.isSelfIssued else {
                skipped["not self-issued", default: 0] += 1
                continue
            }
            let tbs = Array(certificate.tbsBytes)
            var tampered = tbs
            tampered[tampered.count / 2] ^= 0x01
            let signature = Array(certificate.signatureBytes)
            let keyBytes = Array(certificate.publicKeyInfo.rawKey)

            if keyAlgorithm == .ed25519 {
                #expect(certificate.signatureAlgorithm == .ed25519, "certificate \(index)")
                let key = try Ed25519PublicKey(rawRepresentation: keyBytes)
                do {
                    try key.verifySignature(signature, for: tbs)
                    verified["Ed25519", default: 0] += 1
                } catch {
                    Issue.record("certificate \(index): \(error)")
                }
                #expect(throws: SignatureError.invalidSignature) { try key.verifySignature(signature, for: tampered) }
                continue
            }

            guard let curve = namedCurve else { continue }
            guard case .ecdsa(let digest) = certificate.signatureAlgorithm, let hash = Self.ecdsaHashes[digest] else {
                skipped["signature algorithm \(certificate.signatureAlgorithm)", default: 0] += 1
                continue
            }
            // RFC 5758 §3.2: the parameters field MUST be absent.
            #expect(try certificate.signatureParameters() == nil, "certificate \(index)")
            let key = try ECDSAPublicKey(curve: curve, x962Representation: keyBytes)
            do {
                try Self.verify(key, signature, tbs, hash: hash)
                verified["\(curve.name)/\(hash)", default: 0] += 1
            } catch {
                Issue.record("certificate \(index): \(error)")
            }
            #expect(throws: SignatureError.invalidSignature) { try Self.verify(key, signature, tampered, hash: hash) }
        }
        let verifiedNote = verified.keys.sorted().map { "\($0): \(verified[$0] ?? 0)" }.joined(separator: ", ")
        let skipNote = skipped.keys.sorted().map { "\($0): \(skipped[$0] ?? 0)" }.joined(separator: ", ")
        print("CA bundle: EC self-signatures verified \(verifiedNote); skipped \(skipNote)")
        #expect(verified.values.reduce(0, +) > 10)
    }
}

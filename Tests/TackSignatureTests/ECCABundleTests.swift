import Foundation
import Testing

import TackDER
import TackSHA2
import TackSignature
import TackTestSupport

/// Every ECDSA (and Ed25519, if any) self-signature of the system CA bundle's
/// roots verifies. Certificates come from TackTestSupport's `SystemCABundle`; the
/// fields are read here with TackDER, including the named-curve parameter of
/// the key (RFC 5480 §2.1.1) that the RSA reader skips.
@Suite("ECDSA and Ed25519 signatures of the system CA bundle")
struct ECCABundleTests {
    struct Fields {
        var tbs: Range<Int>
        var issuer: Range<Int>
        var subject: Range<Int>
        var keyAlgorithm: OID
        var curve: OID?
        var key: Range<Int>
        var signatureAlgorithm: OID
        var hasSignatureParameters: Bool
        var signature: Range<Int>
    }

    /// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
    /// (RFC 5280 §4.1), reading just what the test needs.
    static func fields(of certificate: [UInt8]) throws(DERError) -> Fields {
        try DER.read(certificate) { (reader) throws(DERError) -> Fields in
            var outer = try reader.enterSequence()
            let tbsElement = try outer.readElement(.sequence)
            var tbs = try outer.contentsReader(of: tbsElement)
            if var version = try tbs.enterOptionalExplicit(0) {
                _ = try version.readInteger(Int.self)
                try version.expectEnd()
            }
            _ = try tbs.readIntegerElement()  // serialNumber
            _ = try tbs.readElement(.sequence)  // signature
            let issuer = try tbs.readElement(.sequence)
            _ = try tbs.readElement(.sequence)  // validity
            let subject = try tbs.readElement(.sequence)
            var spki = try tbs.enterSequence()
            var keyAlgorithm = try spki.enterSequence()
            let keyOID = try keyAlgorithm.readObjectIdentifier()
            var curve: OID?
            if keyOID == Self.ecPublicKey { curve = try keyAlgorithm.readObjectIdentifier() }
            while !keyAlgorithm.isAtEnd { _ = try keyAlgorithm.readElement() }
            let keyBits = try spki.readBitString()
            try spki.expectEnd()
            while !tbs.isAtEnd { _ = try tbs.readElement() }  // extensions etc.
            var signatureAlgorithm = try outer.enterSequence()
            let signatureOID = try signatureAlgorithm.readObjectIdentifier()
            let hasParameters = !signatureAlgorithm.isAtEnd
            while !signatureAlgorithm.isAtEnd { _ = try signatureAlgorithm.readElement() }
            let signatureBits = try outer.readBitString()
            try outer.expectEnd()
            return Fields(
                tbs: tbsElement.encodedRange, issuer: issuer.encodedRange, subject: subject.encodedRange,
                keyAlgorithm: keyOID, curve: curve, key: keyBits.bytesRange,
                signatureAlgorithm: signatureOID, hasSignatureParameters: hasParameters,
                signature: signatureBits.bytesRange)
        }
    }

    /// id-ecPublicKey (RFC 5480 §2.1.1).
    static let ecPublicKey = OID(1, 2, 840, 10045, 2, 1)
    /// id-Ed25519 (RFC 8410 §3).
    static let ed25519 = OID(1, 3, 101, 112)
    /// Named curves (RFC 5480 §2.1.1.1).
    static let curves: [OID: ECDSAPublicKey.Curve] = [
        OID(1, 2, 840, 10045, 3, 1, 7): .p256,
        OID(1, 3, 132, 0, 34): .p384,
        OID(1, 3, 132, 0, 35): .p521,
    ]
    /// ecdsa-with-SHA256/384/512 (RFC 5758 §3.2).
    static let ecdsaHashes: [OID: String] = [
        OID(1, 2, 840, 10045, 4, 3, 2): "SHA-256",
        OID(1, 2, 840, 10045, 4, 3, 3): "SHA-384",
        OID(1, 2, 840, 10045, 4, 3, 4): "SHA-512",
    ]

    static func verify(_ key: ECDSAPublicKey, _ signature: [UInt8], _ message: [UInt8], hash: String) throws(SignatureError) {
        switch hash {
        case "SHA-256": try key.verifySignature(signature, for: message, hash: SHA256.self)
        case "SHA-384": try key.verifySignature(signature, for: message, hash: SHA384.self)
        default: try key.verifySignature(signature, for: message, hash: SHA512.self)
        }
    }

    @Test("Every self-signed ECDSA root verifies; a flipped TBS bit does not")
    func selfSignatures() throws {
        let certificates = SystemCABundle.certificates
        try #require(!certificates.isEmpty, "no \(SystemCABundle.path) on this machine")
        var verified: [String: Int] = [:]
        var skipped: [String: Int] = [:]
        for (index, certificate) in certificates.enumerated() {
            let f = try Self.fields(of: certificate)
            guard f.keyAlgorithm == Self.ecPublicKey || f.keyAlgorithm == Self.ed25519 else {
                skipped["non-EC key", default: 0] += 1
                continue
            }
            guard certificate[f.issuer] == certificate[f.subject] else {
                skipped["not self-issued", default: 0] += 1
                continue
            }
            let tbs = Array(certificate[f.tbs])
            var tampered = tbs
            tampered[tampered.count / 2] ^= 0x01
            let signature = Array(certificate[f.signature])
            let keyBytes = Array(certificate[f.key])

            if f.keyAlgorithm == Self.ed25519 {
                #expect(f.signatureAlgorithm == Self.ed25519, "certificate \(index)")
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

            guard let curveOID = f.curve, let curve = Self.curves[curveOID] else {
                skipped["curve \(String(describing: f.curve))", default: 0] += 1
                continue
            }
            guard let hash = Self.ecdsaHashes[f.signatureAlgorithm] else {
                skipped["signature algorithm \(f.signatureAlgorithm)", default: 0] += 1
                continue
            }
            // RFC 5758 §3.2: the parameters field MUST be absent.
            #expect(!f.hasSignatureParameters, "certificate \(index)")
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

import Testing

import TackDER
import TackSignature
import TackTestSupport

/// Every RSA self-signature of the system CA bundle's roots verifies.
///
/// The certificate is read here with TackDER directly (the X.509 model and
/// its algorithm dispatch come later); only the fields a self-signature
/// check needs are taken: the TBSCertificate bytes, issuer and subject, the
/// subjectPublicKeyInfo and the outer signatureAlgorithm and signature.
@Suite("RSA signatures of the system CA bundle")
struct RSACABundleTests {
    struct Fields {
        var tbs: Range<Int>
        var issuer: Range<Int>
        var subject: Range<Int>
        var keyAlgorithm: OID
        var key: Range<Int>
        var signatureAlgorithm: OID
        var signatureParameters: Range<Int>?
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
            while !keyAlgorithm.isAtEnd { _ = try keyAlgorithm.readElement() }
            let keyBits = try spki.readBitString()
            try spki.expectEnd()
            while !tbs.isAtEnd { _ = try tbs.readElement() }  // extensions etc.
            var signatureAlgorithm = try outer.enterSequence()
            let signatureOID = try signatureAlgorithm.readObjectIdentifier()
            let parameters = signatureAlgorithm.isAtEnd ? nil : try signatureAlgorithm.readElement().encodedRange
            try signatureAlgorithm.expectEnd()
            let signatureBits = try outer.readBitString()
            try outer.expectEnd()
            return Fields(
                tbs: tbsElement.encodedRange, issuer: issuer.encodedRange, subject: subject.encodedRange,
                keyAlgorithm: keyOID, key: keyBits.bytesRange,
                signatureAlgorithm: signatureOID, signatureParameters: parameters,
                signature: signatureBits.bytesRange)
        }
    }

    static let rsaEncryption = OID(1, 2, 840, 113549, 1, 1, 1)
    /// sha{224,256,384,512}WithRSAEncryption (RFC 4055 §5).
    static let pkcs1Hashes: [OID: RSAHash] = [
        OID(1, 2, 840, 113549, 1, 1, 14): .sha224,
        OID(1, 2, 840, 113549, 1, 1, 11): .sha256,
        OID(1, 2, 840, 113549, 1, 1, 12): .sha384,
        OID(1, 2, 840, 113549, 1, 1, 13): .sha512,
    ]

    @Test("Every self-signed RSA root with a SHA-2 PKCS #1 v1.5 signature verifies; a flipped TBS bit does not")
    func selfSignatures() throws {
        try #require(!SystemCABundle.certificates.isEmpty, "no \(SystemCABundle.path) on this machine")
        var verified = 0
        var skipped: [String: Int] = [:]
        for (index, certificate) in SystemCABundle.certificates.enumerated() {
            let f = try Self.fields(of: certificate)
            guard f.keyAlgorithm == Self.rsaEncryption else {
                skipped["non-RSA key", default: 0] += 1
                continue
            }
            guard certificate[f.issuer] == certificate[f.subject] else {
                skipped["not self-issued", default: 0] += 1
                continue
            }
            guard let hash = Self.pkcs1Hashes[f.signatureAlgorithm] else {
                skipped["signature algorithm \(f.signatureAlgorithm)", default: 0] += 1
                continue
            }
            // RFC 4055 §5: the parameters of these algorithms are NULL.
            if let parameters = f.signatureParameters {
                #expect(Array(certificate[parameters]) == [0x05, 0x00], "certificate \(index)")
            }
            let key = try RSAPublicKey(pkcs1DER: Array(certificate[f.key]))
            let tbs = Array(certificate[f.tbs])
            let signature = Array(certificate[f.signature])
            do {
                try key.verifyPKCS1v15Signature(signature, for: tbs, hash: hash)
                verified += 1
            } catch {
                Issue.record("certificate \(index): \(error)")
            }
            var tampered = tbs
            tampered[tampered.count / 2] ^= 0x01
            #expect(throws: SignatureError.invalidSignature) {
                try key.verifyPKCS1v15Signature(signature, for: tampered, hash: hash)
            }
        }
        let skipNote = skipped.keys.sorted().map { "\($0): \(skipped[$0] ?? 0)" }.joined(separator: ", ")
        print("CA bundle: \(verified) RSA self-signatures verified of \(SystemCABundle.certificates.count) certificates; skipped \(skipNote)")
        #expect(verified > 50)
    }
}

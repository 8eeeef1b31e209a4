import Foundation
import Testing
import TackDER
import TackFormats
import TackDigest
import TackSignature
import TackTestSupport
import TackTrust
import TackX509

/// The example of each module's DocC overview article (`Sources/<Module>/<Module>.docc`),
/// run on real vectors, so the documentation cannot drift from the API. Keep each body
/// the article's code, with only the inputs bound and the results checked.
@Suite("DocC overview examples")
struct DocumentationExampleTests {
    static func text(_ subpath: String) throws -> String {
        try String(contentsOf: RepositoryPaths.vectors(subpath), encoding: .utf8)
    }

    @Test("TackDER: PEM to DER, read SEQUENCE { OID, NULL }, write it back")
    func tackDER() throws {
        let pemText = try Self.text("certs/rsa2048-leaf.pem")
        let certificate = try Certificate(derEncoded: try #require(derCertificates(inPEM: pemText).first))
        let algorithmIdentifier = Array(certificate.derEncoded[certificate.signatureAlgorithmRange])
        // The article's code.
        let certificates = try PEM.parse(pemText).filter { $0.label == "CERTIFICATE" }.map(\.bytes)
        let oid = try DER.read(algorithmIdentifier) { (reader) throws(DERError) -> OID in
            try reader.readSequence { (fields) throws(DERError) -> OID in
                let oid = try fields.readObjectIdentifier()
                try fields.readNull()
                return oid
            }
        }
        var writer = DERWriter()
        writer.writeSequence { (fields: inout DERWriter) in
            fields.writeObjectIdentifier(oid)
            fields.writeNull()
        }
        let encoded = writer.bytes
        #expect(certificates == [certificate.derEncoded])
        #expect(oid == OID(1, 2, 840, 113549, 1, 1, 11))
        #expect(encoded == algorithmIdentifier)
        // The article's example error.
        #expect(throws: DERError(.nonMinimalLength, at: 0)) { try DERTree.parse([0x04, 0x81, 0x01, 0x00]) }
    }

    @Test("TackFormats: an Info.plist, XML or binary, and where a key is")
    func tackFormats() throws {
        for (file, expected) in [("policies/example.plist", "11:3"), ("plists/example-policy.bplist", "byte 116")] {
            let infoPlistBytes = try RepositoryPaths.vectorBytes(file)
            // The article's code.
            let root = try PropertyList.parse(infoPlistBytes)
            let pinned = root.dictionaryValue?["NSAppTransportSecurity"]?
                .dictionaryValue?.entry(for: "NSPinnedDomains")
            let place = pinned.map { "\($0.location)" }
            #expect(place == expected, "\(file)")
        }
    }

    @Test("TackDigest: one-shot, incremental, HMAC")
    func tackSHA2() {
        let spkiBytes: [UInt8] = Array("abc".utf8)
        let digest = SHA256.hash(spkiBytes)
        #expect(digest.base64String == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        let header: [UInt8] = Array("ab".utf8), body: [UInt8] = Array("c".utf8)
        var hasher = SHA384()
        hasher.update(header)
        hasher.update(body)
        let longer = hasher.finalize()
        #expect(longer == SHA384.hash(spkiBytes) && longer.count == 48)
        // RFC 4231 test case 2.
        let tag = HMAC<SHA256>.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(tag.hexString == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("TackX509: parse, pin, name, SANs, SPKI from raw key bytes")
    func tackX509() throws {
        let der = try #require(derCertificates(inPEM: try Self.text("certs/chain-leaf.pem")).first)
        let certificate = try Certificate(derEncoded: der)
        #expect(certificate.spkiPin.base64 == "zvkGh57k0jgGHxyiZ2bc8g7xNi7xSJXbZDRxa6i95i0=")
        #expect(try certificate.subject.rfc4514String.hasPrefix("CN=www.example.com,"))
        let names = try certificate.subjectAlternativeNames
        #expect(names != nil)
        let keyBytes = hexBytes(try Self.text("certs/chain-leaf.rawkey.hex").trimmingCharacters(in: .whitespacesAndNewlines))
        let spki = try SubjectPublicKeyInfo.encode(rawKey: keyBytes, type: .p256)
        let pin = try SPKIPin(rawKey: keyBytes, type: .p256)
        #expect(spki == Array(certificate.spkiBytes))
        #expect(pin == certificate.spkiPin)
    }

    @Test("TackSignature: issuer, prepared key, explicit algorithm")
    func tackSignature() throws {
        let chain = derCertificates(inPEM: try Self.text("certs/chain-example.pem"))
        try #require(chain.count == 3)
        let leaf = try Certificate(derEncoded: chain[0])
        let issuer = try Certificate(derEncoded: chain[1])
        try leaf.verifySignature(issuedBy: issuer)
        let key = try SignatureVerificationKey(issuer.publicKeyInfo)
        try leaf.verifySignature(with: key, policy: .webPKI)
        let signature = Array(leaf.signatureBytes), message = Array(leaf.tbsBytes)
        try key.verifySignature(signature, for: message, algorithm: .ecdsa(.sha256))
    }

    @Test("TackTrust: anchors, evaluator, pin policy on the verified path")
    func tackTrust() throws {
        let rootsPEM = Array(try Self.text("policies/certs/root.pem").utf8)
        let policyJSON = Array(try Self.text("policies/ca-intermediate.json").utf8)
        let chainDER = derCertificates(inPEM: try Self.text("policies/certs/chain.pem"))
        let now: Int64 = 1_796_126_400  // 2026-12-01T12:00:00Z, the policy vectors' time

        // The article's code.
        let anchors = try AnchorStore(pemBundle: rootsPEM)
        let policy = try PinPolicy.load(json: policyJSON, at: now).policy   // now: Int64 seconds
        let host = try PeerHost("api.example.com")                          // or "192.0.2.1", "[2001:db8::1]"

        let decision = TrustEvaluator(anchors: anchors)
            .evaluate(servedChain: chainDER, host: host, at: now, pinning: policy)   // DER, leaf first
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        switch decision {
        case .trusted(let path, let details):
            // Connect. details.pins.outcome says whether a report-only rule wants a report.
            print("trusted through \(path.certificates.count) certificates; \(details.pins.outcome)")
        case .untrusted(let failure, _):
            print("refused: \(failure)")                  // the most specific failure, with its code
        case .pinMismatch(_, let details):
            print("refused: \(details.pins.diagnostics)")  // what matched where, and the likely cause
        }

        #expect(decision.isTrusted && decision.code == "trusted")
        #expect(decision.details.pins.outcome == .satisfied)
        #expect(printed == ["trusted through 3 certificates; pins hold"])
    }
}

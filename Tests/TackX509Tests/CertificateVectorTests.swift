import Foundation
import Testing
import TackDER
import TackTestSupport
import TackX509

/// One line of Vectors/certs/manifest.txt.
struct CertificateVector: CustomTestStringConvertible, Sendable {
    var file: String
    var keyType: String
    var keyBits: Int
    var signatureAlgorithm: String
    var pin: String
    var fingerprint: String

    var testDescription: String { file }

    static let all: [CertificateVector] = {
        guard let text = try? String(contentsOf: RepositoryPaths.vectors("certs/manifest.txt"),
                                     encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return CertificateVector(file: fields[0], keyType: fields[1], keyBits: Int(fields[2]) ?? -1,
                                     signatureAlgorithm: fields[3], pin: fields[4], fingerprint: fields[5])
        }
    }()

    func certificate() throws -> Certificate {
        let text = try String(contentsOf: RepositoryPaths.vectors("certs/" + file), encoding: .utf8)
        let ders = derCertificates(inPEM: text)
        try #require(ders.count == 1, "\(file) holds \(ders.count) certificates")
        return try Certificate(derEncoded: ders[0])
    }

    func sibling(_ suffix: String) throws -> String {
        let name = String(file.dropLast(4)) + suffix
        return try String(contentsOf: RepositoryPaths.vectors("certs/" + name), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

@Suite("Certificate: generated vectors (Vectors/certs)")
struct CertificateVectorTests {
    @Test("The manifest lists every key type as CA and leaf, plus the example chain and a v1 certificate")
    func manifestIsComplete() {
        let files = Set(CertificateVector.all.map(\.file))
        for kind in ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa8192", "p256", "p384", "p521", "ed25519", "ed448"] {
            #expect(files.contains(kind + "-ca.pem") && files.contains(kind + "-leaf.pem"), "\(kind)")
        }
        #expect(files.contains("chain-leaf.pem") && files.contains("v1.pem"))
        #expect(files.contains("x25519-leaf.pem") && files.contains("x448-leaf.pem"))
    }

    @Test("Each certificate parses, and its pin equals the one the OpenSSL pipeline printed", arguments: CertificateVector.all)
    func pinMatchesOpenSSL(vector: CertificateVector) throws {
        let certificate = try vector.certificate()
        #expect(certificate.spkiPin.base64 == vector.pin)
        #expect(try vector.sibling(".pin") == vector.pin)
        #expect(certificate.fingerprint.colonHex == vector.fingerprint)
        #expect(try CertificateFingerprint(vector.fingerprint) == certificate.fingerprint)
        #expect(try SPKIPin(vector.pin) == certificate.spkiPin)
        #expect(certificate.publicKeyInfo.keyType?.name == vector.keyType)
        #expect(certificate.publicKeyInfo.keySizeInBits == vector.keyBits)
        #expect(certificate.signatureAlgorithm.description.lowercased() == vector.signatureAlgorithm.lowercased())
    }

    @Test("The SPKI rebuilt from the raw key (as SecKeyCopyExternalRepresentation gives it) equals the certificate's",
          arguments: CertificateVector.all)
    func rebuildFromRawKey(vector: CertificateVector) throws {
        let certificate = try vector.certificate()
        let raw = hexBytes(try vector.sibling(".rawkey.hex"))
        #expect(Array(certificate.publicKeyInfo.rawKey) == raw)
        let type = try #require(PublicKeyType(name: vector.keyType))
        let spki = try SubjectPublicKeyInfo.encode(rawKey: raw, type: type)
        #expect(spki[...] == certificate.spkiBytes)
        #expect(try SPKIPin(rawKey: raw, type: type).base64 == vector.pin)
        let header = try #require(SPKIHeader.forKey(type, rawKeyByteCount: raw.count))
        #expect(header.bytes + raw == spki)
    }

    @Test("The SPKI printed by openssl pkey -pubin -outform der parses alone and equals the certificate's",
          arguments: CertificateVector.all)
    func standaloneSPKI(vector: CertificateVector) throws {
        let certificate = try vector.certificate()
        let der = try RepositoryPaths.vectorBytes("certs/" + String(vector.file.dropLast(4)) + ".spki.der")
        let info = try SubjectPublicKeyInfo(derEncoded: der)
        #expect(info.derEncoded == certificate.spkiBytes)
        #expect(info.algorithm == certificate.publicKeyInfo.algorithm)
        #expect(info.keySizeInBits == vector.keyBits)
        #expect(SPKIPin(info).base64 == vector.pin)
        #expect(info == certificate.publicKeyInfo)
    }

    @Test("CA certificates carry the CA extensions, leaves the leaf extensions, each once")
    func extensionSets() throws {
        let caOIDs = ["2.5.29.19", "2.5.29.15", "2.5.29.14", "2.5.29.30", "2.5.29.32", "2.5.29.33", "2.5.29.36", "2.5.29.54"]
        let leafOIDs = ["2.5.29.19", "2.5.29.15", "2.5.29.37", "2.5.29.17", "2.5.29.18", "2.5.29.14", "2.5.29.35",
                        "1.3.6.1.5.5.7.1.1", "2.5.29.31", "2.5.29.32", "1.3.6.1.4.1.11129.2.4.2"]
        for vector in CertificateVector.all where vector.file.hasSuffix("-ca.pem") || vector.file.hasSuffix("-leaf.pem") {
            guard !vector.file.hasPrefix("chain"), !vector.file.hasPrefix("x") else { continue }
            let certificate = try vector.certificate()
            let expected = vector.file.hasSuffix("-ca.pem") ? caOIDs : leafOIDs
            #expect(certificate.extensions.map(\.oid.dottedString) == expected, "\(vector.file)")
            #expect(certificate.version == .v3)
            let criticalBasicConstraints = certificate.extensions.first { $0.oid.dottedString == "2.5.29.19" }?.isCritical
            #expect(criticalBasicConstraints == true)
        }
    }

    @Test("The RSASSA-PSS leaf's parameters are decoded: SHA-256, MGF1 with SHA-256, salt 32")
    func pssParameters() throws {
        let vector = try #require(CertificateVector.all.first { $0.file == "rsa3072-leaf.pem" })
        let certificate = try vector.certificate()
        #expect(certificate.signatureAlgorithm == .rsaPSS(RSAPSSParameters(digest: .sha256, maskGenerationDigest: .sha256, saltLength: 32)))
        #expect(certificate.signatureAlgorithm.digest == .sha256)
    }

    @Test("A v1 certificate made by openssl parses as v1 without extensions")
    func versionOne() throws {
        let vector = try #require(CertificateVector.all.first { $0.file == "v1.pem" })
        let certificate = try vector.certificate()
        #expect(certificate.version == .v1)
        #expect(certificate.extensions.isEmpty)
        #expect(Array(certificate.serialNumberMagnitude) == [0x10, 0x92])
    }

    @Test("A 20-octet serial number with its top bit clear is at the RFC 5280 limit, not beyond")
    func twentyOctetSerial() throws {
        let vector = try #require(CertificateVector.all.first { $0.file == "p256-leaf.pem" })
        let certificate = try vector.certificate()
        #expect(certificate.serialNumber.count == 20)
        #expect(!certificate.isSerialNumberTooLong && !certificate.isSerialNumberNegative && !certificate.isSerialNumberZero)
    }

    @Test("The validity period is read as written: 2025-01-01 to 2035-01-01, and a GeneralizedTime in 2050")
    func validity() throws {
        let leaf = try #require(CertificateVector.all.first { $0.file == "p256-leaf.pem" }).certificate()
        #expect(leaf.validity.notBefore.description.hasPrefix("2025-01-01"))
        #expect(leaf.validity.notAfter.secondsSince1970 == 2_051_222_400)
        #expect(leaf.validity.contains(secondsSince1970: 2_051_222_400) && !leaf.validity.contains(secondsSince1970: 2_051_222_401))
        let ca = try #require(CertificateVector.all.first { $0.file == "p256-ca.pem" }).certificate()
        #expect(ca.validity.notAfter.year == 2050 && ca.validity.notAfter.hour == 12)
    }

    @Test("The bundled example chain holds the leaf, the intermediate and the root, in that order")
    func exampleChain() throws {
        let text = try String(contentsOf: RepositoryPaths.vectors("certs/chain-example.pem"), encoding: .utf8)
        let pins = try derCertificates(inPEM: text).map { try Certificate(derEncoded: $0).spkiPin.base64 }
        let expected = try ["chain-leaf.pem", "chain-intermediate.pem", "chain-root.pem"].map { file in
            try #require(CertificateVector.all.first { $0.file == file }).pin
        }
        #expect(pins == expected)
    }
}

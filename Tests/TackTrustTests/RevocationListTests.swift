import Foundation
import Testing

import TackDER
import TackSignature
import TackVectorSuites
import TackTestSupport
import TackX509

/// `CertificateRevocationList` (RFC 5280 §5): the generated CRLs of Vectors/chains, the
/// signature check, strictness, and the limbo CRLs that must be refused.
@Suite("Certificate revocation lists")
struct RevocationListTests {
    static func bytes(_ file: String) throws -> [UInt8] { try RepositoryPaths.vectorBytes("chains/" + file) }

    @Test("A generated CRL parses, names its issuer and finds the revoked serial", arguments: ["rsa", "ecdsa"])
    func generated(_ family: String) throws {
        let crl = try CertificateRevocationList(derEncoded: try Self.bytes("\(family)/intermediate.crl"))
        let issuer = try Certificate(derEncoded: try Self.bytes("\(family)/intermediate.der"))
        let root = try Certificate(derEncoded: try Self.bytes("\(family)/root.der"))
        let revoked = try Certificate(derEncoded: try Self.bytes("\(family)/leaf-revoked.der"))
        let good = try Certificate(derEncoded: try Self.bytes("\(family)/leaf.der"))

        #expect(crl.version == .v2)
        #expect(try crl.issuer.matches(try issuer.subject))
        #expect(Array(crl.crlNumber) == [42])
        #expect(crl.authorityKeyIdentifier.keyIdentifier == (try issuer.subjectKeyIdentifier)?.keyIdentifier)
        #expect(crl.revokedCertificates.count == 1)
        // 2025-05-15T00:00:00Z
        #expect(crl.revocationTime(forSerial: revoked.serialNumber) == 1_747_267_200)
        #expect(crl.revocationTime(forSerial: good.serialNumber) == nil)

        // thisUpdate 2025-05-01, nextUpdate 2025-07-01, both inclusive.
        let thisUpdate: Int64 = 1_746_057_600, nextUpdate: Int64 = 1_751_328_000
        #expect(!crl.isCurrent(atSecondsSince1970: thisUpdate - 1))
        #expect(crl.isCurrent(atSecondsSince1970: thisUpdate))
        #expect(crl.isCurrent(atSecondsSince1970: nextUpdate))
        #expect(!crl.isCurrent(atSecondsSince1970: nextUpdate + 1))

        try crl.verifySignature(with: SignatureVerificationKey(issuer.publicKeyInfo), policy: .webPKI)
        // The root's key did not sign it: well-formed, and the signature does not match.
        #expect(throws: SignatureError.invalidSignature) {
            try crl.verifySignature(with: SignatureVerificationKey(root.publicKeyInfo), policy: .webPKI)
        }
    }

    @Test("Every proper prefix of a CRL is refused with an offset inside it")
    func dripFeed() throws {
        let der = try Self.bytes("ecdsa/intermediate.crl")
        for length in 0..<der.count {
            do {
                _ = try CertificateRevocationList(derEncoded: Array(der.prefix(length)))
                Issue.record("a \(length)-octet prefix parsed")
            } catch {
                #expect(error.offset >= 0 && error.offset <= length)
            }
        }
    }

    @Test("A flipped signature bit fails the signature check, not the parse")
    func badSignature() throws {
        var der = try Self.bytes("ecdsa/intermediate.crl")
        der[der.count - 3] ^= 0x01
        let issuer = try Certificate(derEncoded: try Self.bytes("ecdsa/intermediate.der"))
        // The flipped octet is inside the ECDSA signature's s INTEGER, not its first octet,
        // so the DER stays valid: the parse must succeed, and only the signature fail.
        let crl = try CertificateRevocationList(derEncoded: der)
        #expect(throws: SignatureError.invalidSignature) {
            try crl.verifySignature(with: SignatureVerificationKey(issuer.publicKeyInfo))
        }
    }

    @Test("Trailing data after the CRL is refused")
    func trailingData() throws {
        let der = try Self.bytes("rsa/intermediate.crl") + [0]
        #expect(throws: X509Error(.der(.trailingData), at: der.count - 1)) { try CertificateRevocationList(derEncoded: der) }
    }

    static let limboURL = RepositoryPaths.sharedVectors("x509-limbo/limbo-shared.json")

    @Test("The limbo CRLs without a CRL number or with a critical one are refused by reason", .enabled(if: VectorAvailability.runs(needing: limboURL), "x509-limbo is missing"))
    func limboCRLs() throws {
        let suite = try LimboSuite(jsonBytes: [UInt8](Data(contentsOf: Self.limboURL)))
        var parsed = 0
        for testCase in suite.testcases {
            for pem in testCase.crls ?? [] {
                let der = try #require(try PEM.parse(pem).first).bytes
                switch testCase.id {
                case "crl::crlnumber-missing":
                    let error = #expect(throws: X509Error.self) { try CertificateRevocationList(derEncoded: der) }
                    #expect(error?.reason == .invalidRevocationList(.missingCRLNumber))
                case "crl::crlnumber-critical":
                    do {
                        _ = try CertificateRevocationList(derEncoded: der)
                        Issue.record("critical CRL number accepted")
                    } catch {
                        #expect(error.reason == .invalidRevocationList(.criticalCRLNumber))
                    }
                default:
                    _ = try CertificateRevocationList(derEncoded: der)
                    parsed += 1
                }
            }
        }
        #expect(parsed >= 6)
    }
}

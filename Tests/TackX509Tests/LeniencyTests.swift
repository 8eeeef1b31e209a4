import Foundation
import Testing
import TackDER
import TackTestSupport
import TackX509

/// The two encodings TackX509 accepts against DER because real certificates carry
/// them (README, "Strictness and the deliberate leniencies"), over the vectors of
/// Vectors/leniencies: each is accepted in exactly one form, flagged, and pins as
/// the OpenSSL pipeline pinned it when the vector was generated; each near miss
/// stays refused.
@Suite("Certificate: deliberate leniencies (Vectors/leniencies)")
struct LeniencyTests {
    /// The single certificate of a PEM file under Vectors/leniencies, decoded by TackDER.
    static func certificate(_ file: String) throws -> Certificate {
        let text = try String(contentsOf: RepositoryPaths.vectors("leniencies/" + file), encoding: .utf8)
        let blocks = try PEM.parse(text)
        try #require(blocks.count == 1 && blocks[0].label == "CERTIFICATE", "\(file)")
        return try Certificate(derEncoded: blocks[0].bytes)
    }

    /// The pin `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst
    /// -sha256 -binary | base64` printed at generation time (`<name>.pin`).
    static func opensslPin(_ name: String) throws -> String {
        try String(contentsOf: RepositoryPaths.vectors("leniencies/" + name + ".pin"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("A keytool ECDSA certificate with NULL signature parameters parses, is flagged, and pins as OpenSSL pins it")
    func keytoolNullParameters() throws {
        let certificate = try Self.certificate("keytool-ecdsa-null.pem")
        #expect(certificate.signatureAlgorithm == .ecdsa(.sha256))
        #expect(certificate.hasNullECDSASignatureParameters)
        #expect(!certificate.hasEncodedDefaultCriticalFlag)
        #expect(Array(certificate.derEncoded[certificate.signatureAlgorithmRange].suffix(2)) == [0x05, 0x00])
        #expect(certificate.spkiPin.base64 == (try Self.opensslPin("keytool-ecdsa-null")))
    }

    @Test("RFC 8410's sample certificate (critical FALSE encoded, 66-character PEM lines) parses, is flagged, and pins as OpenSSL pins it")
    func rfc8410Sample() throws {
        let certificate = try Self.certificate("rfc8410-x25519.pem")
        #expect(certificate.hasEncodedDefaultCriticalFlag)
        #expect(!certificate.hasNullECDSASignatureParameters)
        #expect(certificate.signatureAlgorithm == .ed25519)
        let critical = certificate.extensions.map { ($0.oid, $0.isCritical) }
        #expect(critical.map(\.0) == [OID(2, 5, 29, 19), OID(2, 5, 29, 15), OID(2, 5, 29, 14)])
        #expect(critical.map(\.1) == [true, false, false])
        // The RFC's certificate never changes, so its pin is written out too.
        let pin = "KRxSk+AwRSpZmFGnxymPPxbD/xvfr8tZiSfyYx+fpkE="
        #expect(try Self.opensslPin("rfc8410-x25519") == pin)
        #expect(certificate.spkiPin.base64 == pin)
        // The leniency is the critical flag only: the basicConstraints value encodes
        // its cA FALSE DEFAULT too (SEQUENCE { BOOLEAN FALSE }), which stays an error.
        // 163 is the extension; its value's BOOLEAN sits 14 octets further in.
        #expect(throws: X509Error(.der(.defaultValueEncoded), at: 163 + 14)) { try certificate.basicConstraints }
        let usage = try #require(try certificate.keyUsage)
        #expect(usage.contains(.keyAgreement))
    }

    @Test("Certificates without the lenient encodings are not flagged")
    func ordinaryCertificatesAreNotFlagged() throws {
        for file in ["p256-leaf.pem", "p384-ca.pem", "ed25519-leaf.pem", "rsa2048-leaf.pem", "v1.pem"] {
            let text = try String(contentsOf: RepositoryPaths.vectors("certs/" + file), encoding: .utf8)
            let der = try #require(derCertificates(inPEM: text).first, "\(file)")
            let certificate = try Certificate(derEncoded: der)
            #expect(!certificate.hasNullECDSASignatureParameters, "\(file)")
            #expect(!certificate.hasEncodedDefaultCriticalFlag, "\(file)")
        }
        // RSA PKCS #1 v1.5 carries NULL by rule (RFC 4055 §5): not the ECDSA leniency.
        let rsa = try Certificate(derEncoded: try #require(derCertificates(inPEM: String(
            contentsOf: RepositoryPaths.vectors("certs/rsa2048-ca.pem"), encoding: .utf8)).first))
        #expect(Array(rsa.derEncoded[rsa.signatureAlgorithmRange].suffix(2)) == [0x05, 0x00])
        #expect(!rsa.hasNullECDSASignatureParameters)
    }

    /// One line of Vectors/leniencies/strict/manifest.txt.
    struct NearMiss: CustomTestStringConvertible, Sendable {
        var file: String
        var expected: String
        var offset: Int
        var testDescription: String { file }

        static let all: [NearMiss] = {
            let url = RepositoryPaths.vectors("leniencies/strict/manifest.txt")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
                let fields = line.split(separator: "\t").map(String.init)
                return NearMiss(file: fields[0], expected: fields[1], offset: Int(fields[2]) ?? -1)
            }
        }()
    }

    @Test("The near-miss set is present")
    func nearMissesPresent() {
        #expect(NearMiss.all.count >= 5)
    }

    @Test("Each near miss of a leniency is refused with its error at its byte", arguments: NearMiss.all)
    func nearMiss(_ vector: NearMiss) throws {
        let der = try RepositoryPaths.vectorBytes("leniencies/strict/" + vector.file)
        do throws(X509Error) {
            _ = try Certificate(derEncoded: der)
            Issue.record("\(vector.file) parsed; expected \(vector.expected) at \(vector.offset)")
        } catch {
            #expect(error.code == vector.expected, "\(error)")
            #expect(error.offset == vector.offset, "\(error)")
        }
    }
}

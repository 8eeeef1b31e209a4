import Foundation
import Testing

@testable import tack

/// Issue 31, "inputs named for what they are": a malformed certificate is named as
/// one, a file of another kind is named before any DER is blamed, and every key
/// file OpenSSL writes by default gives its pin.
@Suite("tack: inputs named for what they are")
struct InputNamingTests {
    /// The p256 leaf with one byte of its subject's or issuer's countryName
    /// PrintableString flipped (Vectors/cli-inputs/generate.sh), and the offset of
    /// that string's element (170 and 58; the byte flipped is its first content octet).
    static let undecodableNames = [("subject", 170), ("issuer", 58)]

    @Test("a certificate whose subject or issuer does not decode: pin, show, scan and verify name certificate #1, the offset and the reason",
          arguments: undecodableNames)
    func undecodableName(field: String, offset: Int) throws {
        let path = "Vectors/cli-inputs/p256-leaf.bad-\(field).pem"
        let pin = try CLI.json(["pin", "--json", path], status: .failure, schema: "pin")
        #expect(pin["pins"] == .array([]))
        #expect(pin["errors"]?[0]?["code"] == .string("malformed_certificate"))
        let message = pin["errors"]?[0]?["message"]?.stringValue ?? ""
        #expect(message.contains("certificate #1"), "\(message)")
        #expect(message.contains("byte \(offset)"), "\(message)")
        #expect(message.contains("PrintableString"), "\(message)")

        let show = try CLI.json(["show", "--json", path], status: .failure, schema: "show")
        #expect(show["certificates"] == .array([]))
        #expect(show["errors"]?[0]?["code"] == .string("malformed_certificate"))
        let showText = CLI.run(["show", path])
        #expect(showText.status == .failure)
        #expect(showText.errors.contains("certificate #1"))

        let scan = CLI.run(["scan", "--quiet", path])
        #expect(scan.status == .failure)
        let line = try #require(try scan.jsonLines().first)
        #expect(line["error"]?.stringValue?.contains("PrintableString") == true, "\(scan.output)")
        #expect(line["offset"] == .integer(Int64(offset)))

        let verify = CLI.run(["verify", "--host", "p256.example.com", "--roots", "Vectors/certs/p256-ca.pem",
                              "--at", "2026-06-01T00:00:00Z", path])
        #expect(verify.status == .failure)
        #expect(verify.errors.contains("certificate #1"), "\(verify.errors)")
        #expect(verify.errors.contains("malformed"), "\(verify.errors)")
        #expect(!verify.errors.contains("issuer not found") && !verify.output.contains("issuer"), "\(verify.output)")
        for run in [showText, scan, verify] { #expect(!(run.output + run.errors).contains("(undecodable")) }
    }

    /// Files of other kinds, made from their magic numbers (each a real header of
    /// its format, padded as a real file is).
    static let foreignFiles: [(String, [UInt8], String)] = [
        ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01], "input_is_jpeg"),
        ("image.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D] + Array("IHDR".utf8), "input_is_png"),
        ("document.pdf", Array("%PDF-1.7\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A], "input_is_pdf"),
        ("archive.zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00], "input_is_zip"),
    ]

    @Test("JPEG, PNG, PDF and ZIP files are named by kind, never by DER jargon", arguments: foreignFiles)
    func foreignFile(name: String, bytes: [UInt8], code: String) throws {
        let directory = try InputTests.temporaryDirectory()
        let path = directory + "/" + name
        try Data(bytes + [UInt8](repeating: 0x20, count: 64)).write(to: URL(fileURLWithPath: path))
        let pin = try CLI.json(["pin", "--json", path], status: .failure, schema: "pin")
        #expect(pin["errors"]?[0]?["code"] == .string(code))
        for command in ["show", "pin"] {
            let run = CLI.run([command, path])
            #expect(run.status == .failure)
            #expect(!run.errors.contains("PRIVATE") && !run.errors.contains("DER") && !run.errors.contains("X.509 error"), "\(run.errors)")
        }
    }

    @Test("a PKCS #12 file, an OCSP response or a CRL where a certificate is expected is named as such", arguments: [
        ("Vectors/pkcs12/openssl-rsa-default.p12", "input_is_pkcs12", "use tack identity"),
        ("Vectors/ocsp/responses/good-by-name-sha1.der", "input_is_ocsp_response", "OCSP response"),
        ("Vectors/ocsp/crls/intermediate.crl", "input_is_crl", "CRL"),
    ])
    func otherPKIFile(path: String, code: String, phrase: String) throws {
        let pin = try CLI.json(["pin", "--json", path], status: .failure, schema: "pin")
        #expect(pin["errors"]?[0]?["code"] == .string(code))
        #expect(pin["errors"]?[0]?["message"]?.stringValue?.contains(phrase) == true, "\(pin)")
        let verify = CLI.run(["verify", "--host", "example.com", "--roots", "Vectors/certs/p256-ca.pem", path])
        #expect(verify.status == .failure)
        #expect(verify.errors.contains(phrase), "\(verify.errors)")
        #expect(!verify.errors.contains("trailing_data") && !verify.errors.contains("X.509 error"), "\(verify.errors)")
    }

    @Test("the reverse: a certificate or CRL given as an OCSP response, a certificate given as a CRL", arguments: [
        ("--ocsp", "Vectors/ocsp/certs/leaf.der", "input_is_certificate"),
        ("--ocsp", "Vectors/certs/p256-leaf.pem", "input_is_certificate"),
        ("--ocsp", "Vectors/ocsp/crls/intermediate.crl", "input_is_crl"),
        ("--crl", "Vectors/ocsp/certs/leaf.der", "input_is_certificate"),
        ("--crl", "Vectors/ocsp/responses/good-by-name-sha1.der", "input_is_ocsp_response"),
    ])
    func reverse(option: String, path: String, code: String) throws {
        let document = try CLI.json(["verify", "--json", "--host", "example.com", "--roots", "Vectors/ocsp/certs/root.der",
                                     option, path, "Vectors/ocsp/certs/leaf.der"], status: .failure, schema: "error")
        #expect(document["error"]?["code"] == .string(code), "\(document)")
    }

    @Test("OpenSSL's default Ed25519 private key (PKCS #8 v1, no public key): the pin of its certificate")
    func ed25519PrivateKey() throws {
        let document = try CLI.json(["pin", "--json", "Vectors/certs/keys/ed25519-leaf.key.pem"], schema: "pin")
        #expect(document["pins"]?[0]?["spki_sha256_base64"] == .string(try vectorPin("ed25519-leaf")))
    }

    @Test("an Ed448 private key: said to be unsupported, by name")
    func ed448PrivateKey() throws {
        let document = try CLI.json(["pin", "--json", "Vectors/certs/keys/ed448-leaf.key.pem"], status: .failure, schema: "pin")
        #expect(document["errors"]?[0]?["code"] == .string("public_key_not_derivable"))
        #expect(document["errors"]?[0]?["message"]?.stringValue?.contains("Ed448") == true, "\(document)")
    }

    @Test("an RSA PUBLIC KEY (PKCS #1) block: the pin of its certificate")
    func pkcs1PublicKey() throws {
        let document = try CLI.json(["pin", "--json", "Vectors/cli-inputs/rsa2048-leaf.rsapublickey.pem"], schema: "pin")
        #expect(document["pins"]?[0]?["spki_sha256_base64"] == .string(try vectorPin("rsa2048-leaf")))
    }

    @Test("DSA keys and certificates are named DSA, not by OID", arguments: [
        "Vectors/cli-inputs/dsa.key.pem", "Vectors/cli-inputs/dsa.pub.pem", "Vectors/cli-inputs/dsa.cert.pem",
    ])
    func dsa(path: String) throws {
        let pin = CLI.run(["pin", "--json", path])
        let show = CLI.run(["show", path])
        for text in [pin.output, pin.errors, show.output, show.errors] {
            #expect(!text.contains("1.2.840.10040.4.1"), "\(text)")
        }
        #expect((pin.output + pin.errors).contains("DSA"), "\(pin.output)")
    }

    @Test("an OCSP response or a CRL that names no certificate of the path is a note, in text and JSON")
    func unmatchedRevocationData() throws {
        let arguments = ["--host", "p256.example.com", "--roots", "Vectors/certs/p256-ca.pem", "--at", "2026-06-01T00:00:00Z",
                         "--ocsp", "Vectors/ocsp/responses/good-by-name-sha1.der", "--crl", "Vectors/ocsp/crls/intermediate.crl",
                         "Vectors/certs/p256-leaf.pem"]
        let text = CLI.run(["verify"] + arguments)
        #expect(text.status == .success)
        #expect(text.output.contains("OCSP response #1 names no certificate of the path (serial 38:72:18:47:27:91:b7:f5:"), "\(text.output)")
        #expect(text.output.contains("CRL #1 is issued by CN=Tack OCSP Intermediate,O=Tack"), "\(text.output)")
        let document = try CLI.json(["verify", "--json"] + arguments, schema: "verify")
        let codes = document["revocation_notes"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
        #expect(codes == ["ocsp_response_unmatched", "crl_unmatched"])
    }
}

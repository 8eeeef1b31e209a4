import Foundation
import TackTestSupport
import TackFormats
import Testing

@testable import tack

@Suite("tack identity")
struct IdentityCommandTests {
    static let exactKeys = ["identities", "certificates", "keys_without_certificate", "mac", "encryption", "warnings"]
    static let identityKeys = [
        "certificate_sha256", "subject", "key_type", "key_bits", "key_matches", "key_id", "local_key_id",
        "friendly_name", "spki_sha256", "chain_sha256", "trust",
    ]

    @Test("--json: exactly the issue's keys, the identity and its chain from the leaf")
    func json() throws {
        let run = CLI.run(["identity", "--passphrase-stdin", "--json", "Vectors/pkcs12/openssl-rsa-default.p12"],
                          input: Array("correct horse\n".utf8))
        #expect(run.status == .success, "\(run.errors)")
        let document = try run.json()
        #expect(try Schema.load("identity").problems(document) == [])
        #expect(document.objectValue?.map(\.key) == Self.exactKeys)
        let identity = try #require(document["identities"]?[0])
        #expect(identity.objectValue?.map(\.key) == Self.identityKeys)
        #expect(document["identities"]?.arrayValue?.count == 1)
        #expect(identity["subject"] == .string("CN=client-rsa"))
        #expect(identity["key_type"] == .string("RSA"))
        #expect(identity["key_bits"] == .integer(2048))
        #expect(identity["key_matches"] == .bool(true))
        // SHA-1 of the subjectPublicKey bits (cryptography's SubjectKeyIdentifier.from_public_key).
        #expect(identity["key_id"] == .string("2781b050daf83331e7fb524b142e5c1ece0c1b64"))
        #expect(identity["friendly_name"] == .string("Alice"))
        #expect(identity["spki_sha256"] == .string("17448ee0ba9d852ace540607f24aecae64066f36437c5ca4b530d13c5d89b828"))
        #expect(identity["chain_sha256"] == .strings([
            "6937d98749cbb45fae91f9228aaecfb27d4631af68db613ed7cb279aca61bd4e",
            "0072b2832fc588b02fafe91ebcf5ee127fd3d638f9c16f0d77ebda17394f72d2",
        ]))
        #expect(identity["trust"] == .null)
        #expect(document["certificates"]?.arrayValue?.count == 2)
        #expect(document["certificates"]?[0]?.objectValue?.map(\.key) == ["sha256", "subject", "friendly_name", "local_key_id"])
        #expect(document["keys_without_certificate"] == .integer(0))
        #expect(document["mac"]?["algorithm"] == .string("HMAC-SHA256 (PKCS #12 KDF)"))
        #expect(document["mac"]?["iterations"] == .integer(2048))
        #expect(document["encryption"]?.arrayValue?.count == 2)
        #expect(document["encryption"]?[0]?["scheme"] == .string("PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC)"))
        #expect(document["warnings"] == .array([]))
    }

    @Test("--json of every PKCS #12 vector that opens holds to identity.schema.json; the schema refuses a wrong document")
    func schema() throws {
        let schema = try Schema.load("identity")
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: CLI.root + "/Vectors/pkcs12").sorted()
        where name.hasSuffix(".p12") || name.hasSuffix(".pfx") {
            for extra in [[], ["--allow-no-mac"]] {
                let run = CLI.run(["identity", "--passphrase-stdin", "--json"] + extra + ["Vectors/pkcs12/" + name],
                                  input: Array("correct horse\n".utf8))
                guard run.status == .success else { continue }
                #expect(schema.problems(try run.json()) == [], "\(name)")
                checked += 1
                break
            }
        }
        #expect(checked >= 3)
        // A key of the wrong type and a missing key are caught (as one problem: the
        // document is neither one file's object nor an array of them).
        let wrong = try JSONReader.parse(#"{"identities": [], "certificates": [], "keys_without_certificate": "0", "mac": null, "encryption": []}"#)
        #expect(schema.problems(wrong).count == 1)
        #expect(schema.problems(.array([wrong])).count == 1)
    }

    @Test("Text: the legacy file's schemes and their warnings; the passphrase from a file")
    func text() throws {
        let passphraseFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("tack-identity-\(UUID().uuidString).txt")
        try Data("correct horse\r\n".utf8).write(to: passphraseFile)
        defer { try? FileManager.default.removeItem(at: passphraseFile) }
        let run = CLI.run(["identity", "--passphrase-file", passphraseFile.path, "--now", "2026-12-01T00:00:00Z",
                           "Vectors/pkcs12/openssl-rsa-legacy.p12"])
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.contains("Key ID:             2781b050daf83331e7fb524b142e5c1ece0c1b64"))
        #expect(run.output.contains("Encryption (content 1): PKCS #12 PBE (SHA-1, RC2-40-CBC), 2048 iterations"))
        #expect(run.output.contains("warning: the MAC uses SHA-1"))
        #expect(run.output.contains("Certificates without a key: 1"))
    }

    @Test("A wrong passphrase exits 1 with its own code; no MAC needs --allow-no-mac")
    func failures() throws {
        let wrong = CLI.run(["identity", "--passphrase-stdin", "--json", "Vectors/pkcs12/openssl-rsa-default.p12"],
                            input: Array("correct horsE\n".utf8))
        #expect(wrong.status == .failure)
        #expect(try wrong.json()["error"]?["code"] == .string("wrong_passphrase"))
        let noMAC = CLI.run(["identity", "Vectors/pkcs12/openssl-rsa-plain.p12"])
        #expect(noMAC.status == .failure)
        #expect(noMAC.failure?.code == "invalid_pkcs12")
        let allowed = CLI.run(["identity", "--allow-no-mac", "Vectors/pkcs12/openssl-rsa-plain.p12"])
        #expect(allowed.status == .success)
        #expect(allowed.output.contains("warning: "))
    }

    @Test("--roots: each identity evaluated as a TLS client (or for --host), exit 3 when not trusted")
    func trust() throws {
        // The generated test certificates have no authority key identifier, which the
        // profile requires: not trusted, with that reason.
        let run = CLI.run(["identity", "--passphrase-stdin", "--json", "--roots", "Vectors/pkcs12/ca.pem",
                           "--now", "2026-12-01T00:00:00Z", "Vectors/pkcs12/openssl-rsa-default.p12"],
                          input: Array("correct horse\n".utf8))
        #expect(run.status == .untrusted)
        #expect(try Schema.load("identity").problems(try run.json()) == [])
        let trust = try #require(try run.json()["identities"]?[0]?["trust"])
        #expect(trust.objectValue?.map(\.key) == ["verdict", "code", "purpose", "host", "failures"])
        #expect(trust["verdict"] == .string("untrusted"))
        #expect(trust["code"] == .string("profile_violation"))
        #expect(trust["purpose"] == .string("client_auth"))
        #expect(trust["host"] == .null)
        #expect(trust["failures"]?[0]?["code"] == .string("profile_violation"))
        let server = CLI.run(["identity", "--passphrase-stdin", "--roots", "Vectors/pkcs12/ca.pem", "--host", "a.example",
                              "--now", "2026-12-01T00:00:00Z", "Vectors/pkcs12/openssl-rsa-default.p12"],
                             input: Array("correct horse\n".utf8))
        #expect(server.status == .untrusted)
        #expect(server.output.contains("NOT trusted as the server a.example"))
        // --host alone has nothing to evaluate against.
        #expect(CLI.run(["identity", "--host", "a.example", "Vectors/pkcs12/openssl-rsa-plain.p12"]).status == .usage)
    }

    @Test("--roots: an identity whose chain has key identifiers and clientAuth is trusted as a TLS client (exit 0)")
    func trustedClient() throws {
        let run = CLI.run(["identity", "--passphrase-stdin", "--json", "--roots", "Vectors/pkcs12/trusted-root.pem",
                           "--now", "2026-12-01T00:00:00Z", "Vectors/pkcs12/openssl-trusted-client.p12"],
                          input: Array("correct horse\n".utf8))
        #expect(run.status == .success, "\(run.errors)")
        let identity = try #require(try run.json()["identities"]?[0])
        // The file ends in the intermediate: the chain is built without an anchor.
        #expect(identity["chain_sha256"]?.arrayValue?.count == 2)
        let trust = try #require(identity["trust"])
        #expect(trust["verdict"] == .string("trusted"))
        #expect(trust["code"] == .string("trusted"))
        #expect(trust["purpose"] == .string("client_auth"))
        #expect(trust["failures"] == .array([]))
        let text = CLI.run(["identity", "--passphrase-stdin", "--roots", "Vectors/pkcs12/trusted-root.pem",
                            "--now", "2026-12-01T00:00:00Z", "Vectors/pkcs12/openssl-trusted-client.p12"],
                           input: Array("correct horse\n".utf8))
        #expect(text.status == .success)
        #expect(text.output.contains("Trust:              trusted as a TLS client"))
    }

    @Test("--roots: the same identity under another CA, as a server, or expired is not trusted (exit 3)",
          arguments: [
              (["--roots", "Vectors/pkcs12/ca.pem", "--now", "2026-12-01T00:00:00Z"], "unknown_issuer"),
              (["--roots", "Vectors/pkcs12/trusted-root.pem", "--host", "a.example", "--now", "2026-12-01T00:00:00Z"],
               "extended_key_usage_mismatch"),
              (["--roots", "Vectors/pkcs12/trusted-root.pem", "--now", "2036-01-02T00:00:00Z"], "expired"),
          ])
    func untrustedClient(options: [String], code: String) throws {
        let run = CLI.run(["identity", "--passphrase-stdin", "--json"] + options + ["Vectors/pkcs12/openssl-trusted-client.p12"],
                          input: Array("correct horse\n".utf8))
        #expect(run.status == .untrusted)
        let trust = try #require(try run.json()["identities"]?[0]?["trust"])
        #expect(trust["verdict"] == .string("untrusted"))
        #expect(trust["code"] == .string(code))
        #expect(trust["failures"]?.arrayValue?.map { $0["code"] } == [.string(code)])
    }

    @Test("The chain is the path builder's: the decoy issuer with the intermediate's name is left out")
    func decoyChain() throws {
        let run = CLI.run(["identity", "--allow-no-mac", "--json", "Vectors/pkcs12/assembled-decoy-issuer.p12"])
        #expect(run.status == .success, "\(run.errors)")
        let document = try run.json()
        let certificates = try #require(document["certificates"]?.arrayValue)
        let hashes = certificates.compactMap { $0["sha256"] }
        #expect(hashes.count == 4)
        // File order: leaf, decoy, intermediate, root.
        #expect(document["identities"]?[0]?["chain_sha256"] == .array([hashes[0], hashes[2], hashes[3]]))
    }

    @Test("The passphrase is never an argument; at most one source; usage errors exit 2")
    func usage() {
        #expect(CLI.run(["identity", "--passphrase", "x", "Vectors/pkcs12/openssl-rsa-default.p12"]).status == .usage)
        #expect(CLI.run(["identity", "--passphrase-stdin", "--passphrase-env", "HOME",
                         "Vectors/pkcs12/openssl-rsa-default.p12"]).status == .usage)
        #expect(CLI.run(["identity", "--passphrase-stdin", "-"]).status == .usage)
        #expect(CLI.run(["identity"]).status == .usage)
        #expect(CLI.run(["identity", "--passphrase-env", "TACK_TEST_SURELY_UNSET_VARIABLE",
                         "Vectors/pkcs12/openssl-rsa-default.p12"]).status == .usage)
    }
}

/// Issue 31: `tack identity` lists what it could read and names what it could not.
@Suite("tack identity: unread bags and warnings")
struct IdentityWarningTests {
    @Test("a DSA key bag: the certificate, MAC and schemes are listed, the key bag is a coded warning naming DSA; exit 0")
    func dsaKeyBag() throws {
        let run = CLI.run(["identity", "--passphrase-stdin", "--json", "Vectors/cli-inputs/dsa.p12"], input: Array("example\n".utf8))
        #expect(run.status == .success, "\(run.errors)")
        let document = try run.json()
        #expect(try Schema.load("identity").problems(document) == [])
        #expect(document["certificates"]?[0]?["subject"] == .string("CN=dsa.example.com"))
        #expect(document["mac"]?["iterations"] == .integer(2048))
        #expect(document["encryption"]?.arrayValue?.count == 2)
        let warning = try #require(document["warnings"]?[0])
        #expect(warning["code"] == .string("unreadable_key"))
        #expect(warning["part"] == .string("key bag"))
        #expect(warning["message"]?.stringValue?.contains("DSA") == true, "\(warning)")
        let text = CLI.run(["identity", "--passphrase-stdin", "Vectors/cli-inputs/dsa.p12"], input: Array("example\n".utf8))
        #expect(text.status == .success)
        #expect(text.output.contains("CN=dsa.example.com"))
        #expect(text.output.contains("warning: a key bag was not read: a DSA private key"), "\(text.output)")
        #expect(text.output.contains("[key bag: unreadable_key]"), "\(text.output)")
    }

    @Test("a private key without encryption (a plain KeyBag) is a warning; each warning has its code and part")
    func plainKeyBag() throws {
        let document = try CLI.json(["identity", "--json", "--allow-no-mac", "Vectors/pkcs12/openssl-p256-plain.p12"], schema: "identity")
        let warnings = try #require(document["warnings"]?.arrayValue)
        let parts: [String] = warnings.map { warning in
            (warning["code"]?.stringValue ?? "") + "/" + (warning["part"]?.stringValue ?? "")
        }
        #expect(parts.contains("unencrypted_key/key bag"), "\(warnings)")
        #expect(parts.contains("no_mac/MAC"), "\(warnings)")
    }

    @Test("trust.failures carry code and message, as verify's do")
    func trustFailureMessages() throws {
        let run = CLI.run(["identity", "--passphrase-stdin", "--json", "--roots", "Vectors/pkcs12/ca.pem",
                           "--now", "2026-12-01T00:00:00Z", "Vectors/pkcs12/openssl-rsa-default.p12"],
                          input: Array("correct horse\n".utf8))
        #expect(run.status == .untrusted)
        #expect(try Schema.load("identity").problems(try run.json()) == [])
        let failure = try #require(try run.json()["identities"]?[0]?["trust"]?["failures"]?[0])
        #expect(failure["code"] == .string("profile_violation"))
        #expect(failure["message"]?.stringValue?.isEmpty == false)
    }
}

@Suite("tack identity: messages in prose")
struct IdentityProseTests {
    @Test("a PKCS #12 file with a byte after its end: the BER rule in words, not its enum name")
    func trailingData() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/Vectors/pkcs12/openssl-rsa-default.p12")) + Data([0])
        let path = try InputTests.temporaryDirectory() + "/trailing.p12"
        try bytes.write(to: URL(fileURLWithPath: path))
        let run = CLI.run(["identity", "--passphrase-stdin", path], input: Array("correct horse\n".utf8))
        #expect(run.status == .failure)
        #expect(run.errors.contains("bytes after the end of the document"), "\(run.errors)")
        #expect(!run.errors.contains("trailing_data"))
    }
}

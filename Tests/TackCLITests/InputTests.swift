import Foundation
import Testing

@testable import tack

/// The readers every command shares: what an unreadable or malformed input gives.
@Suite("tack: input errors")
struct InputTests {
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "tack-cli-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("missing file, directory, empty input, plain text: status 1 and the code in the JSON", arguments: [
        ("Vectors/no/such.pem", "unreadable_input"),
        ("Vectors/certs", "unreadable_input"),
        ("/dev/null", "empty_input"),
        ("README.md", "not_pem_or_der"),
    ])
    func unreadable(path: String, code: String) throws {
        let document = try CLI.json(["pin", "--json", path], status: .failure, schema: "pin")
        #expect(document["pins"] == .array([]))
        #expect(document["errors"]?[0]?["code"] == .string(code))
        let text = CLI.run(["pin", path])
        #expect(text.status == .failure)
        #expect(text.output.isEmpty)
    }

    @Test("one bad PEM block among good ones: the good pins print, the bad block is named")
    func mixed() throws {
        let chain = try CLI.text("Vectors/certs/chain-example.pem")
        var blocks = chain.components(separatedBy: "-----END CERTIFICATE-----\n").filter { $0.contains("BEGIN") }
            .map { $0 + "-----END CERTIFICATE-----\n" }
        try #require(blocks.count == 3)
        var lines = blocks[1].split(separator: "\n").map(String.init)
        lines[3] = String(repeating: "A", count: lines[3].count)  // valid Base64, broken DER
        blocks[1] = lines.joined(separator: "\n") + "\n"
        let directory = try InputTests.temporaryDirectory()
        let path = directory + "/mixed.pem"
        try blocks.joined().write(toFile: path, atomically: true, encoding: .utf8)
        let document = try CLI.json(["pin", "--format", "json", path], status: .failure, schema: "pin")
        let pins = document["pins"]?.arrayValue?.compactMap { $0["spki_sha256_base64"]?.stringValue }
        #expect(pins == [try CLI.text("Vectors/certs/chain-leaf.pin"), try CLI.text("Vectors/certs/chain-root.pin")]
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(document["errors"]?[0]?["code"] == .string("malformed_certificate"))
        let show = try CLI.json(["show", "--json", path], status: .failure, schema: "show")
        #expect(show["certificates"]?.arrayValue?.count == 2)
        #expect(show["errors"]?[0]?["code"] == .string("malformed_certificate"))
    }

    @Test("standard input is read for -")
    func standardInput() throws {
        let pem = Array(try CLI.text("Vectors/certs/p256-leaf.pem").utf8)
        let run = CLI.run(["pin", "-"], input: pem)
        #expect(run.status == .success)
        #expect(run.output.split(separator: " ").first.map(String.init)
                == (try CLI.text("Vectors/certs/p256-leaf.pin")).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

@Suite("tack: directories of certificates")
struct DirectoryInputTests {
    /// A directory like /etc/ssl/certs: two certificates, a hash-named link to one of
    /// them, and a file that is no certificate.
    static func certificateDirectory() throws -> String {
        let directory = try InputTests.temporaryDirectory()
        for name in ["chain-root", "p256-ca"] {
            try FileManager.default.copyItem(atPath: CLI.root + "/Vectors/certs/\(name).pem", toPath: directory + "/\(name).pem")
        }
        try FileManager.default.createSymbolicLink(atPath: directory + "/0a1b2c3d.0", withDestinationPath: "chain-root.pem")
        try "not a certificate\n".write(toFile: directory + "/README", atomically: true, encoding: .utf8)
        return directory
    }

    @Test("--roots DIR: every certificate file, the others skipped and said so")
    func rootsDirectory() throws {
        let directory = try DirectoryInputTests.certificateDirectory()
        let run = CLI.run(["verify", "--host", "www.example.com", "--roots", directory, "--at", "2026-06-01T00:00:00Z",
                           "Vectors/certs/chain-example.pem"])
        #expect(run.status == .success)
        #expect(run.errors == "tack: \(directory)/README: neither PEM nor DER: the file is plain text with no -----BEGIN line: skipped\n")
        let p256 = CLI.run(["verify", "--host", "p256.example.com", "--roots", directory, "--at", "2026-06-01T00:00:00Z",
                            "Vectors/certs/p256-leaf.pem"])
        #expect(p256.status == .success)
        let empty = try InputTests.temporaryDirectory()
        try "x\n".write(toFile: empty + "/README", atomically: true, encoding: .utf8)
        let none = CLI.run(["verify", "--host", "p256.example.com", "--roots", empty, "Vectors/certs/p256-leaf.pem"])
        #expect(none.status == .failure)
        #expect(none.failure?.code == "nothing_found")
    }

    @Test("scan DIR: each file once, a hash-named link not read twice")
    func scanDirectory() throws {
        let directory = try DirectoryInputTests.certificateDirectory()
        let run = CLI.run(["scan", "--quiet", directory])
        #expect(run.status == .failure)  // the README is an error line
        let lines = try run.jsonLines()
        #expect(lines.compactMap { $0["spki_sha256"]?.stringValue } == [try vectorPin("chain-root"), try vectorPin("p256-ca")])
        #expect(lines.filter { $0["error"] != nil }.count == 1)
    }
}

import Foundation
import TackTestSupport
import TackFormats
import Testing

@testable import tack

func vectorPin(_ name: String) throws -> String {
    try CLI.text("Vectors/certs/\(name).pin").trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("tack pin")
struct PinCommandTests {
    @Test("a raw key: the pin and the SPKI header")
    func rawKey() throws {
        let document = try CLI.json(["pin", "--json", "--raw-key", "Vectors/certs/p256-leaf.rawkey.hex", "--key-type", "p256"], schema: "pin")
        let record = try #require(document["pins"]?[0])
        #expect(record["kind"] == .string("raw_key"))
        #expect(record["spki_sha256_base64"] == .string(try vectorPin("p256-leaf")))
        #expect(record["spki_header_hex"]?.stringValue?.count == 52)  // 26 bytes
        let text = CLI.run(["pin", "--raw-key", "Vectors/certs/p256-leaf.rawkey.hex", "--key-type", "p256"])
        #expect(text.status == .success)
        #expect(text.output.hasPrefix(try vectorPin("p256-leaf") + "  "))
    }

    @Test("the likely --raw-key mistakes, each recognised by its code", arguments: [
        ("Vectors/certs/p256-leaf.pem", "p256", "raw_key_is_certificate"),
        ("Vectors/certs/p256-leaf.spki.der", "p256", "raw_key_is_public_key"),
        ("Vectors/certs/p256-leaf.rawkey.hex", "rsa", "raw_key_wrong_type"),
        ("Vectors/certs/p256-leaf.rawkey.hex", "p384", "raw_key_wrong_length"),
        ("Vectors/certs/ed25519-leaf.rawkey.hex", "p256", "raw_key_wrong_length"),
        ("README.md", "ed25519", "raw_key_not_hex_or_base64"),
    ])
    func rawKeyMistakes(path: String, type: String, code: String) throws {
        let document = try CLI.json(["pin", "--json", "--raw-key", path, "--key-type", type], status: .failure, schema: "error")
        #expect(document["error"]?["code"] == .string(code))
        #expect(document["error"]?["exit_status"] == .integer(1))
    }

    @Test("--format json: one object per certificate and key, snake_case keys")
    func json() throws {
        let document = try CLI.json(["pin", "--format", "json", "Vectors/certs/chain-example.pem", "Vectors/certs/p256-leaf.spki.der"],
                                    schema: "pin")
        let kinds = document["pins"]?.arrayValue?.compactMap { $0["kind"]?.stringValue }
        #expect(kinds == ["certificate", "certificate", "certificate", "public_key"])
        #expect(document["pins"]?[3]?["spki_sha256_base64"] == .string(try vectorPin("p256-leaf")))
    }
}

@Suite("tack show")
struct ShowCommandTests {
    @Test("--format json: the leaf's names, days left, extensions")
    func json() throws {
        let document = try CLI.json(["show", "--json", "--now", "2026-01-01T00:00:00Z", "Vectors/certs/chain-example.pem"], schema: "show")
        let certificates = try #require(document["certificates"]?.arrayValue)
        #expect(certificates.count == 3)
        let leaf = certificates[0]
        #expect(leaf["days_left"] == .integer(3287))
        #expect(leaf["dns_names"] == .strings(["www.example.com", "example.com"]))
        #expect(leaf["spki_sha256"] == .string(try vectorPin("chain-leaf")))
        #expect(leaf["not_before"]?.stringValue?.hasSuffix("Z") == true)
        let basic = leaf["extensions"]?.arrayValue?.first { $0["name"] == .string("basicConstraints") }
        #expect(basic?["critical"] == .bool(true))
        #expect(basic?["value"] == .string("CA:FALSE"))
    }

    @Test("text: validity counted from --now")
    func text() {
        let run = CLI.run(["show", "--now", "2036-01-01T00:00:00Z", "Vectors/certs/chain-leaf.pem"])
        #expect(run.status == .success)
        #expect(run.output.contains("(expired 365 days ago)"))
    }
}

@Suite("tack scan")
struct ScanCommandTests {
    static func lines(_ run: CLIRun) throws -> [JSONValue] {
        let lines = try run.jsonLines()
        let schema = try Schema.load("scan-line")
        for line in lines { #expect(schema.problems(line) == []) }
        return lines
    }

    @Test("an error line in place, then the certificates in input order")
    func order() throws {
        let run = CLI.run(["scan", "Vectors/certs/malformed/truncated.der", "Vectors/certs/chain-example.pem"])
        #expect(run.status == .failure)
        let lines = try ScanCommandTests.lines(run)
        #expect(lines.count == 4)
        #expect(lines[0]["code"]?.stringValue?.isEmpty == false)
        #expect(lines.dropFirst().map { $0["spki_sha256"] } == [
            .string(try vectorPin("chain-leaf")), .string(try vectorPin("chain-intermediate")), .string(try vectorPin("chain-root")),
        ])
        #expect(run.errors.contains("tack: scanned 4 certificates (1 failed)"))
    }

    @Test("Base64 lines on standard input, a bad one in the middle: one line out per line in", arguments: ["1", "2"])
    func standardInput(jobs: String) throws {
        var lines: [String] = []
        for name in ["p256-leaf", "rsa2048-leaf", "ed25519-leaf"] {
            let pem = try CLI.text("Vectors/certs/\(name).pem")
            lines.append(pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined())
        }
        lines.insert("not base64!", at: 1)
        let run = CLI.run(["scan", "--jobs", jobs, "--quiet"], input: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(run.status == .failure)
        #expect(run.errors == "tack: 1 input failed\n")
        let out = try ScanCommandTests.lines(run)
        #expect(out.count == 4)
        #expect(out[1]["code"] == .string("not_base64"))
        #expect(out[1]["index"] == .integer(2))
        #expect(out[3]["spki_sha256"] == .string(try vectorPin("ed25519-leaf")))
    }
}

extension ScanCommandTests {
    @Test("a directory whose bundle repeats its single files: each certificate described once, the repeats by reference, counted", arguments: ["1", "3"])
    func duplicates(jobs: String) throws {
        let directory = try InputTests.temporaryDirectory()
        let chain = try CLI.text("Vectors/certs/chain-example.pem")
        let leaf = try CLI.text("Vectors/certs/p256-leaf.pem")
        try chain.write(toFile: directory + "/a-chain.pem", atomically: true, encoding: .utf8)
        // The bundle: the same three certificates, then one new.
        try (chain + leaf).write(toFile: directory + "/ca-certificates.crt", atomically: true, encoding: .utf8)
        let run = CLI.run(["scan", "--jobs", jobs, directory])
        #expect(run.status == .success)
        let lines = try ScanCommandTests.lines(run)
        #expect(lines.count == 7)
        let first = Array(lines[0..<3])
        #expect(first.allSatisfy { $0["subject"] != nil && $0["file"] == .string(directory + "/a-chain.pem") })
        for (position, line) in lines[3..<6].enumerated() {
            #expect(line["file"] == .string(directory + "/ca-certificates.crt"))
            #expect(line["index"] == .int(position + 1))
            #expect(line["subject"] == nil)
            #expect(line["sha256"] == first[position]["sha256"])
            #expect(line["duplicate_of"] == .object([("file", .string(directory + "/a-chain.pem")), ("index", .int(position + 1))]))
        }
        #expect(lines[6]["spki_sha256"] == .string(try vectorPin("p256-leaf")))
        #expect(run.errors.contains("tack: scanned 7 certificates (0 failed, 3 duplicates skipped) in "))
        // Standard input streams and is not deduplicated: one line out per line in.
        let base64 = leaf.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let streamed = CLI.run(["scan", "--jobs", jobs, "--quiet"], input: Array((base64 + "\n" + base64 + "\n").utf8))
        let streamedLines = try ScanCommandTests.lines(streamed)
        #expect(streamedLines.count == 2 && streamedLines.allSatisfy { $0["subject"] != nil && $0["duplicate_of"] == nil })
    }
}

@Suite("tack scan of the system CA bundle")
struct ScanBundleTests {
    @Test("every certificate of the system CA bundle: scan's pins equal pin's, on one thread and on several",
          .enabled(if: VectorAvailability.runs(needing: URL(fileURLWithPath: SystemCABundle.path))))
    func bundle() throws {
        let pin = CLI.run(["pin", SystemCABundle.path])
        #expect(pin.status == .success)
        let pins = pin.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(pins.count > 100)
        for jobs in ["1", "4"] {
            let scan = CLI.run(["scan", "--quiet", "--jobs", jobs, SystemCABundle.path])
            #expect(scan.status == .success)
            let scanned = try scan.jsonLines().map { $0["spki_sha256"]?.stringValue ?? "" }
            #expect(scanned == pins)
        }
    }
}

@Suite("tack pin: private keys, signing requests, PKCS #7 bundles")
struct PinSourceTests {
    @Test("the pin of each equals its certificate's", arguments: [
        ("Vectors/certs/keys/p256-leaf.key.pem", "p256-leaf", "private_key"),
        ("Vectors/certs/keys/rsa2048-leaf.key.pem", "rsa2048-leaf", "private_key"),
        ("Vectors/certs/keys/p384-leaf.key.pem", "p384-leaf", "private_key"),
        ("Vectors/cli-inputs/rsa2048-leaf.pkcs1.pem", "rsa2048-leaf", "private_key"),
        ("Vectors/cli-inputs/p256-leaf.sec1.pem", "p256-leaf", "private_key"),
        ("Vectors/cli-inputs/p256-leaf.pkcs8.der", "p256-leaf", "private_key"),
        ("Vectors/cli-inputs/p256-leaf.csr.pem", "p256-leaf", "certificate_request"),
        ("Vectors/cli-inputs/rsa2048-leaf.csr.der", "rsa2048-leaf", "certificate_request"),
    ])
    func pins(path: String, certificate: String, kind: String) throws {
        let document = try CLI.json(["pin", "--json", path], schema: "pin")
        let record = try #require(document["pins"]?[0])
        #expect(record["kind"] == .string(kind))
        #expect(record["spki_sha256_base64"] == .string(try vectorPin(certificate)))
    }

    @Test("a PKCS #7 bundle, PEM or DER, gives its certificates, and verify reads it as a chain",
          arguments: ["Vectors/cli-inputs/chain-example.p7b.pem", "Vectors/cli-inputs/chain-example.p7b.der"])
    func pkcs7(path: String) throws {
        let document = try CLI.json(["pin", "--json", path], schema: "pin")
        #expect(document["pins"]?.arrayValue?.map { $0["spki_sha256_base64"] }
                == [.string(try vectorPin("chain-leaf")), .string(try vectorPin("chain-intermediate")), .string(try vectorPin("chain-root"))])
        let verify = CLI.run(["verify", "--host", "www.example.com", "--roots", "Vectors/certs/chain-root.pem", "--at", "2026-06-01T00:00:00Z", path])
        #expect(verify.status == .success)
    }

    @Test("refused: a bad request signature, an encrypted key, a key without its public half", arguments: [
        ("Vectors/cli-inputs/p256-leaf.bad-signature.csr.der", "csr_signature_invalid"),
        ("Vectors/cli-inputs/p256-leaf.encrypted.pem", "encrypted_private_key"),
        ("Vectors/certs/keys/ed448-leaf.key.pem", "public_key_not_derivable"),
    ])
    func refused(path: String, code: String) throws {
        let document = try CLI.json(["pin", "--json", path], status: .failure, schema: "pin")
        #expect(document["pins"] == .array([]))
        #expect(document["errors"]?[0]?["code"] == .string(code))
        // No part of a key file reaches the message.
        let message = try #require(document["errors"]?[0]?["message"]?.stringValue)
        if path.hasSuffix(".pem") {
            let body = try CLI.text(path).split(separator: "\n")[1]
            #expect(!message.contains(body.prefix(16)))
        }
    }
}

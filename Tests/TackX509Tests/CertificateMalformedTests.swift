import Foundation
import Testing
import TackDER
import TackTestSupport
import TackX509

/// One line of Vectors/certs/malformed/manifest.txt.
struct MalformedVector: CustomTestStringConvertible, Sendable {
    var file: String
    var expected: String
    var offset: Int

    var testDescription: String { file }

    static let all: [MalformedVector] = {
        let url = RepositoryPaths.vectors("certs/malformed/manifest.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return MalformedVector(file: fields[0], expected: fields[1], offset: Int(fields[2]) ?? -1)
        }
    }()
}

@Suite("Certificate: malformed vectors (Vectors/certs/malformed)")
struct CertificateMalformedTests {
    @Test("The malformed set covers every case the issue names")
    func coverage() {
        let files = Set(MalformedVector.all.map(\.file))
        for name in ["truncated", "wrong-version", "duplicate-extension", "bad-time", "algorithm-mismatch", "trailing-data"] {
            #expect(files.contains(name + ".der"), "\(name)")
        }
    }

    @Test("Each malformed certificate fails with its own error at the expected byte, or parses and is flagged",
          arguments: MalformedVector.all)
    func malformed(vector: MalformedVector) throws {
        let der = try RepositoryPaths.vectorBytes("certs/malformed/" + vector.file)
        do throws(X509Error) {
            let certificate = try Certificate(derEncoded: der)
            switch vector.expected {
            case "ok.serialNegative": #expect(certificate.isSerialNumberNegative)
            case "ok.serialZero": #expect(certificate.isSerialNumberZero)
            case "ok.serialTooLong": #expect(certificate.isSerialNumberTooLong)
            case "ok.extensionCount64": #expect(certificate.extensions.count == Certificate.maximumExtensionCount)
            case "ok.criticalFalseEncoded":
                #expect(certificate.hasEncodedDefaultCriticalFlag)
                #expect(certificate.extensions.first { $0.oid == OID(2, 5, 29, 15) }?.isCritical == false)
            case "ok.ecdsaNullParameters":
                #expect(certificate.hasNullECDSASignatureParameters)
                #expect(certificate.signatureAlgorithm == .ecdsa(.sha256))
            default: Issue.record("\(vector.file) parsed; expected \(vector.expected) at \(vector.offset)")
            }
        } catch {
            #expect(error.code == vector.expected, "\(error)")
            #expect(error.offset == vector.offset, "\(error)")
        }
    }

    @Test("Every proper prefix of a valid certificate is rejected (drip feed)")
    func dripFeed() throws {
        let der = try RepositoryPaths.vectorBytes("certs/malformed/trailing-data.der").dropLast()
        #expect(throws: Never.self) { try Certificate(derEncoded: Array(der)) }
        for length in 0..<der.count {
            #expect(throws: X509Error(derPrefixError(Array(der), length: length, ifEmpty: .missingElement(expected: .sequence)))) { try Certificate(derEncoded: Array(der.prefix(length))) }
        }
    }

    @Test("The exact errors of the named malformed cases")
    func exactErrors() throws {
        func error(_ file: String) throws -> X509Error? {
            let der = try RepositoryPaths.vectorBytes("certs/malformed/" + file)
            do { _ = try Certificate(derEncoded: der); return nil }
            catch { return error }
        }
        #expect(try error("trailing-data.der")?.reason == .der(.trailingData))
        #expect(try error("wrong-version.der")?.reason == .invalidVersion)
        #expect(try error("algorithm-mismatch.der")?.reason == .signatureAlgorithmMismatch)
        #expect(try error("duplicate-extension.der")?.reason == .duplicateExtension(OID(2, 5, 29, 19)))
        #expect(try error("bad-time.der")?.reason == .der(.invalidDate))
        #expect(try error("truncated.der")?.reason == .der(.lengthExceedsInput))
        #expect(try error("ec-explicit-curve.der")?.reason == .explicitCurveParameters)
    }
}

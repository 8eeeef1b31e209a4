import Foundation
import Testing
import TackTestSupport
import TackDER
import TackX509

/// x509-limbo, read from `<repo>/../shared/vectors` (see
/// `RepositoryPaths.sharedVectors`) and never copied into the repository.
private let limboPath = RepositoryPaths.sharedVectors("x509-limbo/limbo-shared.json")

@Suite("Names and extensions over x509-limbo")
struct ExtensionLimboTests {
    /// Runs when the file exists, and always in CI (`CI=true`), where a missing file
    /// fails the test instead of skipping it.
    @Test("Every certificate of a limbo case that expects SUCCESS decodes its names and extensions fully",
          .enabled(if: VectorAvailability.runs(needing: limboPath),
                   "x509-limbo is not in ../shared/vectors/x509-limbo (a failure when CI=true)"))
    func successCasesDecode() throws {
        let data = try Data(contentsOf: limboPath)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(root["testcases"] as? [[String: Any]], "no testcases in \(limboPath.path)")
        var decoded = 0
        var failures: [String] = []
        for testCase in cases {
            let id = testCase["id"] as? String ?? "?"
            let expectsSuccess = testCase["expected_result"] as? String == "SUCCESS"
            var pems = (testCase["trusted_certs"] as? [String] ?? []) + (testCase["untrusted_intermediates"] as? [String] ?? [])
            if let peer = testCase["peer_certificate"] as? String { pems.append(peer) }
            for pem in pems {
                for der in derCertificates(inPEM: pem) {
                    // Certificates the core parser refuses are its business, not this test's.
                    guard let certificate = try? Certificate(derEncoded: der) else { continue }
                    do {
                        let subject = try certificate.subject
                        let issuer = try certificate.issuer
                        _ = subject.rfc4514String
                        _ = issuer.rfc4514String
                        let extensions = try certificate.decodeAllExtensions()
                        if let names = extensions.subjectAlternativeNames { _ = names.map(\.description) }
                        if let constraints = extensions.nameConstraints {
                            _ = constraints.permittedSubtrees.map { $0.map(\.description) }
                            _ = constraints.excludedSubtrees.map { $0.map(\.description) }
                        }
                        decoded += 1
                    } catch {
                        if expectsSuccess { failures.append("\(id): \(error)") }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n"))")
        #expect(decoded > 1000)
    }
}

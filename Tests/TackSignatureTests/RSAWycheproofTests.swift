import Foundation
import Testing

import TackSHA2
import TackSignature
import TackTestSupport
import TackVectorSuites

/// Runs Wycheproof's RSA PKCS #1 v1.5 and RSASSA-PSS verification files
/// (schemas `rsassa_pkcs1_verify_schema_v1` and `rsassa_pss_verify_schema_v1`)
/// from `<repo>/../shared/vectors/wycheproof/`, never copied into the repo.
///
/// Verdicts:
/// - `valid` must verify and `invalid` must not: 100% agreement is required.
/// - `acceptable`: the RSA files have exactly one kind, flag `MissingNull`
///   (a DigestInfo without the NULL parameters). Tack rejects it (see
///   `RSAPublicKey.verifyPKCS1v15Signature(_:forDigest:hash:)`), and the
///   test requires that rejection. An `acceptable` vector with any other
///   flag fails the test, so that a new kind gets a deliberate decision.
/// - Groups whose hash or MGF1 hash Tack does not offer (SHA-1, in
///   rsa_pss_misc_test.json) are skipped and counted as skipped.
///
/// Each file prints how many vectors it checked; a file with no vector run,
/// or a folder present without any RSA file, fails.
@Suite("RSA Wycheproof")
struct RSAWycheproofTests {
    static func files() -> [String] {
        WycheproofFile.fileNames {
            ($0.hasPrefix("rsa_signature_") || $0.hasPrefix("rsa_pss_")) && $0.hasSuffix("_test.json")
        }
    }

    static func hash(named name: String) -> DigestAlgorithm? {
        switch name {
        case "SHA-224": .sha224
        case "SHA-256": .sha256
        case "SHA-384": .sha384
        case "SHA-512": .sha512
        default: nil
        }
    }

    @Test("The Wycheproof folder, when present, holds RSA files",
          .enabled(if: VectorAvailability.runs(needing: RepositoryPaths.wycheproof),
                   "Wycheproof is not in ../shared/vectors/wycheproof (a failure when CI=true)"))
    func folderHasFiles() {
        #expect(Self.files().count >= 16)
    }

    @Test("Every vector of the Wycheproof RSA file agrees with its verdict",
          .enabled(if: WycheproofFile.folderPresent, "the shared Wycheproof folder is absent"), arguments: files())
    func file(_ name: String) throws {
        let root = try WycheproofFile.load(name)
        let isPSS = root.schema == "rsassa_pss_verify_schema_v1.json"
        #expect(isPSS || root.schema == "rsassa_pkcs1_verify_schema_v1.json")

        var checked = 0, skipped = 0
        var verdictCounts: [String: Int] = [:]
        var disagreements: [Int] = []
        var skipReasons: Set<String> = []
        for group in root.testGroups {
            let tests = group.tests
            let shaName = try #require(group.sha)
            let mgfShaName = isPSS ? try #require(group.mgfSha) : shaName
            guard let hash = Self.hash(named: shaName), let mgf1Hash = Self.hash(named: mgfShaName) else {
                skipped += tests.count
                skipReasons.insert("hash \(shaName)/\(mgfShaName) not offered")
                continue
            }
            if isPSS {
                #expect(group.mgf == "MGF1")
            }
            // The PKCS #1 RSAPublicKey DER, cross-checked with the raw n and e.
            let keyDER = hexBytes(try #require(group.publicKeyAsn))
            let key = try RSAPublicKey(pkcs1DER: keyDER)
            let publicKey = try #require(group.publicKey)
            let rawKey = try RSAPublicKey(
                modulus: hexBytes(try #require(publicKey.modulus)),
                exponent: hexBytes(try #require(publicKey.publicExponent))
            )
            #expect(key == rawKey)
            let parameters = isPSS
                ? try PSSParameters(hash: hash, mgf1Hash: mgf1Hash, saltLength: try #require(group.sLen))
                : nil

            for test in tests {
                let id = test.tcId
                let result = test.result
                let flags = test.flags ?? []
                let message = hexBytes(test.msg)
                let signature = hexBytes(test.sig)
                let accepted: Bool
                do {
                    if let parameters {
                        try key.verifyPSSSignature(signature, for: message, parameters: parameters)
                    } else {
                        try key.verifyPKCS1v15Signature(signature, for: message, hash: hash)
                    }
                    accepted = true
                } catch {
                    accepted = false
                }
                let expected: Bool
                switch result {
                case "valid": expected = true
                case "invalid": expected = false
                case "acceptable":
                    #expect(flags == ["MissingNull"], "tcId \(id): acceptable vector of a new kind \(flags)")
                    expected = false
                default:
                    Issue.record("tcId \(id): unknown result \(result)")
                    continue
                }
                if accepted != expected { disagreements.append(id) }
                verdictCounts[result, default: 0] += 1
                checked += 1
            }
        }
        let verdicts = verdictCounts.keys.sorted().map { "\($0) \(verdictCounts[$0] ?? 0)" }.joined(separator: ", ")
        let skipNote = skipped == 0 ? "" : ", \(skipped) skipped (\(skipReasons.sorted().joined(separator: "; ")))"
        print("Wycheproof \(name): \(checked) vectors checked (\(verdicts))\(skipNote), \(disagreements.count) disagreements")
        #expect(checked > 0, "no vector of \(name) ran")
        #expect(disagreements.isEmpty, "\(name): disagreeing tcIds \(disagreements)")
    }
}

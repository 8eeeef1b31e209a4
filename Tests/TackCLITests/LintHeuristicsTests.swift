import Foundation
import TackFormats
import TackTestSupport
import Testing

@testable import tack

/// Issue 31, "Lint's heuristics, measured": the corpus of `Vectors/lint/corpus`
/// (mistakes and false-positive cases, with the findings expected in its manifest),
/// its precision and recall, and the order of findings in a binary plist.
@Suite("tack lint: heuristics measured on the corpus")
struct LintHeuristicsTests {
    struct Case {
        var file: String
        var expected: Set<String>
    }

    static func corpus() throws -> [Case] {
        let manifest = try JSONReader.parse(try CLI.text("Vectors/lint/corpus/manifest.json"))
        // A malformed entry is an error, not a case silently left out.
        return try (manifest["cases"]?.arrayValue ?? []).map { entry in
            guard let file = entry["file"]?.stringValue, let expected = entry["expect"]?.arrayValue else {
                throw CLIError("Vectors/lint/corpus/manifest.json: an entry without file or expect: \(entry.serialized(pretty: false))")
            }
            return Case(file: file, expected: Set(expected.compactMap(\.stringValue)))
        }
    }

    /// `LINE:RULE` of each finding `tack lint` reports for one corpus file.
    static func found(_ file: String) -> Set<String> {
        let report = LintCommand.lint(["Vectors/lint/corpus/" + file], disabled: [], io: Console.capturing(input: [], color: false))
        #expect(report.problems.isEmpty, "\(file): \(report.problems)")
        return Set(report.findings.map { "\($0.line):\($0.rule.rawValue)" })
    }

    @Test("every case of the corpus: exactly its expected findings; precision and recall printed, both 1")
    func corpusPrecisionAndRecall() throws {
        let cases = try LintHeuristicsTests.corpus()
        let files = try FileManager.default.contentsOfDirectory(atPath: CLI.root + "/Vectors/lint/corpus").filter { $0 != "manifest.json" }
        #expect(Set(cases.map(\.file)) == Set(files), "every corpus file is in the manifest, and only those")
        #expect(cases.filter(\.expected.isEmpty).count >= 6, "false-positive cases")
        var truePositives = 0, falsePositives = 0, falseNegatives = 0
        for entry in cases {
            let found = LintHeuristicsTests.found(entry.file)
            #expect(found == entry.expected, "\(entry.file)")
            truePositives += found.intersection(entry.expected).count
            falsePositives += found.subtracting(entry.expected).count
            falseNegatives += entry.expected.subtracting(found).count
        }
        let precision = Double(truePositives) / Double(max(1, truePositives + falsePositives))
        let recall = Double(truePositives) / Double(max(1, truePositives + falseNegatives))
        print("tack lint corpus: \(cases.count) files, \(truePositives + falseNegatives) expected findings: precision \(precision) (\(falsePositives) false positives), recall \(recall) (\(falseNegatives) missed)")
        #expect(truePositives >= 17)
        #expect(precision == 1 && recall == 1)
    }

    @Test("each new rule fires in the corpus, and tack lint on the directory finds every file")
    func directory() throws {
        let document = try CLI.json(["lint", "--json", "Vectors/lint/corpus"], status: .failure, schema: "lint")
        let rules = Set((document["findings"]?.arrayValue ?? []).compactMap { $0["rule"]?.stringValue })
        for rule in ["trust-result-ignored", "trust-evaluator-disabled", "ats-insecure-exception", "ats-key-misspelt", "credential-without-trust",
                     "pin-duplicate", "pin-duplicate-domain"] {
            #expect(rules.contains(rule), "\(rule)")
        }
        #expect(document["files_checked"] == .integer(Int64(try LintHeuristicsTests.corpus().count)))
    }

    @Test("trust-result-ignored: try forms, and an evaluation whose result is used on the next line")
    func ignoredForms() {
        func rules(_ body: String) -> [String] {
            LintCommandTests.rules("func f(c: (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {\n\(body)\n    c(.useCredential, nil)\n}")
        }
        #expect(rules("    _ = try? SecTrustEvaluateWithError(t, nil)") == ["2:trust-result-ignored"])
        #expect(rules("    let x = 1\n    SecTrustEvaluateWithError(t, nil)") == ["3:trust-result-ignored"])
        #expect(rules("    let ok =\n        SecTrustEvaluateWithError(t, nil)\n    guard ok else { return }") == [])
        #expect(rules("    if !SecTrustEvaluateWithError(t, nil) { return }") == [])
        #expect(rules("    guard validatePins(t) else { return }") == [])
        // The deprecated SecTrustEvaluate answers through its out parameter.
        #expect(rules("    SecTrustEvaluate(t, &result)\n    guard result == .proceed else { return }") == ["2:deprecated-trust-api"])
        // A helper whose verdict is thrown away evaluates nothing.
        #expect(rules("    _ = verifyServerTrust(t)") == ["3:credential-without-trust"])
        // Alamofire's evaluator declared, not used.
        #expect(LintCommandTests.rules("final class DisabledTrustEvaluator {}") == [])
    }

    @Test("the lint schema lists every rule id, and only those")
    func schemaRules() throws {
        let schema = try JSONReader.parse(try CLI.text("Vectors/cli-schemas/lint.schema.json"))
        let listed = schema["properties"]?["findings"]?["items"]?["properties"]?["rule"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(listed) == Set(LintRule.allCases.map(\.rawValue)))
        #expect(listed.count == LintRule.allCases.count)
    }

    @Test("a binary Info.plist's findings come in byte-offset order")
    func binaryOrder() throws {
        let binary = try RepositoryPaths.vectorBytes("plists/lint-mistakes.bplist")
        let offsets = try lintPlist(binary, path: "Info.plist").compactMap(\.byteOffset)
        #expect(offsets.count >= 8)
        #expect(offsets == offsets.sorted())
    }
}

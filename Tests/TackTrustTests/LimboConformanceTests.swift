import Foundation
import Testing

import TackVectorSuites
import TackTestSupport

/// Runs every case of the shared x509-limbo set (`../shared/vectors/x509-limbo/limbo-shared.json`,
/// never copied into the repository) through `LimboHarness.evaluate`, the same code
/// `tack vectors limbo` runs, and fails on any disagreement with `expected_result` that
/// `Vectors/limbo/exceptions.json` does not list with a reason.
///
/// Without the file: a failure when `CI=true`, a visible skip otherwise.
@Suite("x509-limbo conformance")
struct LimboConformanceTests {
    static let suiteURL = RepositoryPaths.sharedVectors("x509-limbo/limbo-shared.json")

    static func exceptions() throws -> LimboExceptions {
        let data = try Data(contentsOf: RepositoryPaths.vectors("limbo/exceptions.json"))
        return try LimboExceptions(jsonBytes: [UInt8](data))
    }

    @Test("Every exception names a reason and is not a feature skip")
    func exceptionsAreReasoned() throws {
        let exceptions = try Self.exceptions()
        for divergence in exceptions.divergences {
            #expect(divergence.reason.count >= 20, "exception \(divergence.id) needs a real reason")
        }
        #expect(Set(exceptions.divergences.map(\.id)).count == exceptions.divergences.count, "duplicate exception ids")
    }

    @Test("Every source file the exceptions file names exists")
    func exceptionsNameExistingFiles() throws {
        let text = try String(contentsOf: RepositoryPaths.vectors("limbo/exceptions.json"), encoding: .utf8)
        let paths = text.matches(of: /Sources\/[A-Za-z0-9_\/]+\.swift/).map { String($0.output) }
        #expect(!paths.isEmpty)
        for path in paths {
            let url = RepositoryPaths.root.appendingPathComponent(path)
            #expect(FileManager.default.fileExists(atPath: url.path), "exceptions.json names \(path), which does not exist")
        }
    }

    /// Runs when the file exists, and always in CI (`CI=true`), where a missing file
    /// fails the test instead of skipping it.
    @Test("Every limbo case agrees with its expected result or is a listed divergence",
          .enabled(if: VectorAvailability.runs(needing: suiteURL),
                   "x509-limbo is not in ../shared/vectors/x509-limbo (a failure when CI=true)"))
    func conformance() throws {
        let suite = try LimboSuite(jsonBytes: [UInt8](Data(contentsOf: Self.suiteURL)))
        #expect(suite.testcases.count >= 1000)
        let exceptions = try Self.exceptions()
        let now = Int64(Date().timeIntervalSince1970)
        var tally = LimboTally()
        var agreeingExceptions: [String] = []
        for testCase in suite.testcases {
            // The harness's 10 s default, which a denial-of-service case must beat.
            let result = LimboHarness.evaluate(testCase, now: now, timeLimit: 10)
            if result.actual_result == .skipped {
                #expect(result.context?.isEmpty == false, "\(testCase.id) skipped without a reason")
            }
            if result.actual_result.rawValue == testCase.expected_result, exceptions.reason(for: testCase.id) != nil {
                agreeingExceptions.append(testCase.id)
            }
            tally.record(result, expected: testCase.expected_result, exceptions: exceptions)
        }
        for line in tally.reportLines where !line.hasPrefix("DISAGREE") { print("limbo: \(line)") }
        for disagreement in tally.disagreements {
            Issue.record("\(disagreement.id): expected \(disagreement.expected), got \(disagreement.actual.actual_result.rawValue) (\(disagreement.actual.context ?? ""))")
        }
        // A listed divergence that now agrees should leave the list.
        #expect(agreeingExceptions.isEmpty, "exceptions that now agree: \(agreeingExceptions)")
    }
}

public import Foundation

/// Decides whether a test that needs a vector set (or an external tool) runs, so
/// that no test passes silently without its data.
///
/// Locally, a missing set makes the test a visible skip: use the result in an
/// `.enabled(if:_:)` trait whose comment names what is missing. In continuous
/// integration (`CI=true`, as GitHub Actions, GitLab CI and `.ci/run` set it) the
/// test always runs, so a missing set fails when the test reads it.
///
/// ```swift
/// @Test("…", .enabled(if: VectorAvailability.runs(needing: limboPath), "x509-limbo is missing"))
/// ```
public enum VectorAvailability {
    /// Whether the environment says this is a CI run: `CI` is `true` or `1`
    /// (any case).
    public static let isContinuousIntegration: Bool = {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return value == "true" || value == "1"
    }()

    /// Whether a test needing `location` runs: always in CI, otherwise only when
    /// the file or folder exists.
    ///
    /// - Parameter location: The vector file or folder the test reads.
    /// - Returns: `true` in CI or when `location` exists.
    public static func runs(needing location: URL) -> Bool {
        isContinuousIntegration || FileManager.default.fileExists(atPath: location.path)
    }

    /// Whether a test needing a condition that holds only on some machines (an
    /// installed tool, a CPU feature) runs: always in CI when `requiredInCI`,
    /// otherwise only when `available`.
    ///
    /// - Parameters:
    ///   - available: Whether the condition holds here.
    ///   - requiredInCI: Whether CI must provide it (a tool `.ci/run` installs),
    ///     so that its absence there fails instead of skipping.
    /// - Returns: Whether the test runs.
    public static func runs(when available: Bool, requiredInCI: Bool) -> Bool {
        available || (requiredInCI && isContinuousIntegration)
    }
}

public import Foundation

/// Where the tests find the repository's files and the shared third-party vectors.
///
/// Every path is resolved from this source file's own `#filePath`
/// (`<root>/Sources/TackTestSupport/RepositoryPaths.swift`), so tests find the
/// files whatever the working directory of the test run.
public enum RepositoryPaths {
    /// The repository root: the directory that holds `Package.swift`.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TackTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // repository root

    /// A file or directory under the repository's `Vectors/`.
    ///
    /// - Parameter subpath: The path below `Vectors/`, such as `"der"` or
    ///   `"certs/manifest.txt"`.
    /// - Returns: `<root>/Vectors/<subpath>`; whether it exists is not checked.
    public static func vectors(_ subpath: String) -> URL {
        root.appendingPathComponent("Vectors").appendingPathComponent(subpath)
    }

    /// The contents of a file under the repository's `Vectors/`.
    ///
    /// - Parameter subpath: The path below `Vectors/`.
    /// - Returns: The file's bytes.
    /// - Throws: Foundation's error when the file cannot be read.
    public static func vectorBytes(_ subpath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: vectors(subpath)))
    }

    /// A file or directory of the third-party vector sets (Wycheproof,
    /// x509-limbo), which are read in place and never copied into the repository.
    ///
    /// They live in `shared/vectors/` beside the checkout, at
    /// `<root>/../shared/vectors/<subpath>`. A git worktree nested deeper (such
    /// as `<main>/../wt/<branch>`) finds the same folder: the first
    /// `shared/vectors/<subpath>` that exists, walking up from the root's
    /// parent, is returned. When none exists, `<root>/../shared/vectors/<subpath>`
    /// is returned, and the tests that need it skip or fail as they choose.
    ///
    /// For `wycheproof` and paths under it, a non-empty `TACK_WYCHEPROOF_DIR`
    /// environment variable names the Wycheproof folder instead, as for
    /// `scripts/wycheproof-cli-check.sh`.
    ///
    /// - Parameter subpath: The path below `shared/vectors/`, such as
    ///   `"wycheproof"` or `"x509-limbo/limbo-shared.json"`.
    /// - Returns: The resolved location; whether it exists is not checked when
    ///   it comes from `TACK_WYCHEPROOF_DIR` or no candidate exists.
    public static func sharedVectors(_ subpath: String) -> URL {
        let wycheproof = "wycheproof"
        if subpath == wycheproof || subpath.hasPrefix(wycheproof + "/"),
            let override = ProcessInfo.processInfo.environment["TACK_WYCHEPROOF_DIR"], !override.isEmpty
        {
            let rest = subpath.dropFirst(wycheproof.count).drop { $0 == "/" }
            let directory = URL(fileURLWithPath: override)
            return rest.isEmpty ? directory : directory.appendingPathComponent(String(rest))
        }
        let relative = "shared/vectors/" + subpath
        var directory = root.deletingLastPathComponent()
        let nearest = directory.appendingPathComponent(relative)
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nearest
    }

    /// The Wycheproof folder: `sharedVectors("wycheproof")`, so
    /// `TACK_WYCHEPROOF_DIR` when it is set.
    public static var wycheproof: URL { sharedVectors("wycheproof") }
}

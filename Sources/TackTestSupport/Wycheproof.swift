import Foundation
public import TackVectorSuites

/// The test suites' access to the shared Wycheproof folder
/// (``RepositoryPaths/wycheproof``; files are read there, never copied into the
/// repository): whether it is present, whether suites over it run, its file
/// names, and loading a file into TackVectorSuites' `WycheproofFile`, the one
/// model of a Wycheproof file, which `tack vectors wycheproof` reads too. The
/// suites run files through TackVectorSuites' `WycheproofRunner`, as the
/// command line does.
extension WycheproofFile {
    /// Whether the shared Wycheproof folder is present.
    public static let folderPresent: Bool = {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: RepositoryPaths.wycheproof.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }()

    /// Whether suites over Wycheproof files run: when the folder is present, and
    /// always in CI (`CI=true`), where a missing folder then fails rather than
    /// passing silently. Use it as `.enabled(if: WycheproofFile.suitesRun, "…")`,
    /// so that a local run without the folder shows a skip.
    public static let suitesRun = VectorAvailability.runs(when: folderPresent, requiredInCI: true)

    /// The path of a file of the shared folder, for `WycheproofRunner.run(path:)`.
    ///
    /// - Parameter name: The file name, for example `ed25519_test.json`.
    /// - Returns: The path; whether the file exists is not checked.
    public static func path(_ name: String) -> String {
        RepositoryPaths.wycheproof.appendingPathComponent(name).path
    }

    /// Reads and decodes a file of the shared folder.
    ///
    /// - Parameter name: The file name, for example `ed25519_test.json`.
    /// - Returns: The decoded file.
    /// - Throws: Foundation's error when the file cannot be read, and
    ///   `JSONShapeError` when it is malformed.
    public static func load(_ name: String) throws -> WycheproofFile {
        let data = try Data(contentsOf: RepositoryPaths.wycheproof.appendingPathComponent(name))
        return try WycheproofFile(jsonBytes: [UInt8](data))
    }

    /// The names of the shared folder's files accepted by `filter`, sorted; empty
    /// when the folder is absent.
    ///
    /// - Parameter filter: Which file names to keep.
    /// - Returns: The names.
    public static func fileNames(where filter: (String) -> Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: RepositoryPaths.wycheproof.path)) ?? []
        return names.filter(filter).sorted()
    }
}

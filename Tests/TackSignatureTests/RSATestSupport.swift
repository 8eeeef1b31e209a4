import Foundation

/// Helpers shared by the RSA test suites: locating vector files and decoding hex.
enum RSATestSupport {
    /// The repository root, found from this file's path (Tests/TackSignatureTests/…).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Vectors/signatures/rsa/ inside the repository.
    static let vectorDirectory = repositoryRoot.appendingPathComponent("Vectors/signatures/rsa")

    /// `<repo>/../shared/vectors/wycheproof`, where CI and the development
    /// machines keep the Wycheproof files (never copied into the repository).
    ///
    /// `TACK_WYCHEPROOF_DIR` overrides it. Otherwise the first
    /// `shared/vectors/wycheproof` found walking up from the repository's
    /// parent is used, so that a git worktree nested one level deeper
    /// (for example `/work/wt/<branch>`) finds the same folder as the main
    /// checkout. Without any, the repository's parent is returned (and the
    /// tests that need the folder are skipped).
    static let wycheproofDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["TACK_WYCHEPROOF_DIR"] {
            return URL(fileURLWithPath: override)
        }
        let relative = "shared/vectors/wycheproof"
        var directory = repositoryRoot.deletingLastPathComponent()
        let first = directory.appendingPathComponent(relative)
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        return first
    }()

    /// Parses a JSON file with JSONSerialization.
    static func loadJSON(_ url: URL) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }

    /// Decodes an even-length hex string; traps on bad test data.
    static func bytes(hex: String) -> [UInt8] {
        var text = Array(hex.utf8)
        if text.count % 2 == 1 { text.insert(UInt8(ascii: "0"), at: 0) }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var i = 0
        while i < text.count {
            out.append(UInt8(nibble(text[i]) << 4 | nibble(text[i + 1])))
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: fatalError("bad hex digit in test data")
        }
    }
}

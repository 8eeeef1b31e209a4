import Foundation
import TackTestSupport

/// Helpers shared by the RSA test suites (hex, paths and Wycheproof's folder
/// come from TackTestSupport).
enum RSATestSupport {
    /// Vectors/signatures/rsa/ inside the repository.
    static let vectorDirectory = RepositoryPaths.vectors("signatures/rsa")

    /// Parses a JSON file with JSONSerialization.
    static func loadJSON(_ url: URL) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }
}

import Foundation
import TackTestSupport

/// Names the Extension*.swift suites still use, forwarding to TackTestSupport.
///
/// Every other suite of this target calls TackTestSupport directly; these stay
/// only until the Extension*.swift files (maintained on another branch) switch
/// to `hexBytes(_:)`, `RepositoryPaths` and `derCertificates(inPEM:)`, after
/// which this file can go.
enum CoreFixtures {
    /// ``RepositoryPaths/root``.
    static var repositoryRoot: URL { RepositoryPaths.root }

    /// `hexBytes(_:)`: whitespace and colons skipped; traps on a malformed literal.
    static func hex(_ text: String, file: StaticString = #file, line: UInt = #line) -> [UInt8] {
        hexBytes(text, file: file, line: line)
    }

    /// `derCertificates(inPEM:)`.
    static func certificates(inPEM text: String) -> [[UInt8]] {
        derCertificates(inPEM: text)
    }
}

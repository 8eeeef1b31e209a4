import Foundation

/// One case of a `Vectors/<set>/manifest.txt` file: a `[case NAME]` header followed
/// by `key = value` lines (lines starting with `#` are comments).
///
/// The chain and OCSP vector sets share this format; each generator script writes it
/// and each suite gives the keys their meaning.
public struct VectorManifestCase: CustomStringConvertible, Sendable {
    /// The name in the case's `[case NAME]` header.
    public var name: String
    /// The case's `key = value` lines, whitespace around both trimmed.
    public var fields: [String: String]
    /// The case's name (Swift Testing shows it for each argument).
    public var description: String { name }

    /// Creates a case with the given fields.
    ///
    /// - Parameters:
    ///   - name: The case's name.
    ///   - fields: Its `key = value` lines.
    public init(name: String, fields: [String: String] = [:]) {
        self.name = name
        self.fields = fields
    }

    /// A field's value split at spaces (a list of files or codes); empty when the
    /// field is absent.
    ///
    /// - Parameter key: The field's key.
    /// - Returns: The words of its value.
    public func list(_ key: String) -> [String] {
        (fields[key] ?? "").split(separator: " ").map(String.init)
    }

    /// Reads the cases of a manifest under the repository's `Vectors/`.
    ///
    /// A manifest that cannot be read gives no cases; each suite's count test then
    /// fails, so a missing file never passes in silence.
    ///
    /// - Parameter subpath: The manifest's path below `Vectors/`, such as
    ///   `"chains/manifest.txt"`.
    /// - Returns: The cases in file order.
    public static func read(_ subpath: String) -> [VectorManifestCase] {
        guard let text = try? String(contentsOf: RepositoryPaths.vectors(subpath), encoding: .utf8) else { return [] }
        var cases: [VectorManifestCase] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[case ") {
                cases.append(VectorManifestCase(name: String(line.dropFirst(6).dropLast())))
            } else if let equals = line.firstIndex(of: "="), !cases.isEmpty {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                cases[cases.count - 1].fields[key] = value
            }
        }
        return cases
    }
}

import Foundation

/// One case of `Vectors/policies/manifest.json` (made by `Vectors/policies/generate.py`):
/// a served chain, its roots, host and time, an optional pin policy, and what the
/// library and `tack verify` must answer. The library suite and the CLI suite read the
/// manifest through this one type.
public struct PolicyVectorCase: CustomStringConvertible, Sendable {
    /// The case's name.
    public let name: String
    /// The served chain's PEM file, relative to `Vectors/policies/`.
    public let chain: String
    /// The anchor PEM bundles, relative to `Vectors/policies/`.
    public let roots: [String]
    /// The host the chain is checked for.
    public let host: String
    /// The verification time (RFC 3339).
    public let at: String
    /// The pin policy file (`Info.plist` or JSON), relative to `Vectors/policies/`, if any.
    public let policy: String?
    /// Path validation's verdict (`trusted` or `untrusted`), if the case names it.
    public let verdict: String?
    /// The decision's stable code, if the case names it.
    public let decision: String?
    /// The pin outcome's stable code, if the case names it.
    public let pins: String?
    /// A diagnostic or policy-warning code that must be reported, if the case names one.
    public let diagnostic: String?
    /// The exit status of `tack verify`.
    public let exit: Int
    /// The case's name.
    public var description: String { name }

    /// A manifest entry that lacks a required field or has one of the wrong type.
    public struct MalformedEntry: Error, CustomStringConvertible {
        /// The entry's position in the manifest's array.
        public let index: Int
        /// What is wrong.
        public var description: String { "Vectors/policies/manifest.json: entry \(index) lacks a required field or has one of the wrong type" }
    }

    /// Reads every case of the manifest.
    ///
    /// - Returns: The cases in file order.
    /// - Throws: Foundation's error when the file cannot be read or is not JSON, and
    ///   ``MalformedEntry`` for an entry that is not a complete case (never skipped).
    public static func all() throws -> [PolicyVectorCase] {
        let data = try Data(contentsOf: RepositoryPaths.vectors("policies/manifest.json"))
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw MalformedEntry(index: -1)
        }
        return try list.enumerated().map { (index, entry) throws -> PolicyVectorCase in
            guard let name = entry["name"] as? String, let chain = entry["chain"] as? String,
                let roots = entry["roots"] as? [String], let host = entry["host"] as? String,
                let at = entry["at"] as? String, let exit = entry["exit"] as? Int
            else { throw MalformedEntry(index: index) }
            return PolicyVectorCase(
                name: name, chain: chain, roots: roots, host: host, at: at, policy: entry["policy"] as? String,
                verdict: entry["verdict"] as? String, decision: entry["decision"] as? String,
                pins: entry["pins"] as? String, diagnostic: entry["diagnostic"] as? String, exit: exit)
        }
    }
}

import Foundation
import TackVectorSuites

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

    /// Reads every case of the manifest.
    ///
    /// - Returns: The cases in file order.
    /// - Throws: Foundation's error when the file cannot be read, and
    ///   `JSONShapeError` when it is not JSON or an entry is not a complete case
    ///   (never skipped; the error names the entry and the field).
    public static func all() throws -> [PolicyVectorCase] {
        let data = try Data(contentsOf: RepositoryPaths.vectors("policies/manifest.json"))
        return try JSONFields.objects(inDocument: [UInt8](data)) { (entry) throws(JSONShapeError) in
            PolicyVectorCase(
                name: try entry.string("name"), chain: try entry.string("chain"), roots: try entry.strings("roots"),
                host: try entry.string("host"), at: try entry.string("at"), policy: try entry.optionalString("policy"),
                verdict: try entry.optionalString("verdict"), decision: try entry.optionalString("decision"),
                pins: try entry.optionalString("pins"), diagnostic: try entry.optionalString("diagnostic"),
                exit: try entry.int("exit"))
        }
    }
}

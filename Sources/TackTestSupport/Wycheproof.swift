import Foundation

/// A Wycheproof verification file (github.com/C2SP/wycheproof), decoded into
/// typed fields: the one way the test suites read Wycheproof JSON.
///
/// The model covers the verification schemas the suites run (ECDSA, EdDSA,
/// RSASSA-PKCS1-v1_5, RSASSA-PSS); fields that only some schemas have are
/// optional. Files are read from the shared folder (``RepositoryPaths/wycheproof``),
/// never copied into the repository.
public struct WycheproofFile: Decodable, Sendable {
    /// The algorithm named by the file, for example `ECDSA`.
    public let algorithm: String?
    /// The schema file name, for example `ecdsa_verify_schema_v1.json`.
    public let schema: String
    /// The groups of vectors, each under one key and parameter set.
    public let testGroups: [Group]

    /// A group of vectors sharing a key and parameters.
    public struct Group: Decodable, Sendable {
        /// The key (v1 schemas).
        public let publicKey: PublicKey?
        /// The PKCS #1 `RSAPublicKey` DER in hex (RSA schemas).
        public let publicKeyAsn: String?
        /// The hash, for example `SHA-256`.
        public let sha: String?
        /// The mask generation function (PSS), `MGF1`.
        public let mgf: String?
        /// MGF1's hash (PSS).
        public let mgfSha: String?
        /// The salt length in bytes (PSS).
        public let sLen: Int?
        /// The vectors.
        public let tests: [Vector]
    }

    /// A group's public key; which fields are present depends on the schema.
    public struct PublicKey: Decodable, Sendable {
        /// The curve, for example `secp256r1` or `edwards25519`.
        public let curve: String?
        /// An EC point `04 ‖ X ‖ Y` in hex.
        public let uncompressed: String?
        /// An EdDSA key in hex.
        public let pk: String?
        /// An RSA modulus in hex.
        public let modulus: String?
        /// An RSA public exponent in hex.
        public let publicExponent: String?
    }

    /// One vector.
    public struct Vector: Decodable, Sendable {
        /// The vector's identifier within its file.
        public let tcId: Int
        /// What the vector tests.
        public let comment: String
        /// The message in hex.
        public let msg: String
        /// The signature in hex.
        public let sig: String
        /// `valid`, `invalid` or `acceptable`.
        public let result: String
        /// Wycheproof's flags, for example `MissingNull`.
        public let flags: [String]?
    }

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

    /// Reads and decodes a file of the shared folder.
    ///
    /// - Parameter name: The file name, for example `ed25519_test.json`.
    /// - Returns: The decoded file.
    /// - Throws: Foundation's errors when the file is missing or malformed.
    public static func load(_ name: String) throws -> WycheproofFile {
        let data = try Data(contentsOf: RepositoryPaths.wycheproof.appendingPathComponent(name))
        return try JSONDecoder().decode(WycheproofFile.self, from: data)
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

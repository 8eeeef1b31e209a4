// TackVectorSuites: the one typed model of a Wycheproof signature-verification
// file (github.com/C2SP/wycheproof), read by `tack vectors wycheproof`
// (Sources/tack/WycheproofRunner.swift) and by the Wycheproof test suites
// (Tests/TackSignatureTests), so both read the same fields the same way. The
// test-only helpers that find the shared folder are in TackTestSupport
// (Wycheproof.swift).

/// A Wycheproof signature-verification file, decoded into typed fields: the one
/// way Tack reads Wycheproof JSON.
///
/// Field names are those of the `*_verify_schema_v1.json` schemas (ECDSA in DER
/// and IEEE P1363 form, EdDSA, RSASSA-PKCS1-v1_5, RSASSA-PSS); fields that only
/// some schemas have are optional. The older (pre-v1) schemas put the key in
/// `key` (EC, EdDSA) or in `n`/`e`/`keyAsn` at group level (RSA); those fields
/// are decoded too, for readers to use as fallbacks.
public struct WycheproofFile: Sendable {
    /// The algorithm named by the file, for example `ECDSA`.
    public let algorithm: String?
    /// The schema file name, for example `ecdsa_verify_schema_v1.json`.
    public let schema: String
    /// The number of vectors the file says it has.
    public let numberOfTests: Int?
    /// The groups of vectors, each under one key and parameter set.
    public let testGroups: [Group]

    /// Only a file's schema name, to decode first, so that a reader can refuse an
    /// unknown file by its schema rather than by whichever field it lacks.
    public struct Header: Sendable {
        /// The schema file name, for example `ecdsa_verify_schema_v1.json`.
        public let schema: String
    }

    /// A group of vectors sharing a key and parameters.
    public struct Group: Sendable {
        /// The group type, for example `EcdsaVerify` or `RsassaPkcs1Verify`.
        public let type: String?
        /// The key (v1 schemas).
        public let publicKey: Key?
        /// The key (older EC and EdDSA schemas).
        public let key: Key?
        /// The PKCS #1 `RSAPublicKey` DER in hex (v1 RSA schemas).
        public let publicKeyAsn: String?
        /// The PKCS #1 `RSAPublicKey` DER in hex (older RSA schemas).
        public let keyAsn: String?
        /// The RSA modulus in hex (older RSA schemas).
        public let n: String?
        /// The RSA public exponent in hex (older RSA schemas).
        public let e: String?
        /// The key size in bits (RSA).
        public let keySize: Int?
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
    public struct Key: Sendable {
        /// The curve, for example `secp256r1` or `edwards25519`.
        public let curve: String?
        /// The key size in bits.
        public let keySize: Int?
        /// An EC point `04 ‖ X ‖ Y` in hex.
        public let uncompressed: String?
        /// An EC point's x coordinate in hex (older EC schemas).
        public let wx: String?
        /// An EC point's y coordinate in hex (older EC schemas).
        public let wy: String?
        /// An EdDSA key in hex.
        public let pk: String?
        /// An RSA modulus in hex.
        public let modulus: String?
        /// An RSA public exponent in hex.
        public let publicExponent: String?
    }

    /// One vector.
    public struct Vector: Sendable {
        /// The vector's identifier within its file.
        public let tcId: Int
        /// What the vector tests.
        public let comment: String?
        /// Wycheproof's flags, for example `MissingNull`.
        public let flags: [String]?
        /// The message in hex.
        public let msg: String
        /// The signature in hex.
        public let sig: String
        /// `valid`, `invalid` or `acceptable`.
        public let result: String
    }
}

// Reading: each level from its JSON object, naming the member that is missing or
// mistyped (TackFormats' reader; no Foundation coder).
extension WycheproofFile {
    /// Reads a file's JSON document.
    ///
    /// - Parameter bytes: The file's bytes.
    /// - Throws: ``JSONShapeError`` when it is not JSON or lacks a field every schema has.
    public init(jsonBytes bytes: [UInt8]) throws(JSONShapeError) {
        try self.init(fields: try JSONFields(document: bytes))
    }

    /// Reads a file from its top-level object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a missing or mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        algorithm = try fields.optionalString("algorithm")
        schema = try fields.string("schema")
        numberOfTests = try fields.optionalInt("numberOfTests")
        testGroups = try fields.objects("testGroups") { (group) throws(JSONShapeError) in try Group(fields: group) }
    }
}

extension WycheproofFile.Header {
    /// Reads the schema name of a file's top-level object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` when `schema` is missing or not a string.
    public init(fields: JSONFields) throws(JSONShapeError) {
        schema = try fields.string("schema")
    }
}

extension WycheproofFile.Group {
    /// Reads a group from its object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a missing or mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        type = try fields.optionalString("type")
        publicKey = try fields.optionalObject("publicKey") { (key) throws(JSONShapeError) in try WycheproofFile.Key(fields: key) }
        key = try fields.optionalObject("key") { (key) throws(JSONShapeError) in try WycheproofFile.Key(fields: key) }
        publicKeyAsn = try fields.optionalString("publicKeyAsn")
        keyAsn = try fields.optionalString("keyAsn")
        n = try fields.optionalString("n")
        e = try fields.optionalString("e")
        keySize = try fields.optionalInt("keySize")
        sha = try fields.optionalString("sha")
        mgf = try fields.optionalString("mgf")
        mgfSha = try fields.optionalString("mgfSha")
        sLen = try fields.optionalInt("sLen")
        tests = try fields.objects("tests") { (vector) throws(JSONShapeError) in try WycheproofFile.Vector(fields: vector) }
    }
}

extension WycheproofFile.Key {
    /// Reads a key from its object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        curve = try fields.optionalString("curve")
        keySize = try fields.optionalInt("keySize")
        uncompressed = try fields.optionalString("uncompressed")
        wx = try fields.optionalString("wx")
        wy = try fields.optionalString("wy")
        pk = try fields.optionalString("pk")
        modulus = try fields.optionalString("modulus")
        publicExponent = try fields.optionalString("publicExponent")
    }
}

extension WycheproofFile.Vector {
    /// Reads a vector from its object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a missing or mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        tcId = try fields.int("tcId")
        comment = try fields.optionalString("comment")
        flags = try fields.optionalStrings("flags")
        msg = try fields.string("msg")
        sig = try fields.string("sig")
        result = try fields.string("result")
    }
}

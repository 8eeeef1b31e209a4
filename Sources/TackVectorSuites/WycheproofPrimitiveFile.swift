// TackVectorSuites: the typed model of a Wycheproof file of the eight primitive
// schemas Tack runs (`ind_cpa_test_schema_v1`, `mac_test_schema_v1`,
// `pbkdf_test_schema`, `pbe_test_schema`, `aead_test_schema_v1`,
// `ecdh_ecpoint_test_schema_v1`, `xdh_comp_schema_v1`, `hkdf_test_schema_v1`),
// beside WycheproofFile (the signature-verification schemas).

/// A Wycheproof primitive test file (AES-CBC, HMAC, PBKDF2, PBES2, AEAD, ECDH, XDH,
/// HKDF), decoded into typed fields. Fields that only some schemas have are
/// optional; the runner says which field is missing when a schema needs it.
public struct WycheproofPrimitiveFile: Sendable {
    /// The algorithm, for example `AES-CBC-PKCS5`, `HMACSHA256`,
    /// `PBKDF2-HMACSHA512` or `PbeWithHmacSha256AndAes_128`.
    public let algorithm: String
    /// The schema file name, for example `mac_test_schema_v1.json`.
    public let schema: String
    /// The number of vectors the file says it has.
    public let numberOfTests: Int?
    /// The groups of vectors.
    public let testGroups: [Group]

    /// A group of vectors sharing parameters.
    public struct Group: Sendable {
        /// The group type, for example `IndCpaTest` or `MacTest`.
        public let type: String?
        /// The key size in bits (AES-CBC, HMAC).
        public let keySize: Int?
        /// The IV size in bits (AES-CBC).
        public let ivSize: Int?
        /// The tag size in bits (HMAC, where shorter than the digest means
        /// truncated; AEAD).
        public let tagSize: Int?
        /// The curve (ECDH: for example `secp256r1`; XDH: `curve25519` or `curve448`).
        public let curve: String?
        /// How the peer's public key is encoded (ECDH), for example `ecpoint`.
        public let encoding: String?
        /// The vectors.
        public let tests: [Vector]
    }

    /// One vector; hex strings except for the numbers.
    public struct Vector: Sendable {
        /// The vector's identifier within its file.
        public let tcId: Int
        /// What the vector tests.
        public let comment: String?
        /// Wycheproof's flags, for example `BadPadding`.
        public let flags: [String]?
        /// `valid`, `invalid` or `acceptable`.
        public let result: String
        /// The key (AES-CBC, HMAC).
        public let key: String?
        /// The IV (AES-CBC, PBES2).
        public let iv: String?
        /// The message (plaintext for AES-CBC and PBES2).
        public let msg: String?
        /// The ciphertext (AES-CBC, PBES2).
        public let ct: String?
        /// The expected tag (HMAC, AEAD).
        public let tag: String?
        /// The password bytes (PBKDF2, PBES2), already encoded as the flags say.
        public let password: String?
        /// The salt (PBKDF2, PBES2).
        public let salt: String?
        /// The PBKDF2 iteration count (PBKDF2, PBES2).
        public let iterationCount: Int?
        /// The derived key length in bytes (PBKDF2).
        public let dkLen: Int?
        /// The expected derived key (PBKDF2).
        public let dk: String?
        /// The associated data (AEAD).
        public let aad: String?
        /// The input keying material (HKDF).
        public let ikm: String?
        /// The context information (HKDF).
        public let info: String?
        /// The output length in bytes (HKDF).
        public let size: Int?
        /// The expected output keying material (HKDF).
        public let okm: String?
        /// The peer's public key, the file's `public` (XDH: raw 32 bytes; ECDH: a
        /// SEC 1 point in `ecpoint` files).
        public let publicKey: String?
        /// The own private key, the file's `private` (XDH: raw; ECDH: a big-endian
        /// integer that may carry a sign byte).
        public let privateKey: String?
        /// The expected shared secret (XDH, ECDH).
        public let shared: String?
    }
}

// Reading: each level from its JSON object, naming the member that is missing or
// mistyped (TackFormats' reader; no Foundation coder).
extension WycheproofPrimitiveFile {
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
        algorithm = try fields.string("algorithm")
        schema = try fields.string("schema")
        numberOfTests = try fields.optionalInt("numberOfTests")
        testGroups = try fields.objects("testGroups") { (group) throws(JSONShapeError) in try Group(fields: group) }
    }
}

extension WycheproofPrimitiveFile.Group {
    /// Reads a group from its object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a missing or mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        type = try fields.optionalString("type")
        keySize = try fields.optionalInt("keySize")
        ivSize = try fields.optionalInt("ivSize")
        tagSize = try fields.optionalInt("tagSize")
        curve = try fields.optionalString("curve")
        encoding = try fields.optionalString("encoding")
        tests = try fields.objects("tests") { (vector) throws(JSONShapeError) in try WycheproofPrimitiveFile.Vector(fields: vector) }
    }
}

extension WycheproofPrimitiveFile.Vector {
    /// Reads a vector from its object (`public` and `private` into ``publicKey`` and
    /// ``privateKey``).
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a missing or mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        tcId = try fields.int("tcId")
        comment = try fields.optionalString("comment")
        flags = try fields.optionalStrings("flags")
        result = try fields.string("result")
        key = try fields.optionalString("key")
        iv = try fields.optionalString("iv")
        msg = try fields.optionalString("msg")
        ct = try fields.optionalString("ct")
        tag = try fields.optionalString("tag")
        password = try fields.optionalString("password")
        salt = try fields.optionalString("salt")
        iterationCount = try fields.optionalInt("iterationCount")
        dkLen = try fields.optionalInt("dkLen")
        dk = try fields.optionalString("dk")
        aad = try fields.optionalString("aad")
        ikm = try fields.optionalString("ikm")
        info = try fields.optionalString("info")
        size = try fields.optionalInt("size")
        okm = try fields.optionalString("okm")
        publicKey = try fields.optionalString("public")
        privateKey = try fields.optionalString("private")
        shared = try fields.optionalString("shared")
    }
}

// The Wycheproof runner's primitive schemas: AES-CBC with PKCS #5/#7 padding
// (`ind_cpa_test_schema_v1`), HMAC (`mac_test_schema_v1`), PBKDF2
// (`pbkdf_test_schema`), PBES2 with AES-CBC (`pbe_test_schema`) and AES-GCM
// (`aead_test_schema_v1`; ECDH is in WycheproofECDH.swift), each for
// every hash and key size Tack offers (HMAC and PBKDF2 over every hash of
// TackDigest's DigestAlgorithm but MD5; AES-128/192/256); other algorithms of
// these schemas (SHA-3, say) are skipped with their reason, counted, and never
// passed.

import TackCipher
import TackDigest

extension WycheproofRunner {
    /// A group's check, or why the group is skipped.
    enum PrimitivePlan {
        case run((WycheproofPrimitiveFile.Vector) throws(WycheproofFileError) -> WycheproofOutcome)
        case skip(String)
    }

    /// The largest PBKDF2 iteration count the runner derives with: 2²⁴
    /// (16,777,216), the count of RFC 6070's longest case, which
    /// `pbkdf2_hmacsha1_test.json` carries, and above TackDigest's default cap
    /// (``PBKDF2/defaultMaximumIterationCount``). A vector asking for more is
    /// refused by TackDigest (`iteration_count_above_limit`), which a `valid`
    /// vector reports as a disagreement, never as a pass.
    public static let maximumIterationCount = 1 << 24

    static func runPrimitive(
        _ file: WycheproofPrimitiveFile, schema: WycheproofSchema, schemaName: String, path: String
    ) throws(WycheproofFileError) -> WycheproofReport {
        var tally = WycheproofTally()
        for (offset, group) in file.testGroups.enumerated() {
            switch try primitivePlan(schema: schema, algorithm: file.algorithm, group: group, path: path) {
            case .skip(let reason):
                tally.skippedGroups.append((offset + 1, reason, group.tests.count))
            case .run(let check):
                for vector in group.tests {
                    let expected = try expectation(vector.result, tcId: vector.tcId, path: path)
                    let outcome = try check(vector)
                    tally.record(
                        tcId: vector.tcId, comment: vector.comment, flags: vector.flags, expected: expected, outcome: outcome)
                }
            }
        }
        return WycheproofReport(
            path: path, schema: schemaName, algorithm: file.algorithm, groupCount: file.testGroups.count,
            vectorCount: file.testGroups.reduce(0) { $0 + $1.tests.count }, tally: tally)
    }

    /// The hash a primitive file's algorithm names after `prefix` (`SHA256` in
    /// `HMACSHA256`), or why its groups are skipped: another algorithm, a hash
    /// TackDigest lacks (SHA-3, say) or only recognises (MD5).
    static func primitiveHash(in algorithm: String, after prefix: String, for function: String)
        -> Result<DigestAlgorithm, SkipReason>
    {
        guard algorithm.hasPrefix(prefix) else { return .failure(SkipReason(text: "algorithm \(algorithm) not run")) }
        return primitiveHash(String(algorithm.dropFirst(prefix.count)), for: function)
    }

    /// The hash a Wycheproof primitive name gives (`SHA256`, `SHA512/224`), or why
    /// the groups naming it are skipped.
    static func primitiveHash(_ name: String, for function: String) -> Result<DigestAlgorithm, SkipReason> {
        guard let hash = DigestAlgorithm(wycheproofPrimitiveName: name) else {
            return .failure(SkipReason(text: "\(function) hash \(name) not in TackDigest"))
        }
        guard hash.isComputable else {
            return .failure(SkipReason(text: "\(function) hash \(name) recognised but not computed by TackDigest"))
        }
        return .success(hash)
    }

    /// PBKDF2 through TackDigest over the vector's password and salt (both schemas,
    /// pbkdf and pbe, carry them) with the runner's iteration cap; a refusal
    /// (iteration count not positive or above the cap, key length out of
    /// range) is the vector's outcome.
    private static func pbkdf2(
        _ vector: WycheproofPrimitiveFile.Vector, keyByteCount: Int, hash: DigestAlgorithm, path: String
    ) throws(WycheproofFileError) -> Result<[UInt8], HashError> {
        let fields = Fields(vector, path: path)
        // The password bytes as the file gives them, already encoded as its flags say.
        let password = try fields.hex(\.password, "password")
        let salt = try fields.hex(\.salt, "salt")
        guard let iterations = vector.iterationCount else {
            throw WycheproofFileError("\(path): tcId \(vector.tcId): iterationCount missing")
        }
        return Result { () throws(HashError) in
            try PBKDF2.deriveKey(
                password: password, salt: salt, iterationCount: iterations, keyByteCount: keyByteCount, hash: hash,
                maximumIterationCount: maximumIterationCount)
        }
    }

    private static func primitivePlan(
        schema: WycheproofSchema, algorithm: String, group: WycheproofPrimitiveFile.Group, path: String
    ) throws(WycheproofFileError) -> PrimitivePlan {
        switch schema {
        case .indCPA:
            guard algorithm == "AES-CBC-PKCS5" else { return .skip("algorithm \(algorithm) not run") }
            return .run { vector throws(WycheproofFileError) in
                let fields = Fields(vector, path: path)
                return aesOutcome(
                    key: try fields.hex(\.key, "key"), iv: try fields.hex(\.iv, "iv"),
                    message: try fields.hex(\.msg, "msg"), ciphertext: try fields.hex(\.ct, "ct"),
                    isValid: vector.result == "valid")
            }
        case .mac:
            // HMAC<Hash>, for example HMACSHA256 or HMACSHA512/224.
            let hash: DigestAlgorithm
            switch primitiveHash(in: algorithm, after: "HMAC", for: "HMAC") {
            case .success(let found): hash = found
            case .failure(let reason): return .skip(reason.text)
            }
            guard let tagBits = group.tagSize, tagBits > 0, tagBits % 8 == 0, tagBits / 8 <= hash.byteCount else {
                throw WycheproofFileError("\(path): an HMAC group has no usable tagSize")
            }
            return .run { vector throws(WycheproofFileError) in
                let fields = Fields(vector, path: path)
                let key = try fields.hex(\.key, "key")
                let message = try fields.hex(\.msg, "msg")
                let tag = try fields.hex(\.tag, "tag")
                do throws(HashError) {
                    let code = try hash.authenticationCode(for: message, key: key)
                    return Array(code.prefix(tagBits / 8)) == tag ? .accepted : .rejected("tag mismatch")
                } catch {
                    return .rejected(error.description)
                }
            }
        case .pbkdf:
            // PBKDF2-HMAC<Hash>, for example PBKDF2-HMACSHA512.
            let hash: DigestAlgorithm
            switch primitiveHash(in: algorithm, after: "PBKDF2-HMAC", for: "PBKDF2") {
            case .success(let found): hash = found
            case .failure(let reason): return .skip(reason.text)
            }
            return .run { vector throws(WycheproofFileError) in
                let expected = try Fields(vector, path: path).hex(\.dk, "dk")
                guard let length = vector.dkLen else { throw WycheproofFileError("\(path): tcId \(vector.tcId): dkLen missing") }
                switch try pbkdf2(vector, keyByteCount: length, hash: hash, path: path) {
                case .success(let derived): return derived == expected ? .accepted : .wrongOutput("derived key differs")
                case .failure(let error): return .rejected(error.description)
                }
            }
        case .pbe:
            // PbeWithHmac<Hash>AndAes_<bits>, for example PbeWithHmacSha256AndAes_128.
            let prefix = "PbeWithHmac"
            guard algorithm.hasPrefix(prefix), let split = algorithm.range(of: "AndAes_") else {
                return .skip("algorithm \(algorithm) not run")
            }
            let hashName = algorithm[algorithm.index(algorithm.startIndex, offsetBy: prefix.count)..<split.lowerBound].uppercased()
            guard let keyBits = Int(algorithm[split.upperBound...]), [128, 192, 256].contains(keyBits) else {
                return .skip("algorithm \(algorithm) not run")
            }
            let hash: DigestAlgorithm
            switch primitiveHash(hashName, for: "PBKDF2") {
            case .success(let found): hash = found
            case .failure(let reason): return .skip(reason.text)
            }
            return .run { vector throws(WycheproofFileError) in
                let fields = Fields(vector, path: path)
                let key: [UInt8]
                switch try pbkdf2(vector, keyByteCount: keyBits / 8, hash: hash, path: path) {
                case .success(let derived): key = derived
                case .failure(let error): return .rejected(error.description)
                }
                return aesOutcome(
                    key: key, iv: try fields.hex(\.iv, "iv"), message: try fields.hex(\.msg, "msg"),
                    ciphertext: try fields.hex(\.ct, "ct"), isValid: vector.result == "valid")
            }
        case .aead where algorithm == "AES-GCM":
            guard group.tagSize == 8 * AESGCM.tagByteCount else {
                return .skip("AES-GCM tag size \(group.tagSize.map(String.init) ?? "missing") bits: Tack takes 128-bit tags only")
            }
            return .run { vector throws(WycheproofFileError) in
                let fields = Fields(vector, path: path)
                return aesGCMOutcome(
                    key: try fields.hex(\.key, "key"), nonce: try fields.hex(\.iv, "iv"),
                    associatedData: try fields.hex(\.aad, "aad"), message: try fields.hex(\.msg, "msg"),
                    sealed: try fields.hex(\.ct, "ct") + (try fields.hex(\.tag, "tag")),
                    isValid: vector.result == "valid")
            }
        case .ecdhPoint:
            return try ecdhPointPlan(group, path: path)
        case .aead, .xdhComp, .hkdf:
            return try tlsPrimitivePlan(schema: schema, algorithm: algorithm, group: group, path: path)
        case .ecdsaDER, .ecdsaP1363, .eddsa, .rsaPKCS1, .rsaPSS:
            throw WycheproofFileError("\(path): \(schema.rawValue) is not a primitive schema")
        }
    }

    /// AES-CBC decryption of `ciphertext` must give `message`; a `valid` vector's
    /// encryption must also give `ciphertext` back.
    private static func aesOutcome(
        key: [UInt8], iv: [UInt8], message: [UInt8], ciphertext: [UInt8], isValid: Bool
    ) -> WycheproofOutcome {
        roundTripOutcome(message: message, encrypted: ciphertext, isValid: isValid, encryptedName: "ciphertext") {
            () throws(CipherError) in try AES.decryptCBC(ciphertext, key: key, iv: iv)
        } encrypt: { () throws(CipherError) in
            try AES.encryptCBC(message, key: key, iv: iv)
        }
    }

    /// Opening `sealed` must give `message`; a `valid` vector's sealing must
    /// also give `sealed` back.
    private static func aesGCMOutcome(
        key: [UInt8], nonce: [UInt8], associatedData: [UInt8], message: [UInt8], sealed: [UInt8], isValid: Bool
    ) -> WycheproofOutcome {
        let gcm: AESGCM
        do throws(AEADError) { gcm = try AESGCM(key: key) } catch { return .rejected(error.description) }
        return roundTripOutcome(message: message, encrypted: sealed, isValid: isValid, encryptedName: "ciphertext or tag") {
            () throws(AEADError) in try gcm.open(sealed, nonce: nonce, authenticating: associatedData)
        } encrypt: { () throws(AEADError) in
            try gcm.seal(message, nonce: nonce, authenticating: associatedData)
        }
    }

    /// The one verdict of a decrypting vector (AES-CBC, AES-GCM, ChaCha20-Poly1305):
    /// `decrypt` must give `message`, and for a `valid` vector `encrypt` must give
    /// `encrypted` back; an error of either is a rejection, named by its description.
    static func roundTripOutcome<Failure: Error & CustomStringConvertible>(
        message: [UInt8], encrypted: [UInt8], isValid: Bool, encryptedName: String,
        decrypt: () throws(Failure) -> [UInt8], encrypt: () throws(Failure) -> [UInt8]
    ) -> WycheproofOutcome {
        do throws(Failure) {
            guard try decrypt() == message else { return .wrongOutput("plaintext differs") }
            if isValid, try encrypt() != encrypted { return .wrongOutput("\(encryptedName) differs") }
            return .accepted
        } catch {
            return .rejected(error.description)
        }
    }

    /// A vector's hex fields, each required by the schema at hand.
    struct Fields {
        let vector: WycheproofPrimitiveFile.Vector
        let path: String

        init(_ vector: WycheproofPrimitiveFile.Vector, path: String) {
            self.vector = vector
            self.path = path
        }

        func hex(_ field: KeyPath<WycheproofPrimitiveFile.Vector, String?>, _ name: String) throws(WycheproofFileError) -> [UInt8] {
            guard let text = vector[keyPath: field] else {
                throw WycheproofFileError("\(path): tcId \(vector.tcId): \(name) missing")
            }
            return try hexBytes(text, path: path, tcId: vector.tcId, field: name)
        }
    }
}

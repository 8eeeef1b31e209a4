// The names Wycheproof files give schemas, results and hashes, as the one
// Wycheproof runner (WycheproofRunner.swift) reads them for `tack vectors
// wycheproof` and for the test suites.

import Foundation
import TackDER
import TackDigest

/// The Wycheproof schemas Tack runs: five signature-verification schemas and
/// eight primitive ones.
public enum WycheproofSchema: String, Sendable, CaseIterable {
    /// ECDSA, DER signatures.
    case ecdsaDER = "ecdsa_verify_schema"
    /// ECDSA, `r ‖ s` signatures.
    case ecdsaP1363 = "ecdsa_p1363_verify_schema"
    /// EdDSA (Ed25519).
    case eddsa = "eddsa_verify_schema"
    /// RSASSA-PKCS1-v1_5.
    case rsaPKCS1 = "rsassa_pkcs1_verify_schema"
    /// RSASSA-PSS.
    case rsaPSS = "rsassa_pss_verify_schema"
    /// Symmetric encryption without authentication (`aes_cbc_pkcs5_test.json`:
    /// AES-CBC with PKCS #5/#7 padding; other algorithms of this schema are skipped).
    case indCPA = "ind_cpa_test_schema"
    /// Message authentication codes (`hmac_*_test.json`).
    case mac = "mac_test_schema"
    /// Password-based key derivation (`pbkdf2_*_test.json`).
    case pbkdf = "pbkdf_test_schema"
    /// Password-based encryption (`pbes2_*_test.json`: PBKDF2 then AES-CBC).
    case pbe = "pbe_test_schema"
    /// Authenticated encryption (`aes_gcm_test.json`, `chacha20_poly1305_test.json`;
    /// AEADs Tack lacks are skipped).
    case aead = "aead_test_schema"
    /// ECDH with the peer's key as a SEC 1 point (`ecdh_*_ecpoint_test.json`:
    /// P-256 and P-384; other curves are skipped).
    case ecdhPoint = "ecdh_ecpoint_test_schema"
    /// X25519 key agreement on raw keys (`x25519_test.json`; X448 is skipped).
    case xdhComp = "xdh_comp_schema"
    /// HKDF (`hkdf_sha*_test.json`).
    case hkdf = "hkdf_test_schema"

    /// Reads a file's `schema` value: accepts `NAME_v1.json`, `NAME.json` and
    /// either without `.json`.
    ///
    /// - Parameter fileValue: The value of the file's `schema` field.
    public init?(fileValue: String) {
        var name = Substring(fileValue)
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        if name.hasSuffix("_v1") { name = name.dropLast(3) }
        self.init(rawValue: String(name))
    }

    /// Whether the schema is a signature-verification one (``WycheproofFile``);
    /// the others are read as ``WycheproofPrimitiveFile``.
    public var isSignatureVerification: Bool {
        switch self {
        case .ecdsaDER, .ecdsaP1363, .eddsa, .rsaPKCS1, .rsaPSS: true
        case .indCPA, .mac, .pbkdf, .pbe, .aead, .ecdhPoint, .xdhComp, .hkdf: false
        }
    }
}

/// One vector's expected result.
public enum WycheproofExpectation: String, Sendable {
    /// The operation must succeed (and give the file's output).
    case valid
    /// The operation must fail.
    case invalid
    /// Legal but discouraged; see ``WycheproofRunner/acceptableStances`` for
    /// how Tack reads it.
    case acceptable
}

extension DigestAlgorithm {
    /// The hash under its name in a signature file's `sha` and `mgfSha`
    /// fields: `SHA-1`, `SHA-224`, `SHA-256`, `SHA-384`, `SHA-512`,
    /// `SHA-512/224`, `SHA-512/256`; nil for any other (SHA-3, say).
    ///
    /// - Parameter wycheproofName: The field's value.
    init?(wycheproofName: String) {
        switch wycheproofName {
        case "SHA-1": self = .sha1
        case "SHA-224": self = .sha224
        case "SHA-256": self = .sha256
        case "SHA-384": self = .sha384
        case "SHA-512": self = .sha512
        case "SHA-512/224": self = .sha512_224
        case "SHA-512/256": self = .sha512_256
        default: return nil
        }
    }

    /// The hash under its name inside a primitive file's algorithm, upper-cased
    /// (`HMACSHA256`, `PBKDF2-HMACSHA512`, `PbeWithHmacSha256AndAes_128`):
    /// `SHA1`, `SHA224`, `SHA256`, `SHA384`, `SHA512`, `SHA512/224`,
    /// `SHA512/256`, and `MD5` (recognised, not computed); nil for any other
    /// (`SHA3-256`, say).
    ///
    /// - Parameter wycheproofPrimitiveName: The hash part of the algorithm.
    init?(wycheproofPrimitiveName: String) {
        switch wycheproofPrimitiveName {
        case "MD5": self = .md5
        case "SHA1": self = .sha1
        case "SHA224": self = .sha224
        case "SHA256": self = .sha256
        case "SHA384": self = .sha384
        case "SHA512": self = .sha512
        case "SHA512/224": self = .sha512_224
        case "SHA512/256": self = .sha512_256
        default: return nil
        }
    }
}

/// "1 group", "2 groups".
public func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// Why a Wycheproof file could not be run (unreadable, not JSON, unknown
/// schema, a field missing or not hex). The message starts with the file's path.
public struct WycheproofFileError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, and where.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Hex field of a file, or a file error naming the field (and vector).
func hexBytes(_ text: String, path: String, tcId: Int?, field: String) throws(WycheproofFileError) -> [UInt8] {
    guard let bytes = try? Hex.decode(text) else {
        let place = tcId.map { "tcId \($0): " } ?? ""
        throw WycheproofFileError("\(path): \(place)\(field) is not hex")
    }
    return bytes
}

// The names Wycheproof files give schemas, results and hashes, as `tack vectors
// wycheproof` runs them. The file model itself is TackVectorSuites' WycheproofFile,
// shared with the test suites.

import Foundation
import TackDER
import TackSHA2
import TackSignature

/// The verification schemas Tack runs.
enum WycheproofSchema: String {
    case ecdsaDER = "ecdsa_verify_schema"
    case ecdsaP1363 = "ecdsa_p1363_verify_schema"
    case eddsa = "eddsa_verify_schema"
    case rsaPKCS1 = "rsassa_pkcs1_verify_schema"
    case rsaPSS = "rsassa_pss_verify_schema"

    /// Accepts `NAME_v1.json`, `NAME.json` and either without `.json`.
    init?(fileValue: String) {
        var name = Substring(fileValue)
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        if name.hasSuffix("_v1") { name = name.dropLast(3) }
        self.init(rawValue: String(name))
    }
}

/// One vector's expected result.
enum Expected: String {
    case valid, invalid, acceptable
}

/// The hashes of TackSHA2 under their Wycheproof names.
enum VectorHash {
    case sha224, sha256, sha384, sha512, sha512_256

    init?(wycheproofName: String) {
        switch wycheproofName {
        case "SHA-224": self = .sha224
        case "SHA-256": self = .sha256
        case "SHA-384": self = .sha384
        case "SHA-512": self = .sha512
        case "SHA-512/256": self = .sha512_256
        default: return nil
        }
    }

    /// The RSA signature hash, for the four DigestAlgorithm offers.
    var rsaHash: DigestAlgorithm? {
        switch self {
        case .sha224: .sha224
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        case .sha512_256: nil
        }
    }

    func digest(_ message: [UInt8]) -> [UInt8] {
        switch self {
        case .sha224: Array(SHA224.hash(message))
        case .sha256: Array(SHA256.hash(message))
        case .sha384: Array(SHA384.hash(message))
        case .sha512: Array(SHA512.hash(message))
        case .sha512_256: Array(SHA512_256.hash(message))
        }
    }
}

/// "1 group", "2 groups".
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// Hex field of a file, or a file error naming the field (and vector).
func hexBytes(_ text: String, path: String, tcId: Int?, field: String) throws(CLIError) -> [UInt8] {
    guard let bytes = try? Hex.decode(text) else {
        let place = tcId.map { "tcId \($0): " } ?? ""
        throw CLIError("\(path): \(place)\(field) is not hex", status: 2)
    }
    return bytes
}

/// A one-line account of a JSON decoding failure: what, and where.
func describeDecoding(_ error: any Error) -> String {
    func location(_ path: [any CodingKey]) -> String {
        path.isEmpty
            ? "top level"
            : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error as? DecodingError {
    case .keyNotFound(let key, let context)?:
        return "missing \(key.stringValue) at \(location(context.codingPath))"
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
        return "wrong type at \(location(context.codingPath))"
    case .dataCorrupted(let context)?:
        return context.codingPath.isEmpty ? "not valid JSON" : "bad value at \(location(context.codingPath))"
    default:
        return "\(error)"
    }
}

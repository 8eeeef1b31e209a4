// Helpers shared by the ECDSA and Ed25519 tests (names prefixed `ec` to stay
// clear of other suites in this target).

import Foundation
import TackSignature
import TackTestSupport

/// The name of a `SignatureError` case, without its payload, as the vector
/// files spell it.
func ecErrorName(_ error: SignatureError) -> String {
    switch error {
    case .invalidSignature: "invalid_signature"
    case .malformedPublicKey: "malformed_public_key"
    case .malformedSignature: "malformed_signature"
    case .unsupported: "unsupported"
    case .algorithmKeyMismatch: "algorithm_key_mismatch"
    case .invalidParameters: "invalid_parameters"
    }
}

/// One case of a Vectors/signatures/ec file (format in its README.md).
struct ECVectorCase: Decodable, Sendable, CustomStringConvertible {
    let comment: String
    let key: String
    let message: String
    let signature: String
    let result: String
    let error: String?
    let hash: String?
    let digest: String?
    var description: String { comment }
}

struct ECVectorFile: Decodable {
    let cases: [ECVectorCase]
}

/// Loads `Vectors/signatures/ec/<name>`.
func ecLoadVectors(_ name: String) throws -> [ECVectorCase] {
    let url = RepositoryPaths.vectors("signatures/ec/" + name)
    return try JSONDecoder().decode(ECVectorFile.self, from: Data(contentsOf: url)).cases
}

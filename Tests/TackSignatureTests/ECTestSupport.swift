// Helpers shared by the ECDSA and Ed25519 tests (names prefixed `ec` to stay
// clear of other suites in this target).

import Foundation
import TackSignature

/// The repository root, found from this file's path (Tests/TackSignatureTests/…).
let ecRepositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Bytes from a hex string; traps on malformed hex (test data is trusted).
func ecHex(_ string: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(string.utf8.count / 2)
    var iterator = string.utf8.makeIterator()
    func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: fatalError("bad hex digit in test data")
        }
    }
    while let high = iterator.next() {
        guard let low = iterator.next() else { fatalError("odd-length hex in test data") }
        bytes.append(nibble(high) << 4 | nibble(low))
    }
    return bytes
}

/// The name of a `SignatureError` case, without its payload, as the vector
/// files spell it.
func ecErrorName(_ error: SignatureError) -> String {
    switch error {
    case .invalidSignature: "invalidSignature"
    case .malformedPublicKey: "malformedPublicKey"
    case .malformedSignature: "malformedSignature"
    case .unsupported: "unsupported"
    case .algorithmKeyMismatch: "algorithmKeyMismatch"
    case .invalidParameters: "invalidParameters"
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
    let url = ecRepositoryRoot.appendingPathComponent("Vectors/signatures/ec").appendingPathComponent(name)
    return try JSONDecoder().decode(ECVectorFile.self, from: Data(contentsOf: url)).cases
}

/// Wycheproof's folder: `<repo>/../shared/vectors/wycheproof`, resolved once
/// for the whole test target (with the `TACK_WYCHEPROOF_DIR` override and the
/// walk up for nested worktrees) by the RSA suite's support code.
let ecWycheproofDirectory: URL = RSATestSupport.wycheproofDirectory

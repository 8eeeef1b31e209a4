import Foundation
import TackTestSupport

@testable import TackDigest

/// Reads `Vectors/sha2/<name>` and returns its records: the whitespace-separated
/// fields of each line that is neither blank nor a `#` comment.
func vectorRecords(_ name: String) throws -> [[String]] {
    let text = try String(contentsOf: RepositoryPaths.vectors("sha2/\(name)"), encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        .map { $0.split(separator: " ").map(String.init) }
        .filter { !$0.isEmpty }
}

/// The message of `lengths.txt`: byte i is (i * 7 + 3) mod 256.
func patternMessage(count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
}

/// The implementations to test: both, when this machine can run the hardware
/// path (`HardwareSelectionTests` checks that it can wherever the CPU says so).
let testedImplementations: [SHA2Implementation] = [.portable, .hardware].filter(\.isAvailable)

/// One SHA-2 function chosen by its hashlib name, so that vector files can
/// name the function per record.
struct NamedHash: Sendable {
    let name: String
    /// Hashes the concatenation of `pieces`, one `update` per piece.
    let hashPieces: @Sendable ([ArraySlice<UInt8>], SHA2Implementation) -> [UInt8]

    static func named(_ name: String) -> NamedHash? {
        switch name {
        case "sha224":
            NamedHash(name: name) { pieces, implementation in
                var hasher = SHA224(implementation: implementation)
                for piece in pieces { hasher.update(piece) }
                return Array(hasher.finalize())
            }
        case "sha256":
            NamedHash(name: name) { pieces, implementation in
                var hasher = SHA256(implementation: implementation)
                for piece in pieces { hasher.update(piece) }
                return Array(hasher.finalize())
            }
        case "sha384": generic(name, SHA384.self)
        case "sha512": generic(name, SHA512.self)
        case "sha512_256": generic(name, SHA512_256.self)
        default: nil
        }
    }

    /// The SHA-512 family has one implementation, so `implementation` is ignored.
    private static func generic<H: SHA2HashFunction>(_ name: String, _: H.Type) -> NamedHash {
        NamedHash(name: name) { pieces, _ in
            var hasher = H()
            for piece in pieces { hasher.update(piece) }
            return Array(hasher.finalize())
        }
    }

    func hash(_ message: [UInt8], _ implementation: SHA2Implementation) -> [UInt8] {
        hashPieces([message[...]], implementation)
    }
}

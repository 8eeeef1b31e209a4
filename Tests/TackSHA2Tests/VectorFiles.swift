import Foundation

@testable import TackSHA2

/// Reads `Vectors/sha2/<name>` and returns its records: the whitespace-separated
/// fields of each line that is neither blank nor a `#` comment.
func vectorRecords(_ name: String, filePath: String = #filePath) throws -> [[String]] {
    // Tests/TackSHA2Tests/VectorFiles.swift -> repository root.
    let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("Vectors/sha2/\(name)"), encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        .map { $0.split(separator: " ").map(String.init) }
        .filter { !$0.isEmpty }
}

/// Decodes lowercase or uppercase hex; nil on odd length or a non-hex digit.
func bytes(hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
        guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
        result.append(high << 4 | low)
        index += 2
    }
    return result
}

private func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
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

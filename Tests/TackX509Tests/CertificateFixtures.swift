import Foundation
import TackDER

/// Test fixtures shared by the Certificate, SPKI and Pin suites (namespaced so they
/// cannot collide with the Name/Extension suites' helpers in the same target).
enum CoreFixtures {
    /// The repository root, found from this file's path.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Vectors/certs`.
    static let certsDirectory = repositoryRoot.appendingPathComponent("Vectors/certs")

    /// The path of the system CA bundle.
    static let systemBundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// Bytes from a hex string such as `"30 03 02 01 05"` (spaces ignored).
    static func hex(_ text: String) -> [UInt8] {
        let digits = text.filter { !$0.isWhitespace && $0 != ":" }
        var out: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            out.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    /// Lowercase hex of bytes.
    static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The DER certificates in PEM text (every CERTIFICATE block), decoded with TackDER's PEM.
    static func certificates(inPEM text: String) -> [[UInt8]] {
        guard let blocks = try? PEM.parse(text) else { return [] }
        return blocks.filter { $0.label == "CERTIFICATE" }.map(\.bytes)
    }

    /// The DER certificates of the system CA bundle, or an empty array when it is absent.
    static let systemBundleCertificates: [[UInt8]] = {
        guard let text = try? String(contentsOfFile: systemBundlePath, encoding: .utf8) else { return [] }
        return certificates(inPEM: text)
    }()

    /// Reads a file of `Vectors/certs`.
    static func vector(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: certsDirectory.appendingPathComponent(name)))
    }
}

import Foundation
import TackDER

/// Bytes from a hex string such as `"30 03 02 01 05"` (spaces ignored).
func hex(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    var out: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        out.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return out
}

/// The repository root, found from this file's path.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The DER certificates of the system CA bundle, or an empty array when it is absent.
let systemBundleCertificates: [[UInt8]] = {
    guard let text = try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8) else { return [] }
    var certificates: [[UInt8]] = []
    var body = ""
    var inside = false
    for line in text.split(whereSeparator: \.isNewline) {
        if line.hasPrefix("-----BEGIN CERTIFICATE-----") { inside = true; body = ""; continue }
        if line.hasPrefix("-----END CERTIFICATE-----") {
            inside = false
            if let data = Data(base64Encoded: body) { certificates.append([UInt8](data)) }
            continue
        }
        if inside { body += line.trimmingCharacters(in: .whitespaces) }
    }
    return certificates
}()

import Foundation
import TackDER

/// The operating system's CA bundle, as a corpus of real-world certificates.
///
/// Tests that run over it should `#require` it to be non-empty, naming
/// ``path`` in the message, since a machine without the bundle has nothing to check.
public enum SystemCABundle {
    /// The bundle's location on Debian and Ubuntu (the `ca-certificates` package).
    public static let path = "/etc/ssl/certs/ca-certificates.crt"

    /// The DER encoding of every certificate in the bundle, in file order, or
    /// an empty array when the file is absent or its PEM does not parse.
    ///
    /// Read once, with TackDER's PEM decoder, through ``derCertificates(inPEM:)``.
    public static let certificates: [[UInt8]] = {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return derCertificates(inPEM: text)
    }()
}

/// The DER bodies of the `CERTIFICATE` blocks of PEM text (RFC 7468 §5), in order.
///
/// Blocks with other labels are skipped. Decoding uses TackDER's `PEM.parse`,
/// so any text outside the blocks is ignored as it allows.
///
/// - Parameter text: PEM text, such as a bundle or `openssl s_client -showcerts` output.
/// - Returns: One DER encoding per `CERTIFICATE` block, or an empty array when
///   the PEM does not parse.
public func derCertificates(inPEM text: String) -> [[UInt8]] {
    guard let blocks = try? PEM.parse(text) else { return [] }
    return blocks.filter { $0.label == "CERTIFICATE" }.map(\.bytes)
}

// The one reading of a host given on the command line (`--host`, `--domain`): a DNS
// name in A-label form or an IP address, or a usage error that says what is wrong.

import Foundation
import TackTrust

/// Why a `--host` value is refused, each with its message.
enum HostProblem: Equatable, CustomStringConvertible {
    case empty
    case url
    case port
    case wildcard
    case nonASCII
    case emptyLabel
    case hyphenAtLabelEdge(label: String)
    case invalidCharacter(Character)
    case labelTooLong(label: String)
    case nameTooLong
    case numericTopLevel

    /// A stable identifier (snake_case), the `code` of the usage error.
    var code: String {
        switch self {
        case .empty: "host_empty"
        case .url: "host_is_url"
        case .port: "host_has_port"
        case .wildcard: "host_wildcard"
        case .nonASCII: "host_not_ascii"
        case .emptyLabel: "host_empty_label"
        case .hyphenAtLabelEdge: "host_hyphen_at_label_edge"
        case .invalidCharacter: "host_invalid_character"
        case .labelTooLong: "host_label_too_long"
        case .nameTooLong: "host_too_long"
        case .numericTopLevel: "host_numeric_top_level"
        }
    }

    var description: String {
        switch self {
        case .empty: "is empty"
        case .url: "is a URL: give the host name alone (www.example.com)"
        case .port: "has a port: give the host name alone (the port is not part of the certificate's name)"
        case .wildcard: "is a wildcard: give the name of one host (a wildcard belongs in certificates, not in the name checked)"
        case .nonASCII: "is not ASCII: give the A-label form (xn--…, as `idn2` prints it), which certificates carry"
        case .emptyLabel: "has an empty label (two dots in a row, a leading dot, or two trailing dots)"
        case .hyphenAtLabelEdge(let label): "has a label that starts or ends with '-' (\(label))"
        case .invalidCharacter(let character): "has the character '\(character)': a host name holds letters, digits, '-' and '.'"
        case .labelTooLong(let label): "has a label longer than 63 bytes (\(label.prefix(16))…)"
        case .nameTooLong: "is longer than 253 bytes"
        case .numericTopLevel: "is neither an IP address nor a host name (its last label is all digits)"
        }
    }
}

/// Reads `text` as the peer: an IPv4 address (`10.0.0.1`), an IPv6 address
/// (`2001:db8::1`, also in brackets) or a DNS name in A-label form, lowercased, with
/// one trailing dot (the absolute form) dropped.
///
/// The CLI's one call that turns a host into TackTrust's peer value.
/// - Throws: A usage error naming the option and the ``HostProblem``.
func parsePeer(_ text: String, option: String = "--host") throws(CLIError) -> PeerName {
    switch readHost(text) {
    case .success(let peer): return peer
    case .failure(let problem):
        throw .usage("\(option) \(text) \(problem)", code: problem.code)
    }
}

/// The host name a pin rule is looked up by: the DNS name, or the address's text.
func ruleHost(_ peer: PeerName) -> String { peer.description }

extension HostProblem: Error {}

/// ``parsePeer(_:option:)`` without the option name.
func readHost(_ text: String) -> Result<PeerName, HostProblem> {
    guard !text.isEmpty else { return .failure(.empty) }
    if text.contains("://") || text.contains("/") { return .failure(.url) }
    if text.hasPrefix("["), text.hasSuffix("]") {
        guard let bytes = ipv6Bytes(String(text.dropFirst().dropLast())) else { return .failure(.invalidCharacter("[")) }
        return .success(.ipAddress(bytes))
    }
    if let bytes = ipv4Bytes(text) { return .success(.ipAddress(bytes)) }
    if text.contains(":") {
        if let bytes = ipv6Bytes(text) { return .success(.ipAddress(bytes)) }
        return .failure(.port)
    }
    if text.contains("*") { return .failure(.wildcard) }
    guard text.unicodeScalars.allSatisfy(\.isASCII) else { return .failure(.nonASCII) }
    var name = Substring(text.lowercased())
    if name.hasSuffix(".") { name = name.dropLast() }
    guard name.utf8.count <= 253 else { return .failure(.nameTooLong) }
    let labels = name.split(separator: ".", omittingEmptySubsequences: false)
    for label in labels {
        guard !label.isEmpty else { return .failure(.emptyLabel) }
        guard label.utf8.count <= 63 else { return .failure(.labelTooLong(label: String(label))) }
        if let bad = label.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }) {
            return .failure(.invalidCharacter(bad))
        }
        guard label.first != "-", label.last != "-" else { return .failure(.hyphenAtLabelEdge(label: String(label))) }
    }
    if let last = labels.last, last.allSatisfy(\.isNumber) { return .failure(.numericTopLevel) }
    return .success(.dns(String(name)))
}

/// The four bytes of a dotted-quad IPv4 address (decimal, no leading zeros), or `nil`.
func ipv4Bytes(_ text: some StringProtocol) -> [UInt8]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
        guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
              part == "0" || part.first != "0", let value = UInt8(part) else { return nil }
        bytes.append(value)
    }
    return bytes
}

/// The sixteen bytes of an IPv6 address in RFC 4291 §2.2 text form (`::`
/// compression, an IPv4 tail), or `nil`.
func ipv6Bytes(_ text: String) -> [UInt8]? {
    func groups(_ part: Substring) -> [UInt8]? {
        guard !part.isEmpty else { return [] }
        var bytes: [UInt8] = []
        let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
        for (index, piece) in pieces.enumerated() {
            if index == pieces.count - 1, piece.contains(".") {
                guard let tail = ipv4Bytes(piece) else { return nil }
                bytes += tail
                continue
            }
            guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit), let value = UInt16(piece, radix: 16) else { return nil }
            bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        return bytes
    }
    let halves = text.components(separatedBy: "::")
    switch halves.count {
    case 1:
        guard let bytes = groups(Substring(text)), bytes.count == 16 else { return nil }
        return bytes
    case 2:
        guard let head = groups(Substring(halves[0])), let tail = groups(Substring(halves[1])), head.count + tail.count <= 14 else {
            return nil
        }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    default:
        return nil
    }
}

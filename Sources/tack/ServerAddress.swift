// The one reading of a server given as `HOST[:PORT]` (`tack fetch`, `--connect`): the
// host through TackTrust's PeerHost grammar, the port 443 unless given, and the name
// the TLS handshake sends (SNI).

import TackTrust

/// A server to connect to: a host (DNS name or IP address) and a TCP port.
struct ServerAddress: Equatable, CustomStringConvertible {
    /// The host, as TackTrust reads it (lowercased, one trailing dot dropped).
    let host: PeerHost
    /// The TCP port (1...65535).
    let port: UInt16

    /// The port when none is given: HTTPS's.
    static let defaultPort: UInt16 = 443

    /// Parses `HOST[:PORT]`: `example.com`, `example.com:8443`, `192.0.2.1:443`,
    /// `[2001:db8::1]:443`, `[2001:db8::1]`, and a bare IPv6 address (`2001:db8::1`,
    /// which has no room for a port: bracket it to give one).
    ///
    /// - Parameters:
    ///   - text: The operand or option value.
    ///   - option: What gave it, for the message (`--connect`, or `HOST` for `fetch`'s operand).
    /// - Throws: A usage error (exit status 2): `bad_address` for the shape (an empty
    ///   host, a port that is not 1...65535, an unclosed bracket), the host grammar's
    ///   code (`host_…`) for the host.
    init(_ text: String, option: String) throws(CLIError) {
        var hostText = Substring(text)
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw .usage("\(option) \(text): an IPv6 address opened with [ needs its ]", code: "bad_address")
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw .usage("\(option) \(text): expected :PORT after ], found \(after)", code: "bad_address")
                }
                portText = after.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].firstIndex(of: ":") == nil {
            // One colon: HOST:PORT. Two or more: a bare IPv6 address, no port.
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !hostText.isEmpty else { throw .usage("\(option) \(text): no host (expected HOST[:PORT])", code: "bad_address") }
        if let portText {
            guard let port = UInt16(portText), port > 0 else {
                throw .usage("\(option) \(text): the port must be a number 1-65535, not \"\(portText)\"", code: "bad_address")
            }
            self.port = port
        } else {
            port = Self.defaultPort
        }
        host = try parsePeer(String(hostText), option: option)
    }

    init(host: PeerHost, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Whether the host is an IP address rather than a name.
    var isIPAddress: Bool {
        if case .ipAddress = host.kind { return true }
        return false
    }

    /// The server_name the handshake sends by default: the host's name, none for an IP
    /// address (RFC 6066 §3: "Literal IPv4 and IPv6 addresses are not permitted in
    /// HostName").
    var serverName: String? { isIPAddress ? nil : host.description }

    /// `host:port`, with an IPv6 address in brackets.
    var description: String {
        if case .ipAddress(let octets) = host.kind, octets.count == 16 { return "[\(host)]:\(port)" }
        return "\(host):\(port)"
    }
}

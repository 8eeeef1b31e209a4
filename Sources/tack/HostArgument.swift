// The one reading of a host given on the command line (`--host`, `--domain`,
// `--chain DOMAIN=…`): TackTrust's `PeerHost` grammar (a DNS name in A-label form or
// an IP address), its refusals turned into usage errors (exit status 2).

import TackTrust

/// Reads `text` as the peer through ``PeerHost/init(_:)``: an IPv4 address
/// (`10.0.0.1`), an IPv6 address (`2001:db8::1`, also in brackets) or a DNS name in
/// A-label form, lowercased, with one trailing dot (the absolute form) dropped.
///
/// - Parameters:
///   - text: The value as given.
///   - option: The option that gave it, for the message.
/// - Returns: The host.
/// - Throws: A usage error naming the option, the value and the reason, whose code is
///   ``hostErrorCode(_:)`` of the library's reason.
func parsePeer(_ text: String, option: String = "--host") throws(CLIError) -> PeerHost {
    do {
        return try PeerHost(text)
    } catch {
        throw .usage("\(option) \(text): \(error)", code: hostErrorCode(error))
    }
}

/// The CLI's code (snake_case, `host_` and the library's reason) for a refused host.
func hostErrorCode(_ error: PeerHostError) -> String {
    switch error.reason {
    case .empty: "host_empty"
    case .url: "host_url"
    case .port: "host_port"
    case .wildcard: "host_wildcard"
    case .labelStartsWithHyphen: "host_label_starts_with_hyphen"
    case .labelEndsWithHyphen: "host_label_ends_with_hyphen"
    case .emptyLabel: "host_empty_label"
    case .trailingDots: "host_trailing_dots"
    case .nonASCII: "host_non_ascii"
    case .invalidCharacter: "host_invalid_character"
    case .labelTooLong: "host_label_too_long"
    case .nameTooLong: "host_name_too_long"
    case .numericName: "host_numeric_name"
    case .invalidIPAddress: "host_invalid_ip_address"
    }
}

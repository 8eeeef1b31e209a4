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
///   the library's (`host_` and the reason).
func parsePeer(_ text: String, option: String = "--host") throws(CLIError) -> PeerHost {
    do {
        return try PeerHost(text)
    } catch {
        throw .usage("\(option) \(text): \(error)", code: error.code)
    }
}


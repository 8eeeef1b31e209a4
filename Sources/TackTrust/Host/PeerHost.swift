internal import TackDER
internal import TackX509

/// The host a client connected to: a DNS name or an IP address, parsed from text by
/// ``init(_:)``, the one place host text becomes a value.
///
/// A DNS name is compared with the leaf's `dNSName` subject alternative names and is
/// the key of the pin-rule lookup; an address is compared with `iPAddress` names only
/// (RFC 9525 §6.4, RFC 5280 §4.2.1.6): an address never matches a DNS name or the
/// subject's common name, and no pin rule covers it (App Transport Security pins
/// domains).
public struct PeerHost: Sendable, Hashable, CustomStringConvertible {
    /// What the host is.
    public enum Kind: Sendable, Hashable {
        /// A DNS name in A-label (ASCII) form, lowercased, without the trailing dot of
        /// the absolute form.
        case dnsName(String)
        /// An IPv4 (4 octets) or IPv6 (16 octets) address, in network byte order.
        case ipAddress([UInt8])

        /// Whether both are the same name (by its bytes: `TextBytes`, no Unicode
        /// tables in a firmware image) or the same address.
        public static func == (lhs: Kind, rhs: Kind) -> Bool {
            switch (lhs, rhs) {
            case (.dnsName(let a), .dnsName(let b)): return TextBytes.equal(a, b)
            case (.ipAddress(let a), .ipAddress(let b)): return a == b
            default: return false
            }
        }

        /// Hashes the kind and the name's bytes or the address.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .dnsName(let name):
                hasher.combine(0 as UInt8)
                TextBytes.hash(name, into: &hasher)
            case .ipAddress(let octets):
                hasher.combine(1 as UInt8)
                hasher.combine(octets)
            }
        }
    }

    /// The name or address.
    public let kind: Kind

    /// Parses a host as a person or a URL's authority writes it, without scheme or port:
    /// `api.example.com`, `api.example.com.` (one trailing dot: the absolute form),
    /// `192.0.2.1`, `2001:db8::1` or `[2001:db8::1]`.
    ///
    /// DNS names follow the one grammar of TackTrust (``PeerHostError`` lists what it
    /// refuses): labels of 1...63 letters, digits and hyphens that neither start nor end
    /// with a hyphen (RFC 1034 §3.5 as relaxed by RFC 1123 §2.1), at most 253 octets
    /// (RFC 1035 §2.3.4), internationalised names as A-labels (`xn--…`, RFC 5890), and
    /// a last label that is not all digits (such text is a malformed IPv4 address).
    ///
    /// - Parameter text: The host.
    /// - Throws: ``PeerHostError`` with the reason and the byte offset where it is.
    public init(_ text: String) throws(PeerHostError) {
        // The text's own bytes, in place (a native or small string is contiguous): no
        // copy, so a verdict's host costs no allocation (e2e-*). A non-throwing
        // closure with a `Result`: typed errors do not pass through it.
        // The non-generic access (TextBytes.forUTF8), as this is another module.
        var parsed: Result<Kind, PeerHostError> = .failure(PeerHostError(.empty, offset: 0))
        TextBytes.forUTF8(of: text) { parsed = PeerHost.parse($0, text: text) }
        kind = try parsed.get()
    }

    /// A host for an address already in binary form.
    ///
    /// - Parameter octets: 4 octets (IPv4) or 16 (IPv6), network byte order.
    /// - Throws: ``PeerHostError/Reason/invalidIPAddress`` for any other length.
    public init(ipAddress octets: [UInt8]) throws(PeerHostError) {
        guard octets.count == 4 || octets.count == 16 else { throw PeerHostError(.invalidIPAddress, offset: 0) }
        kind = .ipAddress(octets)
    }

    /// The name, or the address in its usual text form (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        switch kind {
        case .dnsName(let name): return name
        case .ipAddress(let octets): return IPAddressText.format(octets)
        }
    }

    /// The DNS name, or `nil` for an address.
    var dnsName: String? {
        if case .dnsName(let name) = kind { return name }
        return nil
    }

    /// - Parameter original: `text` as a String, kept as the name when it needs no
    ///   change (lowercase, no trailing dot): no second copy on the hot path (e2e-*).
    private static func parse(_ text: UnsafeBufferPointer<UInt8>, text original: String) -> Result<Kind, PeerHostError> {
        do throws(PeerHostError) {
            return .success(try parseKind(text, text: original))
        } catch {
            return .failure(error)
        }
    }

    /// ``parse(_:text:)``'s work, with typed throws.
    private static func parseKind(_ text: UnsafeBufferPointer<UInt8>, text original: String) throws(PeerHostError) -> Kind {
        guard !text.isEmpty else { throw PeerHostError(.empty, offset: 0) }
        // What a URL or an authority adds, named before any finer check.
        if let scheme = findSchemeSeparator(in: text) { throw PeerHostError(.url, offset: scheme) }
        if let slash = text.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            throw PeerHostError(.url, offset: slash)
        }
        if text.first == UInt8(ascii: "[") {
            guard let close = text.firstIndex(of: UInt8(ascii: "]")) else { throw PeerHostError(.invalidIPAddress, offset: 0) }
            if close + 1 < text.count {
                throw PeerHostError(text[close + 1] == UInt8(ascii: ":") ? .port : .invalidCharacter(text[close + 1]), offset: close + 1)
            }
            guard let octets = IPAddressText.parseIPv6(text[1..<close]) else { throw PeerHostError(.invalidIPAddress, offset: 1) }
            return .ipAddress(octets)
        }
        if let first = text.firstIndex(of: UInt8(ascii: ":")) {
            // One colon: `host:port`. More: an IPv6 address (or nothing valid).
            if text[(first + 1)...].firstIndex(of: UInt8(ascii: ":")) == nil { throw PeerHostError(.port, offset: first) }
            guard let octets = IPAddressText.parseIPv6(text[...]) else { throw PeerHostError(.invalidIPAddress, offset: 0) }
            return .ipAddress(octets)
        }
        if let octets = IPAddressText.parseIPv4(text[...]) { return .ipAddress(octets) }
        try DNSNameSyntax.checkHostName(text[...], trailingDot: true)
        let needsLowercasing = text.contains { $0 &- 0x41 < 26 }
        guard needsLowercasing || text.last == UInt8(ascii: ".") else { return .dnsName(original) }
        var name = text.map(asciiLowercased)
        if name.last == UInt8(ascii: ".") { name.removeLast() }
        // checkHostName let through letters, digits, `-` and `.` only.
        guard let lowercased = TextBytes.string(validUTF8: name) else { throw PeerHostError(.nonASCII, offset: 0) }
        return .dnsName(lowercased)
    }

    /// The offset of the first `://` in `text`.
    private static func findSchemeSeparator(in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard text.count >= 3 else { return nil }
        for start in 0...(text.count - 3)
        where text[start] == UInt8(ascii: ":") && text[start + 1] == UInt8(ascii: "/") && text[start + 2] == UInt8(ascii: "/") {
            return start
        }
        return nil
    }
}

/// Why text is not a host (``PeerHost/init(_:)``) or not a DNS name (a pin rule's
/// domain, a certificate's `dNSName`), and where.
public struct PeerHostError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The text is empty.
        case empty
        /// The text is a URL (a scheme `://`, a path, a query or a fragment); give the host alone.
        case url
        /// The text has a port (`example.com:443`, `[2001:db8::1]:443`); give the host alone.
        case port
        /// A wildcard `*`: a connection goes to one host, never to a pattern.
        case wildcard
        /// A label starts with `-` (RFC 1034 §3.5).
        case labelStartsWithHyphen
        /// A label ends with `-` (RFC 1034 §3.5).
        case labelEndsWithHyphen
        /// An empty label (`a..b`, a leading dot).
        case emptyLabel
        /// More than one trailing dot (one is the absolute form and is accepted).
        case trailingDots
        /// A byte above 0x7F: internationalised names are written as A-labels (`xn--…`).
        case nonASCII
        /// A byte that is not a letter, digit, `-` or `.`.
        case invalidCharacter(UInt8)
        /// A label longer than 63 octets (RFC 1035 §2.3.4).
        case labelTooLong
        /// A name longer than 253 octets (RFC 1035 §2.3.4).
        case nameTooLong
        /// The last label is all digits: a malformed IPv4 address rather than a name.
        case numericName
        /// Not an IPv4 or IPv6 address although written as one (colons or brackets).
        case invalidIPAddress
    }

    /// What is wrong.
    public let reason: Reason
    /// The 0-based byte offset in the text where the problem is.
    public let offset: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - offset: The 0-based byte offset where it is.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The stable snake_case code of the reason (`host_` and the reason), for tools and tests;
    /// the `tack` command reports it as it is.
    public var code: String {
        switch reason {
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

    /// The reason and the fix, with the offset.
    public var description: String {
        let what: String
        switch reason {
        case .empty: what = "the host is empty"
        case .url: what = "a URL, not a host: give the host name or address alone"
        case .port: what = "the host has a port: give the host name or address alone"
        case .wildcard: what = "a wildcard is a pattern, not a host"
        case .labelStartsWithHyphen: what = "a label starts with '-'"
        case .labelEndsWithHyphen: what = "a label ends with '-'"
        case .emptyLabel: what = "an empty label"
        case .trailingDots: what = "more than one trailing dot (one, the absolute form, is accepted)"
        case .nonASCII: what = "non-ASCII text: write an internationalised name as its A-label (xn--…)"
        case .invalidCharacter(let byte):
            what = "character 0x" + String(byte, radix: 16, uppercase: true) + " is not a letter, digit, '-' or '.'"
        case .labelTooLong: what = "a label is longer than 63 octets"
        case .nameTooLong: what = "the name is longer than 253 octets"
        case .numericName: what = "the last label is all digits: not a name, and not a valid IPv4 address"
        case .invalidIPAddress: what = "not a valid IPv4 or IPv6 address"
        }
        return what + " (at byte \(offset))"
    }
}

/// The DNS-name grammar of TackTrust, used for hosts, pin-rule domains and the names
/// certificates carry: labels of 1...63 letters, digits and hyphens, not starting or
/// ending with a hyphen (RFC 1034 §3.5, RFC 1123 §2.1; RFC 5280 §4.2.1.6 requires it of
/// dNSName; CA/B Forum BR §7.1.4.2.1 has forbidden underscores since 2019), at most 253
/// octets (RFC 1035 §2.3.4). Non-ASCII text is refused: names are compared as A-labels.
enum DNSNameSyntax {
    /// Checks `octets` and returns its labels (not lowercased; slices of `octets`).
    ///
    /// - Parameters:
    ///   - wildcard: Whether the first label may be exactly `*` (presented names).
    ///   - trailingDot: Whether one trailing dot (the absolute form) is accepted.
    static func parse(_ octets: ArraySlice<UInt8>, wildcard: Bool, trailingDot: Bool) throws(PeerHostError) -> [ArraySlice<UInt8>] {
        let body = try check(octets, wildcard: wildcard, trailingDot: trailingDot)
        // The labels between the dots (check refused empty ones), by index: the
        // generic `split(separator:)` is half a kilobyte of a firmware image (issue 36).
        var labels: [ArraySlice<UInt8>] = []
        var start = body.startIndex
        for index in body.indices where body[index] == UInt8(ascii: ".") {
            labels.append(body[start..<index])
            start = index + 1
        }
        labels.append(body[start...])
        return labels
    }

    /// Checks `octets` without allocating and returns the name without its trailing
    /// dot (the labels' span), for ``parse(_:wildcard:trailingDot:)`` and
    /// ``checkHostName(_:trailingDot:)``.
    static func check<Octets: BidirectionalCollection<UInt8>>(
        _ octets: Octets, wildcard: Bool, trailingDot: Bool
    ) throws(PeerHostError) -> Octets where Octets.SubSequence == Octets, Octets.Index == Int {
        guard !octets.isEmpty else { throw PeerHostError(.empty, offset: octets.startIndex) }
        var body = octets
        if trailingDot, body.last == UInt8(ascii: "."), body.count > 1 {
            body = body.dropLast()
            if body.last == UInt8(ascii: ".") { throw PeerHostError(.trailingDots, offset: body.endIndex - 1) }
        }
        // RFC 1035 §2.3.4: 255 octets on the wire, 253 in text form.
        guard body.count <= 253 else { throw PeerHostError(.nameTooLong, offset: body.startIndex + 253) }
        var labelStart = body.startIndex
        var position = 0
        while labelStart <= body.endIndex {
            let labelEnd = body[labelStart...].firstIndex(of: UInt8(ascii: ".")) ?? body.endIndex
            try checkLabel(body[labelStart..<labelEnd], isFirst: position == 0, wildcard: wildcard)
            position += 1
            labelStart = labelEnd + 1
        }
        return body
    }

    /// One label: 1...63 letters, digits and hyphens, no hyphen at either end; `*`
    /// alone as the first label when `wildcard`.
    private static func checkLabel<Octets: BidirectionalCollection<UInt8>>(
        _ label: Octets, isFirst: Bool, wildcard: Bool
    ) throws(PeerHostError) where Octets.Index == Int {
        guard let first = label.first, let last = label.last else { throw PeerHostError(.emptyLabel, offset: label.startIndex) }
        // Integer indices, not `label.indices`: a slice's `Indices` type was looked up
        // in the runtime's generic metadata on every call (issue 35).
        let length = label.endIndex - label.startIndex
        guard length <= 63 else { throw PeerHostError(.labelTooLong, offset: label.startIndex) }
        if first == UInt8(ascii: "*") {
            guard wildcard, isFirst, length == 1 else { throw PeerHostError(.wildcard, offset: label.startIndex) }
            return
        }
        for index in label.startIndex..<label.endIndex {
            let byte = label[index]
            let isLetterOrDigit = (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10
            guard isLetterOrDigit || byte == UInt8(ascii: "-") else {
                if byte >= 0x80 { throw PeerHostError(.nonASCII, offset: index) }
                if byte == UInt8(ascii: "*") { throw PeerHostError(.wildcard, offset: index) }
                throw PeerHostError(.invalidCharacter(byte), offset: index)
            }
        }
        if first == UInt8(ascii: "-") { throw PeerHostError(.labelStartsWithHyphen, offset: label.startIndex) }
        if last == UInt8(ascii: "-") { throw PeerHostError(.labelEndsWithHyphen, offset: label.endIndex - 1) }
    }

    /// Checks a host name (a peer, a pin rule's domain): ``parse(_:wildcard:trailingDot:)``
    /// without wildcard, and a last label that is not all digits (such text is a
    /// malformed dotted-quad, not a name: RFC 1123 §2.1).
    static func checkHostName<Octets: BidirectionalCollection<UInt8>>(
        _ octets: Octets, trailingDot: Bool
    ) throws(PeerHostError) where Octets.SubSequence == Octets, Octets.Index == Int {
        let body = try check(octets, wildcard: false, trailingDot: trailingDot)
        let lastStart = (body.lastIndex(of: UInt8(ascii: ".")) ?? (body.startIndex - 1)) + 1
        if body[lastStart...].allSatisfy({ $0 &- 0x30 < 10 }) {
            throw PeerHostError(.numericName, offset: lastStart)
        }
    }
}

/// Text forms of IP addresses: dotted-decimal IPv4 and RFC 4291 §2.2 IPv6.
enum IPAddressText {
    /// `a.b.c.d`, four decimal octets without leading zeros (an octal reading of `010`
    /// is refused rather than guessed).
    static func parseIPv4<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        // Names are the common case: refuse them before splitting anything.
        guard text.allSatisfy({ $0 &- 0x30 < 10 || $0 == UInt8(ascii: ".") }) else { return nil }
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        octets.reserveCapacity(4)
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
            if part.count > 1, part.first == UInt8(ascii: "0") { return nil }
            let value = part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value <= 255 else { return nil }
            octets.append(UInt8(value))
        }
        return octets
    }

    /// RFC 4291 §2.2: eight groups of 1...4 hex digits, one `::` for a run of zero
    /// groups, and optionally a dotted-decimal IPv4 address as the last 32 bits. Zone
    /// identifiers (`%eth0`) are refused: they name an interface, not a peer.
    static func parseIPv6<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? where Text.SubSequence == Text {
        var head: [UInt16] = []
        var tail: [UInt16] = []
        var sawGap = false
        var rest = text
        if rest.starts(with: [UInt8(ascii: ":"), UInt8(ascii: ":")]) {
            sawGap = true
            rest = rest.dropFirst(2)
            if rest.isEmpty { return [UInt8](repeating: 0, count: 16) }
        } else if rest.first == UInt8(ascii: ":") {
            return nil
        }
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.endIndex
            let group = rest[rest.startIndex..<end]
            if group.contains(UInt8(ascii: ".")) {
                // The embedded IPv4 address: the last 32 bits.
                guard end == rest.endIndex, let v4 = parseIPv4(group) else { return nil }
                let words = [UInt16(v4[0]) << 8 | UInt16(v4[1]), UInt16(v4[2]) << 8 | UInt16(v4[3])]
                if sawGap { tail += words } else { head += words }
                rest = rest[end...]
                break
            }
            guard !group.isEmpty, group.count <= 4 else { return nil }
            var value: UInt16 = 0
            for byte in group {
                guard let digit = Hex.value(of: byte) else { return nil }
                value = value << 4 | UInt16(digit)
            }
            if sawGap { tail.append(value) } else { head.append(value) }
            rest = rest[end...]
            guard !rest.isEmpty else { break }
            rest = rest.dropFirst()  // the colon
            if rest.first == UInt8(ascii: ":") {
                guard !sawGap else { return nil }
                sawGap = true
                rest = rest.dropFirst()
                if rest.isEmpty { break }
            } else if rest.isEmpty {
                return nil  // a trailing single colon
            }
        }
        let total = head.count + tail.count
        guard sawGap ? total <= 7 : total == 8 else { return nil }
        let words = head + [UInt16](repeating: 0, count: 8 - total) + tail
        var octets: [UInt8] = []
        octets.reserveCapacity(16)
        for word in words { octets += [UInt8(word >> 8), UInt8(word & 0xFF)] }
        return octets
    }

    /// `192.0.2.1`, or RFC 5952's IPv6 form (`2001:db8::1`), through TackX509's
    /// ``IPAddressName``.
    static func format(_ octets: [UInt8]) -> String {
        IPAddressName(bytes: octets[...]).description
    }
}

import TackDER
public import TackX509

extension Certificate {
    /// Whether this (leaf) certificate carries `host` (RFC 6125 / RFC 9525).
    ///
    /// - DNS names are compared with `dNSName` subject alternative names,
    ///   case-insensitively on A-labels (RFC 9525 §6.3). A presented wildcard matches
    ///   only as the entire left-most label (`*.example.com`), standing for exactly one
    ///   non-empty label (RFC 9525 §6.3 items 1-3), and only when at least two labels
    ///   follow it, so `*` and `*.com` match nothing. As Chromium, Go and webpki do, a
    ///   wildcard never stands for an IDNA A-label (`xn--…`, RFC 6125 §7.2).
    ///   Partial-label wildcards (`ba*.example.com`) are not wildcards and match nothing.
    /// - IP addresses are compared as bytes with `iPAddress` subject alternative
    ///   names only, IPv4 with 4-octet and IPv6 with 16-octet names (RFC 9525 §6.4);
    ///   never with a `dNSName` or the common name.
    ///
    /// There is no fallback to the subject common name, with or without a subject
    /// alternative name extension (RFC 9525 §6.2; CA/Browser Forum BR §7.1.4.3).
    ///
    /// - Parameter host: The reference identifier.
    /// - Returns: Whether one presented identifier matches it.
    /// - Throws: `X509Error` if the subject alternative name extension is malformed.
    public func matches(_ host: PeerHost) throws(X509Error) -> Bool {
        guard let names = try subjectAlternativeNames else { return false }
        switch host.kind {
        case .dnsName(let reference):
            // The names' octets in place, not decoded `String`s: an 11-octet name is a
            // heap block on 32-bit targets (issue 35).
            // The non-generic access (TextBytes.forUTF8), as this is another module.
            var found = false
            TextBytes.forUTF8(of: reference) { reference in
                found = names.names.containsDNSName { presented in
                    presented.withUnsafeBufferPointer { DNSNameBytes.matches(reference: reference[...], presented: $0[...]) }
                }
            }
            return found
        case .ipAddress(let reference):
            for case .ipAddress(let presented) in names.names where presented.bytes.elementsEqual(reference) {
                return true
            }
            return false
        }
    }

    /// Whether this (client or S/MIME) certificate carries the mailbox `address` in an
    /// `rfc822Name` subject alternative name: the local part compared exactly, the
    /// domain case-insensitively (RFC 5280 §7.5).
    ///
    /// - Parameter address: `local@domain`.
    /// - Returns: Whether one presented mailbox matches it (`false` when `address` is
    ///   not a mailbox).
    /// - Throws: `X509Error` if the subject alternative name extension is malformed.
    public func matches(email address: String) throws(X509Error) -> Bool {
        guard let names = try subjectAlternativeNames, let reference = Mailbox(address) else { return false }
        for case .rfc822Name(let presented) in names.names {
            if let presented = Mailbox(presented), presented == reference { return true }
        }
        return false
    }

    /// Every DNS and IP name of the subject alternative names, for a name-mismatch
    /// failure (rendered only when it is printed); empty when there are none or the
    /// extension is malformed.
    var dnsAndIPNames: [GeneralName] {
        guard let names = try? subjectAlternativeNames else { return [] }
        var found: [GeneralName] = []
        for name in names.names {
            switch name {
            case .dnsName, .ipAddress: found.append(name)
            default: continue
            }
        }
        return found
    }
}

// MARK: - DNS names

/// ASCII lowercasing of one octet.
@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
}

/// Whether two octet sequences are equal ignoring ASCII case.
func asciiCaseInsensitiveEqual(_ lhs: Slice<UnsafeBufferPointer<UInt8>>, _ rhs: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var left = lhs.startIndex
    var right = rhs.startIndex
    while left < lhs.endIndex {
        guard asciiLowercased(lhs[left]) == asciiLowercased(rhs[right]) else { return false }
        left += 1
        right += 1
    }
    return true
}

/// A syntactically valid DNS name in A-label form, lowercased, split into labels.
///
/// The grammar is ``DNSNameSyntax``'s, the one of TackTrust.
struct DNSNameBytes: Equatable {
    /// The lowercased labels, left to right.
    var labels: [ArraySlice<UInt8>]

    /// Wraps labels already checked and lowercased.
    init(labels: [ArraySlice<UInt8>]) {
        self.labels = labels
    }

    /// Parses a presented or constraint name with the one grammar of
    /// ``DNSNameSyntax``: no trailing dot; with `allowWildcard`, the first label may be
    /// exactly `*`.
    // Called, not inlined: the name-constraint check parses names in three places
    // and the host check in more (issue 36).
    @inline(never)
    init?(presented octets: UnsafeBufferPointer<UInt8>, allowWildcard: Bool) {
        let lowered = octets.map(asciiLowercased)
        guard let labels = try? DNSNameSyntax.parse(lowered[...], wildcard: allowWildcard, trailingDot: false) else { return nil }
        self.labels = labels
    }

    /// ``init(presented:allowWildcard:)`` on a text's UTF-8 bytes.
    init?(presented text: String, allowWildcard: Bool) {
        guard let name = TextBytes.withUTF8(text, { DNSNameBytes(presented: $0, allowWildcard: allowWildcard) }) else { return nil }
        self = name
    }

    /// Whether the first label is the wildcard `*`.
    var isWildcard: Bool { labels.first?.elementsEqual([UInt8(ascii: "*")]) ?? false }

    /// Whether the certificate's `dNSName` octets `presented` identify the reference name
    /// `reference` (a ``PeerHost`` name: RFC 9525 §6.3, with the wildcard rules of
    /// ``Certificate/matches(_:)``), compared in place as ASCII bytes: nothing is
    /// allocated, and no `String` comparison (with its Unicode tables) is involved. Both
    /// must have the syntax of ``DNSNameSyntax`` (the presented one may start with the
    /// label `*`), without trailing dot; labels compare ignoring ASCII case.
    static func matches(reference: Slice<UnsafeBufferPointer<UInt8>>, presented: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard (try? DNSNameSyntax.check(reference, wildcard: false, trailingDot: false)) != nil,
              (try? DNSNameSyntax.check(presented, wildcard: true, trailingDot: false)) != nil else { return false }
        guard presented.first == UInt8(ascii: "*") else { return asciiCaseInsensitiveEqual(presented, reference) }
        // `*` plus at least two labels: `*.com` never matches (RFC 9525 §6.3, CA/B BR §3.2.2.6).
        // The checked syntax puts a dot right after a leading `*` when more follows.
        let rest = presented.dropFirst(2)
        guard rest.contains(UInt8(ascii: ".")), let dot = reference.firstIndex(of: UInt8(ascii: ".")) else { return false }
        // The wildcard stands for exactly the first label, which is never an A-label
        // (RFC 6125 §7.2; Chromium, Go and webpki).
        let start = reference.startIndex
        if dot - start >= 4, asciiLowercased(reference[start]) == UInt8(ascii: "x"),
            asciiLowercased(reference[start + 1]) == UInt8(ascii: "n"),
            reference[start + 2] == UInt8(ascii: "-"), reference[start + 3] == UInt8(ascii: "-") {
            return false
        }
        return asciiCaseInsensitiveEqual(reference[(dot + 1)...], rest)
    }

    /// Whether this name is `base` or a name below it (RFC 5280 §4.2.1.10: "any DNS
    /// name that can be constructed by simply adding zero or more labels to the
    /// left-hand side"). A wildcard label counts as one label.
    func isWithinSubtree(of base: DNSNameBytes) -> Bool {
        guard labels.count >= base.labels.count else { return false }
        return labels.suffix(base.labels.count).elementsEqual(base.labels, by: ==)
    }

    /// For a wildcard name `*.R`: whether some name it stands for (`L.R`, one label
    /// `L`) is within `base`, which is so when `base` is within `R`'s subtree or `base`
    /// is exactly one label below `R`. Excluded subtrees use this, so that a
    /// wildcard cannot smuggle an excluded host past them (CVE-2025-61727).
    func wildcardMayMatchWithin(_ base: DNSNameBytes) -> Bool {
        guard isWildcard else { return isWithinSubtree(of: base) }
        let rest = labels.dropFirst()
        if isWithinSubtree(of: base) { return true }
        return base.labels.count == rest.count + 1 && base.labels.dropFirst().elementsEqual(rest, by: ==)
    }
}

// MARK: - E-mail addresses

/// An RFC 822 mailbox as certificates carry it (`local@domain`): the local part
/// compared exactly, the domain a DNS name compared case-insensitively
/// (RFC 5280 §4.2.1.6 and §7.5). Quoted local parts are not supported.
struct Mailbox: Equatable {
    /// The local part, as given.
    var localPart: ArraySlice<UInt8>
    /// The domain.
    var domain: DNSNameBytes

    /// Parses `text`: exactly one `@`, a non-empty local part without spaces, and
    /// a valid domain.
    init?(_ text: String) {
        guard let mailbox = TextBytes.withUTF8(text, { Mailbox($0) }) else { return nil }
        self = mailbox
    }

    /// ``init(_:)`` on the address's UTF-8 bytes.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        let octets = Array(bytes)
        guard let at = octets.firstIndex(of: UInt8(ascii: "@")),
            octets[(at + 1)...].firstIndex(of: UInt8(ascii: "@")) == nil
        else { return nil }
        let local = octets[..<at]
        guard !local.isEmpty, local.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        guard let domain = octets[(at + 1)...].withUnsafeBufferPointer({ DNSNameBytes(presented: $0, allowWildcard: false) })
        else { return nil }
        localPart = local
        self.domain = domain
    }

    static func == (lhs: Mailbox, rhs: Mailbox) -> Bool {
        lhs.localPart.elementsEqual(rhs.localPart) && lhs.domain == rhs.domain
    }
}

extension DNSNameBytes {
    static func == (lhs: DNSNameBytes, rhs: DNSNameBytes) -> Bool {
        lhs.labels.elementsEqual(rhs.labels, by: ==)
    }
}

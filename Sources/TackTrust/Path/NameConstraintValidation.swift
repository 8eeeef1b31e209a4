import TackDER
import TackX509

/// The outcome of checking one certificate's names against one CA's name constraints.
enum NameConstraintOutcome: Sendable, Hashable {
    /// Every name is permitted and none is excluded.
    case satisfied
    /// A name is outside the permitted subtrees or inside the excluded ones, a
    /// constraint or a name of a constrained form is malformed.
    case violated
    /// The constraints use a name form Tack cannot evaluate (otherName, x400Address,
    /// ediPartyName, registeredID) and the certificate has a name of that form, or
    /// checking would take more than ``maximumNameConstraintComparisons``.
    case unsupported
}

/// The most name-versus-subtree comparisons one check may make: 250,000, Go's
/// `maxConstraintComparisons` (crypto/x509 verify.go), so that a CA with
/// thousands of subtrees over a leaf with thousands of names (limbo's
/// `pathological::nc-dos-*`) fails quickly instead of running quadratic work.
let maximumNameConstraintComparisons = 250_000

/// Checks every name of `certificate` against `constraints` (RFC 5280 §4.2.1.10,
/// §6.1.3 (b)/(c)).
///
/// The names are: the subject DN when non-empty (directoryName), the PKCS #9
/// emailAddress attributes of the subject (rfc822Name), every subject alternative
/// name, and, for the leaf only and only when it has no subject alternative name
/// extension, each subject common name that is a syntactically valid host name
/// (dNSName), as Chromium and Go treat legacy certificates.
///
/// A name is excluded when it lies in an excluded subtree of its form, and must
/// lie in one permitted subtree of its form when the constraints have any of that
/// form; names of forms with no subtrees are unconstrained.
///
/// Per RFC 5280 §6.1.3 (b), a self-issued certificate that is not the leaf is not
/// subject to name constraints; this function applies that rule itself.
///
/// Forms and matching:
/// - dNSName: a base `example.com` contains itself and every name with more
///   labels on the left, compared case-insensitively by whole labels. An empty
///   base contains every name. A base with a leading dot (`.example.com`, not
///   RFC 5280 syntax for DNS but what OpenSSL, Go and webpki accept) contains only
///   names strictly below it. A wildcard SAN `*.example.com` is permitted when
///   `example.com` is, and excluded when any host it may stand for is.
/// - iPAddress: address and mask; a contiguous mask is required, and an address
///   matches when it has the same family and the same masked bits.
/// - rfc822Name: a mailbox (`user@host`, exact), a host (`host`, every mailbox on
///   it) or a domain (`.domain`, every mailbox on a host below it); asterisks are
///   literal characters.
/// - directoryName: ``TackX509/DistinguishedName/isWithinSubtree(of:)``.
/// - uniformResourceIdentifier: the URI's host against a host (exact) or domain
///   (leading dot, strictly below) base; a URI without a host name is outside
///   every permitted subtree and inside every excluded one.
///
/// - Parameters:
///   - constraints: The constraining CA's name constraints.
///   - certificate: The certificate below that CA.
///   - isLeaf: Whether `certificate` is the path's leaf.
func checkNameConstraints(
    _ constraints: NameConstraints, appliedTo certificate: Certificate, isLeaf: Bool
) -> NameConstraintOutcome {
    guard let subject = try? certificate.subject else { return .violated }
    if !isLeaf, let issuer = try? certificate.issuer, subject.matches(issuer) { return .satisfied }

    guard let permitted = SubtreeSet(constraints.permittedSubtrees),
        let excluded = SubtreeSet(constraints.excludedSubtrees)
    else { return .violated }

    let sanExtension: SubjectAlternativeNames?
    do { sanExtension = try certificate.subjectAlternativeNames } catch { return .violated }

    var names: [GeneralName] = []
    if !subject.isEmpty { names.append(.directoryName(subject)) }
    for rdn in subject {
        for attribute in rdn where attribute.type == DistinguishedName.AttributeType.emailAddress {
            guard let value = attribute.stringValue else { return .violated }
            names.append(.rfc822Name(value))
        }
    }
    if let sanExtension {
        // One by one: `append(contentsOf:)` would link a copy of the standard
        // library's generic sequence copying for GeneralNames (1.3 KB, issue 36).
        for name in sanExtension.names { names.append(name) }
    } else if isLeaf {
        for value in subject.values(of: DistinguishedName.AttributeType.commonName)
        where TextBytes.withUTF8(value, { DNSNameBytes(presented: $0, allowWildcard: true) != nil && $0.contains(UInt8(ascii: ".")) }) {
            names.append(.dnsName(value))
        }
    }

    let comparisons = names.count.multipliedReportingOverflow(by: permitted.count + excluded.count)
    guard !comparisons.overflow, comparisons.partialValue <= maximumNameConstraintComparisons else { return .unsupported }

    for name in names {
        switch excluded.contains(name, excluding: true) {
        case .some(true): return .violated
        case .none: return .unsupported
        case .some(false): break
        }
        guard permitted.constrains(name) else { continue }
        switch permitted.contains(name, excluding: false) {
        case .some(true): break
        case .some(false): return .violated
        case .none: return .unsupported
        }
    }
    return .satisfied
}

/// The subtrees of one list (permitted or excluded), parsed once per check.
private struct SubtreeSet {
    var dns: [DNSConstraint] = []
    var ip: [(address: [UInt8], mask: [UInt8])] = []
    var email: [EmailConstraint] = []
    var directory: [DistinguishedName] = []
    var uri: [DNSConstraint] = []
    /// GeneralName tag numbers of forms Tack does not evaluate (0, 3, 5, 8), each
    /// once: an array of at most four, not a `Set` (whose hashing code a firmware
    /// image would otherwise link for this alone).
    var unsupportedTags: [UInt32] = []

    var count: Int { dns.count + ip.count + email.count + directory.count + uri.count + unsupportedTags.count }

    /// Parses `subtrees`; `nil` when a base is malformed for its form.
    init?(_ subtrees: GeneralSubtrees?) {
        guard let subtrees else { return }
        for base in subtrees {
            switch base {
            case .dnsName(let text):
                guard let constraint = DNSConstraint(text) else { return nil }
                dns.append(constraint)
            case .ipAddress(let name):
                // RFC 5280 §4.2.1.10: address then mask, 8 or 32 octets, in CIDR form.
                guard name.hasMask, let mask = name.mask, name.prefixLength != nil else { return nil }
                ip.append((Array(name.address), Array(mask)))
            case .rfc822Name(let text):
                guard let constraint = EmailConstraint(text) else { return nil }
                email.append(constraint)
            case .directoryName(let name):
                directory.append(name)
            case .uniformResourceIdentifier(let text):
                guard let constraint = DNSConstraint(text), !constraint.name.isEmpty else { return nil }
                uri.append(constraint)
            case .otherName, .x400Address, .ediPartyName, .registeredID:
                if !unsupportedTags.contains(base.tagNumber) { unsupportedTags.append(base.tagNumber) }
            }
        }
    }

    /// Whether the set has subtrees of `name`'s form.
    func constrains(_ name: GeneralName) -> Bool {
        switch name {
        case .dnsName: return !dns.isEmpty
        case .ipAddress: return !ip.isEmpty
        case .rfc822Name: return !email.isEmpty
        case .directoryName: return !directory.isEmpty
        case .uniformResourceIdentifier: return !uri.isEmpty
        case .otherName, .x400Address, .ediPartyName, .registeredID: return unsupportedTags.contains(name.tagNumber)
        }
    }

    /// Whether `name` lies in one of the subtrees of its form; `nil` when that
    /// cannot be decided (an unsupported form is constrained). A malformed name of a
    /// constrained form counts as inside an excluded set and outside a permitted one.
    func contains(_ name: GeneralName, excluding: Bool) -> Bool? {
        switch name {
        case .dnsName(let text):
            guard !dns.isEmpty else { return false }
            guard let presented = DNSNameBytes(presented: text, allowWildcard: true) else { return excluding }
            return dns.contains { $0.contains(presented, excluding: excluding) }
        case .ipAddress(let address):
            guard !ip.isEmpty else { return false }
            let bytes = Array(address.bytes)
            guard bytes.count == 4 || bytes.count == 16 else { return excluding }
            return ip.contains { subtree in
                // SubtreeSet(_:) took the address and mask from one name: equal lengths.
                guard subtree.address.count == bytes.count, subtree.mask.count == bytes.count else { return false }
                for index in bytes.indices where (bytes[index] ^ subtree.address[index]) & subtree.mask[index] != 0 {
                    return false
                }
                return true
            }
        case .rfc822Name(let text):
            guard !email.isEmpty else { return false }
            guard let mailbox = Mailbox(text) else { return excluding }
            return email.contains { $0.contains(mailbox) }
        case .directoryName(let directoryName):
            return directory.contains { directoryName.isWithinSubtree(of: $0) }
        case .uniformResourceIdentifier(let text):
            guard !uri.isEmpty else { return false }
            let hostName = TextBytes.withUTF8(text) { uri in
                uriHost(uri).flatMap { DNSNameBytes(presented: UnsafeBufferPointer(rebasing: $0), allowWildcard: false) }
            }
            guard let hostName else { return excluding }
            return uri.contains { $0.contains(hostName, excluding: false) }
        case .otherName, .x400Address, .ediPartyName, .registeredID:
            return unsupportedTags.contains(name.tagNumber) ? nil : false
        }
    }
}

/// A dNSName (or URI host) constraint base: a name, empty for "every name", and
/// whether it had a leading dot (names strictly below it only).
private struct DNSConstraint {
    var name: [ArraySlice<UInt8>]
    var strictlyBelow: Bool

    init?(_ text: String) {
        // Bytes, not Characters: no grapheme breaking (and its Unicode tables) for a
        // dot, and a buffer, not `String.Index` arithmetic, to drop it.
        let parsed = TextBytes.withUTF8(text) { octets -> (name: [ArraySlice<UInt8>], strictlyBelow: Bool)? in
            guard let first = octets.first else { return ([], false) }
            let strictlyBelow = first == UInt8(ascii: ".")
            let body = UnsafeBufferPointer(rebasing: octets[(strictlyBelow ? 1 : 0)...])
            return DNSNameBytes(presented: body, allowWildcard: false).map { ($0.labels, strictlyBelow) }
        }
        guard let parsed else { return nil }
        name = parsed.name
        strictlyBelow = parsed.strictlyBelow
    }

    /// Whether `presented` lies in this subtree; with `excluding`, a wildcard
    /// counts as inside when any host it may stand for is (CVE-2025-61727). Below a
    /// leading-dot base, a wildcard's hosts are all strictly below exactly when the
    /// wildcard name itself is, so one rule serves both lists there.
    func contains(_ presented: DNSNameBytes, excluding: Bool) -> Bool {
        let base = DNSNameBytes(labels: name)
        if strictlyBelow { return presented.labels.count > name.count && presented.isWithinSubtree(of: base) }
        return excluding ? presented.wildcardMayMatchWithin(base) : presented.isWithinSubtree(of: base)
    }
}

/// An rfc822Name constraint base (RFC 5280 §4.2.1.10).
private enum EmailConstraint {
    /// `local@host`: that mailbox only.
    case mailbox(Mailbox)
    /// `host`: every mailbox on that host.
    case host(DNSNameBytes)
    /// `.domain`: every mailbox on a host strictly below the domain.
    case domain(DNSNameBytes)

    init?(_ text: String) {
        guard let parsed = TextBytes.withUTF8(text, EmailConstraint.parse) else { return nil }
        self = parsed
    }

    private static func parse(_ octets: UnsafeBufferPointer<UInt8>) -> EmailConstraint? {
        if octets.contains(UInt8(ascii: "@")) { return Mailbox(octets).map { .mailbox($0) } }
        if octets.first == UInt8(ascii: ".") {
            return DNSNameBytes(presented: UnsafeBufferPointer(rebasing: octets[1...]), allowWildcard: false).map { .domain($0) }
        }
        return DNSNameBytes(presented: octets, allowWildcard: false).map { .host($0) }
    }

    func contains(_ mailbox: Mailbox) -> Bool {
        switch self {
        case .mailbox(let base): return base == mailbox
        case .host(let host): return host == mailbox.domain
        case .domain(let domain):
            return mailbox.domain.labels.count > domain.labels.count && mailbox.domain.isWithinSubtree(of: domain)
        }
    }
}

/// The host of an absolute URI with an authority (`scheme://[userinfo@]host[:port]…`,
/// RFC 3986 §3.2), or `nil` when there is none or it is an IP literal.
///
/// - Parameter octets: The URI's UTF-8 bytes.
/// - Returns: The host's bytes, a slice of `octets`.
func uriHost(_ octets: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>>? {
    guard let colon = octets.firstIndex(of: UInt8(ascii: ":")), colon > 0,
        octets[(colon + 1)...].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
    else { return nil }
    var authority = octets[(colon + 3)...]
    if let end = authority.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
        authority = authority[..<end]
    }
    if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
    guard authority.first != UInt8(ascii: "[") else { return nil }
    if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) { authority = authority[..<portColon] }
    guard !authority.isEmpty else { return nil }
    return authority
}

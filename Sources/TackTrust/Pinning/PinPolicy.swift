import TackDER
public import TackX509
public import TackDigest

/// Which hosts a ``PinRule`` covers, relative to its ``PinRule/domain``.
///
/// The default, and the only scopes an `Info.plist` can express, are App Transport
/// Security's: the domain alone, or the domain and names exactly one label deeper
/// (`NSIncludesSubdomains`). The other two exist for policies carried over from
/// TrustKit and OkHttp, and must be asked for by name.
public enum HostScope: Sendable, Hashable, CustomStringConvertible {
    /// Only the domain itself.
    case exact
    /// The domain and names exactly one label deeper: `example.com` covers
    /// `api.example.com`, not `v1.api.example.com` (ATS `NSIncludesSubdomains`).
    case oneLabelDeeper
    /// The domain and every name below it at any depth (TrustKit's
    /// `kTSKIncludeSubdomains`; OkHttp's `**.example.com`).
    case anyDepth
    /// Names exactly one label deeper, not the domain itself (OkHttp's `*.example.com`).
    case subdomainsOneLabel

    /// Whether the scope covers the domain itself.
    var coversDomain: Bool { self != .subdomainsOneLabel }
    /// Whether the scope covers names one label deeper.
    var coversOneLabel: Bool { self != .exact }

    /// The scope's name in Tack's JSON policy (`"subdomains"`).
    public var description: String {
        switch self {
        case .exact: return "none"
        case .oneLabelDeeper: return "one-label"
        case .anyDepth: return "any-depth"
        case .subdomainsOneLabel: return "okhttp-single"
        }
    }
}

/// What a rule does when its pins do not match.
public enum PinEnforcement: Sendable, Hashable {
    /// The connection is refused (fail closed).
    case enforce
    /// A failure report is produced and the trust verdict stands.
    case reportOnly
}

/// Which list of a rule a pin belongs to.
public enum PinList: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SPKI pins matched against certificates above the leaf (`NSPinnedCAIdentities`).
    case caIdentities
    /// SPKI pins matched against the leaf (`NSPinnedLeafIdentities`).
    case leafIdentities
    /// Whole-certificate SHA-256 fingerprints matched against certificates above the leaf.
    case caCertificates
    /// Whole-certificate SHA-256 fingerprints matched against the leaf.
    case leafCertificates

    /// Whether the list matches the leaf (otherwise it matches certificates above it).
    public var isLeafList: Bool { self == .leafIdentities || self == .leafCertificates }
    /// Whether entries are whole-certificate fingerprints rather than SPKI pins.
    public var isCertificateList: Bool { self == .caCertificates || self == .leafCertificates }

    /// The list's key in Tack's JSON policy.
    public var description: String {
        switch self {
        case .caIdentities: return "caIdentities"
        case .leafIdentities: return "leafIdentities"
        case .caCertificates: return "caCertificates"
        case .leafCertificates: return "leafCertificates"
        }
    }
}

/// The pins of one domain: the `NSPinnedDomains` entry of Tack.
///
/// Semantics (App Transport Security's): a CA pin matches any certificate of the
/// *verified path* above the leaf (intermediates and the anchor), never the leaf; a
/// leaf pin matches only the leaf. Entries of one side combine with OR; when both
/// sides have entries, each side needs its own match (AND). SPKI pins and
/// whole-certificate fingerprints of one side are one OR-list.
///
/// Equality and hashing compare ``domain`` and ``reportURIs`` by their bytes
/// (`TextBytes`: no Unicode tables in a firmware image).
public struct PinRule: Sendable, Hashable {
    /// The domain, lowercase ASCII, no trailing dot.
    public var domain: String
    /// Which hosts the rule covers.
    public var scope: HostScope
    /// SPKI pins of certificates above the leaf (`NSPinnedCAIdentities`).
    public var caIdentities: [SPKIPin]
    /// SPKI pins of the leaf (`NSPinnedLeafIdentities`).
    public var leafIdentities: [SPKIPin]
    /// Whole-certificate fingerprints of an intermediate or anchor. They break at every
    /// renewal of that certificate; prefer ``caIdentities``.
    public var caCertificates: [CertificateFingerprint]
    /// Whole-certificate fingerprints of the leaf. They break at every renewal.
    public var leafCertificates: [CertificateFingerprint]
    /// Enforce or report only.
    public var enforcement: PinEnforcement
    /// Seconds since 1970 after which the rule is no longer enforced (so a stale app
    /// cannot brick itself), or `nil` for no expiration.
    public var expiration: Int64?
    /// Where a failure report should go (kept as data; the core sends nothing).
    public var reportURIs: [String]
    /// Whether the policy explicitly accepts a side with a single pin (no backup).
    public var waivesBackupPin: Bool

    /// Creates a rule; `domain` is normalised (ASCII lowercase, one trailing dot removed).
    ///
    /// - Parameters:
    ///   - domain: The domain (`NSPinnedDomains` key).
    ///   - scope: Which hosts the rule covers.
    ///   - caIdentities: SPKI pins of certificates above the leaf.
    ///   - leafIdentities: SPKI pins of the leaf.
    ///   - caCertificates: Whole-certificate fingerprints of an intermediate or anchor.
    ///   - leafCertificates: Whole-certificate fingerprints of the leaf.
    ///   - enforcement: Enforce or report only.
    ///   - expiration: Seconds since 1970 after which the rule is not enforced, or `nil`.
    ///   - reportURIs: Where a failure report should go.
    ///   - waivesBackupPin: Whether a side with a single pin is accepted explicitly.
    public init(
        domain: String,
        scope: HostScope = .exact,
        caIdentities: [SPKIPin] = [],
        leafIdentities: [SPKIPin] = [],
        caCertificates: [CertificateFingerprint] = [],
        leafCertificates: [CertificateFingerprint] = [],
        enforcement: PinEnforcement = .enforce,
        expiration: Int64? = nil,
        reportURIs: [String] = [],
        waivesBackupPin: Bool = false
    ) {
        self.domain = HostName.normalized(domain)
        self.scope = scope
        self.caIdentities = caIdentities
        self.leafIdentities = leafIdentities
        self.caCertificates = caCertificates
        self.leafCertificates = leafCertificates
        self.enforcement = enforcement
        self.expiration = expiration
        self.reportURIs = reportURIs
        self.waivesBackupPin = waivesBackupPin
    }

    /// The number of entries in `list`.
    ///
    /// - Parameter list: The list.
    /// - Returns: Its number of entries.
    public func count(of list: PinList) -> Int {
        switch list {
        case .caIdentities: return caIdentities.count
        case .leafIdentities: return leafIdentities.count
        case .caCertificates: return caCertificates.count
        case .leafCertificates: return leafCertificates.count
        }
    }

    /// The digests of `list`'s entries, in order: what two pins are compared by, so
    /// that one key written in two forms is one pin.
    ///
    /// - Parameter list: The list.
    /// - Returns: The SHA-256 digest of each entry (an SPKI's, or a whole certificate's).
    public func digests(of list: PinList) -> [SHA256Digest] {
        switch list {
        case .caIdentities: return caIdentities.map { $0.digest }
        case .leafIdentities: return leafIdentities.map { $0.digest }
        case .caCertificates: return caCertificates.map { $0.digest }
        case .leafCertificates: return leafCertificates.map { $0.digest }
        }
    }

    /// The number of distinct keys (or certificates) in `list`: a key written twice,
    /// in one form or two, counts once.
    ///
    /// - Parameter list: The list.
    /// - Returns: Its number of distinct digests.
    public func distinctCount(of list: PinList) -> Int {
        Set(digests(of: list)).count
    }

    /// Whether the rule constrains certificates above the leaf.
    public var hasCAPins: Bool { !caIdentities.isEmpty || !caCertificates.isEmpty }
    /// Whether the rule constrains the leaf.
    public var hasLeafPins: Bool { !leafIdentities.isEmpty || !leafCertificates.isEmpty }

    /// Whether the rule has expired at `time` (expiration is exclusive: a rule expiring
    /// at T is enforced up to T - 1).
    ///
    /// - Parameter time: The check time, in seconds since 1970.
    /// - Returns: Whether the rule is no longer enforced at `time`.
    public func isExpired(at time: Int64) -> Bool {
        guard let expiration else { return false }
        return time >= expiration
    }

    /// How specifically a rule for `domain` with `scope` covers `host` (normalised), or
    /// `nil` if it does not. Larger is more specific: an exact match beats any subdomain
    /// match, and a longer domain beats a shorter one. It takes the two fields it reads,
    /// not a rule: a policy lookup over every rule then copies a string, not a whole
    /// rule with its arrays (`e2e-*`).
    static func specificity(domain: String, scope: HostScope, for host: String) -> Int? {
        // Compared as bytes (both are normalised ASCII): no `String` comparison, which
        // would bring in the Unicode normalisation tables (37 KB of firmware flash),
        // and in buffers by integer offsets: no generic algorithm over
        // `String.UTF8View`, whose `String.Index` steps link the index machinery.
        // The non-generic access (TextBytes.forUTF8): this runs on every verdict, from
        // another module than TextBytes, where a generic call is not specialised.
        var result: Int? = nil
        TextBytes.forUTF8(of: host) { host in
            TextBytes.forUTF8(of: domain) { domain in result = specificity(domain: domain, scope: scope, for: host) }
        }
        return result
    }

    /// ``specificity(domain:scope:for:)`` on the names' bytes.
    private static func specificity(domain: UnsafeBufferPointer<UInt8>, scope: HostScope, for host: UnsafeBufferPointer<UInt8>) -> Int? {
        if host.count == domain.count {
            return scope.coversDomain && host.elementsEqual(domain) ? Int.max : nil
        }
        // `host` is a prefix, ".", then `domain`: checked in place, without building
        // that string (a rule lookup runs on every evaluation, over every rule:
        // e2e-*-cached).
        guard host.count > domain.count + 1 else { return nil }
        let dot = host.count - domain.count - 1
        guard host[dot] == UInt8(ascii: "."), UnsafeBufferPointer(rebasing: host[(dot + 1)...]).elementsEqual(domain) else {
            return nil
        }
        switch scope {
        case .exact: return nil
        case .oneLabelDeeper, .subdomainsOneLabel:
            guard !host[..<dot].contains(UInt8(ascii: ".")) else { return nil }
        case .anyDepth: break
        }
        return domain.count
    }
}

/// A pin policy: rules keyed by domain; the most specific covering rule applies to a
/// host, and a host no rule covers is not pinned.
///
/// Pinning only ever tightens trust: the policy is consulted after path validation
/// succeeded, and a pinned CA is never an anchor.
public struct PinPolicy: Sendable, Hashable {
    /// The rules, in document order.
    public var rules: [PinRule]

    /// Creates a policy.
    ///
    /// - Parameter rules: The rules, in document order.
    public init(rules: [PinRule]) {
        self.rules = rules
    }

    /// The index of the rule that applies to `host`, or `nil` when the host is not
    /// pinned. Case-insensitive; one trailing dot of `host` is ignored. Of several
    /// covering rules, the most specific wins (exact domain first, then the longest
    /// domain); a remaining tie goes to the first in document order (validation reports
    /// such overlaps as ``PinPolicyIssue/Kind/duplicateDomain(firstRule:)``).
    ///
    /// - Parameter host: The host name.
    /// - Returns: The index in ``rules``, or `nil`.
    public func ruleIndex(for host: String) -> Int? {
        ruleIndex(forNormalized: HostName.normalized(host))
    }

    /// ``ruleIndex(for:)`` for a host already normalised.
    func ruleIndex(forNormalized name: String) -> Int? {
        var best: (index: Int, specificity: Int)?
        // By index, reading two fields: a whole rule would be copied (its arrays
        // retained and released) for each rule of the policy.
        for index in rules.indices {
            guard let specificity = PinRule.specificity(domain: rules[index].domain, scope: rules[index].scope, for: name) else {
                continue
            }
            if let current = best, specificity <= current.specificity { continue }
            best = (index, specificity)
        }
        return best?.index
    }

    /// The rule that applies to `host`, or `nil` when the host is not pinned.
    ///
    /// - Parameter host: The host name.
    /// - Returns: The rule, or `nil`.
    public func rule(for host: String) -> PinRule? {
        ruleIndex(for: host).map { rules[$0] }
    }
}

/// Host-name normalisation shared by rules and lookups.
enum HostName {
    /// ASCII lowercase, one trailing dot removed (a fully-qualified `example.com.` is
    /// `example.com`). Non-ASCII names are kept as given; validation refuses them.
    static func normalized(_ name: String) -> String {
        var bytes = TextBytes.bytes(name)
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        for index in bytes.indices where bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") {
            bytes[index] += 0x20
        }
        // A String's UTF-8 with ASCII letters changed and a final `.` removed.
        return TextBytes.string(writtenUTF8: bytes)
    }
}

extension PinRule {
    /// Whether every field is equal, the texts by their bytes.
    public static func == (lhs: PinRule, rhs: PinRule) -> Bool {
        TextBytes.equal(lhs.domain, rhs.domain) && lhs.scope == rhs.scope && lhs.caIdentities == rhs.caIdentities
            && lhs.leafIdentities == rhs.leafIdentities && lhs.caCertificates == rhs.caCertificates
            && lhs.leafCertificates == rhs.leafCertificates && lhs.enforcement == rhs.enforcement
            && lhs.expiration == rhs.expiration && TextBytes.equal(lhs.reportURIs, rhs.reportURIs)
            && lhs.waivesBackupPin == rhs.waivesBackupPin
    }

    /// Hashes every field that ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        TextBytes.hash(domain, into: &hasher)
        hasher.combine(scope)
        hasher.combine(caIdentities)
        hasher.combine(leafIdentities)
        hasher.combine(caCertificates)
        hasher.combine(leafCertificates)
        hasher.combine(enforcement)
        hasher.combine(expiration)
        hasher.combine(reportURIs.count)
        for uri in reportURIs { TextBytes.hash(uri, into: &hasher) }
        hasher.combine(waivesBackupPin)
    }
}

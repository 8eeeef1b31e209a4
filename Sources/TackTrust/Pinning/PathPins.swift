internal import TackX509
internal import TackDigest

/// The pins of a path's certificates, each computed once: SPKI pins always,
/// whole-certificate fingerprints only when the rule has such pins (the diagnostics and
/// the report; the verdict hashes only what its rule reads, ``matches(_:on:)``).
struct PathPins {
    let spki: [SPKIPin]
    let fingerprints: [CertificateFingerprint]
    /// The path's entries (its certificates and their references), the path's own array.
    let entries: [VerifiedPath.Entry]

    /// - Parameters:
    ///   - served, servedPins: Certificates whose SPKI pins are already known (what the
    ///     peer sent, and their pins): a path certificate among them (the same DER) is
    ///     not hashed again (e2e-*).
    init(_ path: VerifiedPath, rule: PinRule?, served: [Certificate] = [], servedPins: [SPKIPin] = []) {
        let entries = path.entries
        self.entries = entries
        if servedPins.count == entries.count, Self.isServed(entries, served) {
            // The path is what was served, in order (a chain sent with its root): the
            // same pins, the same array.
            spki = servedPins
        } else {
            spki = Self.digests(
                count: entries.count,
                known: { position in
                    served.firstIndex(of: entries[position].certificate).flatMap { $0 < servedPins.count ? servedPins[$0] : nil }
                },
                bytes: { entries[$0].certificate.spkiBytes }, wrap: SPKIPin.init(digest:))
        }
        let needsFingerprints = rule.map { !$0.caCertificates.isEmpty || !$0.leafCertificates.isEmpty } ?? false
        fingerprints = needsFingerprints
            ? Self.digests(
                count: entries.count, known: { _ in nil }, bytes: { entries[$0].certificate.derEncoded[...] },
                wrap: CertificateFingerprint.init(digest:))
            : []
    }

    /// The digests of the certificates at `positions` of `entries` (`bytes` of each), in
    /// one allocation: `[]` for an empty range.
    private static func digests<Pin>(
        of entries: [VerifiedPath.Entry], at positions: Range<Int>, bytes: (Certificate) -> ArraySlice<UInt8>,
        wrap: (SHA256Digest) -> Pin
    ) -> [Pin] {
        digests(
            count: positions.count, known: { _ in nil }, bytes: { bytes(entries[positions.lowerBound + $0].certificate) },
            wrap: wrap)
    }

    /// The positions of a path of `count` certificates whose pins of one kind a rule
    /// reads: the leaf (0) when `leaf`, the CA positions (1...) when `ca`, in one range
    /// (empty when neither).
    private static func positions(count: Int, leaf: Bool, ca: Bool) -> Range<Int> {
        let lower = leaf ? 0 : 1
        let upper = ca ? count : 1
        return lower..<max(lower, min(upper, count))
    }

    /// ``matches(_:)`` of `rule` on `path` (the same matches, in the same order, and the
    /// same `isSatisfied`; `PathPinsDifferentialTests`), hashing only what the rule reads:
    /// the CA positions' SPKIs only when it has CA identities, the leaf's only when it has
    /// leaf identities, whole certificates likewise by side (issue 35: a rule of CA pins
    /// never hashes the leaf, and nothing is hashed for the diagnostics or the report's
    /// pins, which ``PinEvaluation`` computes when they are read).
    static func matches(_ rule: PinRule, on path: VerifiedPath) -> Result {
        let entries = path.entries
        let spkiPositions = positions(count: entries.count, leaf: !rule.leafIdentities.isEmpty, ca: !rule.caIdentities.isEmpty)
        let spki = digests(of: entries, at: spkiPositions, bytes: { $0.spkiBytes }, wrap: SPKIPin.init(digest:))
        let fingerprintPositions = positions(
            count: entries.count, leaf: !rule.leafCertificates.isEmpty, ca: !rule.caCertificates.isEmpty)
        let fingerprints = digests(
            of: entries, at: fingerprintPositions, bytes: { $0.derEncoded[...] }, wrap: CertificateFingerprint.init(digest:))
        return result(
            of: rule, entries: entries,
            spki: { spki[$0 - spkiPositions.lowerBound] }, fingerprint: { fingerprints[$0 - fingerprintPositions.lowerBound] })
    }

    /// Whether the path's certificates are `served`, in order: compared by index, each
    /// entry's certificate read in place (a closure over the entries copied each whole,
    /// +10 retains per `e2e-*` verdict).
    private static func isServed(_ entries: [VerifiedPath.Entry], _ served: [Certificate]) -> Bool {
        guard entries.count == served.count else { return false }
        for index in entries.indices where entries[index].certificate != served[index] { return false }
        return true
    }

    /// The SPKI pin of each of `certificates`, in order, in one allocation (the
    /// result): those `known` returns are taken, the others hashed.
    static func spkiPins(of certificates: [Certificate], known: (Int) -> SPKIPin? = { _ in nil }) -> [SPKIPin] {
        digests(count: certificates.count, known: known, bytes: { certificates[$0].spkiBytes }, wrap: SPKIPin.init(digest:))
    }

    /// The SPKI pin of each certificate of a path's `entries`, in order, in one allocation.
    static func spkiPins(of entries: [VerifiedPath.Entry]) -> [SPKIPin] {
        digests(of: entries, at: entries.indices, bytes: { $0.spkiBytes }, wrap: SPKIPin.init(digest:))
    }

    /// `wrap` of the SHA-256 of `bytes(i)` for each `i` in `0..<count` (or `known(i)`), hashed two
    /// at a time with ``TackDigest/SHA256/hash(_:_:)`` (interleaved on SHA-NI, as
    /// `SHA256.hashes(of:)` does) without an array of messages: the result is the one
    /// allocation.
    private static func digests<Pin>(
        count: Int, known: (Int) -> Pin?, bytes: (Int) -> ArraySlice<UInt8>, wrap: (SHA256Digest) -> Pin
    ) -> [Pin] {
        guard count > 0 else { return [] }
        return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            var waiting: Int? = nil
            for position in 0..<count {
                if let digest = known(position) {
                    buffer.initializeElement(at: position, to: digest)
                    continue
                }
                guard let first = waiting else {
                    waiting = position
                    continue
                }
                waiting = nil
                let (a, b) = bytes(first).withUnsafeBytes { one in
                    bytes(position).withUnsafeBytes { two in SHA256.hash(one, two) }
                }
                buffer.initializeElement(at: first, to: wrap(a))
                buffer.initializeElement(at: position, to: wrap(b))
            }
            if let last = waiting { buffer.initializeElement(at: last, to: wrap(SHA256.hash(bytes(last)))) }
            initialized = count
        }
    }

    struct Result {
        var matches: [PinMatch]
        var isSatisfied: Bool
    }

    /// ATS semantics: CA lists match positions 1..., leaf lists position 0; one
    /// side's entries OR; both sides given, each needs a match (AND).
    func matches(_ rule: PinRule) -> Result {
        // An internal invariant: the pins were made for this rule (fingerprints when it has such pins).
        precondition(
            entries.isEmpty || !fingerprints.isEmpty || (rule.caCertificates.isEmpty && rule.leafCertificates.isEmpty),
            "the path's fingerprints for a rule with certificate pins")
        return Self.result(of: rule, entries: entries, spki: { spki[$0] }, fingerprint: { fingerprints[$0] })
    }

    /// The matches of `rule` and its verdict, given the pins of the path's positions that
    /// the rule reads (`spki` and `fingerprint` are asked for no other position).
    private static func result(
        of rule: PinRule, entries: [VerifiedPath.Entry], spki: (Int) -> SPKIPin, fingerprint: (Int) -> CertificateFingerprint
    ) -> Result {
        var count = 0
        forEachMatch(of: rule, entries: entries, spki: spki, fingerprint: fingerprint) { _ in count += 1 }
        var matches: [PinMatch] = []
        if count > 0 {
            matches.reserveCapacity(count)
            forEachMatch(of: rule, entries: entries, spki: spki, fingerprint: fingerprint) { matches.append($0) }
        }
        return Result(matches: matches, isSatisfied: isSatisfied(rule, matches: matches))
    }

    /// Whether `rule` holds on `path` (``matches(_:)``'s `isSatisfied`), for the chain
    /// builder's path preference, which asks this of each valid path: nothing is
    /// listed or kept, and a certificate is hashed only while its side of the rule
    /// has pins and no match yet (the leaf not at all under CA pins alone).
    static func isSatisfied(by rule: PinRule, on path: VerifiedPath) -> Bool {
        var caMatched = false
        var leafMatched = false
        for (position, entry) in path.entries.enumerated() {
            let certificate = entry.certificate
            let isLeaf = position == 0
            let pins = isLeaf ? rule.leafIdentities : rule.caIdentities
            let fingerprints = isLeaf ? rule.leafCertificates : rule.caCertificates
            guard !(isLeaf ? leafMatched : caMatched), !pins.isEmpty || !fingerprints.isEmpty else { continue }
            let matched = (!pins.isEmpty && pins.contains(SPKIPin(certificate)))
                || (!fingerprints.isEmpty && fingerprints.contains(certificate.fingerprint))
            if matched {
                if isLeaf { leafMatched = true } else { caMatched = true }
            }
        }
        return holds(rule, caMatched: caMatched, leafMatched: leafMatched)
    }

    private static func isSatisfied(_ rule: PinRule, matches: [PinMatch]) -> Bool {
        Self.holds(rule, caMatched: matches.contains { !$0.list.isLeafList }, leafMatched: matches.contains { $0.list.isLeafList })
    }

    /// A side without pins holds; a rule without pins (refused by validation) holds nothing.
    private static func holds(_ rule: PinRule, caMatched: Bool, leafMatched: Bool) -> Bool {
        (rule.hasCAPins || rule.hasLeafPins) && (!rule.hasCAPins || caMatched) && (!rule.hasLeafPins || leafMatched)
    }

    /// Calls `body` with each match of `rule`'s pins on the path of `entries`, in list
    /// order: CA lists against positions 1..., leaf lists against position 0, each pin read
    /// through `spki` or `fingerprint` (only for a list that has pins).
    private static func forEachMatch(
        of rule: PinRule, entries: [VerifiedPath.Entry], spki: (Int) -> SPKIPin, fingerprint: (Int) -> CertificateFingerprint,
        _ body: (PinMatch) -> Void
    ) {
        let caPositions = 1..<max(1, entries.count)
        for (entry, pin) in rule.caIdentities.enumerated() {
            for position in caPositions where spki(position) == pin {
                body(PinMatch(list: .caIdentities, entry: entry, pathIndex: position, certificate: entries[position].reference))
            }
        }
        for (entry, pinned) in rule.caCertificates.enumerated() {
            for position in caPositions where fingerprint(position) == pinned {
                body(PinMatch(list: .caCertificates, entry: entry, pathIndex: position, certificate: entries[position].reference))
            }
        }
        guard !entries.isEmpty else { return }
        for (entry, pin) in rule.leafIdentities.enumerated() where spki(0) == pin {
            body(PinMatch(list: .leafIdentities, entry: entry, pathIndex: 0, certificate: entries[0].reference))
        }
        for (entry, pinned) in rule.leafCertificates.enumerated() where fingerprint(0) == pinned {
            body(PinMatch(list: .leafCertificates, entry: entry, pathIndex: 0, certificate: entries[0].reference))
        }
    }
}

internal import TackX509
internal import TackDigest

/// The pins of a path's certificates, each computed once: SPKI pins always,
/// whole-certificate fingerprints only when the rule has such pins.
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
        var count = 0
        forEachMatch(of: rule) { _ in count += 1 }
        var matches: [PinMatch] = []
        if count > 0 {
            matches.reserveCapacity(count)
            forEachMatch(of: rule) { matches.append($0) }
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

    private func isSatisfied(_ rule: PinRule, matches: [PinMatch]) -> Bool {
        Self.holds(rule, caMatched: matches.contains { !$0.list.isLeafList }, leafMatched: matches.contains { $0.list.isLeafList })
    }

    /// A side without pins holds; a rule without pins (refused by validation) holds nothing.
    private static func holds(_ rule: PinRule, caMatched: Bool, leafMatched: Bool) -> Bool {
        (rule.hasCAPins || rule.hasLeafPins) && (!rule.hasCAPins || caMatched) && (!rule.hasLeafPins || leafMatched)
    }

    /// Calls `body` with each match of `rule`'s pins on the path, in list order.
    private func forEachMatch(of rule: PinRule, _ body: (PinMatch) -> Void) {
        for (entry, pin) in rule.caIdentities.enumerated() {
            for position in spki.indices.dropFirst() where spki[position] == pin {
                body(PinMatch(list: .caIdentities, entry: entry, pathIndex: position, certificate: entries[position].reference))
            }
        }
        for (entry, fingerprint) in rule.caCertificates.enumerated() {
            for position in fingerprints.indices.dropFirst() where fingerprints[position] == fingerprint {
                body(PinMatch(list: .caCertificates, entry: entry, pathIndex: position, certificate: entries[position].reference))
            }
        }
        for (entry, pin) in rule.leafIdentities.enumerated() where spki.first == pin {
            body(PinMatch(list: .leafIdentities, entry: entry, pathIndex: 0, certificate: entries[0].reference))
        }
        for (entry, fingerprint) in rule.leafCertificates.enumerated() where fingerprints.first == fingerprint {
            body(PinMatch(list: .leafCertificates, entry: entry, pathIndex: 0, certificate: entries[0].reference))
        }
    }
}

internal import TackX509
internal import TackSHA2

/// The pins of a path's certificates, each computed once: SPKI pins always,
/// whole-certificate fingerprints only when the rule has such pins.
struct PathPins {
    let spki: [SPKIPin]
    let fingerprints: [CertificateFingerprint]
    let references: [CertificateReference]

    /// - Parameters:
    ///   - served, servedPins: Certificates whose SPKI pins are already known (what the
    ///     peer sent, and their pins): a path certificate among them (the same DER) is
    ///     not hashed again (e2e-*).
    init(_ path: VerifiedPath, rule: PinRule?, served: [Certificate] = [], servedPins: [SPKIPin] = []) {
        let certificates = path.certificates
        references = path.references
        var known: [SPKIPin?] = certificates.map { certificate in
            served.firstIndex(of: certificate).flatMap { $0 < servedPins.count ? servedPins[$0] : nil }
        }
        // The other SPKIs (and the certificates) hashed together: SHA256.hashes(of:)
        // interleaves two messages at a time on SHA-NI (sha256-hw-x4-294).
        let missing = known.indices.filter { known[$0] == nil }
        if !missing.isEmpty {
            let digests = SHA256.hashes(of: missing.map { certificates[$0].spkiBytes })
            for (position, digest) in zip(missing, digests) { known[position] = SPKIPin(digest: digest) }
        }
        spki = known.compactMap { $0 }
        let needsFingerprints = rule.map { !$0.caCertificates.isEmpty || !$0.leafCertificates.isEmpty } ?? false
        fingerprints = needsFingerprints ? SHA256.hashes(of: certificates.map { $0.derEncoded[...] }).map(CertificateFingerprint.init(digest:)) : []
    }

    struct Result {
        var matches: [PinMatch]
        var isSatisfied: Bool
    }

    /// ATS semantics: CA lists match positions 1..., leaf lists position 0; one
    /// side's entries OR; both sides given, each needs a match (AND).
    func matches(_ rule: PinRule) -> Result {
        var matches: [PinMatch] = []
        for (entry, pin) in rule.caIdentities.enumerated() {
            for position in spki.indices.dropFirst() where spki[position] == pin {
                matches.append(PinMatch(list: .caIdentities, entry: entry, pathIndex: position, certificate: references[position]))
            }
        }
        for (entry, fingerprint) in rule.caCertificates.enumerated() {
            for position in fingerprints.indices.dropFirst() where fingerprints[position] == fingerprint {
                matches.append(PinMatch(list: .caCertificates, entry: entry, pathIndex: position, certificate: references[position]))
            }
        }
        for (entry, pin) in rule.leafIdentities.enumerated() where spki.first == pin {
            matches.append(PinMatch(list: .leafIdentities, entry: entry, pathIndex: 0, certificate: references[0]))
        }
        for (entry, fingerprint) in rule.leafCertificates.enumerated() where fingerprints.first == fingerprint {
            matches.append(PinMatch(list: .leafCertificates, entry: entry, pathIndex: 0, certificate: references[0]))
        }
        let caHolds = !rule.hasCAPins || matches.contains { !$0.list.isLeafList }
        let leafHolds = !rule.hasLeafPins || matches.contains { $0.list.isLeafList }
        // A rule without pins (refused by validation) holds nothing.
        let isSatisfied = (rule.hasCAPins || rule.hasLeafPins) && caHolds && leafHolds
        return Result(matches: matches, isSatisfied: isSatisfied)
    }
}

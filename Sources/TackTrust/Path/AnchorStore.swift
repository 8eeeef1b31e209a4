public import TackDER
public import TackX509
internal import TackDigest
internal import TackSignature

/// A set of trust anchors, indexed by subject name and subject key identifier so
/// that finding the issuer candidates of a certificate never scans the store.
///
/// Every certificate added is an anchor, self-signed or not (its name and key are
/// what is trusted; RFC 5280 §6.1.1 (d)). The two anchor modes of Apple's
/// platform map to building a store from your certificates only
/// (`SecTrustSetAnchorCertificates`) or ``merging(_:)`` it with the system's
/// (`SecTrustSetAnchorCertificatesOnly(false)`).
///
/// Lookups use sorted indexes built as anchors are added, each searched by
/// bisection (a few comparisons for a system store's hundred-odd anchors; sorted
/// arrays rather than dictionaries, so that a firmware image links no hashing code
/// for them: issue 36):
/// - subject name, by TackX509's `DistinguishedName.matchHash` (computed in place,
///   no allocation): two names that match under RFC 5280 §7.1 share it, so the
///   issuer candidates of a certificate are one search for its issuer's hash,
///   confirmed by comparing the names (`DistinguishedName.matches(_:)`);
/// - subject key identifier (RFC 5280 §4.2.1.2), for callers that hold an
///   authority key identifier;
/// - the DER encoding, for dropping duplicates and finding a certificate.
///
/// An anchor whose subject name does not decode is kept (it is still counted and
/// listed) but cannot be found by name.
///
/// Each anchor has an ``Origin``: added by the user or the application (the default),
/// or from the system's trust store. Apple's platform tells them apart: its 398-day
/// limit on TLS server certificates (``TrustProfile/apple``) applies only under a
/// system anchor.
public struct AnchorStore: Sendable {
    /// Where an anchor comes from.
    public enum Origin: Sendable, Hashable {
        /// Added by the user or the application (`SecTrustSetAnchorCertificates`, a
        /// configuration profile, `--roots`).
        case user
        /// From the system's trust store (`--system-roots`, the system CA bundle).
        case system
    }

    /// The anchors, in insertion order; ``CertificateReference/anchor(index:)`` indexes this.
    public private(set) var certificates: [Certificate] = []
    /// The origin of each anchor, by index into ``certificates``.
    public private(set) var origins: [Origin] = []

    /// Anchor indexes by the match hash of their subject name, in increasing hash order.
    private var bySubject: [(hash: Int, indexes: [Int])] = []
    /// Each anchor's subject name, decoded once (`nil` when it does not decode).
    private var subjects: [DistinguishedName?] = []
    /// Anchor indexes by subject key identifier, in ``AnchorStore/order(_:_:)``'s order
    /// of the identifiers.
    private var byKeyIdentifier: [(identifier: [UInt8], indexes: [Int])] = []
    /// Every anchor's index, in ``AnchorStore/order(_:_:)``'s order of their DER (for
    /// dropping duplicates and ``index(of:)``).
    private var byEncoding: [Int] = []
    /// The store's content identity, for ``VerificationCache`` keys: SHA-256 chained
    /// over the anchors in insertion order (`SHA-256(previous ‖ SHA-256(DER))`, from
    /// the digest of nothing), so two stores holding the same anchors in the same order
    /// share it and any other store differs; a system anchor's link also hashes one
    /// octet 0x01 after its digest, so stores differing only in origins differ. Kept
    /// up to date by ``add(_:origin:)``.
    internal private(set) var identity = SHA256.hash([UInt8]())
    /// Each anchor's verification key (or why it cannot be prepared), by index,
    /// prepared once when the anchor is added, so that no verdict prepares an anchor's
    /// key again (for RSA, the Montgomery constants; trust-rsa2048-chain).
    internal private(set) var preparedKeys: [Result<SignatureVerificationKey, SignatureError>] = []

    /// Creates an empty store.
    public init() {}

    /// Creates a store holding `certificates` (duplicates dropped).
    ///
    /// - Parameters:
    ///   - certificates: The anchors, in order (duplicates are kept once).
    ///   - origin: Where they come from; ``Origin/user`` by default.
    public init(_ certificates: [Certificate], origin: Origin = .user) {
        for certificate in certificates { add(certificate, origin: origin) }
    }

    /// Creates a store from a PEM bundle (such as `/etc/ssl/certs/ca-certificates.crt`),
    /// strictly: every block must be a `CERTIFICATE` (or OpenSSL's `TRUSTED CERTIFICATE`
    /// label is refused too: its trailing trust settings are not a certificate) that
    /// parses.
    ///
    /// - Parameters:
    ///   - pemBundle: The bundle's bytes.
    ///   - origin: Where its anchors come from; ``Origin/user`` by default.
    /// - Throws: ``AnchorStoreError`` for the first broken entry, with its offset.
    public init<Bytes: Collection<UInt8>>(pemBundle: Bytes, origin: Origin = .user) throws(AnchorStoreError) {
        var skipped: [AnchorStoreError] = []
        try self.init(pemBundle: pemBundle, origin: origin, skippingMalformed: false, skipped: &skipped)
    }

    /// Creates a store from a PEM bundle, skipping and reporting the entries that
    /// are not certificates Tack parses, as a system bundle may hold (an unusual
    /// label, a certificate with a form Tack refuses).
    ///
    /// A PEM structure error (an unterminated block, broken Base64) still throws:
    /// the file is damaged, and reading it as fewer anchors without a word would
    /// hide that.
    ///
    /// - Parameters:
    ///   - pemBundle: The bundle's bytes.
    ///   - origin: Where its anchors come from; ``Origin/user`` by default.
    ///   - skipped: Receives one ``AnchorStoreError`` per skipped entry, in file order.
    /// - Throws: ``AnchorStoreError/pem(_:)`` for a damaged file.
    public init<Bytes: Collection<UInt8>>(
        pemBundle: Bytes, origin: Origin = .user, skipped: inout [AnchorStoreError]
    ) throws(AnchorStoreError) {
        try self.init(pemBundle: pemBundle, origin: origin, skippingMalformed: true, skipped: &skipped)
    }

    private init<Bytes: Collection<UInt8>>(
        pemBundle: Bytes, origin: Origin, skippingMalformed: Bool, skipped: inout [AnchorStoreError]
    ) throws(AnchorStoreError) {
        let blocks: [PEMBlock]
        do {
            blocks = try PEM.parse(pemBundle)
        } catch {
            throw .pem(error)
        }
        for block in blocks {
            let problem: AnchorStoreError
            if block.label == "CERTIFICATE" {
                do {
                    add(try Certificate(derEncoded: block.bytes), origin: origin)
                    continue
                } catch {
                    problem = .malformedCertificate(offset: block.offset, error)
                }
            } else {
                problem = .notACertificate(offset: block.offset)
            }
            guard skippingMalformed else { throw problem }
            skipped.append(problem)
        }
    }

    /// Adds an anchor (a certificate already present is not added twice, and keeps
    /// the origin it was first added with).
    ///
    /// - Parameters:
    ///   - certificate: The anchor to add.
    ///   - origin: Where it comes from; ``Origin/user`` by default.
    public mutating func add(_ certificate: Certificate, origin: Origin = .user) {
        add(certificate, origin: origin, preparedKey: nil)
    }

    /// ``add(_:origin:)`` reusing a key already prepared for `certificate` (by another store).
    private mutating func add(
        _ certificate: Certificate, origin: Origin, preparedKey: Result<SignatureVerificationKey, SignatureError>?
    ) {
        let place = position(of: certificate.derEncoded)
        guard !place.found else { return }
        let index = certificates.count
        byEncoding.insert(index, at: place.position)
        certificates.append(certificate)
        origins.append(origin)
        if let preparedKey {
            preparedKeys.append(preparedKey)
        } else {
            do {
                preparedKeys.append(.success(try SignatureVerificationKey(certificate.publicKeyInfo)))
            } catch {
                preparedKeys.append(.failure(error))
            }
        }
        var link = Array(identity)
        link.append(contentsOf: SHA256.hash(certificate.derEncoded))
        if origin == .system { link.append(0x01) }
        identity = SHA256.hash(link)
        let subject = try? certificate.subject
        subjects.append(subject)
        if let subject {
            let hash = subject.matchHash
            let place = Self.firstPosition(bySubject.count) { bySubject[$0].hash < hash }
            if place < bySubject.count, bySubject[place].hash == hash {
                bySubject[place].indexes.append(index)
            } else {
                bySubject.insert((hash, [index]), at: place)
            }
        }
        if let identifier = try? certificate.subjectKeyIdentifier {
            let bytes = Array(identifier.keyIdentifier)
            let place = Self.firstPosition(byKeyIdentifier.count) { Self.order(byKeyIdentifier[$0].identifier, bytes) < 0 }
            if place < byKeyIdentifier.count, Self.order(byKeyIdentifier[place].identifier, bytes) == 0 {
                byKeyIdentifier[place].indexes.append(index)
            } else {
                byKeyIdentifier.insert((bytes, [index]), at: place)
            }
        }
    }

    /// Where `certificate`'s DER is in ``byEncoding``, or would be inserted, and whether
    /// it is there.
    private func position(of der: [UInt8]) -> (position: Int, found: Bool) {
        let place = Self.firstPosition(byEncoding.count) { Self.order(certificates[byEncoding[$0]].derEncoded, der) < 0 }
        return (place, place < byEncoding.count && Self.order(certificates[byEncoding[place]].derEncoded, der) == 0)
    }

    /// The first of `count` sorted positions for which `isBefore` is false (`count`
    /// when there is none): a bisection.
    static func firstPosition(_ count: Int, isBefore: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A total order on octet strings that two certificates' DER settles quickly:
    /// shorter first, then octet by octet from the end (a certificate's last octets
    /// are its signature's, which differ between any two certificates an issuer
    /// signs). Negative, zero or positive as `a` comes before, equals or follows `b`.
    ///
    /// Equal runs are skipped eight octets at a time (issue 35: a served copy of an anchor,
    /// found in every verdict of a chain sent with its root, was compared octet by octet);
    /// the first differing octet decides, as octet by octet.
    static func order(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                // One storage (a served copy of an anchor is the anchor's value): equal.
                if left.baseAddress == right.baseAddress { return 0 }
                var index = left.count
                while index >= 8,
                      left.loadUnaligned(fromByteOffset: index - 8, as: UInt64.self)
                        == right.loadUnaligned(fromByteOffset: index - 8, as: UInt64.self) {
                    index -= 8
                }
                while index > 0 {
                    index -= 1
                    if left[index] != right[index] { return left[index] < right[index] ? -1 : 1 }
                }
                return 0
            }
        }
    }

    /// The number of anchors.
    public var count: Int { certificates.count }

    /// Whether `certificate` (the same DER) is an anchor of this store.
    ///
    /// - Parameter certificate: The certificate to look for (DER equality).
    /// - Returns: Whether it is an anchor.
    public func contains(_ certificate: Certificate) -> Bool { position(of: certificate.derEncoded).found }

    /// The index of `certificate` (the same DER) in ``certificates``, or `nil`.
    ///
    /// - Parameter certificate: The certificate to look for (DER equality).
    /// - Returns: Its index in the store, or `nil`.
    public func index(of certificate: Certificate) -> Int? { index(ofEncoding: certificate.derEncoded) }

    /// The index in ``certificates`` of the anchor whose DER is `der`, or `nil`: for
    /// served bytes not parsed yet.
    func index(ofEncoding der: [UInt8]) -> Int? {
        let place = position(of: der)
        return place.found ? byEncoding[place.position] : nil
    }

    /// The indexes (into ``certificates``) of the anchors whose subject matches
    /// `name` under RFC 5280 §7.1: the candidates to have issued a certificate
    /// whose issuer is `name`.
    ///
    /// - Parameter name: The issuer name looked for.
    /// - Returns: The indexes of the anchors with that subject.
    public func anchors(subjectMatching name: DistinguishedName) -> [Int] {
        let hash = name.matchHash
        let place = Self.firstPosition(bySubject.count) { bySubject[$0].hash < hash }
        guard place < bySubject.count, bySubject[place].hash == hash else { return [] }
        let sharing = bySubject[place].indexes
        // The anchors whose subjects share the hash are nearly always exactly those that
        // match (then the stored list is returned: no allocation); a collision is
        // filtered out.
        // (Loops, not a closure over `self`: that copied the store, a retain per table.)
        var allMatch = true
        for index in sharing where !(subjects[index]?.matches(name) ?? false) { allMatch = false }
        if allMatch { return sharing }
        var matching: [Int] = []
        for index in sharing where subjects[index]?.matches(name) ?? false { matching.append(index) }
        return matching
    }

    /// The indexes (into ``certificates``) of the anchors whose subject key
    /// identifier is `keyIdentifier`.
    ///
    /// - Parameter keyIdentifier: The authority key identifier looked for.
    /// - Returns: The indexes of the anchors with that subject key identifier.
    public func anchors<Bytes: Collection<UInt8>>(keyIdentifier: Bytes) -> [Int] {
        let bytes = Array(keyIdentifier)
        let place = Self.firstPosition(byKeyIdentifier.count) { Self.order(byKeyIdentifier[$0].identifier, bytes) < 0 }
        guard place < byKeyIdentifier.count, Self.order(byKeyIdentifier[place].identifier, bytes) == 0 else { return [] }
        return byKeyIdentifier[place].indexes
    }

    /// This store's anchors followed by `other`'s (duplicates dropped): "your
    /// anchors plus the system's" (`SecTrustSetAnchorCertificatesOnly(false)`).
    /// Indexes of this store's anchors are unchanged in the result, and every anchor
    /// keeps its origin (an anchor in both keeps this store's).
    ///
    /// - Parameter other: The anchors to add after these.
    /// - Returns: The union, these anchors first.
    public func merging(_ other: AnchorStore) -> AnchorStore {
        var merged = self
        for (index, certificate) in other.certificates.enumerated() {
            merged.add(
                certificate, origin: other.origins[index],
                preparedKey: index < other.preparedKeys.count ? other.preparedKeys[index] : nil)
        }
        return merged
    }
}

/// Why a PEM bundle could not be loaded into an ``AnchorStore``, or why one of its
/// entries was skipped.
public enum AnchorStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The PEM text is damaged (RFC 7468).
    case pem(PEMError)
    /// A `CERTIFICATE` block at `offset` (of its BEGIN line) does not parse.
    case malformedCertificate(offset: Int, X509Error)
    /// A block at `offset` has a label other than `CERTIFICATE`.
    case notACertificate(offset: Int)

    /// One line a person can act on.
    public var description: String {
        switch self {
        case .pem(let error): return "damaged PEM bundle: \(error)"
        case .malformedCertificate(let offset, let error): return "certificate at offset \(offset) does not parse: \(error)"
        case .notACertificate(let offset): return "PEM block at offset \(offset) is not a CERTIFICATE"
        }
    }
}

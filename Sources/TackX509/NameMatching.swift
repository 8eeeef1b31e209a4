import TackDER

// Name comparison for chain building (RFC 5280 §7.1).
//
// RFC 5280 §7.1 asks for the LDAP StringPrep profile of RFC 4518 (transcoding,
// mapping with case folding, NFKC normalisation, prohibited characters, bidi, and
// insignificant-space handling) before comparing DirectoryString values. Tack
// implements this subset, which is what OpenSSL's `X509_NAME_cmp` canonical form
// does too:
//
// - transcode: every directory string type (UTF8String, PrintableString,
//   TeletexString read as ISO 8859-1, BMPString, UniversalString, IA5String,
//   VisibleString, NumericString) is decoded to Unicode scalars, so the same text
//   in two string types matches;
// - map: ASCII letters are case-folded (A-Z to a-z), and the ASCII whitespace
//   characters TAB, LF, VT, FF and CR map to SPACE (RFC 4518 §2.2 maps them so);
// - insignificant space handling (RFC 4518 §2.6.1): leading and trailing spaces
//   are removed and each inner run of spaces becomes a single space.
//
// Not implemented: case folding outside ASCII (RFC 3454 table B.2), NFKC
// normalisation, the "mapped to nothing" characters (soft hyphen, zero-width
// joiners, ...), and the prohibited-character and bidi checks. Two names that
// differ only in those respects do not match; a CA that relied on them would be
// non-conforming in practice (RFC 5280 §7.1 notes that CAs should encode names
// identically in issuer and subject).
//
// Values that are not strings are compared by their complete encodings.

extension DistinguishedName {
    /// Whether this name matches `other` under RFC 5280 §7.1: byte-identical
    /// encodings, or the same number of RDNs that match pairwise in order, where
    /// two RDNs match when they have the same number of attributes and each
    /// attribute of one matches a distinct attribute of the other (set equality),
    /// and two attributes match when their types are equal and their values are
    /// equal after string preparation (see the discussion below).
    ///
    /// String preparation here is a documented subset of RFC 4518: ASCII case
    /// folding, mapping of ASCII whitespace to space, removal of leading and
    /// trailing spaces and collapsing of inner runs of spaces, applied to every
    /// directory string type after decoding it to Unicode (so a PrintableString
    /// and a UTF8String with the same text match). Non-ASCII case folding and NFKC
    /// normalisation are not performed. Values that are not strings match only
    /// when their encodings are identical.
    ///
    /// The comparison allocates nothing.
    ///
    /// - Parameter other: The name to compare with, typically a subject against
    ///   an issuer.
    /// - Returns: `true` if the names match.
    public func matches(_ other: DistinguishedName) -> Bool {
        if self == other { return true }
        guard count == other.count else { return false }
        return DistinguishedName.prefixMatches(self, other, length: count)
    }

    /// Whether this name lies within the subtree rooted at `base` (RFC 5280 §7.1,
    /// used by directoryName name constraints, §4.2.1.10): it has at least as many
    /// RDNs as `base`, and its first `base.count` RDNs match those of `base` as in
    /// ``matches(_:)``.
    ///
    /// - Parameter base: The root of the subtree.
    /// - Returns: `true` if this name is `base` or below it. Every name is within
    ///   the subtree of the empty name.
    public func isWithinSubtree(of base: DistinguishedName) -> Bool {
        guard count >= base.count else { return false }
        return DistinguishedName.prefixMatches(base, self, length: base.count)
    }

    /// Whether the first `length` RDNs of `lhs` and `rhs` match pairwise.
    private static func prefixMatches(_ lhs: DistinguishedName, _ rhs: DistinguishedName, length: Int) -> Bool {
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        for _ in 0..<length {
            guard let a = left.next(), let b = right.next() else { return false }
            guard a.matches(b) else { return false }
        }
        return true
    }
}

extension RelativeDistinguishedName {
    /// Whether this RDN matches `other` under RFC 5280 §7.1: the same number of
    /// attributes, each matching a distinct attribute of the other (the order of
    /// the members of a multi-valued RDN does not matter).
    ///
    /// - Parameter other: The RDN to compare with.
    /// - Returns: `true` if the RDNs match.
    public func matches(_ other: RelativeDistinguishedName) -> Bool {
        if self == other { return true }
        var leftCount = 0
        var single: Attribute? = nil
        for attribute in self {
            leftCount += 1
            single = attribute
        }
        guard leftCount == other.count else { return false }
        if leftCount == 1 {
            var iterator = other.makeIterator()
            guard let single, let theirs = iterator.next() else { return false }
            return single.matches(theirs)
        }
        // Set equality: each attribute of self takes one unused attribute of other.
        // Both RDNs have at most DistinguishedName.maximumAttributesPerRDN (32)
        // attributes, so a 64-bit mask tracks the used ones.
        var used: UInt64 = 0
        for mine in self {
            var found = false
            var position = 0
            for theirs in other {
                defer { position += 1 }
                guard position < 64, used & (1 << UInt64(position)) == 0 else { continue }
                if mine.matches(theirs) {
                    used |= 1 << UInt64(position)
                    found = true
                    break
                }
            }
            guard found else { return false }
        }
        return true
    }
}

extension RelativeDistinguishedName.Attribute {
    /// Whether this attribute matches `other` under RFC 5280 §7.1: equal types and
    /// values equal after the string preparation described in
    /// ``DistinguishedName/matches(_:)``; values that are not strings must have
    /// identical encodings.
    ///
    /// - Parameter other: The attribute to compare with.
    /// - Returns: `true` if they match.
    // Called, not inlined: RelativeDistinguishedName.matches(_:) compares in two
    // places (a single attribute, the members of a multi-valued RDN), and inlined the
    // string preparation was copied into both (issue 36).
    @inline(never)
    public func matches(_ other: RelativeDistinguishedName.Attribute) -> Bool {
        matches(other, octetwise: true)
    }

    /// ``matches(_:)``; `octetwise: false` compares every pair of strings by the scalar
    /// iterator (the general path, for testing the octet-by-octet one against it).
    internal func matches(_ other: RelativeDistinguishedName.Attribute, octetwise: Bool) -> Bool {
        guard type == other.type else { return false }
        guard let kind = stringKind, let otherKind = other.stringKind else {
            return encodingsEqual(storage, valueElement.encodedRange, other.storage, other.valueElement.encodedRange)
        }
        return storage.withUnsafeBufferPointer { mine in
            other.storage.withUnsafeBufferPointer { theirs in
                // Two strings whose prepared texts are equal exactly when their prepared
                // octets are (see PreparedOctets) are compared octet by octet.
                if octetwise, PreparedOctets.comparable(kind, otherKind) {
                    var left = PreparedOctets(UnsafeBufferPointer(rebasing: mine[valueElement.contentRange]))
                    var right = PreparedOctets(UnsafeBufferPointer(rebasing: theirs[other.valueElement.contentRange]))
                    while true {
                        let a = left.next()
                        guard a == right.next() else { return false }
                        if a == nil { return true }
                    }
                }
                var left = PreparedScalars(UnsafeBufferPointer(rebasing: mine[valueElement.contentRange]), kind: kind)
                var right = PreparedScalars(UnsafeBufferPointer(rebasing: theirs[other.valueElement.contentRange]), kind: otherKind)
                while true {
                    let a = left.next()
                    let b = right.next()
                    if a != b { return false }
                    if a == nil { return true }
                }
            }
        }
    }
}

/// The Unicode scalars of a checked directory string after Tack's string
/// preparation: ASCII case folding, ASCII whitespace mapped to space, leading and
/// trailing spaces removed, inner runs of spaces collapsed.
internal struct PreparedScalars: IteratorProtocol {
    private var raw: RawScalars
    /// Whether a space run was seen after some non-space scalar.
    private var pendingSpace = false
    /// Whether a non-space scalar has been produced.
    private var started = false
    /// A scalar read ahead while emitting a pending space.
    private var buffered: Unicode.Scalar? = nil

    init(_ contents: UnsafeBufferPointer<UInt8>, kind: DERStringKind) {
        raw = RawScalars(contents: contents, kind: kind)
    }

    mutating func next() -> Unicode.Scalar? {
        if let scalar = buffered {
            buffered = nil
            return scalar
        }
        while let scalar = raw.next() {
            switch scalar.value {
            case 0x20, 0x09...0x0D:
                if started { pendingSpace = true }
            case 0x41...0x5A:
                return emit(Unicode.Scalar(UInt8(truncatingIfNeeded: scalar.value + 0x20)))
            default:
                return emit(scalar)
            }
        }
        // Trailing spaces are dropped with the pending flag.
        return nil
    }

    private mutating func emit(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        started = true
        if pendingSpace {
            pendingSpace = false
            buffered = scalar
            return " "
        }
        return scalar
    }
}

/// The octets of a checked directory string after the string preparation of
/// ``PreparedScalars``, applied to octets: ASCII case folding and whitespace mapping,
/// leading and trailing spaces removed, inner runs collapsed. An octet above 0x7F is
/// passed as it is: in UTF-8 it is part of a multi-octet scalar, which the preparation
/// leaves alone, so two UTF-8 strings' prepared octets are the UTF-8 encodings of
/// their prepared scalars; in the single-octet types it is the scalar itself.
internal struct PreparedOctets {
    private let contents: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Whether a space run was seen after some other octet.
    private var pendingSpace = false
    /// Whether an octet other than a space has been produced.
    private var started = false

    init(_ contents: UnsafeBufferPointer<UInt8>) {
        self.contents = contents
    }

    /// Whether the prepared octets of strings of these two types are equal exactly
    /// when their prepared scalars are: both UTF-8, both of single-octet types, or
    /// UTF-8 and one of the ASCII-only types (whose octets are below 0x80, as a UTF-8
    /// octet that starts or continues a multi-octet scalar is not). Not BMPString or
    /// UniversalString, nor UTF-8 against TeletexString (Latin-1 above 0x7F).
    static func comparable(_ a: DERStringKind, _ b: DERStringKind) -> Bool {
        switch (a, b) {
        case (.bmp, _), (_, .bmp), (.universal, _), (_, .universal): return false
        case (.utf8, .teletex), (.teletex, .utf8): return false
        default: return true
        }
    }

    mutating func next() -> UInt8? {
        while index < contents.count {
            let octet = contents[index]
            switch octet {
            case 0x20, 0x09...0x0D:
                if started { pendingSpace = true }
                index += 1
            default:
                started = true
                if pendingSpace {
                    // The octet is read again on the next call.
                    pendingSpace = false
                    return 0x20
                }
                index += 1
                return octet &- 0x41 < 26 ? octet &+ 0x20 : octet
            }
        }
        // Trailing spaces are dropped with the pending flag.
        return nil
    }
}

/// The Unicode scalars of a checked directory string, decoded per its type.
internal struct RawScalars: IteratorProtocol {
    private let contents: UnsafeBufferPointer<UInt8>
    private let kind: DERStringKind
    private var index = 0
    private var utf8: UnsafeBufferPointer<UInt8>.Iterator
    private var decoder = Unicode.UTF8()

    init(contents: UnsafeBufferPointer<UInt8>, kind: DERStringKind) {
        self.contents = contents
        self.kind = kind
        self.utf8 = contents.makeIterator()
    }

    mutating func next() -> Unicode.Scalar? {
        switch kind {
        case .utf8:
            switch decoder.decode(&utf8) {
            case .scalarValue(let scalar): return scalar
            case .emptyInput, .error: return nil
            }
        case .printable, .ia5, .numeric, .visible, .teletex:
            guard index < contents.count else { return nil }
            defer { index += 1 }
            return Unicode.Scalar(contents[index])
        case .bmp:
            guard contents.count - index >= 2 else { return nil }
            defer { index += 2 }
            return Unicode.Scalar(UInt32(contents[index]) << 8 | UInt32(contents[index + 1]))
        case .universal:
            guard contents.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for k in 0..<4 { value = value << 8 | UInt32(contents[index + k]) }
            index += 4
            return Unicode.Scalar(value)
        }
    }
}

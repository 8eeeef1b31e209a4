// Where a certificate's extensions are: what the parse records of each (8 bytes:
// where it ends, where its value starts, which extension it is, its critical flag),
// inline for the usual dozen, so that parsing a certificate allocates nothing
// (issue 35: the `[Extension]` list was one allocation per certificate, three per
// `e2e-rsa2048` verdict). `Certificate.extensions` is a view built from it;
// `DecodedExtensions` and the typed accessors dispatch on the recorded kind.

import TackDER

/// Which extension an identifier names: one of those Tack decodes.
enum KnownExtension: UInt8 {
    case subjectKeyIdentifier, authorityKeyIdentifier, basicConstraints, keyUsage, extendedKeyUsage
    case subjectAlternativeNames, issuerAlternativeNames, certificatePolicies, crlDistributionPoints
    case nameConstraints, policyMappings, policyConstraints, inhibitAnyPolicy
    case authorityInformationAccess, signedCertificateTimestamps, tlsFeature

    /// The extension `oid` names, or `nil` if Tack does not decode it.
    ///
    /// The id-ce extensions (2.5.29.n, contents `55 1D n`) are told apart by their
    /// last octet; the three others are compared with their types' `oid` constants.
    @inline(__always)
    init?(_ oid: borrowing OID) {
        let known = oid.withContents { (contents) -> KnownExtension? in
            if contents.count == 3 {
                guard contents[0] == 0x55, contents[1] == 0x1D else { return nil }
                switch contents[2] {
                case 14: return .subjectKeyIdentifier
                case 35: return .authorityKeyIdentifier
                case 19: return .basicConstraints
                case 15: return .keyUsage
                case 37: return .extendedKeyUsage
                case 17: return .subjectAlternativeNames
                case 18: return .issuerAlternativeNames
                case 32: return .certificatePolicies
                case 31: return .crlDistributionPoints
                case 30: return .nameConstraints
                case 33: return .policyMappings
                case 36: return .policyConstraints
                case 54: return .inhibitAnyPolicy
                default: return nil
                }
            }
            return nil
        }
        if let known {
            self = known
        } else if oid == AuthorityInformationAccess.oid {
            self = .authorityInformationAccess
        } else if oid == SignedCertificateTimestampList.oid {
            self = .signedCertificateTimestamps
        } else if oid == TLSFeature.oid {
            self = .tlsFeature
        } else {
            return nil
        }
    }

    /// The extension's identifier.
    var oid: OID {
        switch self {
        case .subjectKeyIdentifier: SubjectKeyIdentifier.oid
        case .authorityKeyIdentifier: AuthorityKeyIdentifier.oid
        case .basicConstraints: BasicConstraints.oid
        case .keyUsage: KeyUsage.oid
        case .extendedKeyUsage: ExtendedKeyUsage.oid
        case .subjectAlternativeNames: SubjectAlternativeNames.oid
        case .issuerAlternativeNames: IssuerAlternativeNames.oid
        case .certificatePolicies: CertificatePolicies.oid
        case .crlDistributionPoints: CRLDistributionPoints.oid
        case .nameConstraints: NameConstraints.oid
        case .policyMappings: PolicyMappings.oid
        case .policyConstraints: PolicyConstraints.oid
        case .inhibitAnyPolicy: InhibitAnyPolicy.oid
        case .authorityInformationAccess: AuthorityInformationAccess.oid
        case .signedCertificateTimestamps: SignedCertificateTimestampList.oid
        case .tlsFeature: TLSFeature.oid
        }
    }
}

/// One extension as the parse found it, in 8 bytes.
struct ExtensionEntry: Sendable {
    /// The absolute end of the extension's SEQUENCE, which its value (the last
    /// field) ends too; the next extension starts here.
    var valueEnd: UInt32
    /// The value's start minus the extension's offset: at most 73 (a SEQUENCE
    /// header of at most 6 octets for a certificate below 4 GiB, an OID of at most
    /// 58, a BOOLEAN of 3 and an OCTET STRING header of at most 6).
    var valueStartDelta: UInt8
    /// `KnownExtension.rawValue`, or ``unrecognized``.
    var kind: UInt8
    /// The critical flag.
    var isCritical: Bool

    /// The kind of an extension Tack does not decode.
    static let unrecognized: UInt8 = 0xFF

    /// An empty entry, for the inline storage's unused slots.
    static let empty = ExtensionEntry(valueEnd: 0, valueStartDelta: 0, kind: 0, isCritical: false)
}

/// A certificate's extensions as the parse recorded them: ``ExtensionEntry`` values,
/// the first ``inlineCapacity`` inline and any further ones in ``overflow`` (the
/// only allocation, for certificates with more than 12 extensions).
///
/// Extension `i` starts where extension `i − 1` ends (``listStart`` for the first):
/// the entries are contiguous in the list, so no offset is stored.
struct ExtensionIndex: Sendable {
    /// The extensions kept inline: 12, above the 10 of a typical Web PKI leaf and
    /// the at most 8 of a system bundle's roots (``Certificate/maximumExtensionCount``).
    static let inlineCapacity = 12

    /// Twelve entries.
    typealias Inline = (
        ExtensionEntry, ExtensionEntry, ExtensionEntry, ExtensionEntry, ExtensionEntry, ExtensionEntry,
        ExtensionEntry, ExtensionEntry, ExtensionEntry, ExtensionEntry, ExtensionEntry, ExtensionEntry
    )

    /// The absolute offset of the first extension's SEQUENCE.
    private(set) var listStart: UInt32 = 0
    /// The number of extensions recorded (at most ``Certificate/maximumExtensionCount``).
    private(set) var count = 0
    /// Which kinds are present: bit `KnownExtension.rawValue`.
    private(set) var knownKinds: UInt32 = 0
    /// How many extensions are not of a known kind.
    private(set) var unrecognizedCount = 0
    /// The first entry whose known kind an earlier entry has (a duplicate), if any.
    private(set) var firstKnownDuplicate: Int?
    /// Entries 0 ..< 12.
    private var inline: Inline = (
        .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty
    )
    /// Entries from 12 on.
    private var overflow: [ExtensionEntry] = []

    /// An empty index.
    init() {}

    /// Records the next extension.
    ///
    /// - Parameters:
    ///   - kind: What `oid` names, or `nil`.
    ///   - isCritical: The critical flag.
    ///   - offset: The absolute offset of the extension's SEQUENCE; the end of the
    ///     previous one. Below 2³² (``Certificate`` refuses larger certificates).
    ///   - valueRange: The absolute range of its value, which ends the SEQUENCE.
    mutating func append(kind: KnownExtension?, isCritical: Bool, offset: Int, valueRange: Range<Int>) {
        // Internal invariants: the parse's certificate is below 4 GiB and the value
        // starts at most 73 octets into its extension (ExtensionEntry.valueStartDelta).
        guard let start = UInt32(exactly: offset), let end = UInt32(exactly: valueRange.upperBound),
              let delta = UInt8(exactly: valueRange.lowerBound - offset)
        else { preconditionFailure("extension layout") }
        if count == 0 { listStart = start }
        let entry = ExtensionEntry(
            valueEnd: end, valueStartDelta: delta, kind: kind?.rawValue ?? ExtensionEntry.unrecognized, isCritical: isCritical)
        if let kind {
            let bit: UInt32 = 1 << UInt32(kind.rawValue)
            if knownKinds & bit != 0, firstKnownDuplicate == nil { firstKnownDuplicate = count }
            knownKinds |= bit
        } else {
            unrecognizedCount += 1
        }
        if count < Self.inlineCapacity {
            let position = count
            withUnsafeMutableBytes(of: &inline) { raw in
                raw.storeBytes(of: entry, toByteOffset: position &* MemoryLayout<ExtensionEntry>.stride, as: ExtensionEntry.self)
            }
        } else {
            overflow.append(entry)
        }
        count += 1
    }

    /// Entry `position`, which is below ``count``.
    func entry(_ position: Int) -> ExtensionEntry {
        if position < Self.inlineCapacity {
            return withUnsafeBytes(of: inline) { raw in
                raw.load(fromByteOffset: position &* MemoryLayout<ExtensionEntry>.stride, as: ExtensionEntry.self)
            }
        }
        return overflow[position - Self.inlineCapacity]
    }

    /// The absolute offset of extension `position`'s SEQUENCE.
    func offset(_ position: Int) -> Int {
        position == 0 ? Int(listStart) : Int(entry(position - 1).valueEnd)
    }

    /// The absolute range of extension `position`'s value.
    func valueRange(_ position: Int) -> Range<Int> {
        let item = entry(position)
        return (offset(position) + Int(item.valueStartDelta))..<Int(item.valueEnd)
    }

    /// The position of the extension of kind `kind`, if present.
    func position(of kind: KnownExtension) -> Int? {
        guard knownKinds & (1 << UInt32(kind.rawValue)) != 0 else { return nil }
        for position in 0..<count where entry(position).kind == kind.rawValue { return position }
        return nil
    }

    /// Extension `position` as an ``Extension``: a known kind's identifier is its
    /// type's constant; another's is read again from `bytes`, the certificate's DER.
    func element(_ position: Int, in bytes: [UInt8]) -> Extension {
        let item = entry(position)
        let offset = offset(position)
        let oid = KnownExtension(rawValue: item.kind)?.oid ?? Self.readIdentifier(bytes, offset..<Int(item.valueEnd))
        return Extension(
            oid: oid, isCritical: item.isCritical, valueRange: (offset + Int(item.valueStartDelta))..<Int(item.valueEnd),
            offset: offset)
    }

    /// Extension `position`, whose identifier is known to be `identifier` (the
    /// caller found it by that identifier).
    func element(_ position: Int, identifier: OID) -> Extension {
        let item = entry(position)
        let offset = offset(position)
        return Extension(
            oid: identifier, isCritical: item.isCritical, valueRange: (offset + Int(item.valueStartDelta))..<Int(item.valueEnd),
            offset: offset)
    }

    /// The position of the unrecognized extension with identifier `oid`, found by
    /// comparing contents octets in place (DER has one encoding per identifier).
    func position(ofUnrecognized oid: OID, in bytes: [UInt8]) -> Int? {
        guard unrecognizedCount > 0 else { return nil }
        return oid.withContents { contents in
            for position in 0..<count where entry(position).kind == ExtensionEntry.unrecognized
                && identifierEncoding(position, in: bytes).dropFirst(2).elementsEqual(contents) {
                return position
            }
            return nil
        }
    }

    /// The first position whose identifier an earlier extension has: known kinds
    /// as the parse found them, the others compared pairwise (read again from
    /// `bytes`; only certificates with two or more unrecognized extensions).
    func firstDuplicate(in bytes: [UInt8]) -> Int? {
        var first = firstKnownDuplicate
        guard unrecognizedCount >= 2 else { return first }
        let end = first ?? count
        search: for later in 0..<end where entry(later).kind == ExtensionEntry.unrecognized {
            let identifier = identifierEncoding(later, in: bytes)
            for earlier in 0..<later where entry(earlier).kind == ExtensionEntry.unrecognized {
                if identifierEncoding(earlier, in: bytes).elementsEqual(identifier) {
                    first = later
                    break search
                }
            }
        }
        return first
    }

    /// The DER of extension `position`'s identifier (its OBJECT IDENTIFIER, tag and
    /// length included), found from the recorded offset without decoding: two
    /// identifiers are equal exactly when these bytes are (DER has one encoding per
    /// value). The parse checked the SEQUENCE's header and the identifier, whose
    /// length is below 128 (``ExtensionEntry/valueStartDelta``).
    private func identifierEncoding(_ position: Int, in bytes: [UInt8]) -> ArraySlice<UInt8> {
        let start = offset(position)
        let sequenceLength = bytes[start + 1]
        let identifier = start + 2 + (sequenceLength < 0x80 ? 0 : Int(sequenceLength & 0x7F))
        return bytes[identifier..<(identifier + 2 + Int(bytes[identifier + 1]))]
    }

    /// The limits for reading again what the parse checked: the certificate's own
    /// limits admitted it, so none is applied twice.
    private static let rereadLimits = DERLimits(maximumDepth: 32, maximumElementLength: Int.max)

    /// The identifier of the extension whose SEQUENCE spans `range` of `bytes`.
    private static func readIdentifier(_ bytes: [UInt8], _ range: Range<Int>) -> OID {
        do {
            return try DER.read(bytes, range: range, limits: rereadLimits) { (reader) throws(DERError) -> OID in
                try reader.readSequence { (item) throws(DERError) -> OID in
                    let oid = try item.readObjectIdentifier()
                    while !item.isAtEnd { _ = try item.readElement() }
                    return oid
                }
            }
        } catch {
            // Internal invariant: the parse read these immutable bytes the same way.
            preconditionFailure("an extension the parse checked does not read again")
        }
    }
}

/// The extensions of a certificate in certificate order, undecoded: a view over the
/// certificate's DER and the entries its parse recorded (``Certificate/extensions``).
///
/// Reading an element builds its ``Extension`` from the recorded ranges; an
/// extension Tack does not decode has its identifier read again from the DER.
public struct CertificateExtensions: RandomAccessCollection, Sendable {
    /// The certificate's DER.
    let bytes: [UInt8]
    /// What the parse recorded.
    let index: ExtensionIndex

    /// The position of the first extension: 0.
    public var startIndex: Int { 0 }
    /// The number of extensions.
    public var endIndex: Int { index.count }

    /// The extension at `position`.
    ///
    /// - Parameter position: A position in `startIndex ..< endIndex`.
    /// - Returns: The extension, its identifier, criticality and value as the
    ///   certificate encodes them.
    public subscript(position: Int) -> Extension {
        precondition(position >= 0 && position < index.count, "extension position out of range")
        return index.element(position, in: bytes)
    }
}

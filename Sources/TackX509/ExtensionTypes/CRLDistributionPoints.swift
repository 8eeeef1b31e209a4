public import TackDER

/// The CRL distribution points extension (RFC 5280 §4.2.1.13): where to fetch the
/// certificate revocation lists that cover the certificate.
///
/// ```
/// CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint
/// DistributionPoint ::= SEQUENCE {
///      distributionPoint       [0]     DistributionPointName OPTIONAL,
///      reasons                 [1]     ReasonFlags OPTIONAL,
///      cRLIssuer               [2]     GeneralNames OPTIONAL }
/// DistributionPointName ::= CHOICE {
///      fullName                [0]     GeneralNames,
///      nameRelativeToCRLIssuer [1]     RelativeDistinguishedName }
/// ```
///
/// `distributionPoint` is EXPLICIT (its type is a CHOICE); the other tags are
/// IMPLICIT. A distribution point with neither `distributionPoint` nor
/// `cRLIssuer` is rejected (RFC 5280 §4.2.1.13: "a DistributionPoint MUST NOT
/// consist of only the reasons field").
public struct CRLDistributionPoints: Sendable, Hashable, Sequence {
    /// `id-ce-cRLDistributionPoints`, 2.5.29.31.
    public static let oid = OID(2, 5, 29, 31)

    internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of distribution points (at least 1).
    public let count: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors, or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty list, a
    ///   point with only reasons, an undefined reason bit or a bad GeneralName.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = CRLDistributionPoints.oid
        (contentRange, count) = try readNonEmptySequence(derEncoded, valueRange: valueRange, of: oid) {
            (inner) throws(X509Error) in
            _ = try DistributionPoint.read(&inner, storage: nil)
        }
        storage = derEncoded
    }

    /// The number of distribution points.
    public var underestimatedCount: Int { count }

    /// The distribution points in encoding order.
    public func makeIterator() -> CheckedDERIterator<DistributionPoint> {
        CheckedDERIterator(storage, contentRange) { DistributionPoint.decodeChecked($0, element: $1) }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: CRLDistributionPoints, rhs: CRLDistributionPoints) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

/// One `DistributionPoint` of ``CRLDistributionPoints``.
public struct DistributionPoint: Sendable, Hashable {
    /// The `DistributionPointName` CHOICE.
    public enum Name: Sendable, Hashable {
        /// `fullName`: the CRL's locations, usually URIs.
        case fullName(GeneralNames)
        /// `nameRelativeToCRLIssuer`: an RDN appended to the CRL issuer's name.
        case nameRelativeToCRLIssuer(RelativeDistinguishedName)
    }

    /// The revocation reasons of `ReasonFlags` (RFC 5280 §4.2.1.13); ASN.1 bit
    /// *n* is `1 << n`.
    public struct Reasons: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: UInt16

        /// Creates a set of reasons from its bits.
        ///
        /// - Parameter rawValue: The bits (ASN.1 bit *n* is `1 << n`).
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// `unused` (bit 0).
        public static let unused = Reasons(rawValue: 1 << 0)
        /// `keyCompromise` (bit 1).
        public static let keyCompromise = Reasons(rawValue: 1 << 1)
        /// `cACompromise` (bit 2).
        public static let caCompromise = Reasons(rawValue: 1 << 2)
        /// `affiliationChanged` (bit 3).
        public static let affiliationChanged = Reasons(rawValue: 1 << 3)
        /// `superseded` (bit 4).
        public static let superseded = Reasons(rawValue: 1 << 4)
        /// `cessationOfOperation` (bit 5).
        public static let cessationOfOperation = Reasons(rawValue: 1 << 5)
        /// `certificateHold` (bit 6).
        public static let certificateHold = Reasons(rawValue: 1 << 6)
        /// `privilegeWithdrawn` (bit 7).
        public static let privilegeWithdrawn = Reasons(rawValue: 1 << 7)
        /// `aACompromise` (bit 8).
        public static let aaCompromise = Reasons(rawValue: 1 << 8)
    }

    /// The `distributionPoint` field, if present.
    public let name: Name?
    /// The `reasons` field, if present (trailing zero bits are accepted, as for
    /// ``KeyUsage``).
    public let reasons: Reasons?
    /// The `cRLIssuer` field, if present.
    public let crlIssuer: GeneralNames?

    /// Reads one DistributionPoint, checking it; with `storage`, builds the value.
    internal static func read(
        _ reader: inout DERReader, storage: [UInt8]?
    ) throws(X509Error) -> DistributionPoint? {
        let oid = CRLDistributionPoints.oid
        let offset = reader.offset
        let fields = try reader.readSequence { (sequence) throws(X509Error) -> (DistributionPoint, Bool) in
            var name: Name? = nil
            var hasName = false
            let nameTag = DERTag.contextSpecific(0, isConstructed: true)
            if try der(sequence.peekTag()) == nameTag {
                hasName = true
                let wrapper = try der(sequence.readElement(nameTag))
                var choice = try der(sequence.contentsReader(of: wrapper))
                let fullNameTag = DERTag.contextSpecific(0, isConstructed: true)
                let relativeTag = DERTag.contextSpecific(1, isConstructed: true)
                switch try der(choice.peekTag()) {
                case fullNameTag:
                    let (element, count) = try GeneralNames.check(&choice, oid: oid, tag: fullNameTag, context: .name)
                    if let storage { name = .fullName(GeneralNames(checked: storage, element: element, count: count)) }
                case relativeTag:
                    let start = choice.offset
                    _ = try RelativeDistinguishedName.check(&choice, tag: relativeTag)
                    if let storage, let element = CheckedElements.element(in: storage, at: start, end: choice.offset) {
                        name = .nameRelativeToCRLIssuer(RelativeDistinguishedName(checked: storage, element: element))
                    }
                case let found?:
                    throw X509Error(DERError(.unexpectedTag(expected: fullNameTag, found: found), at: choice.offset))
                case nil:
                    throw X509Error(DERError(.missingElement(expected: fullNameTag), at: choice.offset))
                }
                try der(choice.expectEnd())
            }
            var reasons: Reasons? = nil
            let reasonsTag = DERTag.contextSpecific(1, isConstructed: false)
            if try der(sequence.peekTag()) == reasonsTag {
                reasons = Reasons(rawValue: try sequence.readNamedBits(highestNamedBit: 8, oid: oid, tag: reasonsTag))
            }
            var issuer: GeneralNames? = nil
            var hasIssuer = false
            let issuerTag = DERTag.contextSpecific(2, isConstructed: true)
            if try der(sequence.peekTag()) == issuerTag {
                hasIssuer = true
                let (element, count) = try GeneralNames.check(&sequence, oid: oid, tag: issuerTag, context: .name)
                if let storage { issuer = GeneralNames(checked: storage, element: element, count: count) }
            }
            return (DistributionPoint(name: name, reasons: reasons, crlIssuer: issuer), hasName || hasIssuer)
        }
        guard fields.1 else {
            throw X509Error(.invalidExtension(oid, .emptyDistributionPoint),
                                at: offset)
        }
        return storage == nil ? nil : fields.0
    }
}

extension DistributionPoint {
    /// The distribution point in a checked element, for ``CRLDistributionPoints``'
    /// iterator; `nil` when it does not decode.
    internal static func decodeChecked(_ storage: [UInt8], element: DERElement) -> DistributionPoint? {
        let decoded = rereadChecked(storage, element: element) { (reader) throws(X509Error) -> DistributionPoint? in
            try DistributionPoint.read(&reader, storage: storage)
        }
        return decoded ?? nil
    }
}

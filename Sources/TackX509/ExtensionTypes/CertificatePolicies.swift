public import TackDER

/// The certificate policies extension (RFC 5280 §4.2.1.4): the policies under
/// which the certificate was issued, with optional qualifiers.
///
/// ```
/// certificatePolicies ::= SEQUENCE SIZE (1..MAX) OF PolicyInformation
/// PolicyInformation ::= SEQUENCE {
///      policyIdentifier   CertPolicyId,
///      policyQualifiers   SEQUENCE SIZE (1..MAX) OF PolicyQualifierInfo OPTIONAL }
/// PolicyQualifierInfo ::= SEQUENCE {
///      policyQualifierId  PolicyQualifierId,
///      qualifier          ANY DEFINED BY policyQualifierId }
/// CPSuri ::= IA5String
/// UserNotice ::= SEQUENCE { noticeRef NoticeReference OPTIONAL, explicitText DisplayText OPTIONAL }
/// NoticeReference ::= SEQUENCE { organization DisplayText, noticeNumbers SEQUENCE OF INTEGER }
/// DisplayText ::= CHOICE { ia5String, visibleString, bmpString, utf8String }
/// ```
///
/// Decoding checks every qualifier it knows (CPS pointer and user notice) and keeps
/// others raw. It rejects a policy OID listed twice ("a policy OID MUST NOT appear
/// more than once", RFC 5280 §4.2.1.4) and more than ``maximumPolicyCount``
/// policies. Leniencies: a DisplayText of any directory string type and any
/// length is accepted (RFC 5280 §4.2.1.4 notes CAs that exceed the 200-character
/// bound), as are qualifier types other than CPS and user notice.
public struct CertificatePolicies: Sendable, Hashable, Sequence {
    /// `id-ce-certificatePolicies`, 2.5.29.32.
    public static let oid = OID(2, 5, 29, 32)
    /// `anyPolicy`, 2.5.29.32.0.
    public static let anyPolicy = OID(2, 5, 29, 32, 0)
    /// `id-qt-cps`, 1.3.6.1.5.5.7.2.1: the qualifier is a CPS URI.
    public static let cpsQualifier = OID(1, 3, 6, 1, 5, 5, 7, 2, 1)
    /// `id-qt-unotice`, 1.3.6.1.5.5.7.2.2: the qualifier is a user notice.
    public static let userNoticeQualifier = OID(1, 3, 6, 1, 5, 5, 7, 2, 2)

    /// The most policies Tack accepts in one extension: 64. Real certificates
    /// carry one to a few; the cap bounds the quadratic duplicate check (a Tack
    /// limit, not an RFC one).
    public static let maximumPolicyCount = 64

    @usableFromInline internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of policies (at least 1).
    public let count: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors
    ///   (including bad string alphabets), or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty list, a
    ///   duplicate policy, too many policies or an empty qualifier list.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = CertificatePolicies.oid
        (contentRange, count) = try readX509(derEncoded, range: valueRange) {
            (reader) throws(X509Error) -> (Range<Int>, Int) in
            let element = try der(reader.readElement(.sequence))
            var inner = try der(reader.contentsReader(of: element))
            var count = 0
            while !inner.isAtEnd {
                let policyOffset = inner.offset
                guard count < CertificatePolicies.maximumPolicyCount else {
                    throw X509Error(.invalidExtension(oid, .tooManyPolicies),
                                        at: policyOffset)
                }
                try PolicyInformation.check(&inner)
                count += 1
            }
            guard count > 0 else {
                throw X509Error(.invalidExtension(oid, .emptySequence), at: element.offset)
            }
            return (element.contentRange, count)
        }
        storage = derEncoded
        // Duplicate policy identifiers, compared by their encodings.
        var outer = CheckedElements(bytes: derEncoded, range: contentRange)
        var index = 0
        while let policy = outer.next() {
            var inner = CheckedElements(bytes: derEncoded, range: contentRange)
            for _ in 0..<index {
                guard let earlier = inner.next() else { break }
                if CertificatePolicies.identifierRange(in: derEncoded, policy: earlier)
                    .map({ derEncoded[$0] }) == CertificatePolicies.identifierRange(in: derEncoded, policy: policy).map({ derEncoded[$0] }) {
                    throw X509Error(.invalidExtension(oid, .duplicatePolicy), at: policy.offset)
                }
            }
            index += 1
        }
    }

    /// The encoded range of the policyIdentifier inside a checked PolicyInformation.
    private static func identifierRange(in bytes: [UInt8], policy: DERElement) -> Range<Int>? {
        var children = CheckedElements(bytes: bytes, range: policy.contentRange)
        return children.next()?.encodedRange
    }

    /// Whether `policy` is listed.
    ///
    /// - Parameter policy: A policy OID.
    /// - Returns: `true` if it is one of the policy identifiers.
    public func contains(_ policy: OID) -> Bool {
        for information in self where information.policyIdentifier == policy { return true }
        return false
    }

    /// The number of policies.
    public var underestimatedCount: Int { count }

    /// The policies in encoding order.
    public func makeIterator() -> Iterator {
        Iterator(elements: CheckedElements(bytes: storage, range: contentRange))
    }

    /// Iterates the policies.
    public struct Iterator: IteratorProtocol {
        internal var elements: CheckedElements

        /// The next policy, or `nil` at the end.
        public mutating func next() -> PolicyInformation? {
            guard let element = elements.next() else { return nil }
            return PolicyInformation(checked: elements.bytes, element: element)
        }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: CertificatePolicies, rhs: CertificatePolicies) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

/// One `PolicyInformation`: a policy identifier and its optional qualifiers.
public struct PolicyInformation: Sendable, Hashable {
    /// The policy's OID (`CertPolicyId`).
    public let policyIdentifier: OID
    /// The qualifiers, or `nil` when the field is absent.
    public let qualifiers: PolicyQualifiers?

    internal init?(checked storage: [UInt8], element: DERElement) {
        let decoded = rereadChecked(storage, element: element) { (reader) throws(DERError) -> (OID, DERElement?) in
            try reader.readSequence { (sequence) throws(DERError) -> (OID, DERElement?) in
                (try sequence.readObjectIdentifier(), try sequence.readOptionalElement(.sequence))
            }
        }
        guard let decoded else { return nil }
        policyIdentifier = decoded.0
        qualifiers = decoded.1.map { PolicyQualifiers(storage: storage, contentRange: $0.contentRange) }
    }

    /// Reads and checks one PolicyInformation.
    internal static func check(_ reader: inout DERReader) throws(X509Error) {
        let oid = CertificatePolicies.oid
        try reader.readSequence { (sequence) throws(X509Error) in
            try der(sequence.checkObjectIdentifier())
            guard let list = try der(sequence.readOptionalElement(.sequence)) else { return }
            var qualifiers = try der(sequence.contentsReader(of: list))
            var count = 0
            while !qualifiers.isAtEnd {
                _ = try der(PolicyQualifier.read(&qualifiers, storage: nil))
                count += 1
            }
            guard count > 0 else {
                throw X509Error(.invalidExtension(oid, .emptySequence), at: list.offset)
            }
        }
    }
}

/// The qualifiers of one policy, decoded when iterated.
public struct PolicyQualifiers: Sendable, Hashable, Sequence {
    @usableFromInline internal let storage: [UInt8]
    internal let contentRange: Range<Int>

    internal init(storage: [UInt8], contentRange: Range<Int>) {
        self.storage = storage
        self.contentRange = contentRange
    }

    /// The qualifiers in encoding order.
    public func makeIterator() -> Iterator {
        Iterator(elements: CheckedElements(bytes: storage, range: contentRange))
    }

    /// Iterates the qualifiers.
    public struct Iterator: IteratorProtocol {
        internal var elements: CheckedElements

        /// The next qualifier, or `nil` at the end.
        public mutating func next() -> PolicyQualifier? {
            guard let element = elements.next() else { return nil }
            let storage = elements.bytes
            let decoded = rereadChecked(storage, element: element) { (reader) throws(DERError) -> PolicyQualifier? in
                try PolicyQualifier.read(&reader, storage: storage)
            }
            return decoded ?? nil
        }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: PolicyQualifiers, rhs: PolicyQualifiers) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

/// One policy qualifier (RFC 5280 §4.2.1.4).
public enum PolicyQualifier: Sendable, Hashable {
    /// `id-qt-cps`: a pointer to the Certification Practice Statement.
    case cpsURI(String)
    /// `id-qt-unotice`: a notice to display to relying parties.
    case userNotice(UserNotice)
    /// Another qualifier type: its identifier and the complete encoding of its value.
    case other(qualifierID: OID, value: ArraySlice<UInt8>)

    /// Reads one PolicyQualifierInfo, checking it; with `storage`, builds the value.
    internal static func read(_ reader: inout DERReader, storage: [UInt8]?) throws(DERError) -> PolicyQualifier? {
        try reader.readSequence { (sequence) throws(DERError) -> PolicyQualifier? in
            let identifier = try sequence.readObjectIdentifier()
            if identifier == CertificatePolicies.cpsQualifier {
                let element = try sequence.readElement(.ia5String)
                try sequence.checkString(element, kind: .ia5)
                guard let storage else { return nil }
                return .cpsURI(decodeCheckedString(storage, range: element.contentRange, kind: .ia5))
            }
            if identifier == CertificatePolicies.userNoticeQualifier {
                let notice = try UserNotice.read(&sequence, storage: storage)
                return notice.map { .userNotice($0) }
            }
            let value = try sequence.readElement()
            guard let storage else { return nil }
            return .other(qualifierID: identifier, value: storage[value.encodedRange])
        }
    }
}

/// A user notice qualifier: an optional reference to a notice held elsewhere and
/// an optional explicit text.
public struct UserNotice: Sendable, Hashable {
    /// The `noticeRef` field: an organization and notice numbers.
    public struct NoticeReference: Sendable, Hashable {
        /// The organization's name (a DisplayText).
        public let organization: String
        /// The notice numbers.
        public let noticeNumbers: [Int]
    }

    /// The `noticeRef` field, if present.
    public let noticeReference: NoticeReference?
    /// The `explicitText` field decoded as text, if present.
    public let explicitText: String?
    /// The complete encoding of the UserNotice, a slice of the certificate.
    public let derEncoded: ArraySlice<UInt8>

    /// Reads one UserNotice, checking it; with `storage`, builds the value.
    internal static func read(_ reader: inout DERReader, storage: [UInt8]?) throws(DERError) -> UserNotice? {
        let start = reader.offset
        let fields = try reader.readSequence { (sequence) throws(DERError) -> (NoticeReference?, String?) in
            var reference: NoticeReference? = nil
            if let referenceElement = try sequence.readOptionalElement(.sequence) {
                var inner = try sequence.contentsReader(of: referenceElement)
                let organization = try readDisplayText(&inner, storage: storage)
                var numbers: [Int] = []
                try inner.readCollection(.sequence) { (list) throws(DERError) in
                    let number = try list.readInteger(Int.self)
                    if storage != nil { numbers.append(number) }
                }
                try inner.expectEnd()
                if let organization { reference = NoticeReference(organization: organization, noticeNumbers: numbers) }
            }
            let text: String? = sequence.isAtEnd ? nil : try readDisplayText(&sequence, storage: storage)
            return (reference, text)
        }
        guard let storage else { return nil }
        return UserNotice(noticeReference: fields.0, explicitText: fields.1, derEncoded: storage[start..<reader.offset])
    }

    /// Reads a DisplayText (any directory string type is accepted); returns the
    /// text when `storage` is given.
    private static func readDisplayText(_ reader: inout DERReader, storage: [UInt8]?) throws(DERError) -> String? {
        let element = try reader.readElement()
        guard let kind = DERStringKind(tag: element.tag) else {
            throw DERError(.unexpectedTag(expected: .utf8String, found: element.tag), at: element.offset)
        }
        try reader.checkString(element, kind: kind)
        guard let storage else { return nil }
        return decodeCheckedString(storage, range: element.contentRange, kind: kind)
    }
}

/// The policy mappings extension (RFC 5280 §4.2.1.5): equivalences between the
/// issuer's policies and the subject's.
///
/// ```
/// PolicyMappings ::= SEQUENCE SIZE (1..MAX) OF SEQUENCE {
///      issuerDomainPolicy      CertPolicyId,
///      subjectDomainPolicy     CertPolicyId }
/// ```
///
/// Mappings to or from `anyPolicy` are decoded as they are; rejecting them is
/// path validation's job (RFC 5280 §6.1.4 (a)).
public struct PolicyMappings: Sendable, Hashable, Sequence {
    /// `id-ce-policyMappings`, 2.5.29.33.
    public static let oid = OID(2, 5, 29, 33)

    /// One mapping.
    public struct Mapping: Sendable, Hashable {
        /// The issuer's policy.
        public let issuerDomainPolicy: OID
        /// The subject's equivalent policy.
        public let subjectDomainPolicy: OID

        /// Creates a mapping.
        ///
        /// - Parameters:
        ///   - issuerDomainPolicy: The issuer's policy.
        ///   - subjectDomainPolicy: The subject's equivalent policy.
        public init(issuerDomainPolicy: OID, subjectDomainPolicy: OID) {
            self.issuerDomainPolicy = issuerDomainPolicy
            self.subjectDomainPolicy = subjectDomainPolicy
        }
    }

    @usableFromInline internal let storage: [UInt8]
    internal let contentRange: Range<Int>
    /// The number of mappings (at least 1).
    public let count: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors, or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty sequence.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = PolicyMappings.oid
        (contentRange, count) = try readX509(derEncoded, range: valueRange) {
            (reader) throws(X509Error) -> (Range<Int>, Int) in
            try reader.readNonEmptySequence(of: oid) { (inner) throws(X509Error) in
                try der(inner.readSequence { (pair) throws(DERError) in
                    try pair.checkObjectIdentifier()
                    try pair.checkObjectIdentifier()
                })
            }
        }
        storage = derEncoded
    }

    /// The number of mappings.
    public var underestimatedCount: Int { count }

    /// The mappings in encoding order.
    public func makeIterator() -> Iterator {
        Iterator(elements: CheckedElements(bytes: storage, range: contentRange))
    }

    /// Iterates the mappings.
    public struct Iterator: IteratorProtocol {
        internal var elements: CheckedElements

        /// The next mapping, or `nil` at the end.
        public mutating func next() -> Mapping? {
            guard let element = elements.next() else { return nil }
            return rereadChecked(elements.bytes, element: element) { (reader) throws(DERError) -> Mapping in
                try reader.readSequence { (pair) throws(DERError) -> Mapping in
                    Mapping(issuerDomainPolicy: try pair.readObjectIdentifier(), subjectDomainPolicy: try pair.readObjectIdentifier())
                }
            }
        }
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: PolicyMappings, rhs: PolicyMappings) -> Bool {
        encodingsEqual(lhs.storage, lhs.contentRange, rhs.storage, rhs.contentRange)
    }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { encodedHash(storage, contentRange, into: &hasher) }
}

/// The policy constraints extension (RFC 5280 §4.2.1.11).
///
/// ```
/// PolicyConstraints ::= SEQUENCE {
///      requireExplicitPolicy   [0] SkipCerts OPTIONAL,
///      inhibitPolicyMapping    [1] SkipCerts OPTIONAL }
/// SkipCerts ::= INTEGER (0..MAX)
/// ```
///
/// An empty sequence is rejected ("Conforming CAs MUST NOT issue certificates
/// where policy constraints is an empty sequence").
public struct PolicyConstraints: Sendable, Hashable {
    /// `id-ce-policyConstraints`, 2.5.29.36.
    public static let oid = OID(2, 5, 29, 36)

    /// `requireExplicitPolicy`: certificates after which an acceptable policy is
    /// required, if present.
    public let requireExplicitPolicy: Int?
    /// `inhibitPolicyMapping`: certificates after which mapping is not allowed, if
    /// present.
    public let inhibitPolicyMapping: Int?

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` for DER errors
    ///   (negative or oversized counts), or
    ///   ``X509Error/Reason/invalidExtension(_:_:)`` for an empty sequence.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        let oid = PolicyConstraints.oid
        (requireExplicitPolicy, inhibitPolicyMapping) = try readX509(derEncoded, range: valueRange) {
            (reader) throws(X509Error) -> (Int?, Int?) in
            let offset = reader.offset
            let fields = try der(reader.readSequence { (sequence) throws(DERError) -> (Int?, Int?) in
                let requireTag = DERTag.contextSpecific(0, isConstructed: false)
                let inhibitTag = DERTag.contextSpecific(1, isConstructed: false)
                let require: Int? = try sequence.peekTag() == requireTag ? sequence.readNonNegativeInt(tag: requireTag) : nil
                let inhibit: Int? = try sequence.peekTag() == inhibitTag ? sequence.readNonNegativeInt(tag: inhibitTag) : nil
                return (require, inhibit)
            })
            guard fields.0 != nil || fields.1 != nil else {
                throw X509Error(.invalidExtension(oid, .emptyPolicyConstraints), at: offset)
            }
            return fields
        }
    }
}

/// The inhibit anyPolicy extension (RFC 5280 §4.2.1.14): the number of further
/// certificates in the path after which `anyPolicy` no longer matches.
///
/// ```
/// InhibitAnyPolicy ::= SkipCerts
/// SkipCerts ::= INTEGER (0..MAX)
/// ```
public struct InhibitAnyPolicy: Sendable, Hashable {
    /// `id-ce-inhibitAnyPolicy`, 2.5.29.54.
    public static let oid = OID(2, 5, 29, 54)

    /// The SkipCerts value.
    public let skipCerts: Int

    /// Decodes the extension value in `valueRange` of `derEncoded`.
    ///
    /// - Parameters:
    ///   - derEncoded: The certificate's bytes.
    ///   - valueRange: The absolute range of the DER value (the extnValue contents).
    /// - Throws: ``X509Error`` with ``X509Error/Reason/der(_:)`` if the value is not
    ///   one non-negative INTEGER that fits `Int`.
    public init(derEncoded: [UInt8], valueRange: Range<Int>) throws(X509Error) {
        skipCerts = try readX509(derEncoded, range: valueRange) { (reader) throws(DERError) -> Int in
            try reader.readNonNegativeInt()
        }
    }
}

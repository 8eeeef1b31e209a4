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

    internal let storage: [UInt8]
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
        var policies = 0
        (contentRange, count) = try readNonEmptySequence(derEncoded, valueRange: valueRange, of: oid) {
            (inner) throws(X509Error) in
            guard policies < CertificatePolicies.maximumPolicyCount else {
                throw X509Error(.invalidExtension(oid, .tooManyPolicies), at: inner.offset)
            }
            try PolicyInformation.check(&inner)
            policies += 1
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
    public func makeIterator() -> CheckedDERIterator<PolicyInformation> {
        CheckedDERIterator(storage, contentRange) { PolicyInformation(checked: $0, element: $1) }
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
    internal let storage: [UInt8]
    internal let contentRange: Range<Int>

    internal init(storage: [UInt8], contentRange: Range<Int>) {
        self.storage = storage
        self.contentRange = contentRange
    }

    /// The qualifiers in encoding order.
    public func makeIterator() -> CheckedDERIterator<PolicyQualifier> {
        CheckedDERIterator(storage, contentRange) { PolicyQualifier.decodeChecked($0, element: $1) }
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

extension PolicyQualifier {
    /// The qualifier in a checked element, for ``PolicyQualifiers``' iterator; `nil`
    /// for a qualifier of a type Tack does not decode, or one that does not decode.
    internal static func decodeChecked(_ storage: [UInt8], element: DERElement) -> PolicyQualifier? {
        let decoded = rereadChecked(storage, element: element) { (reader) throws(DERError) -> PolicyQualifier? in
            try PolicyQualifier.read(&reader, storage: storage)
        }
        return decoded ?? nil
    }
}

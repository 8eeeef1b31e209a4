public import TackFormats
internal import TackX509

/// The value types of the two policy documents (JSON and property list), for
/// ``PinPolicyFormatError``.
public enum PolicyValueType: Sendable, Hashable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// JSON `true`/`false`; plist `<true/>`/`<false/>`.
    case boolean
    /// A JSON number; a plist `<integer>` or `<real>`.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// A JSON object; a plist `<dict>`.
    case dictionary
    /// A plist `<date>`.
    case date
    /// A plist `<data>`.
    case data

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .number: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .dictionary
        }
    }

    init(_ value: PropertyListValue) {
        switch value {
        case .boolean: self = .boolean
        case .integer, .real: self = .number
        case .string: self = .string
        case .array: self = .array
        case .dictionary: self = .dictionary
        case .date: self = .date
        case .data: self = .data
        }
    }

    /// The type's name, with an article (`a dictionary`).
    public var description: String {
        switch self {
        case .null: return "null"
        case .boolean: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .dictionary: return "an object (dictionary)"
        case .date: return "a date"
        case .data: return "data"
        }
    }
}

/// A structural problem of a policy document: a value of the wrong type, a missing
/// or unknown key, an unsupported version, a malformed date.
public struct PinPolicyFormatError: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The value at ``PinPolicyFormatError/offset`` has the wrong type.
        case wrongType(expected: PolicyValueType, found: PolicyValueType)
        /// A key the schema does not define (the key as written: the offending data).
        /// Tack's JSON refuses unknown keys so that a misspelt `"includeSubdomian"` is
        /// not silently ignored.
        case unknownKey(String)
        /// A required key is absent.
        case missingKey(PolicyKey)
        /// `"version"` is not 1.
        case unsupportedVersion
        /// `"expires"` is neither RFC 3339 text nor an integer of seconds since 1970.
        case invalidDate
        /// `"mode"` is neither `"enforce"` nor `"report-only"`.
        case invalidMode
        /// `"includeSubdomains"` is given with a `*.` or `**.` domain, whose prefix
        /// already says which subdomains are covered.
        case conflictingSubdomains
    }

    /// The keys of the two schemas, for ``Reason/missingKey(_:)``.
    public enum PolicyKey: Sendable, Hashable, CustomStringConvertible {
        /// Tack JSON `"version"`.
        case version
        /// Tack JSON `"domains"`.
        case domains
        /// `Info.plist` `NSAppTransportSecurity`.
        case appTransportSecurity
        /// `Info.plist` `NSPinnedDomains`.
        case pinnedDomains
        /// `Info.plist` `SPKI-SHA256-BASE64` in an identity dictionary.
        case spkiSHA256Base64

        /// The key as written in the document.
        public var description: String {
            switch self {
            case .version: return "version"
            case .domains: return "domains"
            case .appTransportSecurity: return "NSAppTransportSecurity"
            case .pinnedDomains: return "NSPinnedDomains"
            case .spkiSHA256Base64: return "SPKI-SHA256-BASE64"
            }
        }
    }

    /// What is wrong.
    public var reason: Reason
    /// The byte offset of the member concerned in the document (the key of a JSON
    /// member, the `<key>` of a plist entry), or `nil` when it concerns the whole
    /// document.
    public var offset: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - offset: The byte offset of the member concerned, or `nil`.
    public init(_ reason: Reason, offset: Int?) {
        self.reason = reason
        self.offset = offset
    }

    /// A stable identifier of the reason (the case's name in snake_case), for tools and tests.
    public var code: String {
        switch reason {
        case .wrongType: "wrong_type"
        case .unknownKey: "unknown_key"
        case .missingKey: "missing_key"
        case .unsupportedVersion: "unsupported_version"
        case .invalidDate: "invalid_date"
        case .invalidMode: "invalid_mode"
        case .conflictingSubdomains: "conflicting_subdomains"
        }
    }

    /// One line naming the problem.
    public var description: String {
        let at = offset.map { " (byte \($0))" } ?? ""
        switch reason {
        case .wrongType(let expected, let found): return "expected \(expected), found \(found)\(at)"
        case .unknownKey(let key): return "unknown key \"\(key)\"\(at)"
        case .missingKey(let key): return "missing key \"\(key)\"\(at)"
        case .unsupportedVersion: return "unsupported policy version (expected 1)\(at)"
        case .invalidDate: return "\"expires\" is neither an RFC 3339 time nor seconds since 1970\(at)"
        case .invalidMode: return "\"mode\" is neither \"enforce\" nor \"report-only\"\(at)"
        case .conflictingSubdomains: return "\"includeSubdomains\" with a *. or **. domain, which already names its subdomains\(at)"
        }
    }
}

/// Why a policy could not be loaded.
public enum PinPolicyLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is not JSON.
    case json(JSONError)
    /// The document is not a property list (XML or binary) that the reader accepts.
    case propertyList(PropertyListError)
    /// The document has errors: every issue found, errors and warnings, in document order.
    case invalid([PinPolicyIssue])

    /// Every problem, one per line.
    public var description: String {
        switch self {
        case .json(let error): return "JSON: \(error)"
        case .propertyList(let error): return "property list: \(error)"
        case .invalid(let issues): return issues.map { $0.description }.joined(separator: "\n")
        }
    }
}

public import TackFormats
import TackDER
import TackDigest
import TackX509

/// A list of Certificate Transparency logs, in the v3 schema shared by Chrome's
/// `log_list.json` / `all_logs_list.json` and Apple's `current_log_list.json`
/// (`https://www.gstatic.com/ct/log_list/v3/log_list_schema.json`).
///
/// ```
/// { "log_list_timestamp": "…Z", "operators": [ { "name": …,
///     "logs": [ { "description", "log_id", "key", "state": { "<state>": { "timestamp" } },
///                 "temporal_interval": { "start_inclusive", "end_exclusive" } } ],
///     "tiled_logs": [ … the same members … ] } ] }
/// ```
///
/// Read strictly with TackFormats' JSON reader (duplicate keys, bad UTF-8 and the
/// like are errors); members the schema adds over time are ignored. Each log's
/// `log_id` must be the SHA-256 of its `key` (RFC 6962 §3.2), and log IDs are unique.
/// The caller hands the list over; the core never fetches it.
public struct CTLogList: Sendable {
    /// The list's own `log_list_timestamp`, in seconds since 1970, if it has one.
    public let timestamp: Int64?
    /// The list's `version`, if any.
    public let version: String?
    /// Every log (`logs` and `tiled_logs`), in document order.
    public let logs: [CTLog]

    /// How old a list may be before it is stale: 70 days, Chrome's limit, after which
    /// Chrome stops enforcing its CT policy.
    public static let maximumAge: Int64 = 70 * 86_400

    /// Creates a list from logs (for tests and callers with their own source).
    ///
    /// - Parameters:
    ///   - timestamp: The list's timestamp, seconds since 1970.
    ///   - version: The list's version.
    ///   - logs: The logs.
    public init(timestamp: Int64?, version: String?, logs: [CTLog]) {
        self.timestamp = timestamp
        self.version = version
        self.logs = logs
    }

    /// Reads a v3 log list.
    ///
    /// - Parameters:
    ///   - json: The document.
    ///   - limits: The JSON reader's limits; 4 MiB and the default depth by default
    ///     (`all_logs_list.json` was 110 KB in 2026).
    /// - Throws: ``CTLogListError``: the JSON error, or the first member that breaks
    ///   the schema, with its line and column.
    public init(json: [UInt8], limits: JSONLimits = JSONLimits(maximumSize: 4 << 20, maximumDepth: 32)) throws(CTLogListError) {
        let document: JSONValue
        do {
            document = try JSONReader.parse(json, limits: limits)
        } catch {
            throw CTLogListError(.json(error.reason), at: error.location)
        }
        let reader = LogListReader()
        let root = try reader.object(document, "log list", at: nil)
        timestamp = try reader.optionalTime(root, "log_list_timestamp")
        version = try reader.optionalString(root, "version")
        var logs: [CTLog] = []
        for operatorValue in try reader.array(root, "operators") {
            let members = try reader.object(operatorValue.value, "operators", at: operatorValue.location)
            let name = try reader.string(members, "name")
            for kind in ["logs", "tiled_logs"] {
                guard let list = try reader.optionalArray(members, kind) else { continue }
                for entry in list {
                    let log = try reader.log(entry.value, operatorName: name, isTiled: kind == "tiled_logs", at: entry.location)
                    if logs.contains(where: { $0.logID == log.logID }) {
                        throw CTLogListError(.duplicateLogID(Base64.encode(log.logID)), at: entry.location)
                    }
                    logs.append(log)
                }
            }
        }
        self.logs = logs
    }

    /// The log with `logID`, if listed.
    ///
    /// - Parameter logID: An SCT's log ID (32 octets).
    /// - Returns: The log, or `nil`.
    public func log(id logID: some Collection<UInt8>) -> CTLog? {
        logs.first { $0.logID.elementsEqual(logID) }
    }

    /// Whether the list is older than ``maximumAge`` at `time` (or has no timestamp).
    ///
    /// - Parameter time: The check time, seconds since 1970.
    /// - Returns: `true` when stale.
    public func isStale(at time: Int64) -> Bool {
        guard let timestamp else { return true }
        let (age, overflow) = time.subtractingReportingOverflow(timestamp)
        return overflow || age > Self.maximumAge
    }
}

/// One log of a ``CTLogList``.
public struct CTLog: Sendable, Hashable {
    /// The log ID: the SHA-256 of ``key``.
    public let logID: [UInt8]
    /// The log's DER SubjectPublicKeyInfo.
    public let key: [UInt8]
    /// The log's `description`.
    public let description: String
    /// The `name` of its operator.
    public let operatorName: String
    /// Its state and since when; `nil` when the list gives none (the log never counts).
    public let state: CTLogState?
    /// The certificates the log accepts, by notAfter (`start_inclusive`,
    /// `end_exclusive`, seconds since 1970), when the log is sharded.
    public let temporalInterval: Range<Int64>?
    /// Whether it is listed under `tiled_logs` (a static-CT-API log).
    public let isTiled: Bool

    /// Creates a log.
    ///
    /// - Parameters:
    ///   - key: The DER SubjectPublicKeyInfo; the log ID is its SHA-256.
    ///   - description: The description.
    ///   - operatorName: The operator's name.
    ///   - state: The state, if any.
    ///   - temporalInterval: The notAfter interval, if sharded.
    ///   - isTiled: Whether it is a tiled log.
    public init(key: [UInt8], description: String, operatorName: String, state: CTLogState?, temporalInterval: Range<Int64>? = nil, isTiled: Bool = false) {
        self.logID = Array(SHA256.hash(key))
        self.key = key
        self.description = description
        self.operatorName = operatorName
        self.state = state
        self.temporalInterval = temporalInterval
        self.isTiled = isTiled
    }
}

/// A log's state in a v3 list, with the time it entered it (seconds since 1970).
public enum CTLogState: Sendable, Hashable, CustomStringConvertible {
    /// Applied for inclusion; never counts.
    case pending(since: Int64)
    /// Accepted by the browser; currently approved.
    case qualified(since: Int64)
    /// Usable; currently approved.
    case usable(since: Int64)
    /// Frozen, no new entries; currently approved.
    case readonly(since: Int64)
    /// Retired: counts only for SCTs issued before `since` ("once approved").
    case retired(since: Int64)
    /// Rejected; never counts.
    case rejected(since: Int64)

    /// The state's name as the list spells it.
    public var description: String {
        switch self {
        case .pending: "pending"
        case .qualified: "qualified"
        case .usable: "usable"
        case .readonly: "readonly"
        case .retired: "retired"
        case .rejected: "rejected"
        }
    }

    /// How an SCT with `timestamp` (seconds since 1970) from a log in this state counts
    /// toward a policy: currently approved (qualified, usable, readonly), once approved
    /// (retired after the SCT), or not at all.
    ///
    /// - Parameter timestamp: The SCT's timestamp.
    /// - Returns: The approval, or `nil` when the SCT does not count.
    public func approval(ofSCTAt timestamp: Int64) -> CTApproval? {
        switch self {
        case .qualified, .usable, .readonly: .current
        case .retired(let since): timestamp < since ? .once : nil
        case .pending, .rejected: nil
        }
    }
}

/// How an SCT's log counts toward a CT policy.
public enum CTApproval: Sendable, Hashable {
    /// The log is qualified, usable or readonly.
    case current
    /// The log is retired, and the SCT predates the retirement.
    case once
}

/// Why a log list was refused, and where.
public struct CTLogListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The document is not JSON (TackFormats' reader refused it).
        case json(JSONError.Reason)
        /// A required member is absent.
        case missingMember(String)
        /// A member has the wrong JSON type.
        case wrongType(String)
        /// A `log_id` or `key` is not strict Base64.
        case invalidBase64(String)
        /// A `key` is not a DER SubjectPublicKeyInfo.
        case invalidKey
        /// A `log_id` is not the SHA-256 of its `key`.
        case logIDMismatch
        /// Two logs share a log ID (Base64).
        case duplicateLogID(String)
        /// A timestamp is not RFC 3339.
        case invalidTimestamp(String)
        /// A `state` names no known state, or more than one.
        case invalidState
    }

    /// What is wrong.
    public let reason: Reason
    /// Where: the offending member's location, or `nil` for the document as a whole.
    public let location: TextLocation?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What is wrong.
    ///   - location: Where.
    public init(_ reason: Reason, at location: TextLocation?) {
        self.reason = reason
        self.location = location
    }

    /// A stable snake_case identifier.
    public var code: String {
        switch reason {
        case .json: "invalid_json"
        case .missingMember: "missing_member"
        case .wrongType: "wrong_type"
        case .invalidBase64: "invalid_base64"
        case .invalidKey: "invalid_log_key"
        case .logIDMismatch: "log_id_mismatch"
        case .duplicateLogID: "duplicate_log_id"
        case .invalidTimestamp: "invalid_timestamp"
        case .invalidState: "invalid_log_state"
        }
    }

    /// One line: what is wrong and where.
    public var description: String {
        let place = location.map { " at \($0)" } ?? ""
        switch reason {
        case .json(let reason): return "log list is not JSON\(place): \(reason)"
        case .missingMember(let name): return "log list lacks \"\(name)\"\(place)"
        case .wrongType(let name): return "log list member \"\(name)\" has the wrong type\(place)"
        case .invalidBase64(let name): return "log list member \"\(name)\" is not Base64\(place)"
        case .invalidKey: return "log key is not a SubjectPublicKeyInfo\(place)"
        case .logIDMismatch: return "log_id is not the SHA-256 of the key\(place)"
        case .duplicateLogID(let id): return "log ID \(id) listed twice\(place)"
        case .invalidTimestamp(let name): return "log list member \"\(name)\" is not an RFC 3339 time\(place)"
        case .invalidState: return "log state names no known state, or several\(place)"
        }
    }
}

/// Reads the members of a v3 log list, each error at the member's location.
struct LogListReader {
    typealias Members = (members: [JSONMember], location: TextLocation?)

    func object(_ value: JSONValue, _ name: String, at location: TextLocation?) throws(CTLogListError) -> Members {
        guard case .object(let members) = value else { throw CTLogListError(.wrongType(name), at: location) }
        return (members, location)
    }

    func member(_ object: Members, _ name: String) -> JSONMember? {
        object.members.first { $0.key == name }
    }

    func required(_ object: Members, _ name: String) throws(CTLogListError) -> JSONMember {
        guard let found = member(object, name) else { throw CTLogListError(.missingMember(name), at: object.location) }
        return found
    }

    func array(_ object: Members, _ name: String) throws(CTLogListError) -> [(value: JSONValue, location: TextLocation)] {
        let found = try required(object, name)
        guard case .array(let items) = found.value else { throw CTLogListError(.wrongType(name), at: found.location) }
        return items.map { ($0, found.location) }
    }

    func optionalArray(_ object: Members, _ name: String) throws(CTLogListError) -> [(value: JSONValue, location: TextLocation)]? {
        guard member(object, name) != nil else { return nil }
        return try array(object, name)
    }

    func string(_ object: Members, _ name: String) throws(CTLogListError) -> String {
        let found = try required(object, name)
        guard case .string(let text) = found.value else { throw CTLogListError(.wrongType(name), at: found.location) }
        return text
    }

    func optionalString(_ object: Members, _ name: String) throws(CTLogListError) -> String? {
        guard member(object, name) != nil else { return nil }
        return try string(object, name)
    }

    func time(_ object: Members, _ name: String) throws(CTLogListError) -> Int64 {
        let text = try string(object, name)
        guard let seconds = RFC3339.parse(text) else {
            throw CTLogListError(.invalidTimestamp(name), at: member(object, name)?.location)
        }
        return seconds
    }

    func optionalTime(_ object: Members, _ name: String) throws(CTLogListError) -> Int64? {
        guard member(object, name) != nil else { return nil }
        return try time(object, name)
    }

    func base64(_ object: Members, _ name: String) throws(CTLogListError) -> [UInt8] {
        let text = try string(object, name)
        do {
            return try Base64.decode(text)
        } catch {
            throw CTLogListError(.invalidBase64(name), at: member(object, name)?.location)
        }
    }

    func log(_ value: JSONValue, operatorName: String, isTiled: Bool, at location: TextLocation) throws(CTLogListError) -> CTLog {
        let members = try object(value, "logs", at: location)
        let key = try base64(members, "key")
        let keyLocation = member(members, "key")?.location
        guard (try? SubjectPublicKeyInfo(derEncoded: key)) != nil else { throw CTLogListError(.invalidKey, at: keyLocation) }
        let logID = try base64(members, "log_id")
        guard logID.elementsEqual(SHA256.hash(key)) else {
            throw CTLogListError(.logIDMismatch, at: member(members, "log_id")?.location)
        }
        var state: CTLogState? = nil
        if let stateMember = member(members, "state") {
            state = try self.state(stateMember)
        }
        var interval: Range<Int64>? = nil
        if let intervalMember = member(members, "temporal_interval") {
            let bounds = try object(intervalMember.value, "temporal_interval", at: intervalMember.location)
            let start = try time(bounds, "start_inclusive"), end = try time(bounds, "end_exclusive")
            guard start <= end else { throw CTLogListError(.invalidTimestamp("end_exclusive"), at: intervalMember.location) }
            interval = start..<end
        }
        return CTLog(
            key: key, description: try optionalString(members, "description") ?? "", operatorName: operatorName,
            state: state, temporalInterval: interval, isTiled: isTiled)
    }

    func state(_ found: JSONMember) throws(CTLogListError) -> CTLogState {
        let members = try object(found.value, "state", at: found.location)
        let known: [(String, (Int64) -> CTLogState)] = [
            ("pending", CTLogState.pending), ("qualified", CTLogState.qualified), ("usable", CTLogState.usable),
            ("readonly", CTLogState.readonly), ("retired", CTLogState.retired), ("rejected", CTLogState.rejected),
        ]
        var result: CTLogState? = nil
        for (name, make) in known {
            guard let entry = member(members, name) else { continue }
            guard result == nil else { throw CTLogListError(.invalidState, at: found.location) }
            result = make(try time(try object(entry.value, name, at: entry.location), "timestamp"))
        }
        guard let result else { throw CTLogListError(.invalidState, at: found.location) }
        return result
    }
}

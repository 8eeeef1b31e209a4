// The x509-limbo suite, result and exceptions documents (see LimboHarness.swift).

/// A limbo suite: `{"version": 1, "testcases": [...]}`.
public struct LimboSuite: Sendable {
    /// The schema version (1).
    public var version: Int
    /// The cases, in file order.
    public var testcases: [LimboTestCase]
}

/// A reference identifier in a limbo case.
public struct LimboPeerName: Sendable {
    /// `DNS`, `IP` or `RFC822`.
    public var kind: String
    /// The name as text.
    public var value: String
}

/// One limbo test case (only the fields a verifier needs).
public struct LimboTestCase: Sendable {
    public var id: String
    public var features: [String]?
    public var description: String?
    public var validation_kind: String
    public var trusted_certs: [String]
    public var untrusted_intermediates: [String]
    public var peer_certificate: String
    public var validation_time: String?
    public var signature_algorithms: [String]?
    public var key_usage: [String]?
    public var extended_key_usage: [String]?
    public var expected_result: String
    public var expected_peer_name: LimboPeerName?
    public var expected_peer_names: [LimboPeerName]?
    public var max_chain_depth: Int?
    public var crls: [String]?
}

/// A harness verdict: the contract's `actual_result` values.
public enum LimboActual: String, Sendable {
    case success = "SUCCESS"
    case failure = "FAILURE"
    case skipped = "SKIPPED"
}

/// One entry of the `LimboResult` output.
public struct LimboResult: Sendable {
    public var id: String
    public var actual_result: LimboActual
    public var context: String?

    public init(id: String, actual_result: LimboActual, context: String?) {
        self.id = id
        self.actual_result = actual_result
        self.context = context
    }
}

/// `Vectors/limbo/exceptions.json`: the cases where Tack deliberately disagrees with
/// the expected result, each with its reason (webpki keeps the same kind of list).
public struct LimboExceptions: Sendable {
    /// One deliberate divergence.
    public struct Divergence: Sendable {
        public var id: String
        public var reason: String
    }
    public var divergences: [Divergence]

    /// The reason for `id`, if it is a listed divergence.
    public func reason(for id: String) -> String? {
        divergences.first { $0.id == id }?.reason
    }

    public init(divergences: [Divergence] = []) {
        self.divergences = divergences
    }
}

// Reading: each document from its JSON object, naming the member that is missing or
// mistyped (TackFormats' reader; no Foundation coder).
extension LimboSuite {
    /// Reads a suite document.
    ///
    /// - Parameter bytes: The document's bytes.
    /// - Throws: ``JSONShapeError`` when it is not JSON or not a suite.
    public init(jsonBytes bytes: [UInt8]) throws(JSONShapeError) {
        let fields = try JSONFields(document: bytes)
        version = try fields.int("version")
        testcases = try fields.objects("testcases") { (testCase) throws(JSONShapeError) in try LimboTestCase(fields: testCase) }
    }
}

extension LimboPeerName {
    /// Reads a peer name from its object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a missing or mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        kind = try fields.string("kind")
        value = try fields.string("value")
    }
}

extension LimboTestCase {
    /// Reads a case from its object.
    ///
    /// - Parameter fields: The object.
    /// - Throws: ``JSONShapeError`` for a missing or mistyped member.
    public init(fields: JSONFields) throws(JSONShapeError) {
        id = try fields.string("id")
        features = try fields.optionalStrings("features")
        description = try fields.optionalString("description")
        validation_kind = try fields.string("validation_kind")
        trusted_certs = try fields.strings("trusted_certs")
        untrusted_intermediates = try fields.strings("untrusted_intermediates")
        peer_certificate = try fields.string("peer_certificate")
        validation_time = try fields.optionalString("validation_time")
        signature_algorithms = try fields.optionalStrings("signature_algorithms")
        key_usage = try fields.optionalStrings("key_usage")
        extended_key_usage = try fields.optionalStrings("extended_key_usage")
        expected_result = try fields.string("expected_result")
        expected_peer_name = try fields.optionalObject("expected_peer_name") { (name) throws(JSONShapeError) in try LimboPeerName(fields: name) }
        expected_peer_names = try fields.optionalObjects("expected_peer_names") { (name) throws(JSONShapeError) in
            try LimboPeerName(fields: name)
        }
        max_chain_depth = try fields.optionalInt("max_chain_depth")
        crls = try fields.optionalStrings("crls")
    }
}

extension LimboExceptions {
    /// Reads an exceptions document (`{"divergences": [{"id", "reason"}]}`).
    ///
    /// - Parameter bytes: The document's bytes.
    /// - Throws: ``JSONShapeError`` when it is not JSON or not an exceptions document.
    public init(jsonBytes bytes: [UInt8]) throws(JSONShapeError) {
        divergences = try JSONFields(document: bytes).objects("divergences") { (entry) throws(JSONShapeError) in
            Divergence(id: try entry.string("id"), reason: try entry.string("reason"))
        }
    }
}

// The x509-limbo suite, result and exceptions documents (see LimboHarness.swift).

/// A limbo suite: `{"version": 1, "testcases": [...]}`.
public struct LimboSuite: Decodable, Sendable {
    /// The schema version (1).
    public var version: Int
    /// The cases, in file order.
    public var testcases: [LimboTestCase]
}

/// A reference identifier in a limbo case.
public struct LimboPeerName: Codable, Sendable {
    /// `DNS`, `IP` or `RFC822`.
    public var kind: String
    /// The name as text.
    public var value: String
}

/// One limbo test case (only the fields a verifier needs).
public struct LimboTestCase: Decodable, Sendable {
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
public enum LimboActual: String, Codable, Sendable {
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
public struct LimboExceptions: Decodable, Sendable {
    /// One deliberate divergence.
    public struct Divergence: Decodable, Sendable {
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

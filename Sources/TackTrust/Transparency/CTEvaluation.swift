import TackDER
import TackSignature
public import TackX509

/// How an SCT reached the client (RFC 6962 §3.3).
public enum SCTSource: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// In the certificate's SCT list extension; signs the precertificate entry.
    case embedded
    /// In the TLS `signed_certificate_timestamp` extension; signs the X.509 entry.
    case tls
    /// In a stapled OCSP response's single-response extension; signs the X.509 entry.
    case ocsp

    /// `embedded`, `tls` or `ocsp`.
    public var description: String { rawValue }
}

/// What checking one SCT found.
public enum SCTStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The signature verifies and the log's state counts at the SCT's timestamp.
    case valid
    /// The log ID is not in the log list.
    case unknownLog = "unknown_log"
    /// The signature does not verify with the log's key (wrong entry, wrong issuer
    /// key hash, altered certificate, or a key the algorithm does not fit).
    case invalidSignature = "invalid_signature"
    /// The timestamp is after the verification time.
    case futureTimestamp = "future_timestamp"
    /// The signature verifies, but the log is pending, rejected, has no state, or
    /// retired before the SCT.
    case logNotApproved = "log_not_approved"
    /// The SCT, or its list, could not be decoded.
    case malformed

    /// The snake_case status word.
    public var description: String { rawValue }
}

/// One SCT as checked: where it came from, its log, and its status.
public struct SCTReport: Sendable, Hashable {
    /// How it was delivered.
    public let source: SCTSource
    /// The decoded SCT, or `nil` when ``status`` is ``SCTStatus/malformed``.
    public let sct: SignedCertificateTimestamp?
    /// Why it is malformed, when it is.
    public let decodingError: SCTError?
    /// Its log in the list, if listed.
    public let log: CTLog?
    /// What the check found.
    public let status: SCTStatus
    /// How the log counts at the SCT's timestamp (for a valid SCT).
    public let approval: CTApproval?
}

/// What to check a leaf's Certificate Transparency against: the log list, the
/// policy, and the SCTs delivered beside the certificate.
public struct CTRequirement: Sendable {
    /// The log list the caller trusts (the core never fetches one).
    public var logList: CTLogList
    /// The policy to meet; ``CTPolicy/apple`` by default.
    public var policy: CTPolicy
    /// The TLS `signed_certificate_timestamp` extension data received, each a
    /// TLS-encoded `SignedCertificateTimestampList` (RFC 6962 §3.3).
    public var tlsSCTLists: [[UInt8]]
    /// Whether a stale log list (``CTLogList/isStale(at:)``) still enforces the
    /// policy; `false` by default, as Chrome does (staleness is reported either way).
    public var enforcesStaleList: Bool

    /// Creates a requirement.
    ///
    /// - Parameters:
    ///   - logList: The log list.
    ///   - policy: The policy.
    ///   - tlsSCTLists: SCT lists received in the TLS extension.
    ///   - enforcesStaleList: Whether a stale list still enforces.
    public init(logList: CTLogList, policy: CTPolicy = .apple, tlsSCTLists: [[UInt8]] = [], enforcesStaleList: Bool = false) {
        self.logList = logList
        self.policy = policy
        self.tlsSCTLists = tlsSCTLists
        self.enforcesStaleList = enforcesStaleList
    }
}

/// The Certificate Transparency verdict on a leaf: every SCT checked, and whether the
/// policy is met.
public struct CTEvaluation: Sendable, Hashable {
    /// The policy applied.
    public let policy: CTPolicy
    /// Every SCT found, in source order (embedded, then OCSP, then TLS).
    public let scts: [SCTReport]
    /// `nil` when the policy is met, else why not.
    public let failure: CTPolicyFailure?
    /// The log list's own timestamp.
    public let logListTimestamp: Int64?
    /// Whether the log list is older than 70 days at the check time.
    public let isStale: Bool
    /// The leaf's lifetime in days, as the policy counted it.
    public let lifetimeDays: Int64

    /// Whether the policy is met.
    public var isCompliant: Bool { failure == nil }

    /// Checks the SCTs of `leaf` (embedded, in `stapledResponses`, and in
    /// `requirement`'s TLS lists) and decides on the policy.
    ///
    /// Embedded SCTs are verified over the precertificate entry built with `issuer`'s
    /// key, the others over the X.509 entry (RFC 6962 §3.2), each with its log's key
    /// from the list; an SCT whose timestamp is after `time` is
    /// ``SCTStatus/futureTimestamp``.
    ///
    /// - Parameters:
    ///   - leaf: The leaf certificate.
    ///   - issuer: The leaf's issuer (its SubjectPublicKeyInfo gives `issuer_key_hash`).
    ///   - stapledResponses: OCSP responses; the single responses about `leaf` are read.
    ///   - requirement: The log list, policy and TLS SCT lists.
    ///   - time: The check time, seconds since 1970.
    public init(leaf: Certificate, issuer: Certificate, stapledResponses: [OCSPResponse], requirement: CTRequirement, at time: Int64) {
        var reports: [SCTReport] = []
        let logList = requirement.logList
        var keys: [[UInt8]: SignatureVerificationKey] = [:]
        func check(_ entries: [Result<SignedCertificateTimestamp, SCTError>], _ source: SCTSource, _ entry: () -> CTLogEntry?) {
            for item in entries {
                switch item {
                case .failure(let error):
                    reports.append(SCTReport(source: source, sct: nil, decodingError: error, log: nil, status: .malformed, approval: nil))
                case .success(let sct):
                    let log = logList.log(id: sct.logID)
                    let (status, approval) = Self.status(of: sct, log: log, entry: entry(), at: time, keys: &keys)
                    reports.append(SCTReport(source: source, sct: sct, decodingError: nil, log: log, status: status, approval: approval))
                }
            }
        }
        func malformed(_ error: X509Error, _ source: SCTSource) {
            let reason = SCTError(.malformedList(Self.fault(of: error)), at: error.offset)
            reports.append(SCTReport(source: source, sct: nil, decodingError: reason, log: nil, status: .malformed, approval: nil))
        }
        // Embedded: a framing error of the extension itself is one malformed entry.
        do {
            if let list = try leaf.signedCertificateTimestamps {
                let precertificate = try? leaf.precertificateLogEntry(issuerPublicKeyInfo: issuer.spkiBytes)
                check(list.entries, .embedded) { precertificate }
            }
        } catch {
            malformed(error, .embedded)
        }
        for response in stapledResponses {
            guard let basic = response.basicResponse else { continue }
            for single in basic.responses(for: leaf, issuedBy: issuer) {
                do {
                    if let list = try basic.signedCertificateTimestampList(of: single) {
                        check(SignedCertificateTimestampList.decodeEntries(list), .ocsp) { leaf.x509LogEntry }
                    }
                } catch {
                    malformed(error, .ocsp)
                }
            }
        }
        for list in requirement.tlsSCTLists {
            check(SignedCertificateTimestampList.decodeEntries(list[...]), .tls) { leaf.x509LogEntry }
        }
        let lifetime = CTPolicy.lifetimeDays(
            notBefore: leaf.validity.notBefore.secondsSince1970, notAfter: leaf.validity.notAfter.secondsSince1970)
        let counted = reports.compactMap { report -> CTPolicy.CountedSCT? in
            guard report.status == .valid, let log = report.log, let approval = report.approval else { return nil }
            return CTPolicy.CountedSCT(source: report.source, logID: log.logID, operatorName: log.operatorName, approval: approval)
        }
        self.policy = requirement.policy
        self.scts = reports
        self.failure = requirement.policy.evaluate(counted, lifetimeDays: lifetime)
        self.logListTimestamp = logList.timestamp
        self.isStale = logList.isStale(at: time)
        self.lifetimeDays = lifetime
    }

    /// The status of one decoded SCT: log, time, signature, then the log's state.
    static func status(
        of sct: SignedCertificateTimestamp, log: CTLog?, entry: CTLogEntry?, at time: Int64,
        keys: inout [[UInt8]: SignatureVerificationKey]
    ) -> (SCTStatus, CTApproval?) {
        guard let log else { return (.unknownLog, nil) }
        guard sct.timestampSeconds <= time else { return (.futureTimestamp, nil) }
        // The rebuilt precertificate entry cannot fail for a parsed certificate; if it
        // did, the SCT cannot be verified, which is not success.
        guard let entry else { return (.invalidSignature, nil) }
        let key: SignatureVerificationKey
        if let prepared = keys[log.logID] {
            key = prepared
        } else {
            guard let info = try? SubjectPublicKeyInfo(derEncoded: log.key),
                  let prepared = try? SignatureVerificationKey(info) else { return (.invalidSignature, nil) }
            keys[log.logID] = prepared
            key = prepared
        }
        do {
            try sct.verifySignature(over: entry, with: key)
        } catch {
            return (.invalidSignature, nil)
        }
        guard let approval = log.state?.approval(ofSCTAt: sct.timestampSeconds) else { return (.logNotApproved, nil) }
        return (.valid, approval)
    }

    /// The framing fault of an SCT list extension's error (a DER error of the OCTET
    /// STRING around it counts as a truncated list).
    static func fault(of error: X509Error) -> X509Error.ExtensionFault {
        if case .invalidExtension(_, let fault) = error.reason { return fault }
        return .truncatedSCTList
    }
}

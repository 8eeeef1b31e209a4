import TackDER
import TackTestSupport
import TackTrust
import TackX509
import Testing

/// The `OCSP`, `CRL` and `CT` traits (Package.swift's `optionalFamilies`): with a trait
/// on, the check runs; with it off, a caller that asks for it gets
/// ``TrustFailure/Reason/notBuilt(_:)``, never a pass. A default build (every trait on,
/// what CI tests) checks the first branch of each; `swift test
/// --disable-default-traits --filter TraitAvailability` the other. The pinning image of
/// the bare-metal check (no trait) answers the hard-fail case on a Cortex-M4.
@Suite("Trait availability")
struct TraitAvailabilityTests {
    /// Within the trust-unit chains' validity.
    static let time: Int64 = 1_750_000_000

    static func der(_ testCase: String, _ name: String) throws -> [UInt8] {
        try RepositoryPaths.vectorBytes("trust-unit/\(testCase)/\(name).der")
    }

    static func decide(_ testCase: String, options: TrustOptions) throws -> TrustDecision {
        let anchors = AnchorStore([try Certificate(derEncoded: try der(testCase, "root"))])
        return TrustEvaluator(anchors: anchors, options: options)
            .evaluate(servedChain: [try der(testCase, "leaf"), try der(testCase, "ica")], host: nil, at: time)
    }

    /// Whether `decision` is untrusted for `feature` not being built.
    static func refusedAsNotBuilt(_ decision: TrustDecision, _ feature: TrustFeature) -> Bool {
        guard case .untrusted(let failure, _) = decision, case .notBuilt(let missing) = failure.reason else { return false }
        return missing == feature && failure.code == "not_built" && failure.isFatal
    }

    @Test("Each feature says whether this build has it, and which trait builds it")
    func features() {
        #if TACK_OCSP
        #expect(TrustFeature.ocsp.isBuilt)
        #else
        #expect(!TrustFeature.ocsp.isBuilt)
        #endif
        #if TACK_CRL
        #expect(TrustFeature.crl.isBuilt)
        #else
        #expect(!TrustFeature.crl.isBuilt)
        #endif
        #if TACK_CT
        #expect(TrustFeature.certificateTransparency.isBuilt)
        #else
        #expect(!TrustFeature.certificateTransparency.isBuilt)
        #endif
        #expect(TrustFeature.allCases.map(\.trait) == ["OCSP", "CRL", "CT"])
        #expect(TrustFeature.allCases.map(\.description) == ["ocsp", "crl", "ct"])
        let failure = TrustFailure(.notBuilt(.crl), certificate: .served(index: 0))
        #expect(failure.description.contains("package trait CRL off"))
    }

    @Test("A CRL that revokes the leaf: revoked with CRL, not_built without it")
    func revocationList() throws {
        let crl = try CertificateRevocationList(derEncoded: try Self.der("revoked", "crl-revoking-leaf"))
        let decision = try Self.decide("revoked", options: TrustOptions(revocationLists: [crl]))
        #expect(!decision.isTrusted)
        #if TACK_CRL
        guard case .untrusted(let failure, _) = decision, case .revoked = failure.reason else {
            Issue.record("expected revoked, got \(decision)")
            return
        }
        #else
        #expect(Self.refusedAsNotBuilt(decision, .crl), "\(decision)")
        #endif
    }

    @Test("Hard-fail with no status: missing_revocation_status with OCSP, not_built without it")
    func hardFail() throws {
        let decision = try Self.decide("valid", options: TrustOptions(revocationPolicy: .hardFail))
        #expect(!decision.isTrusted)
        #if TACK_OCSP
        guard case .untrusted(let failure, _) = decision, failure.reason == .missingRevocationStatus else {
            Issue.record("expected missing_revocation_status, got \(decision)")
            return
        }
        #else
        #expect(Self.refusedAsNotBuilt(decision, .ocsp), "\(decision)")
        #endif
        // No policy, no check: the same chain is trusted in every build.
        #expect(try Self.decide("valid", options: TrustOptions(revocationPolicy: .none)).isTrusted)
    }

    @Test("A CT requirement the leaf cannot meet: a ct failure with CT, not_built without it")
    func transparency() throws {
        let requirement = CTRequirement(logList: CTLogList(timestamp: Self.time, version: "1", logs: []), enforcesStaleList: true)
        let decision = try Self.decide("valid", options: TrustOptions(certificateTransparency: requirement))
        #expect(!decision.isTrusted)
        #if TACK_CT
        guard case .untrusted(let failure, _) = decision, case .certificateTransparency = failure.reason else {
            Issue.record("expected a ct failure, got \(decision)")
            return
        }
        #else
        #expect(Self.refusedAsNotBuilt(decision, .certificateTransparency), "\(decision)")
        #endif
    }
}

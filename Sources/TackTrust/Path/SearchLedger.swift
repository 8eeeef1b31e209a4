import TackSignature

/// What one path search has spent and verified: the ``Budget``'s two counters, charged
/// here and nowhere else, the budget failure that stopped the search, and one memo of
/// signature results keyed by what was signed (a certificate, a CRL, an OCSP response)
/// and by whom, so that paths sharing a link, and revocation checks sharing an issuer,
/// pay for a signature once.
///
/// The chain builder and the ``RevocationChecker`` share one ledger (the builder owns
/// it and lends it to the checker per link), so the budget covers both.
struct SearchLedger {
    /// What a signature covers: a node of the search (a certificate), or the CRL or
    /// OCSP response at an index of ``TrustOptions/revocationLists`` or
    /// ``TrustOptions/stapledResponses``.
    enum Signed: Hashable {
        case certificate(node: Int)
        case revocationList(index: Int)
        case ocspResponse(index: Int)

        /// The kind (in declaration order) and the number: the order of ``Link``.
        fileprivate var order: (kind: Int, number: Int) {
            switch self {
            case .certificate(let node): return (0, node)
            case .revocationList(let index): return (1, index)
            case .ocspResponse(let index): return (2, index)
            }
        }
    }

    /// One signature of the search: `signed` under the key of node `issuer`.
    struct Link: Hashable {
        let issuer: Int
        let signed: Signed

        /// Whether this link comes before `other`: by issuer, then what is signed (the
        /// order of the sorted tables, ``LinkMemo``).
        func precedes(_ other: Link) -> Bool {
            let (kind, number) = signed.order
            let (otherKind, otherNumber) = other.signed.order
            return (issuer, kind, number) < (other.issuer, otherKind, otherNumber)
        }
    }

    private let budget: Budget
    /// Signature verifications charged (hits of the caller's ``SignatureCache`` included).
    private(set) var signatureChecks = 0
    /// Candidate issuers examined.
    private(set) var buildSteps = 0
    /// The budget failure that stopped the search, if any: once set, every charge fails.
    private(set) var exhausted: TrustFailure? = nil
    /// Whether the budget is spent. A pattern, not `exhausted != nil`: on an Equatable
    /// optional that comparison calls `TrustFailure`'s `==`, which Embedded Swift keeps
    /// at -Osize, and its `String` payloads bring the Unicode tables into firmware.
    var isExhausted: Bool {
        if case .some = exhausted { return true }
        return false
    }
    /// Signature results by link (the first few inline, no allocation).
    private var results = SignatureMemo()

    init(budget: Budget) {
        self.budget = budget
    }

    /// Charges one signature verification: `false`, with ``exhausted`` set, when the
    /// budget has none left.
    mutating func chargeSignatureCheck() -> Bool {
        guard !isExhausted else { return false }
        guard signatureChecks < budget.signatureChecks else {
            exhausted = TrustFailure(.signatureBudgetExhausted, certificate: nil)
            return false
        }
        signatureChecks += 1
        return true
    }

    /// Charges one build step (a candidate issuer examined): `false`, with
    /// ``exhausted`` set, when the budget has none left.
    mutating func chargeBuildStep() -> Bool {
        guard !isExhausted else { return false }
        buildSteps += 1
        guard buildSteps <= budget.buildSteps else {
            exhausted = TrustFailure(.buildStepBudgetExhausted, certificate: nil)
            return false
        }
        return true
    }

    /// The result of `link`'s signature: the memo's, else `verify()`'s, charged to the
    /// budget and kept. `nil` when the budget is spent (``exhausted`` says so): the
    /// signature was not checked, and nothing may treat it as verified.
    ///
    /// - Returns: `.some(nil)` when the signature verifies, `.some(error)` when not.
    mutating func signature(_ link: Link, verify: () -> SignatureError?) -> SignatureError?? {
        if let known = results[link] { return .some(known) }
        guard chargeSignatureCheck() else { return nil }
        let outcome = verify()
        results.insert(outcome, for: link)
        return .some(outcome)
    }

    /// What `verify` throws under `key`, or the key's own failure; `nil` when it verifies.
    static func failure(
        under key: Result<SignatureVerificationKey, SignatureError>,
        _ verify: (SignatureVerificationKey) throws(SignatureError) -> Void
    ) -> SignatureError? {
        switch key {
        case .failure(let error):
            return error
        case .success(let prepared):
            do {
                try verify(prepared)
                return nil
            } catch {
                return error
            }
        }
    }
}

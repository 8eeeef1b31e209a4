import TackDER
import TackSignature
import TackX509

/// What the revocation check of one link found.
struct LinkRevocation {
    /// The certificate's status on the path.
    var status: RevocationStatus = .notChecked
    /// Faults of the path (revoked, and what the policy does not forgive): recorded
    /// with the path's other soft failures.
    var failures: [TrustFailure] = []
    /// A fault that refuses the candidate issuer at once (an invalid CRL of its).
    var hardFailure: TrustFailure? = nil
    /// What a soft-fail policy forgave.
    var notes: [TrustFailure] = []
}

/// Revocation of one link of a path (a certificate and the issuer chosen for it): the
/// caller's CRLs and OCSP responses, weighed by the ``TrustOptions``'
/// ``RevocationPolicy``, with Must-Staple (RFC 7633) enforced in every policy but none.
///
/// A policy apart from the path search (as swift-certificates keeps OCSP apart from its
/// builder): the chain builder asks ``status(of:issuedBy:ledger:)`` once per link it
/// accepts, lending the ``SearchLedger`` so that every signature is charged to the one
/// budget and verified at most once per search. What it keeps between links (the CRL
/// issuers' match keys, who signed each response) is its own.
struct RevocationChecker {
    /// The issuer of a link, as the chain builder knows it.
    struct Issuer {
        /// Its node number in the search (the ledger's key).
        let number: Int
        let node: PathNode
        /// Its prepared verification key, or why it has none.
        let key: Result<SignatureVerificationKey, SignatureError>
    }

    private let options: TrustOptions
    /// The validation time, in seconds since 1970.
    private let time: Int64
    #if TACK_CRL
    /// The match keys of the caller's CRL issuer names, computed on first use.
    private var crlIssuerKeys: [[UInt8]?]? = nil
    #endif
    #if TACK_OCSP
    /// Who signed each OCSP response, by (issuer node, response); see
    /// ``responseSigner(_:index:issuer:ledger:)``.
    private var responseSigners = LinkMemo<ResponseSigner>()
    #endif

    init(options: TrustOptions, time: Int64) {
        self.options = options
        self.time = time
    }

    #if TACK_OCSP
    /// Who signed an OCSP response, as far as one issuer is concerned.
    private enum ResponseSigner: Equatable {
        /// The issuer, or a responder it authorised; the signature verified.
        case authorised
        /// A delegated responder the issuer authorised, without `id-pkix-ocsp-nocheck`,
        /// for whose certificate no CRL or response gives a status; the signature verified.
        case authorisedWithoutStatus(responder: String)
        /// A delegated responder the issuer authorised whose own certificate is revoked.
        case revokedResponder(responder: String, revocationTime: Int64, reason: CRLReason?)
        /// Neither the issuer nor a responder it authorised (§4.2.2.2).
        case notAuthorised
        /// An authorised signer whose signature does not verify.
        case badSignature(SignatureError)
    }

    /// What the OCSP responses say about one link.
    private enum ResponseOutcome {
        /// No response has a single response for the certificate.
        case none
        /// The response at this index of ``TrustOptions/stapledResponses`` validly says
        /// good; `note` when its delegated responder's own status is not known (soft-fail).
        case good(Int, note: TrustFailure?)
        /// A valid response says revoked.
        case revoked(TrustFailure)
        /// The first response for the certificate is unusable (signer, signature, time)
        /// or says unknown.
        case problem(TrustFailure)
    }
    #endif

    /// What the caller's CRLs of an issuer, or its own OCSP responses, say about a serial
    /// number.
    private enum SerialStatus {
        /// Nothing about it: no CRL of this issuer was supplied (or no response of its
        /// names the certificate).
        case none
        /// The current CRL at this index is the issuer's and does not list the serial
        /// (for a responder's status, the index is not used).
        case good(Int)
        /// Revoked at this time, for this reason when said.
        case revoked(Int64, reason: CRLReason?)
        /// A CRL of this issuer is unusable, or the budget ran out (the ledger says so).
        case invalid
    }

    /// The revocation status of `subject` with `issuer` as its issuer.
    ///
    /// Order: the policy (``RevocationPolicy/none`` checks nothing); the caller's CRLs of
    /// `issuer` (RFC 5280 §6.3.3, complete CRLs only: an invalid one refuses the
    /// candidate, a listing is a revocation, a current one that does not list the serial
    /// is a good status); the OCSP responses with a single response for the certificate
    /// (see ``checkResponses(of:issuedBy:ledger:)``); then Must-Staple and, under
    /// ``RevocationPolicy/hardFail``, the need for a fresh status. A problem the policy
    /// forgives becomes a note. A spent budget (``SearchLedger/exhausted``) ends the
    /// check; the caller tests the ledger.
    ///
    /// In a build without the `CRL` or `OCSP` trait, the caller's CRLs or responses, a
    /// Must-Staple certificate (no `OCSP`) and, without `OCSP`, a hard-fail policy's
    /// need for fresh status fail the link with ``TrustFailure/Reason/notBuilt(_:)``:
    /// a check that cannot run never passes.
    mutating func status(of subject: PathNode, issuedBy issuer: Issuer, ledger: inout SearchLedger) -> LinkRevocation {
        var link = LinkRevocation()
        guard options.revocationPolicy != .none else { return link }
        #if TACK_CRL
        switch listStatus(ofSerial: subject.certificate.serialNumber, issuedBy: issuer, ledger: &ledger) {
        case .none: break
        case .good(let index): link.status = .goodByRevocationList(list: index)
        case .revoked(let time, let reason):
            link.failures.append(subject.failure(.revoked(revocationTime: time, reason: reason)))
            return link
        case .invalid:
            link.hardFailure = ledger.exhausted ?? issuer.node.failure(.invalidRevocationList)
            return link
        }
        if ledger.isExhausted { return link }
        #else
        if !options.revocationLists.isEmpty {
            link.failures.append(subject.failure(.notBuilt(.crl)))
            return link
        }
        #endif

        var problem: TrustFailure? = nil
        #if TACK_OCSP
        let response = checkResponses(of: subject, issuedBy: issuer, ledger: &ledger)
        if ledger.isExhausted { return link }
        switch response {
        case .none: break
        case .good(let index, let note):
            link.status = .goodByResponse(response: index)
            if let note { link.notes.append(note) }
        case .revoked(let failure):
            link.failures.append(failure)
            return link
        case .problem(let failure): problem = failure
        }
        #else
        // Responses this build cannot check, and the two demands only a response
        // meets (Must-Staple; hard-fail's fresh status, which a CRL could give too, but
        // this build can take no response).
        if !options.stapledResponses.isEmpty || (options.revocationPolicy == .hardFail && link.status == .notChecked) {
            problem = subject.failure(.notBuilt(.ocsp))
        }
        #endif

        var isGoodByResponse = false
        if case .goodByResponse = link.status { isGoodByResponse = true }
        let mustStaple: Bool
        if let feature = subject.decoded.tlsFeature {
            mustStaple = feature.requiresStapledResponse
        } else {
            mustStaple = false
        }
        if mustStaple, !isGoodByResponse {
            // RFC 7633 §4.2.2: the staple's own fault, when there is one, says more.
            #if TACK_OCSP
            link.failures.append(problem ?? subject.failure(.mustStapleWithoutResponse))
            #else
            link.failures.append(subject.failure(.notBuilt(.ocsp)))
            #endif
            return link
        }
        let hasFreshStatus = link.status != .notChecked
        if options.revocationPolicy == .hardFail, !hasFreshStatus {
            link.failures.append(problem ?? subject.failure(.missingRevocationStatus))
            return link
        }
        #if TACK_OCSP
        if let problem { link.notes.append(problem) }
        #else
        // Responses supplied to a build that cannot check them fail in every policy.
        if let problem { link.failures.append(problem) }
        #endif
        return link
    }

    #if TACK_OCSP

    /// The caller's OCSP responses about `subject` as issued by `issuer` (RFC 6960
    /// §3.2): a response counts when one of its single responses has a CertID for the
    /// certificate (SHA-1 or SHA-2 hashes of the issuer's name and key, and the serial
    /// number). Such a response must be signed by the issuer or by a responder it
    /// authorised (``responseSigner(_:index:issuer:ledger:)``), and be current at the
    /// check time within the clock allowance. A valid good or revoked answer is final;
    /// otherwise the first problem is returned, so that a later valid response (RFC 6961
    /// lists may carry several) can still answer.
    private mutating func checkResponses(of subject: PathNode, issuedBy issuer: Issuer, ledger: inout SearchLedger) -> ResponseOutcome {
        guard !options.stapledResponses.isEmpty else { return .none }
        var firstProblem: TrustFailure? = nil
        for (index, response) in options.stapledResponses.enumerated() {
            var note: TrustFailure? = nil
            guard let basic = response.basicResponse else { continue }
            let singles = basic.responses(for: subject.certificate, issuedBy: issuer.node.certificate)
            guard let single = singles.first else { continue }
            var problem: TrustFailure? = nil
            let signer = responseSigner(basic, index: index, issuer: issuer, ledger: &ledger)
            switch signer {
            case .notAuthorised: problem = subject.failure(.responderNotAuthorized)
            case .badSignature(let error): problem = subject.failure(.responseSignatureInvalid(error))
            case .revokedResponder(let responder, let revocationTime, let reason):
                problem = subject.failure(.responderRevoked(responder: responder, revocationTime: revocationTime, reason: reason))
            case .authorisedWithoutStatus(let responder) where options.revocationPolicy == .hardFail:
                problem = subject.failure(.missingResponderStatus(responder: responder))
            case .authorised, .authorisedWithoutStatus:
                if case .authorisedWithoutStatus(let responder) = signer {
                    note = subject.failure(.missingResponderStatus(responder: responder))
                }
                switch single.currency(at: time, clockSkew: options.responseClockSkew, maximumAge: options.responseMaximumAge) {
                case .notYetValid(let thisUpdate):
                    problem = subject.failure(.responseNotYetValid(thisUpdate: thisUpdate, checkTime: time))
                case .stale(let validUntil):
                    problem = subject.failure(.responseStale(validUntil: validUntil, checkTime: time))
                case .current:
                    switch single.status {
                    case .good: return .good(index, note: note)
                    case .revoked(let revocationTime, let reason):
                        return .revoked(subject.failure(.revoked(revocationTime: revocationTime, reason: reason)))
                    case .unknown: problem = subject.failure(.revocationStatusUnknown)
                    }
                }
            }
            if ledger.isExhausted { return .none }
            if case .none = firstProblem { firstProblem = problem }
        }
        return firstProblem.map { .problem($0) } ?? .none
    }

    /// Who signed response `index` (``TrustOptions/stapledResponses``), as far as
    /// `issuer` is concerned (RFC 6960 §4.2.2.2), decided once per response and issuer,
    /// each verification charged to the budget:
    /// - the issuer itself, when the responder ID names it: the signature must verify
    ///   under its key;
    /// - else a certificate of the response's `certs` that the responder ID names,
    ///   whose issuer name is the issuer's subject, whose signature verifies under the
    ///   issuer's key, which carries `id-kp-OCSPSigning` in its extended key usage and
    ///   is valid at the check time: the response's signature must verify under its key.
    ///
    /// Anything else is ``ResponseSigner/notAuthorised``. A delegated responder with
    /// `id-pkix-ocsp-nocheck` is, as §4.2.2.2.1 allows, not checked for revocation;
    /// one without it is checked with the data the caller supplied, never fetched
    /// (``responderStatus(_:issuer:ledger:)``): revoked, it makes the response unusable
    /// (``ResponseSigner/revokedResponder(responder:revocationTime:reason:)``); with no
    /// status, ``ResponseSigner/authorisedWithoutStatus(responder:)``, which the
    /// policy weighs (a failure under hard-fail, a note under soft-fail).
    private mutating func responseSigner(
        _ basic: BasicOCSPResponse, index: Int, issuer: Issuer, ledger: inout SearchLedger
    ) -> ResponseSigner {
        let link = SearchLedger.Link(issuer: issuer.number, signed: .ocspResponse(index: index))
        if let known = responseSigners[link] { return known }
        let outcome = decideResponseSigner(basic, link: link, issuer: issuer, ledger: &ledger)
        if !ledger.isExhausted { responseSigners.insert(outcome, for: link) }
        return outcome
    }

    private mutating func decideResponseSigner(
        _ basic: BasicOCSPResponse, link: SearchLedger.Link, issuer: Issuer, ledger: inout SearchLedger
    ) -> ResponseSigner {
        let issuerCertificate = issuer.node.certificate
        if basic.responderIDMatches(issuerCertificate) {
            let policy = options.signaturePolicy
            let verified = ledger.signature(link) {
                SearchLedger.failure(under: issuer.key) { (key) throws(SignatureError) in try basic.verifySignature(with: key, policy: policy) }
            }
            guard let verified else { return .notAuthorised }
            return verified.map { .badSignature($0) } ?? .authorised
        }
        guard issuer.node.subject != nil else { return .notAuthorised }
        for delegate in basic.certificates where basic.responderIDMatches(delegate) {
            guard issuer.node.hasSubject(matching: try? delegate.issuer),
                  delegate.validity.contains(secondsSince1970: time),
                  let usage = try? delegate.extendedKeyUsage, usage.contains(ExtendedKeyUsage.ocspSigning) else { continue }
            guard ledger.chargeSignatureCheck() else { return .notAuthorised }
            guard case .success(let issuerKey) = issuer.key,
                  (try? delegate.verifySignature(with: issuerKey, policy: options.signaturePolicy)) != nil else { continue }
            guard ledger.chargeSignatureCheck() else { return .notAuthorised }
            do {
                let delegateKey = try SignatureVerificationKey(delegate.publicKeyInfo)
                try basic.verifySignature(with: delegateKey, policy: options.signaturePolicy)
            } catch {
                return .badSignature(error)
            }
            if delegate.extensions.contains(where: { $0.oid == OCSPResponse.noCheckOID }) { return .authorised }
            let responder = (try? delegate.subject)?.rfc4514String ?? "?"
            switch responderStatus(delegate, issuer: issuer, ledger: &ledger) {
            case .good: return .authorised
            case .revoked(let revocationTime, let reason):
                return .revokedResponder(responder: responder, revocationTime: revocationTime, reason: reason)
            case .none, .invalid: return !ledger.isExhausted ? .authorisedWithoutStatus(responder: responder) : .notAuthorised
            }
        }
        return .notAuthorised
    }

    /// A delegated responder certificate's status (RFC 6960 §4.2.2.2.1: a responder
    /// without `id-pkix-ocsp-nocheck` is checked), from what the caller supplied only:
    /// the CRLs of `issuer` (which issued the responder), then the responses signed by
    /// the issuer itself (responder ID naming it) with a current single response for the
    /// responder certificate. A response from another delegated responder does not
    /// count, so that the check never recurses. `.good` or `.revoked`, else `.none`.
    private mutating func responderStatus(_ delegate: Certificate, issuer: Issuer, ledger: inout SearchLedger) -> SerialStatus {
        #if TACK_CRL
        switch listStatus(ofSerial: delegate.serialNumber, issuedBy: issuer, ledger: &ledger) {
        case .good(let index): return .good(index)
        case .revoked(let time, let reason): return .revoked(time, reason: reason)
        case .none, .invalid: break
        }
        guard !ledger.isExhausted else { return .none }
        #endif
        let issuerCertificate = issuer.node.certificate
        for (index, response) in options.stapledResponses.enumerated() {
            guard let basic = response.basicResponse, basic.responderIDMatches(issuerCertificate) else { continue }
            let singles = basic.responses(for: delegate, issuedBy: issuerCertificate)
            guard let single = singles.first,
                  single.currency(at: time, clockSkew: options.responseClockSkew, maximumAge: options.responseMaximumAge) == .current
            else { continue }
            guard ledger.chargeSignatureCheck() else { return .none }
            guard case .success(let prepared) = issuer.key,
                  (try? basic.verifySignature(with: prepared, policy: options.signaturePolicy)) != nil else { continue }
            switch single.status {
            case .good: return .good(index)
            case .revoked(let revocationTime, let reason): return .revoked(revocationTime, reason: reason)
            case .unknown: continue
            }
        }
        return .none
    }
    #endif

    #if TACK_CRL
    /// The serial number `serial` of a certificate issued by `issuer` against the
    /// caller's CRLs of `issuer` (RFC 5280 §6.3.3, complete CRLs only: the parser refuses
    /// delta and partitioned CRLs); also used for a delegated OCSP responder's
    /// certificate, which is not a node.
    ///
    /// A CRL is the issuer's when its issuer name matches the issuer's subject (§7.1)
    /// and its authority key identifier does not name another key; CRLs of other
    /// issuers are ignored. For each of the issuer's CRLs: its key usage must allow
    /// cRLSign when present (§6.3.3 (f)), the signature must verify under its key
    /// (§6.3.3 (g); charged to the budget and checked once per CRL and issuer), and the
    /// CRL must be current (§6.3.3 (a)(2)); otherwise `.invalid`. A listed serial
    /// (§6.3.3 (i)) is `.revoked`; a current CRL of the issuer that does not list it is
    /// `.good`.
    private mutating func listStatus(ofSerial serial: ArraySlice<UInt8>, issuedBy issuer: Issuer, ledger: inout SearchLedger) -> SerialStatus {
        guard !options.revocationLists.isEmpty, let issuerName = issuer.node.subject?.matchKey else { return .none }
        if crlIssuerKeys == nil { crlIssuerKeys = options.revocationLists.map { (try? $0.issuer)?.matchKey } }
        let issuerKeyIdentifier = issuer.node.subjectKeyIdentifier
        var good: Int? = nil
        for (index, list) in options.revocationLists.enumerated() where crlIssuerKeys?[index] == issuerName {
            if let identifier = list.authorityKeyIdentifier.keyIdentifier, let issuerKeyIdentifier,
               !identifier.elementsEqual(issuerKeyIdentifier) {
                continue
            }
            if let usage = issuer.node.decoded.keyUsage, !usage.contains(.cRLSign) {
                return .invalid
            }
            let policy = options.signaturePolicy
            let verified = ledger.signature(SearchLedger.Link(issuer: issuer.number, signed: .revocationList(index: index))) {
                SearchLedger.failure(under: issuer.key) { (key) throws(SignatureError) in try list.verifySignature(with: key, policy: policy) }
            }
            guard let verified, verified == nil, list.isCurrent(atSecondsSince1970: time) else { return .invalid }
            if let time = list.revocationTime(forSerial: serial) { return .revoked(time, reason: nil) }
            if good == nil { good = index }
        }
        return good.map { .good($0) } ?? .none
    }
    #endif
}

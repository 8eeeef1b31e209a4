import TackDER
import TackSignature
import TackX509

// Revocation of one link of a path (a certificate and the issuer chosen for it):
// the caller's CRLs (ChainBuilder.checkRevocation) and OCSP responses, weighed by
// the TrustOptions' RevocationPolicy, with Must-Staple (RFC 7633) enforced in every
// policy but none.

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

/// Who signed an OCSP response, as far as one issuer is concerned.
enum ResponseSigner: Equatable {
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

extension ChainBuilder {
    /// The revocation status of node `subject` with node `issuer` as its issuer.
    ///
    /// Order: the policy (``RevocationPolicy/none`` checks nothing); the caller's CRLs
    /// of `issuer` (an invalid one refuses the candidate, a listing is a revocation, a
    /// current one that does not list the serial is a good status); the OCSP responses
    /// with a single response for the certificate (see ``checkResponses(of:issuedBy:)``);
    /// then Must-Staple and, under ``RevocationPolicy/hardFail``, the need for a fresh
    /// status. A problem the policy forgives becomes a note.
    mutating func checkStatus(of subject: Int, issuedBy issuer: Int) -> LinkRevocation {
        var link = LinkRevocation()
        guard options.revocationPolicy != .none, let subjectNode = nodes[subject] else { return link }
        switch checkRevocation(of: subject, issuedBy: issuer) {
        case .none: break
        case .good(let index): link.status = .goodByRevocationList(list: index)
        case .soft(let failure):
            link.failures.append(failure)
            return link
        case .hard(let failure):
            link.hardFailure = failure
            return link
        }
        if exhausted != nil { return link }

        let response = checkResponses(of: subject, issuedBy: issuer)
        if exhausted != nil { return link }
        var problem: TrustFailure? = nil
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

        var isGoodByResponse = false
        if case .goodByResponse = link.status { isGoodByResponse = true }
        let mustStaple: Bool
        if case .success(let decoded) = subjectNode.extensions, let feature = decoded.tlsFeature {
            mustStaple = feature.requiresStapledResponse
        } else {
            mustStaple = false
        }
        if mustStaple, !isGoodByResponse {
            // RFC 7633 §4.2.2: the staple's own fault, when there is one, says more.
            link.failures.append(problem ?? subjectNode.failure(.mustStapleWithoutResponse))
            return link
        }
        let hasFreshStatus = link.status != .notChecked
        if options.revocationPolicy == .hardFail, !hasFreshStatus {
            link.failures.append(problem ?? subjectNode.failure(.missingRevocationStatus))
            return link
        }
        if let problem { link.notes.append(problem) }
        return link
    }

    /// What the OCSP responses say about one link.
    enum ResponseOutcome {
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

    /// The caller's OCSP responses about node `subject` as issued by node `issuer`
    /// (RFC 6960 §3.2): a response counts when one of its single responses has a
    /// CertID for the certificate (SHA-1 or SHA-2 hashes of `issuer`'s name and key,
    /// and the serial number). Such a response must be signed by `issuer` or by a
    /// responder `issuer` authorised (``responseSigner(_:index:issuer:)``), and be
    /// current at the check time within the clock allowance. A valid good or revoked
    /// answer is final; otherwise the first problem is returned, so that a later
    /// valid response (RFC 6961 lists may carry several) can still answer.
    mutating func checkResponses(of subject: Int, issuedBy issuer: Int) -> ResponseOutcome {
        guard !options.stapledResponses.isEmpty, let subjectNode = nodes[subject], let issuerNode = nodes[issuer] else {
            return .none
        }
        var firstProblem: TrustFailure? = nil
        for (index, response) in options.stapledResponses.enumerated() {
            var note: TrustFailure? = nil
            guard let basic = response.basicResponse else { continue }
            let singles = basic.responses(for: subjectNode.certificate, issuedBy: issuerNode.certificate)
            guard let single = singles.first else { continue }
            var problem: TrustFailure? = nil
            let signer = responseSigner(basic, index: index, issuer: issuer)
            switch signer {
            case .notAuthorised: problem = subjectNode.failure(.responderNotAuthorized)
            case .badSignature(let error): problem = subjectNode.failure(.responseSignatureInvalid(error))
            case .revokedResponder(let responder, let revocationTime, let reason):
                problem = subjectNode.failure(.responderRevoked(responder: responder, revocationTime: revocationTime, reason: reason))
            case .authorisedWithoutStatus(let responder) where options.revocationPolicy == .hardFail:
                problem = subjectNode.failure(.missingResponderStatus(responder: responder))
            case .authorised, .authorisedWithoutStatus:
                if case .authorisedWithoutStatus(let responder) = signer {
                    note = subjectNode.failure(.missingResponderStatus(responder: responder))
                }
                switch single.currency(at: time, clockSkew: options.responseClockSkew, maximumAge: options.responseMaximumAge) {
                case .notYetValid(let thisUpdate):
                    problem = subjectNode.failure(.responseNotYetValid(thisUpdate: thisUpdate, checkTime: time))
                case .stale(let validUntil):
                    problem = subjectNode.failure(.responseStale(validUntil: validUntil, checkTime: time))
                case .current:
                    switch single.status {
                    case .good: return .good(index, note: note)
                    case .revoked(let revocationTime, let reason):
                        return .revoked(subjectNode.failure(.revoked(revocationTime: revocationTime, reason: reason)))
                    case .unknown: problem = subjectNode.failure(.revocationStatusUnknown)
                    }
                }
            }
            if exhausted != nil { return .none }
            if firstProblem == nil { firstProblem = problem }
        }
        return firstProblem.map { .problem($0) } ?? .none
    }

    /// Who signed response `index` (``TrustOptions/stapledResponses``), as far as node
    /// `issuer` is concerned (RFC 6960 §4.2.2.2), decided once per response and issuer
    /// and charged to the budget:
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
    /// (``responderStatus(_:issuer:)``): revoked, it makes the response unusable
    /// (``ResponseSigner/revokedResponder(responder:revocationTime:reason:)``); with no
    /// status, ``ResponseSigner/authorisedWithoutStatus(responder:)``, which the
    /// policy weighs (a failure under hard-fail, a note under soft-fail).
    mutating func responseSigner(_ basic: BasicOCSPResponse, index: Int, issuer: Int) -> ResponseSigner {
        let cacheKey = SignatureLink(issuer: issuer, subject: index)
        if let known = responseSigners[cacheKey] { return known }
        let outcome = decideResponseSigner(basic, issuer: issuer)
        if exhausted == nil { responseSigners[cacheKey] = outcome }
        return outcome
    }

    private mutating func decideResponseSigner(_ basic: BasicOCSPResponse, issuer: Int) -> ResponseSigner {
        guard let issuerNode = nodes[issuer] else { return .notAuthorised }
        let issuerCertificate = issuerNode.certificate
        if basic.responderIDMatches(issuerCertificate) {
            guard chargeSignatureCheck() else { return .notAuthorised }
            switch key(for: issuer) {
            case .failure(let error): return .badSignature(error)
            case .success(let prepared):
                do {
                    try basic.verifySignature(with: prepared, policy: options.signaturePolicy)
                    return .authorised
                } catch {
                    return .badSignature(error)
                }
            }
        }
        guard issuerNode.subject != nil else { return .notAuthorised }
        for delegate in basic.certificates where basic.responderIDMatches(delegate) {
            guard issuerNode.hasSubject(matching: try? delegate.issuer),
                  delegate.validity.contains(secondsSince1970: time),
                  let usage = try? delegate.extendedKeyUsage, usage.contains(ExtendedKeyUsage.ocspSigning) else { continue }
            guard chargeSignatureCheck() else { return .notAuthorised }
            guard case .success(let issuerKey) = key(for: issuer),
                  (try? delegate.verifySignature(with: issuerKey, policy: options.signaturePolicy)) != nil else { continue }
            guard chargeSignatureCheck() else { return .notAuthorised }
            do {
                let delegateKey = try SignatureVerificationKey(delegate.publicKeyInfo)
                try basic.verifySignature(with: delegateKey, policy: options.signaturePolicy)
            } catch {
                return .badSignature(error)
            }
            if delegate.extensions.contains(where: { $0.oid == OCSPResponse.noCheckOID }) { return .authorised }
            let responder = (try? delegate.subject)?.rfc4514String ?? "?"
            switch responderStatus(delegate, issuer: issuer) {
            case .good: return .authorised
            case .revoked(let revocationTime, let reason):
                return .revokedResponder(responder: responder, revocationTime: revocationTime, reason: reason)
            case .missing: return exhausted == nil ? .authorisedWithoutStatus(responder: responder) : .notAuthorised
            }
        }
        return .notAuthorised
    }

    /// What the caller's data says about a delegated responder's certificate.
    enum ResponderStatus {
        /// A current CRL of its issuer does not list it, or its issuer says good.
        case good
        /// Revoked, by a CRL or a response of its issuer.
        case revoked(revocationTime: Int64, reason: CRLReason?)
        /// No status from the caller's data.
        case missing
    }

    /// A delegated responder certificate's status (RFC 6960 §4.2.2.2.1: a responder
    /// without `id-pkix-ocsp-nocheck` is checked), from what the caller supplied only:
    /// the CRLs of node `issuer` (which issued the responder), then the responses
    /// signed by `issuer` itself (responder ID naming it) with a current single
    /// response for the responder certificate. A response from another delegated
    /// responder does not count, so that the check never recurses.
    private mutating func responderStatus(_ delegate: Certificate, issuer: Int) -> ResponderStatus {
        switch listStatus(ofSerial: delegate.serialNumber, issuedBy: issuer) {
        case .good: return .good
        case .revoked(let time): return .revoked(revocationTime: time, reason: nil)
        case .none, .invalid: break
        }
        guard exhausted == nil, let issuerNode = nodes[issuer] else { return .missing }
        let issuerCertificate = issuerNode.certificate
        for response in options.stapledResponses {
            guard let basic = response.basicResponse, basic.responderIDMatches(issuerCertificate) else { continue }
            let singles = basic.responses(for: delegate, issuedBy: issuerCertificate)
            guard let single = singles.first,
                  single.currency(at: time, clockSkew: options.responseClockSkew, maximumAge: options.responseMaximumAge) == .current
            else { continue }
            guard chargeSignatureCheck() else { return .missing }
            guard case .success(let prepared) = key(for: issuer),
                  (try? basic.verifySignature(with: prepared, policy: options.signaturePolicy)) != nil else { continue }
            switch single.status {
            case .good: return .good
            case .revoked(let revocationTime, let reason): return .revoked(revocationTime: revocationTime, reason: reason)
            case .unknown: continue
            }
        }
        return .missing
    }

    /// Charges one signature check to the budget: `false`, with ``exhausted`` set,
    /// when none is left.
    mutating func chargeSignatureCheck() -> Bool {
        guard signatureChecks < options.budget.signatureChecks else {
            exhausted = TrustFailure(.signatureBudgetExhausted, certificate: nil)
            return false
        }
        signatureChecks += 1
        return true
    }
}

// The chain builder's revocation lookups (RevocationChecking).
extension ChainBuilder {
    /// What revocation checking found.
    enum RevocationOutcome {
        /// No CRL of this issuer was supplied.
        case none
        /// The current CRL at this index of ``TrustOptions/revocationLists`` is the
        /// issuer's and does not list the certificate.
        case good(Int)
        /// A valid CRL lists it (``TrustFailure/Reason/revoked(revocationTime:reason:)``).
        case soft(TrustFailure)
        /// A CRL of this issuer is unusable, or the budget ran out.
        case hard(TrustFailure)
    }

    /// The certificate of node `subject` against the caller's CRLs issued by node
    /// `issuer` (RFC 5280 §6.3.3, complete CRLs only: the parser refuses delta and
    /// partitioned CRLs).
    ///
    /// A CRL is `issuer`'s when its issuer name matches the issuer's subject (§7.1)
    /// and its authority key identifier does not name another key; CRLs of other
    /// issuers are ignored. For each of `issuer`'s CRLs: the issuer's key usage must
    /// allow cRLSign when present (§6.3.3 (f)), the signature must verify under its
    /// key (§6.3.3 (g); charged to the budget and checked once per CRL and issuer),
    /// and the CRL must be current (§6.3.3 (a)(2)); otherwise the path fails with
    /// ``TrustFailure/Reason/invalidRevocationList`` naming the issuer. A listed
    /// serial (§6.3.3 (i)) is a soft ``TrustFailure/Reason/revoked(revocationTime:reason:)``; a current
    /// CRL of the issuer that does not list it is a good status.
    mutating func checkRevocation(of subject: Int, issuedBy issuer: Int) -> RevocationOutcome {
        guard let subjectNode = nodes[subject], let issuerNode = nodes[issuer] else { return .none }
        switch listStatus(ofSerial: subjectNode.certificate.serialNumber, issuedBy: issuer) {
        case .none: return .none
        case .good(let index): return .good(index)
        case .revoked(let time): return .soft(subjectNode.failure(.revoked(revocationTime: time, reason: nil)))
        case .invalid: return .hard(exhausted ?? issuerNode.failure(.invalidRevocationList))
        }
    }

    /// What the caller's CRLs of node `issuer` say about a serial number.
    enum ListStatus {
        /// No CRL of this issuer was supplied.
        case none
        /// The current CRL at this index is the issuer's and does not list the serial.
        case good(Int)
        /// A valid CRL of the issuer lists the serial, revoked at this time.
        case revoked(Int64)
        /// A CRL of this issuer is unusable, or the budget ran out (``exhausted`` set).
        case invalid
    }

    /// The serial number `serial` of a certificate issued by node `issuer` against the
    /// caller's CRLs of `issuer`, as ``checkRevocation(of:issuedBy:)`` describes; also
    /// used for a delegated OCSP responder's certificate, which is not a node.
    mutating func listStatus(ofSerial serial: ArraySlice<UInt8>, issuedBy issuer: Int) -> ListStatus {
        guard !options.revocationLists.isEmpty, let issuerNode = nodes[issuer],
              let issuerName = issuerNode.subject?.matchKey else { return .none }
        if crlIssuerKeys == nil { crlIssuerKeys = options.revocationLists.map { (try? $0.issuer)?.matchKey } }
        let issuerKeyIdentifier = issuerNode.subjectKeyIdentifier
        var good: Int? = nil
        for (index, list) in options.revocationLists.enumerated() where crlIssuerKeys?[index] == issuerName {
            if let identifier = list.authorityKeyIdentifier.keyIdentifier, let issuerKeyIdentifier,
               !identifier.elementsEqual(issuerKeyIdentifier) {
                continue
            }
            if case .success(let decoded) = issuerNode.extensions, let usage = decoded.keyUsage, !usage.contains(.cRLSign) {
                return .invalid
            }
            let link = SignatureLink(issuer: issuer, subject: -1 - index)
            let valid: Bool
            if let cached = signatures[link] {
                valid = cached == nil
            } else {
                guard signatureChecks < options.budget.signatureChecks else {
                    exhausted = TrustFailure(.signatureBudgetExhausted, certificate: nil)
                    return .invalid
                }
                signatureChecks += 1
                var outcome: SignatureError? = nil
                switch key(for: issuer) {
                case .failure(let error): outcome = error
                case .success(let prepared):
                    do { try list.verifySignature(with: prepared, policy: options.signaturePolicy) } catch { outcome = error }
                }
                signatures[link] = outcome
                valid = outcome == nil
            }
            guard valid, list.isCurrent(atSecondsSince1970: time) else { return .invalid }
            if let time = list.revocationTime(forSerial: serial) { return .revoked(time) }
            if good == nil { good = index }
        }
        return good.map { .good($0) } ?? .none
    }
}

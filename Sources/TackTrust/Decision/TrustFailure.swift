public import TackDER
public import TackSignature
public import TackX509

/// Why a certificate path could not be trusted, and which certificate it concerns.
///
/// Failures are values: an enumerated ``Reason`` (wrapping the lower layer's
/// typed error where there is one) and a ``CertificateReference``. Text comes
/// only from ``description``.
public struct TrustFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var reason: Reason
    /// The certificate it concerns, or `nil` when it concerns no single certificate
    /// (an exhausted budget, for example).
    public var certificate: CertificateReference?

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - certificate: The certificate it concerns, or `nil`.
    public init(_ reason: Reason, certificate: CertificateReference?) {
        self.reason = reason
        self.certificate = certificate
    }

    /// The failure reasons, in the platform's vocabulary.
    public enum Reason: Sendable, Hashable {
        // MARK: Recoverable (the platform lets a user override these)
        /// The certificate's `notAfter` is before the validation time (`checkTime`),
        /// both in seconds since 1970.
        case expired(notAfter: Int64, checkTime: Int64)
        /// The certificate's `notBefore` is after the validation time (`checkTime`),
        /// both in seconds since 1970.
        case notYetValid(notBefore: Int64, checkTime: Int64)
        /// The leaf does not carry the expected host: `leafNames` are the DNS and IP
        /// names of its subject alternative names (empty when it has none), as values:
        /// the text is made by ``TrustFailure/description`` (the DNS name as written, the
        /// address in its usual form), so a verdict that is not printed renders nothing.
        case peerNameMismatch(host: PeerHost, leafNames: [GeneralName])
        /// No path from this certificate reaches an anchor: no candidate issuer was found.
        /// `issuer` is the issuer name looked for and `authorityKeyIdentifier` the key
        /// identifier looked for, when the certificate has them (`nil` for an empty
        /// chain). The name is the certificate's own (its `description` is the RFC 4514
        /// text): it is rendered only when read, so a verdict that only branches on the
        /// failure renders nothing.
        case unknownIssuer(issuer: DistinguishedName?, authorityKeyIdentifier: [UInt8]?)
        /// The path ends in a self-issued certificate (subject equal to issuer, the
        /// shape of a root) that is not one of the anchors: `subject` is its name
        /// (RFC 4514 text in its `description`).
        /// Served roots are allowed (and ignored when an anchor is found); this one
        /// is the end of every path, and it is not trusted.
        case untrustedRoot(subject: DistinguishedName)
        /// The certificate is revoked, by a CRL or an OCSP response the caller supplied;
        /// `reason` as the response gives it (`nil` when absent, and for CRLs).
        case revoked(revocationTime: Int64, reason: CRLReason?)
        /// A valid OCSP response says the certificate's status is unknown.
        case revocationStatusUnknown
        /// The OCSP response for the certificate ran out at `validUntil` (its
        /// `nextUpdate`, or `thisUpdate` plus ``TrustOptions/responseMaximumAge``),
        /// before the check time, beyond the clock allowance.
        case responseStale(validUntil: Int64, checkTime: Int64)
        /// The OCSP response for the certificate is from after the check time
        /// (`thisUpdate`), beyond the clock allowance.
        case responseNotYetValid(thisUpdate: Int64, checkTime: Int64)
        /// A hard-fail policy found no fresh status for the certificate: no current CRL
        /// of its issuer and no usable OCSP response.
        case missingRevocationStatus
        /// The certificate asks for a stapled OCSP response (RFC 7633 Must-Staple) and
        /// none valid for it was supplied.
        case mustStapleWithoutResponse

        // MARK: Fatal
        /// The certificate does not parse (strict RFC 5280 / DER).
        case malformed(X509Error)
        /// The signature does not verify under the issuer's key, or the algorithm or
        /// key is refused by the `SignaturePolicy` (a weak digest or key has its own
        /// reasons: ``weakSignatureAlgorithm(_:)``, ``weakKey(bits:minimum:)``).
        case badSignature(SignatureError)
        /// The certificate's RSA key has `bits` bits, fewer than `minimum`: the key of an
        /// issuer, below ``TrustOptions/signaturePolicy``'s minimum (or
        /// 1024 bits, the least Tack verifies), in every profile; the leaf's key, below
        /// ``TrustProfile/minimumRSAModulusBitCount``, under a profile that has one. The
        /// certificate named is the key's owner.
        case weakKey(bits: Int, minimum: Int)
        /// The certificate is signed with an algorithm whose digest is not collision
        /// resistant (MD5, SHA-1): refused in every profile, and named as such rather
        /// than as a signature that does not verify.
        case weakSignatureAlgorithm(SignatureAlgorithm)
        /// The leaf, with a `notBefore` on or after 2019-07-01, has no extended key usage
        /// containing id-kp-serverAuth (``TrustProfile/apple``).
        case missingServerAuth
        /// The leaf's validity period, `days` (see ``TrustProfile/apple`` for the count),
        /// is longer than `limit` days (``TrustProfile/apple``: 825, or 398 under a
        /// system anchor for leaves from 2020-09-01).
        case validityTooLong(days: Int, limit: Int)
        /// An issuer is not a CA: no basicConstraints with cA TRUE (or a v1/v2 certificate
        /// used as an intermediate).
        case issuerNotCA
        /// A CA's pathLenConstraint is exceeded.
        case pathLengthExceeded(limit: Int)
        /// An issuer has keyUsage without keyCertSign (or a CRL issuer without cRLSign).
        case missingKeyCertSign
        /// The leaf's key usage does not allow the wanted use.
        case keyUsageMismatch
        /// The extended key usage of the leaf, or of an intermediate that has one,
        /// does not allow the wanted purpose.
        case extendedKeyUsageMismatch
        /// A critical extension Tack does not process.
        case unknownCriticalExtension(OID)
        /// A name of this certificate is outside the permitted subtrees, or inside the
        /// excluded subtrees, of the constraining CA.
        case nameConstraintViolation(constrainedBy: CertificateReference)
        /// A CA's name constraints use a form Tack cannot evaluate while critical.
        case unsupportedNameConstraint
        /// The path would be longer than the maximum depth.
        case maximumDepthExceeded(limit: Int)
        /// A caller-supplied CRL for this issuer is malformed, badly signed or out of date.
        case invalidRevocationList
        /// The OCSP response for this certificate is signed neither by its issuer nor by
        /// a responder the issuer authorised (RFC 6960 §4.2.2.2), or its responder ID
        /// does not name the signer.
        case responderNotAuthorized
        /// The OCSP response for this certificate is signed by a delegated responder
        /// (`responder`, RFC 4514 text) whose own certificate is revoked, by a CRL or
        /// response the caller supplied (RFC 6960 §4.2.2.2.1): the response is unusable.
        case responderRevoked(responder: String, revocationTime: Int64, reason: CRLReason?)
        /// The OCSP response for this certificate is signed by a delegated responder
        /// (`responder`, RFC 4514 text) without `id-pkix-ocsp-nocheck` for whose own
        /// certificate no CRL or response was supplied (RFC 6960 §4.2.2.2.1): a failure
        /// under hard-fail, a note under soft-fail.
        case missingResponderStatus(responder: String)
        /// The OCSP response for this certificate does not verify under its signer's key
        /// (or uses an algorithm the `SignaturePolicy` refuses, SHA-1 included).
        case responseSignatureInvalid(SignatureError)
        /// The search ran out of signature checks.
        case signatureBudgetExhausted
        /// The search ran out of build steps.
        case buildStepBudgetExhausted
        /// The chain is served in the wrong order: the first certificate is a CA and the
        /// served certificate at `leafAt` (0-based, among those that parsed) is an
        /// end-entity certificate it, or another served CA, issued. A server sends its
        /// own certificate first (RFC 8446 §4.4.2, RFC 5246 §7.4.2).
        case servedOutOfOrder(leafAt: Int)
        /// The certificate breaks a rule of the RFC 5280 / CA/Browser Forum profile
        /// that path validation enforces on the certificates the peer sent.
        case profileViolation(ProfileViolation)
        /// The leaf's Signed Certificate Timestamps do not meet the Certificate
        /// Transparency policy (``TrustOptions/certificateTransparency``);
        /// ``TrustDetails/certificateTransparency`` lists every SCT and its status.
        case certificateTransparency(CTPolicyFailure)
        /// The caller asked for a check that this build of Tack leaves out (its package
        /// trait is off): OCSP responses, a Must-Staple certificate or a hard-fail
        /// revocation policy without `OCSP`, CRLs without `CRL`, a Certificate
        /// Transparency requirement without `CT`. The check could not run, so the path
        /// is not trusted.
        case notBuilt(TrustFeature)
    }

    /// A rule of the certificate profile (RFC 5280 §4, CA/Browser Forum Baseline
    /// Requirements §7.1) that a certificate of the path breaks. Anchors are held
    /// to a subset (see the README's leniencies).
    public enum ProfileViolation: Sendable, Hashable, CustomStringConvertible {
        /// A certificate that is not self-issued lacks an authority key identifier
        /// with a keyIdentifier (RFC 5280 §4.2.1.1).
        case missingAuthorityKeyIdentifier
        /// A CA certificate lacks a subject key identifier (RFC 5280 §4.2.1.2).
        case missingSubjectKeyIdentifier
        /// An extension that must be non-critical is critical: the authority or subject
        /// key identifier (§4.2.1.1, §4.2.1.2) or authority information access (§4.2.2.1).
        case mustBeNonCritical(OID)
        /// A CA certificate's basic constraints are not critical (RFC 5280 §4.2.1.9).
        case nonCriticalBasicConstraints
        /// A CA certificate has an empty subject (RFC 5280 §4.1.2.6).
        case emptyCASubject
        /// Name constraints in a certificate that is not a CA (RFC 5280 §4.2.1.10).
        case nameConstraintsInEndEntity
        /// keyCertSign without cA TRUE (RFC 5280 §4.2.1.3, §4.2.1.9).
        case keyCertSignWithoutCA
        /// An end-entity certificate with cA TRUE but no keyCertSign (CA/B BR §7.1.2.7.8:
        /// cA MUST be FALSE in subscriber certificates).
        case endEntityMarkedCA
        /// An empty subject without a critical subject alternative name (RFC 5280
        /// §4.1.2.6, §4.2.1.6).
        case emptySubjectWithoutCriticalSAN
        /// A critical subject alternative name beside a non-empty subject (CA/B BR
        /// §7.1.2.7.12; RFC 5280 §4.2.1.6 "SHOULD mark ... non-critical").
        case criticalSANWithSubject
        /// A self-signed certificate's authority key identifier names another key
        /// than its subject key identifier (RFC 5280 §4.2.1.1).
        case authorityKeyIdentifierMismatch

        /// The rule, briefly.
        public var description: String {
            switch self {
            case .missingAuthorityKeyIdentifier: return "no authority key identifier"
            case .missingSubjectKeyIdentifier: return "CA certificate without subject key identifier"
            case .mustBeNonCritical(let oid): return "extension \(oid) must not be critical"
            case .nonCriticalBasicConstraints: return "CA basic constraints not critical"
            case .emptyCASubject: return "CA certificate with an empty subject"
            case .nameConstraintsInEndEntity: return "name constraints in a non-CA certificate"
            case .keyCertSignWithoutCA: return "keyCertSign without cA"
            case .endEntityMarkedCA: return "end-entity certificate with cA TRUE"
            case .emptySubjectWithoutCriticalSAN: return "empty subject without a critical subject alternative name"
            case .criticalSANWithSubject: return "critical subject alternative name with a non-empty subject"
            case .authorityKeyIdentifierMismatch: return "authority key identifier of a self-signed certificate names another key"
            }
        }
    }

    /// A stable identifier of the reason, for tools, logs and test manifests: the
    /// case's name (for example `path_length_exceeded`), as `X509Error.code` and
    /// `SignatureError.code` are for theirs. Payloads (times, limits, wrapped
    /// errors) are not part of it; a wrapped error has its own `code`.
    public var code: String {
        switch reason {
        case .expired: "expired"
        case .notYetValid: "not_yet_valid"
        case .peerNameMismatch: "peer_name_mismatch"
        case .unknownIssuer: "unknown_issuer"
        case .untrustedRoot: "untrusted_root"
        case .revoked: "revoked"
        case .revocationStatusUnknown: "revocation_status_unknown"
        case .responseStale: "response_stale"
        case .responseNotYetValid: "response_not_yet_valid"
        case .missingRevocationStatus: "missing_revocation_status"
        case .mustStapleWithoutResponse: "must_staple_without_response"
        case .responderNotAuthorized: "responder_not_authorized"
        case .responderRevoked: "responder_revoked"
        case .missingResponderStatus: "missing_responder_status"
        case .responseSignatureInvalid: "response_signature_invalid"
        case .malformed: "malformed"
        case .badSignature: "bad_signature"
        case .weakKey: "weak_key"
        case .weakSignatureAlgorithm: "weak_signature_algorithm"
        case .missingServerAuth: "missing_server_auth"
        case .validityTooLong: "validity_too_long"
        case .issuerNotCA: "issuer_not_ca"
        case .pathLengthExceeded: "path_length_exceeded"
        case .missingKeyCertSign: "missing_key_cert_sign"
        case .keyUsageMismatch: "key_usage_mismatch"
        case .extendedKeyUsageMismatch: "extended_key_usage_mismatch"
        case .unknownCriticalExtension: "unknown_critical_extension"
        case .nameConstraintViolation: "name_constraint_violation"
        case .unsupportedNameConstraint: "unsupported_name_constraint"
        case .maximumDepthExceeded: "maximum_depth_exceeded"
        case .invalidRevocationList: "invalid_revocation_list"
        case .profileViolation: "profile_violation"
        case .certificateTransparency: "ct"
        case .servedOutOfOrder: "served_out_of_order"
        case .signatureBudgetExhausted: "signature_budget_exhausted"
        case .buildStepBudgetExhausted: "build_step_budget_exhausted"
        case .notBuilt: "not_built"
        }
    }

    /// Whether the platform would call this failure fatal rather than recoverable.
    public var isFatal: Bool {
        switch reason {
        case .expired, .notYetValid, .peerNameMismatch, .unknownIssuer, .untrustedRoot, .revoked, .revocationStatusUnknown,
             .responseStale, .responseNotYetValid, .missingRevocationStatus, .mustStapleWithoutResponse,
             .certificateTransparency:
            return false
        default: return true
        }
    }

    /// One line a person can act on.
    public var description: String {
        let subject = certificate.map { " (\($0))" } ?? ""
        switch reason {
        case .expired(let notAfter, let checkTime):
            return "certificate expired at \(RFC3339.format(notAfter)), \(Self.span(checkTime, notAfter)) before the check time\(subject)"
        case .notYetValid(let notBefore, let checkTime):
            return "certificate not valid before \(RFC3339.format(notBefore)), \(Self.span(notBefore, checkTime)) after the check time\(subject)"
        case .peerNameMismatch(let host, let names):
            let texts = names.map { name -> String in
                switch name {
                case .dnsName(let text): text
                case .ipAddress(let address): address.description
                default: name.description
                }
            }
            let listed = texts.isEmpty ? "it has no DNS or IP name" : "its names are " + texts.joined(separator: ", ")
            // Named by served position (the certificate served first is not the leaf
            // when the chain is served out of order).
            return "\(certificate.map { "\($0)" } ?? "the leaf") is not for \(host): \(listed)"
        case .unknownIssuer(let issuer, let keyIdentifier):
            guard let issuer else { return "no trusted issuer found\(subject)" }
            let key = keyIdentifier.map { ", key identifier " + Hex.encode($0, separator: ":", uppercase: true) } ?? ""
            return "no trusted issuer found\(subject): no anchor or served certificate is \"\(issuer)\"\(key)"
        case .untrustedRoot(let name):
            return "\(certificate.map { "\($0)" } ?? "the certificate") is a self-signed root (\(name)), and not one of the anchors"
        case .revoked(let time, let reason):
            let because = reason.map { " (\($0))" } ?? ""
            return "certificate revoked at \(RFC3339.format(time))\(because)\(subject)"
        case .revocationStatusUnknown: return "the OCSP responder does not know the certificate\(subject)"
        case .responseStale(let until, let checkTime):
            return "OCSP response ran out at \(RFC3339.format(until)), \(Self.span(checkTime, until)) before the check time\(subject)"
        case .responseNotYetValid(let thisUpdate, let checkTime):
            return "OCSP response not valid before \(RFC3339.format(thisUpdate)), \(Self.span(thisUpdate, checkTime)) after the check time\(subject)"
        case .missingRevocationStatus: return "no fresh revocation status (hard-fail policy)\(subject)"
        case .mustStapleWithoutResponse: return "Must-Staple certificate without a valid stapled OCSP response\(subject)"
        case .responderNotAuthorized: return "OCSP response signed by a responder its issuer did not authorise\(subject)"
        case .responderRevoked(let responder, let time, let reason):
            let because = reason.map { " (\($0))" } ?? ""
            return "OCSP response signed by the responder \"\(responder)\", whose certificate was revoked at \(RFC3339.format(time))\(because)\(subject)"
        case .missingResponderStatus(let responder):
            return "no revocation status for the OCSP responder \"\(responder)\" (no ocsp-nocheck)\(subject)"
        case .responseSignatureInvalid(let error): return "OCSP response signature check failed\(subject): \(error)"
        case .malformed(let error): return "malformed certificate\(subject): \(error)"
        case .badSignature(let error): return "signature check failed\(subject): \(error)"
        case .weakKey(let bits, let minimum): return "\(bits)-bit RSA key, below the minimum of \(minimum) bits\(subject)"
        case .weakSignatureAlgorithm(let algorithm):
            return "signed with \(algorithm), whose digest is not collision resistant\(subject)"
        case .missingServerAuth:
            return "no extended key usage with id-kp-serverAuth (required of TLS server certificates issued from 2019-07-01)\(subject)"
        case .validityTooLong(let days, let limit): return "validity period of \(days) days, over the limit of \(limit) days\(subject)"
        case .issuerNotCA: return "issuer is not a CA\(subject)"
        case .pathLengthExceeded(let limit): return "path length constraint \(limit) exceeded\(subject)"
        case .missingKeyCertSign: return "issuer key usage lacks keyCertSign\(subject)"
        case .keyUsageMismatch: return "key usage does not allow this use\(subject)"
        case .extendedKeyUsageMismatch: return "extended key usage does not allow this purpose\(subject)"
        case .unknownCriticalExtension(let oid): return "unknown critical extension \(oid)\(subject)"
        case .nameConstraintViolation(let by): return "name constraint of \(by) violated\(subject)"
        case .unsupportedNameConstraint: return "critical name constraint of an unsupported form\(subject)"
        case .maximumDepthExceeded(let limit): return "path longer than the maximum depth \(limit)\(subject)"
        case .invalidRevocationList: return "the supplied CRL is invalid\(subject)"
        case .signatureBudgetExhausted: return "signature budget exhausted"
        case .buildStepBudgetExhausted: return "path-building budget exhausted"
        case .profileViolation(let violation): return "profile violation\(subject): \(violation)"
        case .certificateTransparency(let failure):
            return "Certificate Transparency policy not met\(subject): \(failure) (\(failure.code))"
        case .notBuilt(let feature):
            return "this build of Tack has no \(feature) check (package trait \(feature.trait) off), and the caller asked for it\(subject)"
        case .servedOutOfOrder(let leafAt):
            return "the chain is served in the wrong order: the first certificate is a CA and served certificate #\(leafAt + 1) is the leaf; the server must send its own certificate first"
        }
    }

    /// ``Reason/unknownIssuer(issuer:authorityKeyIdentifier:)`` for `certificate`'s
    /// issuer name and authority key identifier.
    static func unknownIssuer(of certificate: Certificate?) -> Reason {
        guard let certificate else { return .unknownIssuer(issuer: nil, authorityKeyIdentifier: nil) }
        if certificate.derEncoded[certificate.issuerRange].elementsEqual(certificate.derEncoded[certificate.subjectRange]),
           let subject = try? certificate.subject {
            return .untrustedRoot(subject: subject)
        }
        let name = try? certificate.issuer
        let keyIdentifier = ((try? certificate.authorityKeyIdentifier) ?? nil)?.keyIdentifier.map { Array($0) }
        return .unknownIssuer(issuer: name, authorityKeyIdentifier: keyIdentifier)
    }

    /// `later - earlier` in words, in the largest unit that is not zero: whole days
    /// (`219 days`), or hours, minutes or seconds when under a day (`8 hours`).
    ///
    /// - Parameters:
    ///   - later: The later time, in seconds since 1970.
    ///   - earlier: The earlier time, in seconds since 1970.
    /// - Returns: The span, or `some time` when `later` is before `earlier`.
    public static func span(_ later: Int64, _ earlier: Int64) -> String {
        let (difference, overflow) = later.subtractingReportingOverflow(earlier)
        guard !overflow, difference >= 0 else { return "some time" }
        func unit(_ count: Int64, _ name: String) -> String { "\(count) \(name)" + (count == 1 ? "" : "s") }
        if difference >= 86_400 { return unit(difference / 86_400, "day") }
        if difference >= 3_600 { return unit(difference / 3_600, "hour") }
        if difference >= 60 { return unit(difference / 60, "minute") }
        return unit(difference, "second")
    }
}

import TackDER
import TackDigest
import TackSignature
import TackX509

// Per-certificate path validation (RFC 5280 §6.1.3/§6.1.4 with the CA/Browser
// Forum profile where the major verifiers apply it). The chain builder
// (ChainBuilder.swift) calls these as it extends a path; each returns the first
// failure it finds, or nil.
//
// Failures come in two classes (see `TrustFailure.isFatal`):
// - time validity and revocation are *soft*: they are recorded on the path and
//   the search goes on checking the rest of it, so that a path whose only fault
//   is an expired certificate is reported as such (recoverable) only when
//   everything else on it, signatures included, is valid;
// - everything else is *hard*: the candidate is refused and the search
//   backtracks.

/// A certificate taking part in a search, with what validation reads from it
/// decoded once.
///
/// A class, immutable: the search hands nodes around (the node table, the path, the
/// candidate checks), and a copy of a struct holding a ``TackX509/Certificate``, two
/// names and every decoded extension retained each of their buffers (about a dozen
/// atomic increments a copy, 245 of a verdict's 1,454 retain/release calls on
/// `trust-rsa2048-chain`, issue 35); a reference is one.
final class PathNode {
    /// The certificate.
    let certificate: Certificate
    /// Where it came from.
    let reference: CertificateReference
    /// Its number in the search: its served position, or `served.count` plus the order
    /// in which the search met the anchor (see ``SearchNodes``).
    let number: Int
    /// Whether it is a served certificate that may issue others (an intermediate, not a
    /// duplicate of an earlier one or of an anchor): a candidate issuer of every node.
    let isServedCandidate: Bool
    /// Whether it is a trust anchor (the end of a path).
    var isAnchor: Bool {
        if case .anchor = reference { return true }
        return false
    }
    /// The subject name, or nil when it does not decode. Names are compared in place
    /// (``TackX509/DistinguishedName/matches(_:)``, RFC 5280 §7.1), and looked up among
    /// the anchors by a hash computed in place
    /// (``TackX509/DistinguishedName/matchHash``, no allocation).
    let subject: DistinguishedName?
    /// The issuer name, or nil when it does not decode.
    let issuer: DistinguishedName?
    /// Every extension, typed; empty when one does not decode (``extensionError``).
    ///
    /// A stored `let` of a final class, read in place: as a `Result` each `case
    /// .success(let decoded)` copied the whole set (a dozen buffers retained and
    /// released, 36 pairs a verdict, issue 35), and so did a `guard let` of an optional.
    let decoded: DecodedExtensions
    /// The first error decoding the extensions, or nil when they all decode.
    let extensionError: X509Error?
    /// The subject key identifier, if present and decodable (kept apart from
    /// ``decoded`` so that the candidate sort reads it without copying them).
    let subjectKeyIdentifier: ArraySlice<UInt8>?
    /// The authority key identifier's keyIdentifier, if present and decodable.
    let authorityKeyIdentifier: ArraySlice<UInt8>?
    /// Its verification key once prepared as an issuer's (``IssuerKeys``): kept on the
    /// node, not in a table by node number, so a search makes no table for it.
    var preparedKey: Result<SignatureVerificationKey, SignatureError>? = nil
    /// SHA-256 of its SubjectPublicKeyInfo once computed for a ``SignatureCache`` key.
    var keyDigest: SHA256Digest? = nil

    init(_ certificate: Certificate, reference: CertificateReference, number: Int, isServedCandidate: Bool = false) {
        self.certificate = certificate
        self.reference = reference
        self.number = number
        self.isServedCandidate = isServedCandidate
        subject = try? certificate.subject
        issuer = try? certificate.issuer
        do {
            let decoded = try certificate.decodeAllExtensions()
            subjectKeyIdentifier = decoded.subjectKeyIdentifier?.keyIdentifier
            authorityKeyIdentifier = decoded.authorityKeyIdentifier?.keyIdentifier
            self.decoded = decoded
            extensionError = nil
        } catch {
            decoded = DecodedExtensions()
            extensionError = error
            subjectKeyIdentifier = nil
            authorityKeyIdentifier = nil
        }
    }

    /// Self-issued (RFC 5280 §6.1: subject and issuer names match; the key may differ).
    var isSelfIssued: Bool {
        guard let subject, let issuer else { return false }
        return subject.matches(issuer)
    }

    /// Whether this certificate's subject matches `name` (RFC 5280 §7.1); `false` when
    /// either does not decode.
    func hasSubject(matching name: DistinguishedName?) -> Bool {
        guard let subject, let name else { return false }
        return subject.matches(name)
    }

    /// A failure concerning this certificate.
    func failure(_ reason: TrustFailure.Reason) -> TrustFailure {
        TrustFailure(reason, certificate: reference)
    }
}

/// The extension OIDs that validation processes or may safely ignore when critical.
///
/// RFC 5280 §4.2: "A certificate-using system MUST reject the certificate if it
/// encounters a critical extension it does not recognize or a critical extension
/// that contains information that it cannot process." Every extension
/// ``TackX509/DecodedExtensions`` decodes is recognized; what is not recognized is
/// in ``TackX509/DecodedExtensions/unrecognized``.
///
/// The policy extensions (certificatePolicies, policyMappings, policyConstraints,
/// inhibitAnyPolicy) are recognized but Tack does not run the RFC 5280 §6.1
/// policy tree (as webpki and, before 1.22, Go did not); that leniency is listed
/// in the README.
enum PathValidation {
    /// Checks that do not depend on the path: decodable extensions, no unknown
    /// critical extension. Hard.
    static func checkExtensions(_ node: PathNode) -> TrustFailure? {
        if let error = node.extensionError { return node.failure(.malformed(error)) }
        for item in node.decoded.unrecognized where item.isCritical {
            return node.failure(.unknownCriticalExtension(item.oid))
        }
        return nil
    }

    /// Validity at `time`, bounds inclusive (RFC 5280 §4.1.2.5, §6.1.3 (a)(2)). Soft.
    static func checkValidity(_ node: PathNode, at time: Int64) -> TrustFailure? {
        let notBefore = node.certificate.validity.notBefore.secondsSince1970
        let notAfter = node.certificate.validity.notAfter.secondsSince1970
        if time < notBefore { return node.failure(.notYetValid(notBefore: notBefore, checkTime: time)) }
        if time > notAfter { return node.failure(.expired(notAfter: notAfter, checkTime: time)) }
        return nil
    }

    /// The leaf's own checks (RFC 5280 §6.1.3 and §6.1.5 for the end entity): its
    /// extensions, extended key usage and key usage, then the rules `profile` adds
    /// (``checkLeafProfile(_:profile:purpose:)``). Hard.
    static func checkLeaf(_ node: PathNode, purpose: KeyPurpose, profile: TrustProfile) -> TrustFailure? {
        if let failure = checkExtensions(node) { return failure }
        if let violation = profileViolation(node, isLeaf: true) {
            return node.failure(.profileViolation(violation))
        }
        if let eku = node.decoded.extendedKeyUsage, let wanted = purpose.oid {
            // RFC 5280 §4.2.1.12: the purpose, or anyExtendedKeyUsage (accepted
            // on the leaf as Go does; the Baseline Requirements forbid it in
            // subscriber certificates but no major TLS verifier refuses it).
            guard eku.contains(wanted) || eku.contains(ExtendedKeyUsage.anyExtendedKeyUsage) else {
                return node.failure(.extendedKeyUsageMismatch)
            }
        }
        // A CA certificate in leaf position is validated as RFC 5280 allows (x509-limbo
        // rfc5280::ca-as-leaf): its key usage is about certificates, not TLS.
        let isCA = node.decoded.basicConstraints?.isCertificateAuthority ?? false
        if !isCA, let usage = node.decoded.keyUsage,
           !leafKeyUsage(usage, fits: node.certificate.publicKeyInfo.algorithm, purpose: purpose) {
            return node.failure(.keyUsageMismatch)
        }
        return checkLeafProfile(node, profile: profile, purpose: purpose)
    }

    /// The first profile rule a served certificate breaks (RFC 5280 §4 "conforming
    /// CA" rules, and the CA/B Baseline Requirements for TLS leaves), or nil.
    ///
    /// Anchors get only the rules that no root of a real system bundle breaks:
    /// non-critical key identifiers and AIA, a non-empty subject, and an authority
    /// key identifier, when present, naming the anchor's own key. The rest is a
    /// deliberate leniency (README): of the 139 roots of Debian's bundle, 2 lack a
    /// subject key identifier, 3 have non-critical basic constraints and 5 carry
    /// authorityCertIssuer/SerialNumber in their authority key identifier.
    static func profileViolation(
        _ node: PathNode, isLeaf: Bool
    ) -> TrustFailure.ProfileViolation? {
        let certificate = node.certificate
        let isCA = node.decoded.basicConstraints?.isCertificateAuthority ?? false
        for item in certificate.extensions where item.isCritical {
            if item.oid == AuthorityKeyIdentifier.oid || item.oid == SubjectKeyIdentifier.oid
                || item.oid == AuthorityInformationAccess.oid {
                return .mustBeNonCritical(item.oid)
            }
        }
        if node.isAnchor {
            if isCA, node.subject?.isEmpty ?? false { return .emptyCASubject }
            // RFC 5280 §4.2.1.1: keyIdentifier MUST be present; in a self-signed
            // certificate it names the certificate's own key (its SKI).
            if node.isSelfIssued, let authority = node.decoded.authorityKeyIdentifier {
                guard let identifier = authority.keyIdentifier else { return .missingAuthorityKeyIdentifier }
                if let own = node.decoded.subjectKeyIdentifier?.keyIdentifier, !identifier.elementsEqual(own) {
                    return .authorityKeyIdentifierMismatch
                }
            }
            return nil
        }
        if !node.isSelfIssued, node.decoded.authorityKeyIdentifier?.keyIdentifier == nil {
            return .missingAuthorityKeyIdentifier
        }
        // The node's subject, decoded once (``PathNode/subject`` is `try? certificate.subject`).
        let subjectIsEmpty = node.subject?.isEmpty ?? false
        if isCA {
            if node.decoded.subjectKeyIdentifier == nil { return .missingSubjectKeyIdentifier }
            if certificate.rawExtension(for: BasicConstraints.oid)?.isCritical == false { return .nonCriticalBasicConstraints }
            if subjectIsEmpty { return .emptyCASubject }
        } else {
            if node.decoded.nameConstraints != nil { return .nameConstraintsInEndEntity }
            if node.decoded.keyUsage?.contains(.keyCertSign) == true { return .keyCertSignWithoutCA }
        }
        if isLeaf, isCA, let usage = node.decoded.keyUsage, !usage.contains(.keyCertSign) { return .endEntityMarkedCA }
        let sanIsCritical = certificate.rawExtension(for: SubjectAlternativeNames.oid)?.isCritical
        if subjectIsEmpty, sanIsCritical != true, !isCA { return .emptySubjectWithoutCriticalSAN }
        if !subjectIsEmpty, sanIsCritical == true { return .criticalSANWithSubject }
        return nil
    }

    /// Whether a TLS leaf's key usage allows its key to be used for `purpose`.
    ///
    /// RFC 5280 §4.2.1.3 and RFC 8446 §4.4.2.2 / RFC 5246 §7.4.2: a signing key
    /// (every TLS 1.3 handshake, ECDHE in TLS 1.2) needs digitalSignature; an RSA key
    /// may instead be used for RSA key transport (keyEncipherment) and an EC key for
    /// static ECDH (keyAgreement) in TLS 1.2. Purposes other than TLS are not checked.
    static func leafKeyUsage(_ usage: KeyUsage, fits algorithm: PublicKeyAlgorithm, purpose: KeyPurpose) -> Bool {
        switch purpose {
        case .serverAuthentication, .clientAuthentication: break
        case .other, .any: return true
        }
        if usage.contains(.digitalSignature) { return true }
        switch algorithm {
        case .rsa: return usage.contains(.keyEncipherment)
        case .ec: return usage.contains(.keyAgreement)
        default: return false
        }
    }

    /// The checks that make `issuer` fit to sign the certificate below it in `path`
    /// (RFC 5280 §6.1.4): a CA (basicConstraints cA, §4.2.1.9; a v1 certificate
    /// only as an anchor), keyCertSign when key usage is present (§4.2.1.3), no
    /// unknown critical extension, a pathLenConstraint the path below respects
    /// (§6.1.4 (l)/(m)), an extended key usage that allows `purpose` when present
    /// (the nested EKU rule of Go and webpki), and its name constraints over every
    /// certificate below it (§6.1.3 (b)/(c), §6.1.4 (g)). Hard.
    ///
    /// - Parameters:
    ///   - issuer: The candidate issuer.
    ///   - path: The path so far, leaf first; `issuer` would go on top.
    static func checkIssuer(_ issuer: PathNode, above path: [PathStep], purpose: KeyPurpose) -> TrustFailure? {
        if let failure = checkExtensions(issuer) { return failure }

        // Basic constraints. A v1 certificate has no extensions: RFC 5280 §6.1.4 (k)
        // lets it act as a CA only when it is the trust anchor (as Go, webpki and
        // OpenSSL's default do).
        if let constraints = issuer.decoded.basicConstraints {
            guard constraints.isCertificateAuthority else { return issuer.failure(.issuerNotCA) }
        } else if !(issuer.isAnchor && issuer.certificate.version == .v1) {
            return issuer.failure(.issuerNotCA)
        }

        if let usage = issuer.decoded.keyUsage, !usage.contains(.keyCertSign) {
            return issuer.failure(.missingKeyCertSign)
        }
        if let violation = profileViolation(issuer, isLeaf: false) {
            return issuer.failure(.profileViolation(violation))
        }

        // Path length (§6.1.4 (l), (m)): the non-self-issued intermediates below
        // this issuer (the leaf not counted) must not outnumber its constraint.
        if let limit = issuer.decoded.basicConstraints?.pathLengthConstraint {
            var below = 0
            for step in path.dropFirst() where !step.node.isSelfIssued { below += 1 }
            if below > limit { return issuer.failure(.pathLengthExceeded(limit: limit)) }
        }

        if let eku = issuer.decoded.extendedKeyUsage, let wanted = purpose.oid {
            guard eku.contains(wanted) || eku.contains(ExtendedKeyUsage.anyExtendedKeyUsage) else {
                return issuer.failure(.extendedKeyUsageMismatch)
            }
        }

        if let constraints = issuer.decoded.nameConstraints {
            // §6.1.3 (b): a self-issued certificate other than the leaf is exempt.
            for (position, step) in path.enumerated() {
                let node = step.node
                let isLeaf = position == 0
                guard isLeaf || !node.isSelfIssued else { continue }
                switch checkNameConstraints(constraints, appliedTo: node.certificate, isLeaf: isLeaf) {
                case .satisfied: continue
                case .violated: return node.failure(.nameConstraintViolation(constrainedBy: issuer.reference))
                case .unsupported: return issuer.failure(.unsupportedNameConstraint)
                }
            }
        }
        return nil
    }
}


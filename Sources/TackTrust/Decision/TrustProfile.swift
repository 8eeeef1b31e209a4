import TackDER
import TackX509

/// Whose rules decide on a TLS server certificate, beyond RFC 5280 §6 and the Web
/// PKI profile that every evaluation applies.
///
/// Every profile refuses an MD5 or SHA-1 signature on a served certificate
/// (``TrustFailure/Reason/weakSignatureAlgorithm(_:)``), an issuing key below
/// `SignaturePolicy.minimumRSAModulusBitCount` (``TrustFailure/Reason/weakKey(bits:minimum:)``)
/// and a host name found only in the subject common name (there is no common-name
/// fallback: ``TrustFailure/Reason/peerNameMismatch(host:leafNames:)``).
public enum TrustProfile: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// RFC 5280 path validation with the Web PKI profile: nothing more. The default.
    case rfc5280
    /// Apple's requirements for trusted TLS server certificates on iOS, iPadOS,
    /// macOS, tvOS and watchOS, as published in "Requirements for trusted
    /// certificates in iOS 13 and macOS 10.15" (support.apple.com/103769) and "About
    /// upcoming limits on trusted certificates" (support.apple.com/102028):
    ///
    /// - RSA keys of at least 2048 bits on the leaf and every issuing CA
    ///   (``TrustFailure/Reason/weakKey(bits:minimum:)``; the issuers' limit is
    ///   `SignaturePolicy.minimumRSAModulusBitCount` raised to 2048 when lower);
    /// - SHA-2 family signatures on the leaf and issuing CAs (SHA-1 refused, as in
    ///   every profile);
    /// - the server's DNS name in the subject alternative name, never the common name
    ///   (as in every profile);
    /// - for a leaf whose `notBefore` is on or after 2019-07-01 00:00:00 UTC, an
    ///   extended key usage containing id-kp-serverAuth
    ///   (``TrustFailure/Reason/missingServerAuth``) and a validity period of at most
    ///   825 days;
    /// - for a leaf whose `notBefore` is on or after 2020-09-01 00:00:00 UTC and whose
    ///   path ends at a system anchor (``AnchorStore/Origin/system``), at most 398
    ///   days; a path ending at a user-added anchor keeps the 825-day limit, as Apple
    ///   states (``TrustFailure/Reason/validityTooLong(days:limit:)``).
    ///
    /// A validity period is `notAfter − notBefore` in seconds; the limit of `N` days
    /// holds when it is at most `N × 86,400` seconds, and the days reported are that
    /// difference divided by 86,400, rounded up (a partial day counts as a day). The
    /// extended key usage and validity rules are rules for TLS server certificates:
    /// they apply when ``TrustOptions/purpose`` is
    /// ``KeyPurpose/serverAuthentication``.
    ///
    /// Certificate Transparency: when the caller supplies a log list, this profile
    /// uses Apple's CT policy (support.apple.com/103214). That half of the decision
    /// is not in this type. (Integration seam: CT options select
    /// their policy from ``TrustOptions/profile`` when none is given.)
    case apple

    /// `rfc5280` or `apple`, as the CLI spells them (`--profile`).
    public var description: String {
        switch self {
        case .rfc5280: "rfc5280"
        case .apple: "apple"
        }
    }

    /// The profile a CLI word names (`rfc5280`, `apple`), or `nil`.
    ///
    /// - Parameter name: The profile's ``description``.
    public init?(named name: String) {
        guard let profile = TrustProfile.allCases.first(where: { $0.description == name }) else { return nil }
        self = profile
    }

    /// The smallest RSA modulus, in bits, this profile accepts on the leaf and on
    /// every issuing CA; `nil` when it adds no limit of its own (the issuers' keys
    /// still meet `SignaturePolicy.minimumRSAModulusBitCount`).
    public var minimumRSAModulusBitCount: Int? {
        switch self {
        case .rfc5280: nil
        case .apple: 2048
        }
    }
}

/// The dates and limits of Apple's TLS server rules (``TrustProfile/apple``).
enum AppleServerRules {
    /// 2019-07-01 00:00:00 UTC: leaves with a `notBefore` from then need id-kp-serverAuth
    /// and at most 825 days (support.apple.com/103769).
    static let extendedRulesStart: Int64 = 1_561_939_200
    /// 2020-09-01 00:00:00 UTC: leaves with a `notBefore` from then, under a system
    /// anchor, may last at most 398 days (support.apple.com/102028).
    static let shortValidityStart: Int64 = 1_598_918_400
    /// The validity limit from ``extendedRulesStart``, in days.
    static let maximumDays = 825
    /// The validity limit from ``shortValidityStart`` under a system anchor, in days.
    static let maximumDaysUnderSystemAnchor = 398
    /// Seconds in a day of the validity count.
    static let secondsPerDay: Int64 = 86_400

    /// `certificate`'s validity period in days (`notAfter − notBefore` over 86,400 s,
    /// a partial day counting as one), and whether it is over `limit` days; `nil` when
    /// it is within. A `notAfter` before `notBefore` is a zero-day period.
    static func excess(of certificate: Certificate, limit: Int) -> (days: Int, limit: Int)? {
        let notBefore = certificate.validity.notBefore.secondsSince1970
        let notAfter = certificate.validity.notAfter.secondsSince1970
        let (seconds, overflow) = notAfter.subtractingReportingOverflow(notBefore)
        // Both times are GeneralizedTime values of years 0000-9999, so the difference
        // fits; an overflow is still reported as the longest period there is.
        guard !overflow else { return (Int.max, limit) }
        guard seconds > Int64(limit) * secondsPerDay else { return nil }
        let days = seconds / secondsPerDay + (seconds % secondsPerDay == 0 ? 0 : 1)
        return (Int(clamping: days), limit)
    }
}

extension PathValidation {
    /// The leaf's rules of `profile` that do not depend on the anchor: its RSA key
    /// size, and for a TLS server leaf from 2019-07-01 on, id-kp-serverAuth and the
    /// 825-day validity limit. Hard.
    static func checkLeafProfile(
        _ node: PathNode, profile: TrustProfile, purpose: KeyPurpose
    ) -> TrustFailure? {
        guard profile == .apple else { return nil }
        let certificate = node.certificate
        if let failure = checkKeySize(node, profile: profile) { return failure }
        guard purpose == .serverAuthentication,
              certificate.validity.notBefore.secondsSince1970 >= AppleServerRules.extendedRulesStart else { return nil }
        guard node.decoded.extendedKeyUsage?.contains(ExtendedKeyUsage.serverAuth) ?? false else {
            return node.failure(.missingServerAuth)
        }
        if let excess = AppleServerRules.excess(of: certificate, limit: AppleServerRules.maximumDays) {
            return node.failure(.validityTooLong(days: excess.days, limit: excess.limit))
        }
        return nil
    }

    /// The RSA key size rule of `profile` for the leaf's own key (issuers' keys meet it
    /// when their signatures are checked, under ``TrustOptions/certificateSignaturePolicy``).
    /// Hard.
    static func checkKeySize(_ node: PathNode, profile: TrustProfile) -> TrustFailure? {
        guard let minimum = profile.minimumRSAModulusBitCount else { return nil }
        let key = node.certificate.publicKeyInfo
        switch key.algorithm {
        case .rsa, .rsaPSS:
            guard let bits = key.keySizeInBits, bits < minimum else { return nil }
            return node.failure(.weakKey(bits: bits, minimum: minimum))
        default:
            return nil
        }
    }

    /// The rule of `profile` that depends on the anchor the path ends at: under Apple's,
    /// a TLS server leaf from 2020-09-01 on lasts at most 398 days when the anchor is
    /// a system one. Hard.
    static func checkLeafAnchor(
        _ leaf: PathNode, anchorOrigin: AnchorStore.Origin, profile: TrustProfile, purpose: KeyPurpose
    ) -> TrustFailure? {
        guard profile == .apple, purpose == .serverAuthentication, anchorOrigin == .system,
              leaf.certificate.validity.notBefore.secondsSince1970 >= AppleServerRules.shortValidityStart,
              let excess = AppleServerRules.excess(of: leaf.certificate, limit: AppleServerRules.maximumDaysUnderSystemAnchor)
        else { return nil }
        return leaf.failure(.validityTooLong(days: excess.days, limit: excess.limit))
    }
}

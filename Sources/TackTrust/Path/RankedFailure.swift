/// A failure and how specific it is: when no path is valid, the highest rank is
/// reported (webpki's `most_specific` idea: an expired intermediate on a path that
/// otherwise reaches an anchor says more than "unknown issuer").
struct RankedFailure {
    let failure: TrustFailure
    let rank: Int

    /// A path reached an anchor and its only faults are soft (validity, revocation):
    /// the most specific answer there is.
    static let softPathRank = 100

    /// A path reached an anchor but the leaf is not the expected peer: reported
    /// first (with the path's own faults after it).
    static let peerNameRank = 200

    /// The rank of a hard failure: constraint violations of a candidate issuer (20)
    /// over depth limits (15: every signature below the limit verified) over bad
    /// signatures and the weak digests and keys found in checking them (10,
    /// typically a same-named certificate of another key) over an unknown issuer (0).
    static func rank(of failure: TrustFailure) -> Int {
        switch failure.reason {
        case .unknownIssuer, .untrustedRoot: return 0
        case .maximumDepthExceeded: return 15
        case .badSignature, .weakKey, .weakSignatureAlgorithm: return 10
        case .expired, .notYetValid, .revoked, .revocationStatusUnknown, .responseStale, .responseNotYetValid,
             .missingRevocationStatus, .mustStapleWithoutResponse, .responderNotAuthorized, .responseSignatureInvalid,
             .responderRevoked, .missingResponderStatus:
            return softPathRank
        default: return 20
        }
    }
}

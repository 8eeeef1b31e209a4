/// A part of the trust decision that a package trait can leave out of a build
/// (Package.swift's `optionalFamilies`): a caller that asks for it in a build without
/// it gets ``TrustFailure/Reason/notBuilt(_:)``, never a pass.
public enum TrustFeature: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// OCSP responses (RFC 6960) and Must-Staple (RFC 7633): the `OCSP` trait.
    case ocsp
    /// Certificate revocation lists (RFC 5280 §6.3): the `CRL` trait.
    case crl
    /// Certificate Transparency (RFC 6962): the `CT` trait.
    case certificateTransparency = "ct"

    /// The package trait that builds it.
    public var trait: String {
        switch self {
        case .ocsp: "OCSP"
        case .crl: "CRL"
        case .certificateTransparency: "CT"
        }
    }

    /// Whether this build of Tack has it (its trait was on).
    public var isBuilt: Bool {
        switch self {
        case .ocsp:
            #if TACK_OCSP
            return true
            #else
            return false
            #endif
        case .crl:
            #if TACK_CRL
            return true
            #else
            return false
            #endif
        case .certificateTransparency:
            #if TACK_CT
            return true
            #else
            return false
            #endif
        }
    }

    /// `ocsp`, `crl` or `ct`.
    public var description: String { rawValue }
}

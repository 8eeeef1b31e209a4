public import TackX509

/// A classic cause of a pin failure (or of a dead pin), named so that it is fixed in
/// one look.
public enum PinDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The pin matches a certificate the server sent that is not on the verified path
    /// (`served` is its 0-based index in what was sent): a stray or appended
    /// certificate, or a cross-signed CA the path does not go through.
    case pinnedCertificateNotOnPath(list: PinList, entry: Int, served: Int)
    /// The pin matches a certificate the server sent that had expired at the check
    /// time (`notAfter`, seconds since 1970): the pinned certificate was replaced.
    case pinMatchesExpiredCertificate(list: PinList, entry: Int, served: Int, notAfter: Int64)
    /// The pin equals the SHA-256 of the raw key bytes of a path certificate without
    /// their SubjectPublicKeyInfo header: the app hashed the output of
    /// `SecKeyCopyExternalRepresentation`. The right pin is that certificate's SPKI pin.
    case rawKeyHash(list: PinList, entry: Int, certificate: CertificateReference, correctPin: SPKIPin)
    /// A CA pin equals the leaf's key. CA identities never match the leaf; move the
    /// pin to the leaf identities or pin the issuing CA.
    case caPinMatchesLeaf(list: PinList, entry: Int)
    /// A leaf pin matches a certificate above the leaf (`pathIndex`). Leaf identities
    /// match only the leaf; move it to the CA identities.
    case leafPinMatchesCA(list: PinList, entry: Int, pathIndex: Int)
    /// The rule pins only the leaf: every leaf key rotation needs an app update first.
    case onlyLeafPins
    /// The rule pins whole certificates: it breaks at every renewal of that certificate.
    case wholeCertificatePins(list: PinList)

    /// A stable identifier of the cause (the case's name in snake_case), for tools, logs and test
    /// manifests, as ``TrustFailure/code`` is for trust failures.
    public var code: String {
        switch self {
        case .pinnedCertificateNotOnPath: "pinned_certificate_not_on_path"
        case .pinMatchesExpiredCertificate: "pin_matches_expired_certificate"
        case .rawKeyHash: "raw_key_hash"
        case .caPinMatchesLeaf: "ca_pin_matches_leaf"
        case .leafPinMatchesCA: "leaf_pin_matches_ca"
        case .onlyLeafPins: "only_leaf_pins"
        case .wholeCertificatePins: "whole_certificate_pins"
        }
    }

    /// One line naming the cause and the fix.
    public var description: String {
        switch self {
        case .pinnedCertificateNotOnPath(let list, let entry, let served):
            return "\(list)[\(entry)] matches served certificate #\(served + 1), which is not on the verified path: sending a pinned certificate proves nothing; the path must go through it"
        case .pinMatchesExpiredCertificate(let list, let entry, let served, let notAfter):
            return "\(list)[\(entry)] matches served certificate #\(served + 1), which expired at \(RFC3339.format(notAfter)): the pinned certificate has been replaced; pin its successor's key"
        case .rawKeyHash(let list, let entry, let certificate, let correctPin):
            return "\(list)[\(entry)] is the SHA-256 of the raw key of \(certificate) without its SubjectPublicKeyInfo header (SecKeyCopyExternalRepresentation output hashed as is); that key's SPKI pin is \(correctPin.base64)"
        case .caPinMatchesLeaf(let list, let entry):
            return "\(list)[\(entry)] is the leaf's key, but CA identities never match the leaf; pin the issuing CA or move it to the leaf identities"
        case .leafPinMatchesCA(let list, let entry, let pathIndex):
            return "\(list)[\(entry)] matches path certificate #\(pathIndex + 1), a CA, but leaf identities match only the leaf; move it to the CA identities"
        case .onlyLeafPins:
            return "only leaf pins: every leaf key rotation breaks them until the app is updated; add a CA identity"
        case .wholeCertificatePins(let list):
            return "\(list) pins whole certificates, which break at every renewal even when the key stays; prefer SPKI pins"
        }
    }
}

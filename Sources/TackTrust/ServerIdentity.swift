public import TackX509

extension Certificate {
    /// Whether this (leaf) certificate carries `peerName` (RFC 6125 / RFC 9525).
    ///
    /// DNS names are compared case-insensitively on A-labels with `dNSName` SANs; a
    /// wildcard only as the entire left-most label, matching exactly one label, never
    /// on a public-suffix-like single label. IP addresses are compared as bytes with
    /// `iPAddress` SANs only. No fallback to the subject CN.
    ///
    /// Skeleton: implemented with the chain-builder work.
    public func matches(peerName: PeerName) throws(X509Error) -> Bool {
        false
    }
}

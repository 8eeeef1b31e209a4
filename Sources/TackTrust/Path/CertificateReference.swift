/// Which certificate a verdict, a failure or a path entry concerns.
///
/// A chain builder sees two sources of certificates: what the peer sent (the
/// leaf first, then its untrusted intermediates, in the order given) and the
/// caller's ``AnchorStore``. A reference names one of them by position, so a
/// report can say "certificate 2 of what the server sent" or "anchor 17"
/// without carrying text.
public enum CertificateReference: Sendable, Hashable, CustomStringConvertible {
    /// The certificate at `index` (0-based) of what the peer sent; 0 is the leaf.
    case served(index: Int)
    /// The anchor at `index` (0-based) of the ``AnchorStore`` used.
    case anchor(index: Int)

    /// `served certificate #N` or `anchor #N` (1-based, as people count).
    public var description: String {
        switch self {
        // By position, the leaf too: a chain served out of order has a CA first.
        case .served(let index): return "served certificate #\(index + 1)"
        case .anchor(let index): return "anchor #\(index + 1)"
        }
    }
}

import TackX509

/// The outcome of checking one certificate's names against one CA's name constraints.
enum NameConstraintOutcome: Sendable, Hashable {
    /// Every name is permitted and none is excluded.
    case satisfied
    /// A name is outside the permitted subtrees or inside the excluded ones.
    case violated
    /// The constraints use a name form Tack cannot evaluate (critical, so fail).
    case unsupported
}

/// Checks every name of `certificate` (subject DN, SANs of each type, and the subject
/// CN when it looks like a host name and there is no SAN extension) against `constraints`
/// (RFC 5280 §4.2.1.10, §6.1.3 (b)/(c)).
///
/// - Parameter isLeaf: Whether `certificate` is the path's leaf (the CN rule applies to it).
///
/// Skeleton: implemented with the chain-builder work.
func checkNameConstraints(
    _ constraints: NameConstraints, appliedTo certificate: Certificate, isLeaf: Bool
) -> NameConstraintOutcome {
    .satisfied
}

/// Resource limits for reading DER, chosen by the caller.
///
/// Hostile input must not be able to make the reader do unbounded work. The reader
/// walks iteratively, so these limits bound memory and time rather than the stack;
/// they also reject structures no legitimate object has.
public struct DERLimits: Sendable, Hashable {
    /// The deepest nesting of constructed elements that the reader enters.
    ///
    /// The top-level element has depth 1. The default, 32, is far above what any
    /// X.509 structure needs (a certificate's deepest path, through an extension
    /// into a general subtree, is below 12) and bounds the recursion of any
    /// consumer that walks the tree recursively. swift-asn1 uses 50.
    public var maximumDepth: Int

    /// The largest element (contents length, in bytes) that the reader accepts.
    ///
    /// The default, 16 MiB, admits any certificate and most CRLs; callers that parse
    /// untrusted certificates should lower it (TackX509 uses 64 KiB per certificate).
    public var maximumElementLength: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumDepth: The deepest nesting accepted (at least 1).
    ///   - maximumElementLength: The largest contents length accepted.
    public init(maximumDepth: Int = 32, maximumElementLength: Int = 1 << 24) {
        self.maximumDepth = maximumDepth
        self.maximumElementLength = maximumElementLength
    }

    /// The default limits: depth 32, elements up to 16 MiB.
    public static let `default` = DERLimits()
}

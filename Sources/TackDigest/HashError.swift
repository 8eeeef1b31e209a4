// The errors of TackDigest's keyed and derived functions. Hashing itself cannot
// fail; choosing a digest by value, and the parameters of a key derivation,
// can.

/// Why HMAC, PBKDF2, HKDF or the PKCS #12 key derivation refused its input.
///
/// Never holds a key, a password or derived bytes, only counts and the
/// digest's name.
public enum HashError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The digest is recognised but not computed (MD5; the SHA-512 family when
    /// the `SHA512` package trait is off).
    case unsupportedDigest(DigestAlgorithm)
    /// The iteration count is below 1 (RFC 8018 §5.2 and RFC 7292 appendix
    /// B.2 need a positive count).
    case iterationCountNotPositive(Int)
    /// The iteration count exceeds the caller's cap: a file asking for
    /// billions of iterations must not stall the reader.
    case iterationCountAboveLimit(count: Int, limit: Int)
    /// The requested key length is negative or above the limit (RFC 8018
    /// §5.2 step 1 allows up to (2³² − 1) · hLen; this module caps it
    /// lower, see ``PBKDF2/maximumKeyByteCount``; RFC 5869 §2.3 caps HKDF's
    /// output at 255 · HashLen, and RFC 8446 §7.1 the TLS 1.3 label's at 65,535).
    case keyByteCountOutOfRange(count: Int, limit: Int)
    /// The TLS 1.3 label is longer than 249 bytes, so that with its `tls13 `
    /// prefix it does not fit `opaque label<7..255>` (RFC 8446 §7.1).
    case labelTooLong(Int)
    /// The TLS 1.3 context is longer than `opaque context<0..255>` allows
    /// (RFC 8446 §7.1).
    case contextTooLong(Int)

    /// A stable identifier of the case, for logs and tests.
    public var code: String {
        switch self {
        case .unsupportedDigest: "unsupported_digest"
        case .iterationCountNotPositive: "iteration_count_not_positive"
        case .iterationCountAboveLimit: "iteration_count_above_limit"
        case .keyByteCountOutOfRange: "key_length_out_of_range"
        case .labelTooLong: "label_too_long"
        case .contextTooLong: "context_too_long"
        }
    }

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .unsupportedDigest(let digest): "digest \(digest) is not supported"
        case .iterationCountNotPositive(let count): "iteration count \(count) is not positive"
        case .iterationCountAboveLimit(let count, let limit): "iteration count \(count) exceeds the limit of \(limit)"
        case .keyByteCountOutOfRange(let count, let limit): "key length \(count) is outside 0...\(limit) bytes"
        case .labelTooLong(let count): "TLS 1.3 label of \(count) bytes is longer than 249 bytes"
        case .contextTooLong(let count): "TLS 1.3 context of \(count) bytes is longer than 255 bytes"
        }
    }
}

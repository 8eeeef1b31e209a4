/// Why a signature could not be verified.
///
/// Verification answers "valid" or throws one of these. Every case names what
/// was wrong, so that a chain builder can report the most specific failure.
/// `invalidSignature` is the only case that means "well-formed inputs, and the
/// signature does not match"; every other case means an input was malformed,
/// unsupported or refused by policy.
public enum SignatureError: Error, Sendable, Hashable {
    /// The signature does not verify under the key (the mathematical check failed).
    case invalidSignature
    /// The public key is malformed: `reason` says how.
    case malformedPublicKey(reason: String)
    /// The signature value is malformed (wrong length, bad DER, out of range).
    case malformedSignature(reason: String)
    /// The key or algorithm parameters are outside what Tack supports (for
    /// example an RSA modulus above 8192 bits or an unknown curve).
    case unsupported(reason: String)
    /// The algorithm and key do not belong together (for example an RSA
    /// signature algorithm with an EC key).
    case algorithmKeyMismatch(reason: String)
    /// The algorithm parameters are malformed or forbidden (for example RSASSA-PSS
    /// parameters that violate RFC 4055).
    case invalidParameters(reason: String)
}

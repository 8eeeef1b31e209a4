/// A source of cryptographically secure random bytes: the one entropy protocol of Tack.
///
/// Key generation (X25519, ECDH key shares) and, later, the TLS client's randoms take
/// their bytes from a value of this protocol, handed in by the caller. Tack never picks
/// a source on its own: on hosted platforms the standard library's
/// `SystemRandomNumberGenerator` conforms (it reads the operating system's generator);
/// Embedded and bare-metal applications pass their hardware generator (a TRNG
/// peripheral, a DRBG seeded from it); tests pass a deterministic source so that their
/// results reproduce. There is no fallback to anything predictable.
///
/// A conforming type must fill every byte it is asked for or throw: a source that cannot
/// deliver (a hardware generator that failed its health test) reports it instead of
/// returning fewer or repeated bytes.
public protocol RandomSource {
    /// Overwrites every byte of `bytes` with random bytes.
    ///
    /// - Parameter bytes: The buffer to fill; its count is how many bytes are wanted.
    /// - Throws: ``RandomSourceError`` when the source cannot deliver.
    mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError)
}

/// Why a ``RandomSource`` could not deliver random bytes.
public enum RandomSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The entropy source failed (a hardware generator's health test, an unavailable device).
    case sourceFailed

    /// The stable snake_case code of the failure.
    public var code: String {
        switch self {
        case .sourceFailed: "random_source_failed"
        }
    }

    /// A readable sentence naming the failure.
    public var description: String {
        switch self {
        case .sourceFailed: "the random source could not deliver bytes"
        }
    }
}

#if !hasFeature(Embedded)
extension SystemRandomNumberGenerator: RandomSource {
    /// Fills `bytes` from the operating system's generator, eight bytes per call.
    ///
    /// - Parameter bytes: The buffer to fill.
    /// - Throws: Nothing in practice: the standard library stops the program rather than
    ///   return bytes it could not read from the operating system.
    public mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var word = next()
            let stop = bytes.endIndex - index < 8 ? bytes.endIndex : index + 8
            while index < stop {
                bytes[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
    }
}
#endif

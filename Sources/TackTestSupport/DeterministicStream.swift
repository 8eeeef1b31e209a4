/// A deterministic xorshift64* generator (Vigna, "An experimental exploration of
/// Marsaglia's xorshift generators, scrambled", 2016), so that randomized tests
/// reproduce their failures from the seed.
///
/// Not for anything but tests: it is fast and well spread, not unpredictable.
public struct DeterministicStream: RandomNumberGenerator, Sendable {
    /// The generator's state; must not be zero (zero is a fixed point).
    public var state: UInt64

    /// Creates a stream from a nonzero seed.
    ///
    /// - Parameter state: The seed.
    public init(state: UInt64) {
        self.state = state
    }

    /// The next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_f491_4f6c_dd1d
    }

    /// `count` pseudo-random bytes, one per call to ``next()`` (its low byte).
    ///
    /// - Parameter count: How many bytes.
    /// - Returns: The bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}

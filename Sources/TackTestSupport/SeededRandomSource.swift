public import TackSignature

/// ``DeterministicStream`` as TackSignature's `RandomSource`: the seeded randomness
/// that makes a TLS handshake reproducible. Vectors/tls/generate.sh records each
/// server flight against a client drawing from `DeterministicStream(state: seed)`,
/// and the replay tests draw the same bytes again, so the same ClientHello and key
/// shares meet the recorded flight. Never for anything but tests.
extension DeterministicStream: RandomSource {
    /// Overwrites every byte of `bytes` with the stream's next bytes (one per
    /// ``next()``, as ``bytes(_:)`` gives them).
    ///
    /// - Parameter bytes: The buffer to fill.
    public mutating func fill(_ bytes: inout [UInt8]) throws(RandomSourceError) {
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: next()) }
    }
}

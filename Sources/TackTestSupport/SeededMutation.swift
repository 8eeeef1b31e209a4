// Seeded byte mutations, the one loop behind the mutation tests of TackX509 and
// TackTrust (extensions, names, their fast paths, JSON).

/// One kind of edit ``DeterministicStream/mutate(_:edits:kinds:within:)`` may make.
public enum ByteMutation: Sendable {
    /// Replace an octet with a random one.
    case replace
    /// Flip one random bit of an octet.
    case flipBit
    /// Replace an octet with one of these (values a decoder treats specially:
    /// tags, length forms, string types).
    case special([UInt8])
    /// Remove an octet.
    case remove
    /// Insert a random octet.
    case insert
}

extension DeterministicStream {
    /// `bytes` with a random number of seeded edits (each of a random kind, at a
    /// random position), so that a failure reproduces from the stream's seed.
    ///
    /// Each edit draws, in order: the position, the kind (an index into `kinds`),
    /// then what the kind needs (the new octet, the bit, the special value). The
    /// edits stop early if the bytes become empty.
    ///
    /// - Parameters:
    ///   - bytes: The input to mutate.
    ///   - edits: How many edits, drawn first.
    ///   - kinds: The kinds to choose from, with equal weight.
    ///   - positions: Where edits may fall; `nil` for anywhere in the current bytes
    ///     (which shift as octets are removed or inserted). A fixed range suits only
    ///     `replace`, `flipBit` and `special`.
    /// - Returns: The mutated bytes.
    public mutating func mutate(
        _ bytes: [UInt8], edits: ClosedRange<Int>, kinds: [ByteMutation], within positions: Range<Int>? = nil
    ) -> [UInt8] {
        precondition(!kinds.isEmpty, "no mutation kind")
        var mutated = bytes
        for _ in 0..<Int.random(in: edits, using: &self) {
            if mutated.isEmpty { break }
            let position = Int.random(in: positions ?? 0..<mutated.count, using: &self)
            switch kinds[Int.random(in: 0..<kinds.count, using: &self)] {
            case .replace: mutated[position] = UInt8.random(in: 0...255, using: &self)
            case .flipBit: mutated[position] ^= 1 << UInt8.random(in: 0...7, using: &self)
            case .special(let values): mutated[position] = values[Int.random(in: 0..<values.count, using: &self)]
            case .remove: mutated.remove(at: position)
            case .insert: mutated.insert(UInt8.random(in: 0...255, using: &self), at: position)
            }
        }
        return mutated
    }
}

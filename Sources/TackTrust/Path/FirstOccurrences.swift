import TackX509

extension ChainBuilder {
    /// The most served certificates compared pairwise for duplicates; above it, a set.
    /// A served chain is 2 to 4 certificates, where the comparisons (the lengths, then
    /// the octets up to the first difference, usually in the serial number) cost less
    /// than the set's allocation and hashing; a hostile bag of hundreds (`trust-decoys`) would make
    /// them quadratic.
    static let pairwiseDuplicateLimit = 8

    /// Which of `served` are the first of their DER encoding (a later byte-identical copy
    /// is not): compared pairwise for a chain of at most ``pairwiseDuplicateLimit``
    /// (no allocation: issue 35, `e2e-rsa2048`), through a set above it. Both ways give
    /// the same answer (`FirstOccurrencesTests`, seeded).
    static func firstOccurrences(_ served: [Certificate], pairwiseLimit: Int = pairwiseDuplicateLimit) -> FirstOccurrences {
        guard served.count > pairwiseLimit else { return FirstOccurrences(served: served, repeated: nil) }
        var seen = Set<Certificate>(minimumCapacity: served.count)
        var repeated: [Bool] = []
        repeated.reserveCapacity(served.count)
        for certificate in served { repeated.append(!seen.insert(certificate).inserted) }
        return FirstOccurrences(served: served, repeated: repeated)
    }

    /// The answer of ``firstOccurrences(_:pairwiseLimit:)``.
    struct FirstOccurrences {
        let served: [Certificate]
        /// Whether each certificate repeats an earlier one; `nil` to compare pairwise.
        let repeated: [Bool]?

        /// Whether `served[number]` is the first of its encoding.
        func isFirst(_ number: Int) -> Bool {
            if let repeated { return !repeated[number] }
            let certificate = served[number]
            for earlier in served[..<number] where earlier == certificate { return false }
            return true
        }
    }
}

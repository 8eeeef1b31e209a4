import TackX509

/// Which of a search's served certificates are the first of their DER encoding (a later
/// byte-identical copy is not): compared pairwise for a chain of at most ``pairwiseLimit``
/// (no allocation: issue 35, `e2e-rsa2048`), through the certificates' positions sorted
/// by encoding above it, where copies are neighbours. Both ways give the same answer
/// (`FirstOccurrencesTests`, seeded, against a set).
///
/// Sorted rather than hashed, so that a firmware image links no hashing code (issue 36);
/// a hostile bag of hundreds (`trust-decoys`) costs O(n log n) comparisons, each settled
/// by the lengths or the last octets (the signatures) of two certificates that differ.
struct FirstOccurrences {
    /// The most served certificates compared pairwise. A served chain is 2 to 4
    /// certificates, where the comparisons cost less than the sorted positions'
    /// allocation; a hostile bag of hundreds would make them quadratic.
    static let pairwiseLimit = 8

    private let served: [Certificate]
    /// Whether each certificate repeats an earlier one; `nil` to compare pairwise.
    let repeated: [Bool]?

    /// - Parameters:
    ///   - served: The certificates, in the order served.
    ///   - pairwiseLimit: The most certificates compared pairwise (tests vary it).
    init(_ served: [Certificate], pairwiseLimit: Int = FirstOccurrences.pairwiseLimit) {
        self.served = served
        guard served.count > pairwiseLimit else {
            repeated = nil
            return
        }
        // Positions by encoding, equal encodings by position (the sort is stable):
        // each copy follows the first of its encoding.
        let positions = StableOrder.positions(count: served.count) { a, b in
            AnchorStore.order(served[a].derEncoded, served[b].derEncoded) < 0
        }
        var repeated = Array(repeating: false, count: served.count)
        for (earlier, later) in zip(positions, positions.dropFirst())
        where AnchorStore.order(served[earlier].derEncoded, served[later].derEncoded) == 0 {
            repeated[later] = true
        }
        self.repeated = repeated
    }

    /// Whether `served[number]` is the first of its encoding.
    func isFirst(_ number: Int) -> Bool {
        if let repeated { return !repeated[number] }
        let certificate = served[number]
        for earlier in served[..<number] where earlier == certificate { return false }
        return true
    }
}

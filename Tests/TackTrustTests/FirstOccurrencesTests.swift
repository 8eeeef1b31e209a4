import Testing

import TackTestSupport
@testable import TackTrust
import TackX509

/// The chain builder finds duplicate served certificates pairwise for a short chain and
/// through a set for a long one (``ChainBuilder/firstOccurrences(_:pairwiseLimit:)``):
/// both ways must agree on every bag.
@Suite("Served duplicates: the pairwise check and the set agree")
struct FirstOccurrencesTests {
    @Test("Pairwise and set give the same first occurrences over 2,000 seeded random bags")
    func agree() throws {
        let pool = try PathPinsDifferentialTests.pool()
        var random = DeterministicStream(state: 0x35_F125_7D0B)
        var repeats = 0
        for round in 0..<2_000 {
            let count = Int(random.next() % 20) + 1
            let bag = (0..<count).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let pairwise = ChainBuilder.firstOccurrences(bag, pairwiseLimit: Int.max)
            let hashed = ChainBuilder.firstOccurrences(bag, pairwiseLimit: 0)
            #expect(pairwise.repeated == nil && hashed.repeated != nil, "round \(round): both ways taken")
            for number in bag.indices {
                let expected = !bag[..<number].contains { $0.derEncoded == bag[number].derEncoded }
                #expect(pairwise.isFirst(number) == expected, "round \(round), certificate \(number) (pairwise)")
                #expect(hashed.isFirst(number) == expected, "round \(round), certificate \(number) (set)")
                if !expected { repeats += 1 }
            }
        }
        // Repeats are common in these bags, so the agreement means something.
        #expect(repeats > 1_000, "repeats \(repeats)")
    }
}

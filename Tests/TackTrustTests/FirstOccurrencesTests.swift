import Testing

import TackTestSupport
@testable import TackTrust
import TackX509

/// The chain builder finds duplicate served certificates pairwise for a short chain and
/// through their positions sorted by encoding for a long one (``FirstOccurrences``):
/// both ways must agree with a set on every bag.
@Suite("Served duplicates: the pairwise check, the sorted positions and a set agree")
struct FirstOccurrencesTests {
    @Test("Pairwise, sorted and a set give the same first occurrences over 2,000 seeded random bags")
    func agree() throws {
        let pool = try PathPinsDifferentialTests.pool()
        var random = DeterministicStream(state: 0x35_F125_7D0B)
        var repeats = 0
        for round in 0..<2_000 {
            let count = Int(random.next() % 20) + 1
            let bag = (0..<count).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let pairwise = FirstOccurrences(bag, pairwiseLimit: Int.max)
            let sorted = FirstOccurrences(bag, pairwiseLimit: 0)
            #expect(pairwise.repeated == nil && sorted.repeated != nil, "round \(round): both ways taken")
            // The model: a set of the encodings seen so far.
            var seen = Set<[UInt8]>()
            for number in bag.indices {
                let expected = seen.insert(bag[number].derEncoded).inserted
                #expect(pairwise.isFirst(number) == expected, "round \(round), certificate \(number) (pairwise)")
                #expect(sorted.isFirst(number) == expected, "round \(round), certificate \(number) (sorted)")
                if !expected { repeats += 1 }
            }
        }
        // Repeats are common in these bags, so the agreement means something.
        #expect(repeats > 1_000, "repeats \(repeats)")
    }
}

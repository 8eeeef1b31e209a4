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

    @Test("AnchorStore.order, eight octets at a time, is the octet-by-octet order from the end (seeded)")
    func orderIsOctetOrder() {
        /// The order the word-wise scan must give: lengths, then octets from the last.
        func reference(_ a: [UInt8], _ b: [UInt8]) -> Int {
            if a.count != b.count { return a.count < b.count ? -1 : 1 }
            for index in a.indices.reversed() where a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
            return 0
        }
        var random = DeterministicStream(state: 0x35_0DE2)
        for round in 0..<5_000 {
            let length = Int(random.next() % 40)
            let a = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next() % 3) }
            var b = a
            // Equal, or one to three octets changed anywhere (the word edges included).
            for _ in 0..<Int(random.next() % 4) where !b.isEmpty {
                b[Int(random.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: random.next() % 3)
            }
            #expect(AnchorStore.order(a, b) == reference(a, b), "round \(round)")
            #expect(AnchorStore.order(b, a) == reference(b, a), "round \(round)")
        }
    }
}

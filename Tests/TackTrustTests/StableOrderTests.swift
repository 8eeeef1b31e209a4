import Testing

import TackTestSupport
@testable import TackTrust

/// ``StableOrder`` is the search's one sort (served duplicates, candidate issuers,
/// failures by rank): held to the standard library's stable sort on seeded keys with
/// many ties, on both of its paths (insertion up to its limit, merging above).
@Suite("StableOrder sorts positions as the standard library's stable sort does")
struct StableOrderTests {
    @Test("3,000 seeded random key lists of 0 to 80 elements, few distinct keys: the same permutation")
    func agreesWithTheStandardLibrary() {
        var random = DeterministicStream(state: 0x36_50F7_0D3E)
        var merged = 0
        var ties = 0
        for round in 0..<3_000 {
            let count = Int(random.next() % 81)
            let distinct = UInt64(round % 3 == 0 ? 3 : 40)
            let keys = (0..<count).map { _ in random.next() % distinct }
            let expected = Array(0..<count).sorted { keys[$0] < keys[$1] }
            let actual = StableOrder.positions(count: count) { keys[$0] < keys[$1] }
            #expect(actual == expected, "round \(round): \(count) keys")
            if count > StableOrder.insertionLimit { merged += 1 }
            if Set(keys).count < count { ties += 1 }
        }
        // Both paths and tied keys (where stability shows) were exercised.
        #expect(merged > 1_000 && ties > 2_000, "merged \(merged), with ties \(ties)")
    }

    @Test("Zero, one and a descending list")
    func edges() {
        #expect(StableOrder.positions(count: 0) { _, _ in true } == [])
        #expect(StableOrder.positions(count: 1) { _, _ in true } == [0])
        #expect(StableOrder.positions(count: 40) { $0 > $1 } == Array((0..<40).reversed()))
    }
}

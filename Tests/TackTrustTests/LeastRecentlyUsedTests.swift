import Testing

import TackTestSupport
@testable import TackTrust

/// ``LeastRecentlyUsed`` indexes its entries by open addressing (linear probing, deletion
/// by moving entries back), not a `Dictionary` (issue 35). Held here to a plain model, a
/// list in order of use, over seeded random operations on keys whose bucket hashes
/// collide on purpose, so that probes run long, wrap around the index and cross
/// deletions.
@Suite("Least recently used: the open-addressing index against a list in order of use")
struct LeastRecentlyUsedTests {
    /// A key with a chosen bucket hash (few distinct hashes: many collisions).
    struct CollidingKey: LeastRecentlyUsedKey {
        let id: Int
        let bucketHash: Int
    }

    @Test("Lookups, insertions, evictions and removals agree with the model over 20,000 seeded operations per capacity", arguments: [1, 2, 3, 7, 8, 9, 40])
    func againstModel(capacity: Int) {
        var random = DeterministicStream(state: 0x35_1D_0000 + UInt64(capacity))
        var table = LeastRecentlyUsed<CollidingKey, Int>(capacity: capacity)
        // The model: (key, value), the most recently used first.
        var model: [(key: CollidingKey, value: Int)] = []
        let hashes = [0, 1, 15, 16, 31, -1, Int.max, Int.min]
        func key(_ id: Int) -> CollidingKey { CollidingKey(id: id, bucketHash: hashes[id % hashes.count]) }
        for step in 0..<20_000 {
            let id = Int(random.next() % UInt64(3 * capacity + 5))
            switch random.next() % 10 {
            case 0...3:
                let got = table.value(for: key(id))
                let index = model.firstIndex { $0.key == key(id) }
                #expect(got == index.map { model[$0].value }, "step \(step): lookup of \(id)")
                if let index { model.insert(model.remove(at: index), at: 0) }
            case 4...7:
                let value = Int(random.next() % 1_000)
                let evicted = table.insert(value, for: key(id))
                model.removeAll { $0.key == key(id) }
                let modelEvicts = model.count >= capacity
                if modelEvicts { model.removeLast() }
                model.insert((key(id), value), at: 0)
                #expect(evicted == modelEvicts, "step \(step): insertion of \(id)")
            case 8:
                table.removeValue(for: key(id))
                model.removeAll { $0.key == key(id) }
            default:
                if random.next() % 50 == 0 {
                    table.removeAll()
                    model.removeAll()
                }
            }
            #expect(table.count == model.count, "step \(step)")
            #expect(table.keysByRecency == model.map { $0.key }, "step \(step)")
        }
    }

    @Test("A capacity the index's 32-bit slot numbers cannot reach is held at Int32.max; a negative one is 0")
    func capacityBounds() {
        #expect(LeastRecentlyUsed<CollidingKey, Int>(capacity: Int.max).capacity == Int(Int32.max))
        var none = LeastRecentlyUsed<CollidingKey, Int>(capacity: -3)
        #expect(none.capacity == 0)
        #expect(!none.insert(1, for: CollidingKey(id: 1, bucketHash: 1)) && none.count == 0)
    }
}

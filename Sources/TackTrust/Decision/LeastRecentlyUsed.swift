/// The bounded storage of TackTrust's caches (``VerificationCache``,
/// ``SignatureCache``): an open-addressing index from key to slot, plus a doubly linked
/// recency list threaded through the slots, so that lookups, insertions and evictions
/// are O(1) on average.
///
/// At most ``capacity`` entries; inserting a new key into a full table evicts the least
/// recently used entry (a lookup that finds an entry makes it the most recently used).
/// A capacity of `0` stores nothing.
struct LeastRecentlyUsed<Key: LeastRecentlyUsedKey, Value: Sendable>: Sendable {
    /// The most entries held.
    let capacity: Int

    /// The index: entry slots by ``LeastRecentlyUsedKey/bucketHash``, linear probing, `-1`
    /// for an empty bucket; at most half full, a power of two in size. Not a `Dictionary`:
    /// its `Hasher` (SipHash) ran four times per insertion with eviction, for keys that
    /// are digests already (issue 35).
    private var buckets: [Int32] = []
    /// The entries; `nil` slots are free (listed in ``freeSlots``).
    private var entries: [Entry?] = []
    private var freeSlots: [Int] = []
    /// The most and least recently used slots (`-1` when empty), ends of the list
    /// threaded through ``Entry/newer`` and ``Entry/older``.
    private var newest = -1
    private var oldest = -1

    private struct Entry: Sendable {
        var key: Key
        var value: Value
        /// Neighbours in recency order (`-1` at either end).
        var newer = -1
        var older = -1
    }

    /// An empty table holding at most `capacity` entries (a negative capacity counts
    /// as `0`; one above `Int32.max`, which the index's slot numbers cannot hold, as
    /// `Int32.max`).
    init(capacity: Int) {
        self.capacity = min(max(0, capacity), Int(Int32.max))
    }

    /// The number of entries held: the slots that are not free.
    var count: Int { entries.count - freeSlots.count }

    /// The value stored for `key`, made the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = find(key).slot, let entry = entries[slot] else { return nil }
        unlink(slot)
        pushNewest(slot)
        return entry.value
    }

    /// The keys from the most to the least recently used (for tests).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0, let entry = entries[slot] {
            keys.append(entry.key)
            slot = entry.older
        }
        return keys
    }

    /// Stores `value` for `key` as the most recently used entry, replacing an entry of
    /// the same key.
    ///
    /// - Returns: Whether an entry of another key was evicted to make room.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key) -> Bool {
        guard capacity > 0 else { return false }
        if let existing = find(key).slot { remove(slot: existing) }
        var evicted = false
        if count >= capacity, oldest >= 0 {
            remove(slot: oldest)
            evicted = true
        }
        let entry = Entry(key: key, value: value)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            entries[slot] = entry
        } else {
            slot = entries.count
            entries.append(entry)
        }
        // `count` includes the new entry already (its slot is taken).
        if 2 * count > buckets.count { rebuild(bucketCount: max(16, 2 * buckets.count)) }
        buckets[find(key).bucket] = Int32(truncatingIfNeeded: slot)
        pushNewest(slot)
        return evicted
    }

    /// Removes the entry of `key`, if any.
    mutating func removeValue(for key: Key) {
        if let slot = find(key).slot { remove(slot: slot) }
    }

    /// Removes every entry.
    mutating func removeAll() {
        buckets = []
        entries = []
        freeSlots = []
        newest = -1
        oldest = -1
    }

    /// Frees `slot` and drops its key.
    private mutating func remove(slot: Int) {
        guard let entry = entries[slot] else { return }
        unlink(slot)
        removeBucket(find(entry.key).bucket)
        entries[slot] = nil
        freeSlots.append(slot)
    }

    // MARK: - The index

    /// The bucket where `key` starts probing.
    private func home(_ key: Key) -> Int { key.bucketHash & (buckets.count - 1) }

    /// The bucket holding `key` and its slot, or the empty bucket where it would go and
    /// `nil`. The index is never full (at most half), so the probe ends.
    private func find(_ key: Key) -> (bucket: Int, slot: Int?) {
        guard !buckets.isEmpty else { return (0, nil) }
        let mask = buckets.count - 1
        var bucket = home(key)
        while true {
            let slot = Int(buckets[bucket])
            if slot < 0 { return (bucket, nil) }
            if let entry = entries[slot], entry.key == key { return (bucket, slot) }
            bucket = (bucket + 1) & mask
        }
    }

    /// Empties `bucket`, moving back the entries after it whose probe passed it (deletion
    /// without tombstones for linear probing: Knuth, TAOCP vol. 3, 6.4, Algorithm R).
    private mutating func removeBucket(_ bucket: Int) {
        let mask = buckets.count - 1
        var hole = bucket
        var next = bucket
        while true {
            next = (next + 1) & mask
            let slot = Int(buckets[next])
            if slot < 0 { break }
            guard let entry = entries[slot] else { break }
            let start = home(entry.key)
            // The entry at `next` may move to `hole` unless its home lies cyclically in
            // (hole, next].
            let stays = hole <= next ? (hole < start && start <= next) : (hole < start || start <= next)
            if !stays {
                buckets[hole] = buckets[next]
                hole = next
            }
        }
        buckets[hole] = -1
    }

    /// Rebuilds the index with `bucketCount` buckets (a power of two) from the entries.
    private mutating func rebuild(bucketCount: Int) {
        buckets = Array(repeating: -1, count: bucketCount)
        for (slot, entry) in entries.enumerated() {
            guard let entry else { continue }
            buckets[find(entry.key).bucket] = Int32(truncatingIfNeeded: slot)
        }
    }

    /// Takes `slot` out of the recency list.
    private mutating func unlink(_ slot: Int) {
        guard let entry = entries[slot] else { return }
        if entry.newer >= 0 { entries[entry.newer]?.older = entry.older } else { newest = entry.older }
        if entry.older >= 0 { entries[entry.older]?.newer = entry.newer } else { oldest = entry.newer }
        entries[slot]?.newer = -1
        entries[slot]?.older = -1
    }

    /// Puts `slot` (unlinked) at the most recently used end.
    private mutating func pushNewest(_ slot: Int) {
        entries[slot]?.older = newest
        entries[slot]?.newer = -1
        if newest >= 0 { entries[newest]?.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}

/// A key of a ``LeastRecentlyUsed`` table: equality, and a hash that is already spread
/// (a digest's word), so that the table needs no `Hasher`.
protocol LeastRecentlyUsedKey: Equatable, Sendable {
    /// The bucket hash: equal keys have equal hashes, and the low bits are spread.
    var bucketHash: Int { get }
}

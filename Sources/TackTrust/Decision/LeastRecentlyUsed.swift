/// The bounded storage of TackTrust's caches (``VerificationCache``,
/// ``SignatureCache``): a dictionary from key to slot, plus a doubly linked recency
/// list threaded through the slots, so that lookups, insertions and evictions are O(1)
/// apart from hashing the key.
///
/// At most ``capacity`` entries; inserting a new key into a full table evicts the least
/// recently used entry (a lookup that finds an entry makes it the most recently used).
/// A capacity of `0` stores nothing.
struct LeastRecentlyUsed<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most entries held.
    let capacity: Int

    /// Entry slot by key.
    private var slots: [Key: Int] = [:]
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
    /// as `0`).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The number of entries held.
    var count: Int { slots.count }

    /// The value stored for `key`, made the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key], let entry = entries[slot] else { return nil }
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
        if let existing = slots[key] { remove(slot: existing) }
        var evicted = false
        if slots.count >= capacity, oldest >= 0 {
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
        slots[key] = slot
        pushNewest(slot)
        return evicted
    }

    /// Removes the entry of `key`, if any.
    mutating func removeValue(for key: Key) {
        if let slot = slots[key] { remove(slot: slot) }
    }

    /// Removes every entry.
    mutating func removeAll() {
        slots = [:]
        entries = []
        freeSlots = []
        newest = -1
        oldest = -1
    }

    /// Frees `slot` and drops its key.
    private mutating func remove(slot: Int) {
        guard let entry = entries[slot] else { return }
        unlink(slot)
        slots[entry.key] = nil
        entries[slot] = nil
        freeSlots.append(slot)
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

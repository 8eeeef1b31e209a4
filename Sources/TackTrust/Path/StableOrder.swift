/// Stable sorting by position: the one sort of TackTrust's search (served
/// certificates by encoding, candidate issuers by preference, failures by rank).
///
/// The standard library's `sort(by:)` is specialised for each element type and
/// comparison, about 1.5 KB of merge and insertion code each on a Cortex-M4 (three
/// copies, 5.8 KB of a firmware image, issue 36); this sorts positions, the elements
/// stay where they are, and exists once: the comparison reaches it inside a struct,
/// which the optimiser's closure specialisation does not look into (a closure
/// argument would get a copy of the sort per caller, 740 bytes each).
enum StableOrder {
    /// The comparison, boxed so that the sort is not cloned per closure.
    private struct Ordering {
        let areInIncreasingOrder: (Int, Int) -> Bool
    }

    /// Up to this many positions are sorted by insertion, in place; above, by merging
    /// runs through one scratch array.
    static let insertionLimit = 16

    /// The positions `0 ..< count` in the order `areInIncreasingOrder` gives, equal
    /// positions in their original order: insertion sort up to ``insertionLimit``, a
    /// bottom-up merge sort above it (O(n log n) comparisons, no recursion).
    ///
    /// - Parameters:
    ///   - count: How many elements there are.
    ///   - areInIncreasingOrder: Whether the element at the first position belongs
    ///     strictly before the one at the second (a strict weak ordering).
    /// - Returns: A permutation of `0 ..< count`.
    static func positions(count: Int, by areInIncreasingOrder: @escaping (Int, Int) -> Bool) -> [Int] {
        positions(count: count, Ordering(areInIncreasingOrder: areInIncreasingOrder))
    }

    /// ``positions(count:by:)``'s work, once in an image.
    @inline(never)
    private static func positions(count: Int, _ ordering: Ordering) -> [Int] {
        let areInIncreasingOrder = ordering.areInIncreasingOrder
        var positions = Array(0..<max(count, 0))
        guard positions.count > 1 else { return positions }
        if positions.count <= insertionLimit {
            for next in 1..<positions.count {
                let moving = positions[next]
                var slot = next
                while slot > 0 && areInIncreasingOrder(moving, positions[slot - 1]) {
                    positions[slot] = positions[slot - 1]
                    slot -= 1
                }
                positions[slot] = moving
            }
            return positions
        }
        let total = positions.count
        var merged = positions
        var width = 1
        while width < total {
            var start = 0
            while start < total {
                // width < total and start < total: neither sum exceeds 2 × total.
                let middle = min(start + width, total)
                let end = min(middle + width, total)
                var left = start, right = middle, out = start
                while left < middle || right < end {
                    // The right run's element goes first only when strictly smaller: stable.
                    if right < end && (left == middle || areInIncreasingOrder(positions[right], positions[left])) {
                        merged[out] = positions[right]
                        right += 1
                    } else {
                        merged[out] = positions[left]
                        left += 1
                    }
                    out += 1
                }
                start = end
            }
            swap(&positions, &merged)
            width = width <= total / 2 ? width * 2 : total
        }
        return positions
    }
}

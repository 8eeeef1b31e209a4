/// The prepared nodes of one path search, by node number, in one array sized once per
/// search (issue 35: it replaced a dictionary by number, a list of served candidates and
/// their growth per step).
///
/// Numbers are dense: the served certificates keep their positions
/// (`0..<servedCount`, a slot each, empty until prepared), and each anchor the search
/// meets takes the next number when its node is made. The anchor index of a number is
/// on its node (``PathNode/reference``); the number of an anchor index is found by
/// comparing the anchor nodes' indexes in place up to ``inlineAnchorLimit`` of them (a
/// served chain meets one or two anchors), above it in a table indexed by anchor index
/// (made once, the size of the store), so that an anchor store of many same-named roots
/// stays linear without hashing (issue 36). Both ways give the numbers of a dictionary
/// (`SearchTablesTests`, seeded).
struct SearchNodes {
    /// The most anchor nodes looked up by comparison; above it, the table.
    static let inlineAnchorLimit = 4

    /// The served certificates' slots, then the anchor nodes in the order made.
    private var slots: [PathNode?]
    /// How many of ``slots`` are served positions.
    let servedCount: Int
    /// How many anchors the store has (their indexes).
    private let storeCount: Int
    /// The number of each anchor index (`nil`: no node), once there are more anchor
    /// nodes than ``anchorLimit`` (empty until then: no allocation).
    private var anchorNumbers: [Int?] = []
    /// ``inlineAnchorLimit``, or another for the differential test.
    private let anchorLimit: Int

    /// - Parameters:
    ///   - servedCount: How many certificates were served (their numbers).
    ///   - anchorCount: How many anchors the store has: every anchor index is below it.
    ///   - expectedAnchors: Room for this many anchor nodes before the table grows.
    ///   - anchorLimit: The most anchor nodes found by comparison (tests vary it).
    init(servedCount: Int, anchorCount: Int, expectedAnchors: Int = 2, anchorLimit: Int = SearchNodes.inlineAnchorLimit) {
        self.servedCount = max(0, servedCount)
        storeCount = max(0, anchorCount)
        self.anchorLimit = max(0, anchorLimit)
        slots = []
        slots.reserveCapacity(self.servedCount + max(0, expectedAnchors))
        slots.append(contentsOf: repeatElement(nil, count: self.servedCount))
    }

    /// The node numbered `number`, if prepared (`nil` for any other number).
    subscript(number: Int) -> PathNode? {
        guard number >= 0, number < slots.count else { return nil }
        return slots[number]
    }

    /// The number the next anchor node takes.
    var nextAnchorNumber: Int { slots.count }

    /// How many anchor nodes were made.
    var anchorCount: Int { slots.count - servedCount }

    /// Stores the node of a served certificate at its number (``PathNode/number``,
    /// below ``servedCount``); a slot already filled keeps its node.
    mutating func insertServed(_ node: PathNode) {
        precondition(node.number >= 0 && node.number < servedCount, "a served position")
        if slots[node.number] == nil { slots[node.number] = node }
    }

    /// The number of the node of anchor `index`, if one was made.
    func number(ofAnchor index: Int) -> Int? {
        guard anchorCount > anchorLimit else {
            for number in servedCount..<slots.count {
                if case .anchor(let known)? = slots[number]?.reference, known == index { return number }
            }
            return nil
        }
        guard index >= 0, index < anchorNumbers.count else { return nil }
        return anchorNumbers[index]
    }

    /// Adds the node of an anchor whose index has no node yet; `node` must be numbered
    /// ``nextAnchorNumber``, its index one of the store's.
    mutating func appendAnchor(_ node: PathNode) {
        precondition(node.number == slots.count && node.isAnchor, "the next anchor number")
        slots.append(node)
        guard case .anchor(let index) = node.reference, anchorCount > anchorLimit else { return }
        // The store's indexes (an internal invariant: the search takes them from the store).
        precondition(index >= 0 && index < storeCount, "an anchor index of the store")
        if anchorNumbers.isEmpty {
            // The limit is crossed: the table is made, and the anchors met so far join it.
            anchorNumbers = Array(repeating: nil, count: storeCount)
            for number in servedCount..<slots.count {
                if case .anchor(let known)? = slots[number]?.reference { anchorNumbers[known] = number }
            }
        } else {
            anchorNumbers[index] = node.number
        }
    }
}

/// One certificate of the path being built: its node, and its revocation status under the
/// issuer above it (``RevocationStatus/notChecked`` while it is the top). One stack of these
/// replaced two kept in lockstep (the nodes and the statuses), one allocation instead of two.
struct PathStep {
    let node: PathNode
    var status: RevocationStatus = .notChecked
}

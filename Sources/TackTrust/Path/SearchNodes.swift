/// The prepared nodes of one path search, by node number, in one array sized once per
/// search (issue 35: it replaced a dictionary by number, a list of served candidates and
/// their growth per step), which also holds the path being built (``SearchPath``).
///
/// Numbers are dense: the served certificates keep their positions
/// (`0..<servedCount`, a slot each, empty until prepared), and each anchor the search
/// meets takes the next number when its node is made. The anchor index of a number is
/// on its node (``PathNode/reference``); the number of an anchor index is found by
/// comparing the anchor nodes' indexes in place up to ``inlineAnchorLimit`` of them (a
/// served chain meets one or two anchors) and through a dictionary above it, so that an
/// anchor store of many same-named roots stays linear. Both ways give the same numbers
/// (`SearchTablesTests`, seeded).
struct SearchNodes {
    /// The most anchor nodes looked up by comparison; above it, a dictionary.
    static let inlineAnchorLimit = 4

    /// A node and its place in the path being built (``SearchPath``), if it is on it.
    private struct Slot {
        var node: PathNode?
        /// The number of the node below it on the path (toward the leaf); `-1` for the leaf.
        var below = -1
        /// Its revocation status under the issuer above it on the path.
        var status = RevocationStatus.notChecked
    }

    /// The served certificates' slots, then the anchor nodes in the order made.
    private var slots: [Slot]
    /// How many of ``slots`` are served positions.
    let servedCount: Int
    /// The number of each anchor index met, once there are more anchor nodes than
    /// ``anchorLimit`` (empty until then: no allocation).
    private var anchorNumbers: [Int: Int] = [:]
    /// ``inlineAnchorLimit``, or another for the differential test.
    private let anchorLimit: Int

    /// - Parameters:
    ///   - servedCount: How many certificates were served (their numbers).
    ///   - expectedAnchors: Room for this many anchor nodes before the table grows.
    ///   - anchorLimit: The most anchor nodes found by comparison (tests vary it).
    init(servedCount: Int, expectedAnchors: Int = 2, anchorLimit: Int = SearchNodes.inlineAnchorLimit) {
        self.servedCount = max(0, servedCount)
        self.anchorLimit = max(0, anchorLimit)
        slots = []
        slots.reserveCapacity(self.servedCount + max(0, expectedAnchors))
        slots.append(contentsOf: repeatElement(Slot(), count: self.servedCount))
    }

    /// The node numbered `number`, if prepared (`nil` for any other number).
    subscript(number: Int) -> PathNode? {
        guard number >= 0, number < slots.count else { return nil }
        return slots[number].node
    }

    /// The number the next anchor node takes.
    var nextAnchorNumber: Int { slots.count }

    /// How many anchor nodes were made.
    var anchorCount: Int { slots.count - servedCount }

    /// Stores the node of a served certificate at its number (``PathNode/number``,
    /// below ``servedCount``); a slot already filled keeps its node.
    mutating func insertServed(_ node: PathNode) {
        precondition(node.number >= 0 && node.number < servedCount, "a served position")
        if slots[node.number].node == nil { slots[node.number].node = node }
    }

    /// The number of the node of anchor `index`, if one was made.
    func number(ofAnchor index: Int) -> Int? {
        guard anchorCount > anchorLimit else {
            for number in servedCount..<slots.count {
                if case .anchor(let known)? = slots[number].node?.reference, known == index { return number }
            }
            return nil
        }
        return anchorNumbers[index]
    }

    /// Adds the node of an anchor whose index has no node yet; `node` must be numbered
    /// ``nextAnchorNumber``.
    mutating func appendAnchor(_ node: PathNode) {
        precondition(node.number == slots.count && node.isAnchor, "the next anchor number")
        slots.append(Slot(node: node))
        guard case .anchor(let index) = node.reference, anchorCount > anchorLimit else { return }
        if anchorNumbers.isEmpty {
            // The limit is crossed: the anchors met so far join the dictionary once.
            anchorNumbers.reserveCapacity(2 * anchorCount)
            for number in servedCount..<slots.count {
                if case .anchor(let known)? = slots[number].node?.reference { anchorNumbers[known] = number }
            }
        } else {
            anchorNumbers[index] = node.number
        }
    }
}

/// The path being built, kept in the node table (``SearchNodes``): each node on it links to
/// the one below it, so the path needs no storage of its own (a node is on a path at most
/// once, RFC 4158 §5.2), and pushing and popping only write a slot. One allocation fewer per
/// verdict than a stack of steps (issue 35, `e2e-rsa2048`).
struct SearchPath {
    /// The number of the top node.
    private(set) var top: Int
    /// How many nodes the path holds.
    private(set) var count = 1

    /// A path of the leaf (node `leaf`) alone.
    init(leaf: Int, in nodes: inout SearchNodes) {
        top = leaf
        nodes.link(leaf, below: -1)
    }

    /// Puts node `number` on top, `status` being the old top's status under it.
    mutating func push(_ number: Int, status: RevocationStatus, in nodes: inout SearchNodes) {
        nodes.setStatus(status, of: top)
        nodes.link(number, below: top)
        top = number
        count += 1
    }

    /// Takes the top node off (the leaf stays).
    mutating func pop(in nodes: SearchNodes) {
        guard count > 1 else { return }
        top = nodes.below(top)
        count -= 1
    }
}

extension SearchNodes {
    fileprivate mutating func link(_ number: Int, below: Int) {
        guard number >= 0, number < slots.count else { return }
        slots[number].below = below
    }

    /// Records the revocation status of node `number` under the issuer above it.
    mutating func setStatus(_ status: RevocationStatus, of number: Int) {
        guard number >= 0, number < slots.count else { return }
        slots[number].status = status
    }

    /// The number of the node below node `number` on the path; `-1` below the leaf.
    func below(_ number: Int) -> Int {
        guard number >= 0, number < slots.count else { return -1 }
        return slots[number].below
    }

    /// The revocation status of node `number` under the issuer above it on the path.
    func status(of number: Int) -> RevocationStatus {
        guard number >= 0, number < slots.count else { return .notChecked }
        return slots[number].status
    }

    /// The nodes of `path`, from the top down to the leaf.
    func nodes(of path: SearchPath) -> PathNodes { PathNodes(table: self, upcoming: path.top, remaining: path.count) }

    /// The node at `position` of `path` (0 is the leaf), found by walking down from the top
    /// (a path holds at most ``Budget/maxIntermediates`` + 1 nodes).
    func node(at position: Int, of path: SearchPath) -> PathNode? {
        guard position >= 0, position < path.count else { return nil }
        var number = path.top
        for _ in 0..<(path.count - 1 - position) { number = below(number) }
        return self[number]
    }
}

/// The nodes of a ``SearchPath``, from the top down to the leaf.
struct PathNodes: Sequence, IteratorProtocol {
    fileprivate let table: SearchNodes
    /// The number of the node to give next.
    fileprivate var upcoming: Int
    /// The nodes not yet given (bounds the walk whatever the links say).
    fileprivate var remaining: Int

    mutating func next() -> PathNode? {
        guard remaining > 0, let node = table[upcoming] else { return nil }
        upcoming = table.below(upcoming)
        remaining -= 1
        return node
    }
}

import TackSignature

/// The signature results of one search by link: `nil` for a signature that verified.
typealias SignatureMemo = LinkMemo<SignatureError?>

/// Values by link (``SearchLedger/Link``) for one search: the first ``inlineLimit``
/// held inline and found by comparison, the rest in an array sorted by link and found
/// by bisection.
///
/// A served chain's verdict checks one signature per link of its path (two or three), so
/// the usual search keeps its results without an allocation (issue 35, `e2e-rsa2048`).
/// Every entry past the inline ones follows a signature check charged to the
/// ``Budget``, so the sorted array's insertions are bounded by it, and a hostile bag's
/// lookups (one per build step) cost a bisection each. Sorted rather than hashed, so that
/// a firmware image links no hashing code (issue 36). Both ways give the answers of a
/// dictionary (`SearchTablesTests`, seeded).
struct LinkMemo<Value> {
    /// The most entries held inline.
    static var inlineLimit: Int { 4 }

    private typealias Entry = (link: SearchLedger.Link, value: Value)

    private var first: Entry? = nil
    private var second: Entry? = nil
    private var third: Entry? = nil
    private var fourth: Entry? = nil
    /// How many of the four inline entries are used (they fill in order).
    private var inlineCount = 0
    /// The entries beyond the inline ones, sorted by link (empty, with no storage, until
    /// then).
    private var overflow: [Entry] = []
    /// ``inlineLimit``, or less for the differential test.
    private let limit: Int

    /// - Parameter inlineLimit: The most entries held inline (at most ``inlineLimit``;
    ///   tests lower it).
    init(inlineLimit: Int = Self.inlineLimit) {
        limit = min(max(0, inlineLimit), Self.inlineLimit)
    }

    /// How many entries are kept.
    var count: Int { inlineCount + overflow.count }

    /// The value kept for `link`, if any.
    subscript(link: SearchLedger.Link) -> Value? {
        for index in 0..<inlineCount {
            if let entry = entry(at: index), entry.link == link { return entry.value }
        }
        guard !overflow.isEmpty else { return nil }
        let place = position(of: link)
        guard place < overflow.count, overflow[place].link == link else { return nil }
        return overflow[place].value
    }

    /// Keeps `value` for `link`, which has none yet.
    mutating func insert(_ value: Value, for link: SearchLedger.Link) {
        let entry: Entry = (link, value)
        guard inlineCount < limit else {
            overflow.insert(entry, at: position(of: link))
            return
        }
        switch inlineCount {
        case 0: first = entry
        case 1: second = entry
        case 2: third = entry
        default: fourth = entry
        }
        inlineCount += 1
    }

    /// Where `link` is in ``overflow``, or would be inserted.
    private func position(of link: SearchLedger.Link) -> Int {
        AnchorStore.firstPosition(overflow.count) { overflow[$0].link.precedes(link) }
    }

    private func entry(at index: Int) -> Entry? {
        switch index {
        case 0: return first
        case 1: return second
        case 2: return third
        default: return fourth
        }
    }
}

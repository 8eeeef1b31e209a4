import TackSignature

/// The signature results of one search by link (``SearchLedger/Link``): the first
/// ``inlineLimit`` held inline and found by comparison, a dictionary only above that.
///
/// A served chain's verdict checks one signature per link of its path (two or three), so
/// the usual search keeps its results without an allocation (issue 35, `e2e-rsa2048`);
/// a hostile bag with hundreds of links stays linear through the dictionary. Both ways
/// give the same answers (`SearchTablesTests`, seeded, against a plain dictionary).
struct SignatureMemo {
    /// The most results held inline.
    static let inlineLimit = 4

    /// One result: `nil` for a signature that verified.
    private typealias Entry = (link: SearchLedger.Link, outcome: SignatureError?)

    private var first: Entry? = nil
    private var second: Entry? = nil
    private var third: Entry? = nil
    private var fourth: Entry? = nil
    /// How many of the four inline entries are used (they fill in order).
    private var inlineCount = 0
    /// The results beyond the inline ones (empty, with no storage, until then).
    private var overflow: [SearchLedger.Link: SignatureError?] = [:]
    /// ``inlineLimit``, or less for the differential test.
    private let limit: Int

    /// - Parameter inlineLimit: The most results held inline (at most ``inlineLimit``;
    ///   tests lower it).
    init(inlineLimit: Int = SignatureMemo.inlineLimit) {
        limit = min(max(0, inlineLimit), SignatureMemo.inlineLimit)
    }

    /// How many results are kept.
    var count: Int { inlineCount + overflow.count }

    /// The result kept for `link`: `.some(nil)` when its signature verified,
    /// `.some(error)` when not, `nil` when not checked yet.
    subscript(link: SearchLedger.Link) -> SignatureError?? {
        for index in 0..<inlineCount {
            if let entry = entry(at: index), entry.link == link { return .some(entry.outcome) }
        }
        guard !overflow.isEmpty, let known = overflow[link] else { return nil }
        return .some(known)
    }

    /// Keeps the result of `link`, which has none yet.
    mutating func insert(_ outcome: SignatureError?, for link: SearchLedger.Link) {
        guard inlineCount < limit else {
            overflow[link] = outcome
            return
        }
        let entry: Entry = (link, outcome)
        switch inlineCount {
        case 0: first = entry
        case 1: second = entry
        case 2: third = entry
        default: fourth = entry
        }
        inlineCount += 1
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

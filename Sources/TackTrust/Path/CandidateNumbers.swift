/// The node numbers of a certificate's candidate issuers, best first
/// (``ChainBuilder/candidates(for:)``): none or one (nearly every certificate of a
/// served chain has a single issuer candidate) held inline, more in an array, so that
/// the usual step of a search allocates no candidate list (issue 35).
struct CandidateNumbers: Sequence {
    /// The only candidate, when there is exactly one.
    private let single: Int?
    /// The candidates, when there are two or more.
    private let many: [Int]

    /// No candidate.
    static let none = CandidateNumbers(single: nil, many: [])

    private init(single: Int?, many: [Int]) {
        self.single = single
        self.many = many
    }

    /// One candidate.
    init(_ number: Int) {
        self.init(single: number, many: [])
    }

    /// `numbers`, in that order (inline when there is one).
    init(_ numbers: [Int]) {
        if numbers.count == 1, let only = numbers.first {
            self.init(single: only, many: [])
        } else {
            self.init(single: nil, many: numbers)
        }
    }

    /// How many candidates there are.
    var count: Int { single == nil ? many.count : 1 }

    /// Iterates the candidates in order.
    struct Iterator: IteratorProtocol {
        fileprivate var single: Int?
        fileprivate var many: IndexingIterator<[Int]>

        mutating func next() -> Int? {
            if let only = single {
                single = nil
                return only
            }
            return many.next()
        }
    }

    func makeIterator() -> Iterator {
        Iterator(single: single, many: many.makeIterator())
    }
}

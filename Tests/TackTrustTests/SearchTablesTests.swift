import Testing

import TackDigest
import TackSignature
import TackTestSupport
@testable import TackTrust
import TackX509

/// The path search's tables hold their first entries inline and look them up by
/// comparison (no allocation for a served chain: issue 35, `e2e-rsa2048`), and above a
/// limit in a sorted array (``SignatureMemo``, ``LinkMemo``) or a table indexed by
/// anchor (``SearchNodes``'s anchor numbers), without hashing (issue 36). Each is held
/// here to a plain dictionary over seeded random operations, with every limit from
/// "always the table" to "never".
@Suite("Search tables: the inline entries, the tables and a dictionary agree")
struct SearchTablesTests {
    /// A random link among `issuers` issuers and `indexes` indexes of each kind of signed
    /// object (few, so that lookups hit often, and the sorted array is ordered by each
    /// part of a link).
    private static func link(_ random: inout DeterministicStream, indexes: UInt64 = 4, issuers: UInt64 = 3) -> SearchLedger.Link {
        let index = Int(random.next() % indexes)
        let signed: SearchLedger.Signed
        switch random.next() % 3 {
        case 0: signed = .certificate(node: index)
        case 1: signed = .revocationList(index: index)
        default: signed = .ocspResponse(index: index)
        }
        return SearchLedger.Link(issuer: Int(random.next() % issuers), signed: signed)
    }

    private static func outcome(_ random: inout DeterministicStream) -> SignatureError? {
        switch random.next() % 3 {
        case 0: return nil
        case 1: return .invalidSignature
        default: return .unsupported(.weakDigest(.sha1))
        }
    }

    @Test("SignatureMemo answers as a dictionary over 3,000 seeded random runs, every inline limit")
    func signatureMemo() {
        var random = DeterministicStream(state: 0x35_D5E4_0C4E)
        var hits = 0
        var overflowed = 0
        for round in 0..<3_000 {
            let limit = Int(random.next() % UInt64(SignatureMemo.inlineLimit + 2))
            var memo = SignatureMemo(inlineLimit: limit)
            var model: [SearchLedger.Link: SignatureError?] = [:]
            for step in 0..<Int(random.next() % 40) {
                let link = Self.link(&random)
                let found = memo[link]
                let expected = model[link]
                #expect(found == expected, "round \(round), step \(step), limit \(limit)")
                if expected != nil {
                    hits += 1
                    continue
                }
                let outcome = Self.outcome(&random)
                memo.insert(outcome, for: link)
                model[link] = outcome
                #expect(memo.count == model.count, "round \(round), step \(step): count")
            }
            if model.count > min(limit, SignatureMemo.inlineLimit) { overflowed += 1 }
            for (link, outcome) in model { #expect(memo[link] == .some(outcome), "round \(round): kept") }
        }
        // Both the inline entries and the sorted array are exercised, with repeated links.
        #expect(hits > 5_000 && overflowed > 1_000, "hits \(hits), overflowed \(overflowed)")
    }

    @Test("LinkMemo keeps hundreds of links in order, as a dictionary does (seeded)")
    func manyLinks() {
        var random = DeterministicStream(state: 0x36_11_4E5)
        var memo = LinkMemo<Int>()
        var model: [SearchLedger.Link: Int] = [:]
        for step in 0..<2_000 {
            let link = Self.link(&random, indexes: 40, issuers: 20)
            #expect(memo[link] == model[link], "step \(step)")
            if model[link] == nil {
                memo.insert(step, for: link)
                model[link] = step
            }
        }
        #expect(memo.count == model.count && model.count > 800, "\(model.count) links")
        for (link, value) in model { #expect(memo[link] == value) }
    }

    @Test("SearchNodes numbers anchors as a dictionary over 3,000 seeded random runs, every inline limit")
    func searchNodes() throws {
        let certificate = try #require(try PathPinsDifferentialTests.pool().last)
        var random = DeterministicStream(state: 0x35_40DE_5AB1)
        var overflowed = 0
        for round in 0..<3_000 {
            let servedCount = Int(random.next() % 6)
            let limit = Int(random.next() % UInt64(SearchNodes.inlineAnchorLimit + 3))
            var nodes = SearchNodes(servedCount: servedCount, anchorCount: 12, anchorLimit: limit)
            var model: [Int: Int] = [:]
            var next = servedCount
            for step in 0..<Int(random.next() % 30) {
                let index = Int(random.next() % 12)
                #expect(nodes.number(ofAnchor: index) == model[index], "round \(round), step \(step), limit \(limit)")
                guard model[index] == nil else { continue }
                #expect(nodes.nextAnchorNumber == next, "round \(round), step \(step): dense numbers")
                nodes.appendAnchor(PathNode(certificate, reference: .anchor(index: index), number: nodes.nextAnchorNumber))
                model[index] = next
                next += 1
            }
            if model.count > limit { overflowed += 1 }
            for index in 0..<12 {
                let number = nodes.number(ofAnchor: index)
                #expect(number == model[index], "round \(round), anchor \(index)")
                if let number { #expect(nodes[number]?.reference == .anchor(index: index), "round \(round), node \(number)") }
            }
            #expect(nodes.anchorCount == model.count && nodes[next] == nil && nodes[-1] == nil, "round \(round)")
            for number in 0..<servedCount { #expect(nodes[number] == nil, "round \(round): served slot \(number) empty") }
        }
        #expect(overflowed > 500, "overflowed \(overflowed)")
    }

    @Test("A served slot keeps its first node; the served candidates are those marked")
    func servedSlots() throws {
        let pool = try PathPinsDifferentialTests.pool()
        var nodes = SearchNodes(servedCount: 3, anchorCount: 0)
        nodes.insertServed(PathNode(pool[3], reference: .served(index: 1), number: 1, isServedCandidate: true))
        nodes.insertServed(PathNode(pool[0], reference: .served(index: 1), number: 1))
        #expect(nodes[1]?.certificate == pool[3] && nodes[1]?.isServedCandidate == true)
        #expect(nodes[0] == nil && nodes[2] == nil && nodes[3] == nil)
        #expect(nodes.nextAnchorNumber == 3 && nodes.anchorCount == 0)
    }
}

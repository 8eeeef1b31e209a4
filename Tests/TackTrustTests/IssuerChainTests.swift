import Testing
import TackTestSupport
import TackTrust
import TackX509

/// `IssuerChain`: the path builder's chain of a set of certificates, without an anchor
/// (Vectors/chains/rsa: leaf, intermediate, root; a leaf whose signature is broken).
@Suite("Issuer chains")
struct IssuerChainTests {
    static func certificate(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: try RepositoryPaths.vectorBytes("chains/rsa/" + name))
    }

    @Test("In any order, the chain runs from the leaf to the self-issued root; from the intermediate, one step")
    func anyOrder() throws {
        let (leaf, intermediate, root) = (try Self.certificate("leaf.der"), try Self.certificate("intermediate.der"),
                                          try Self.certificate("root.der"))
        let set = [root, leaf, intermediate, leaf]
        let chain = IssuerChain(leafAt: 1, in: set)
        #expect(chain.indices == [1, 2, 0])
        #expect(chain.end == .selfIssued)
        #expect(chain.signatureChecks == 2)
        #expect(IssuerChain(leafAt: 2, in: set).indices == [2, 0])
        // Without the root, the chain ends in the intermediate: no anchor is needed.
        let partial = IssuerChain(leafAt: 0, in: [leaf, intermediate])
        #expect(partial.indices == [0, 1])
        #expect(partial.end == .issuerNotFound)
        // A root alone is its own chain.
        #expect(IssuerChain(leafAt: 0, in: [root]) == IssuerChain(leafAt: 0, in: [root]))
        #expect(IssuerChain(leafAt: 0, in: [root]).end == .selfIssued)
    }

    @Test("A leaf whose signature does not verify stops at itself with the signature failure")
    func badSignature() throws {
        let chain = IssuerChain(leafAt: 0, in: [try Self.certificate("leaf-bad-signature.der"),
                                                try Self.certificate("intermediate.der"), try Self.certificate("root.der")])
        #expect(chain.indices == [0])
        guard case .issuerRejected(let failure) = chain.end else {
            Issue.record("expected issuerRejected, got \(chain.end)")
            return
        }
        #expect(failure.code == "bad_signature")
        #expect(failure.certificate == .served(index: 0))
    }

    @Test("Several leaves of one set: each signature checked once, one budget for all")
    func severalLeaves() throws {
        let set = [try Self.certificate("leaf.der"), try Self.certificate("leaf-clientauth.der"),
                   try Self.certificate("intermediate.der"), try Self.certificate("root.der")]
        let chains = IssuerChain.chains(leavesAt: [0, 1], in: set)
        #expect(chains.map(\.indices) == [[0, 2, 3], [1, 2, 3]])
        // The second leaf's own signature only: the intermediate's was checked for the first.
        #expect(chains.map(\.signatureChecks) == [2, 1])
        #expect(chains.allSatisfy { $0.end == .selfIssued })
        let spent = IssuerChain.chains(leavesAt: [0, 1], in: set,
                                       budget: Budget(signatureChecks: 2, buildSteps: 100, maxIntermediates: 6))
        #expect(spent[0].indices == [0, 2, 3])
        #expect(spent[1].indices == [1])
        #expect(spent[1].end == .budgetExhausted(TrustFailure(.signatureBudgetExhausted, certificate: nil)))
    }

    @Test("500 decoys with the intermediate's name: the key identifier finds it with one signature check")
    func decoys() throws {
        func load(_ name: String) throws -> Certificate {
            try Certificate(derEncoded: try RepositoryPaths.vectorBytes("chains/decoys/" + name))
        }
        let decoys = try (0..<500).map { try load(String(format: "decoy-%03d.der", $0)) }
        let set = [try load("leaf.der")] + decoys + [try load("real-ica.der"), try load("root.der")]
        let chain = IssuerChain(leafAt: 0, in: set)
        #expect(chain.indices == [0, 501, 502])
        #expect(chain.signatureChecks == 2)
        #expect(chain.end == .selfIssued)
    }

    @Test("The budget bounds the walk and is reported when spent")
    func budget() throws {
        let set = [try Self.certificate("leaf.der"), try Self.certificate("intermediate.der"), try Self.certificate("root.der")]
        let chain = IssuerChain(leafAt: 0, in: set, budget: Budget(signatureChecks: 1, buildSteps: 100, maxIntermediates: 6))
        #expect(chain.indices == [0, 1])
        #expect(chain.end == .budgetExhausted(TrustFailure(.signatureBudgetExhausted, certificate: nil)))
        let steps = IssuerChain(leafAt: 0, in: set, budget: Budget(signatureChecks: 100, buildSteps: 0, maxIntermediates: 6))
        #expect(steps.indices == [0])
        #expect(steps.end == .budgetExhausted(TrustFailure(.buildStepBudgetExhausted, certificate: nil)))
    }
}

import Testing

import TackTestSupport
@testable import TackTrust
import TackX509

/// The ATS pin rule has three implementations: ``PathPins/matches(_:)`` (the pins report:
/// every match listed, then the rule weighed), ``PathPins/matches(_:on:)`` (the verdict:
/// the same, hashing only the positions and kinds of pin the rule reads) and
/// ``PathPins/isSatisfied(by:on:)`` (the chain builder's path preference: nothing listed,
/// hashing stops at a side's first match). They must agree on every path and rule: this binds them over seeded random
/// paths (1 to 6 certificates, repeats allowed) and rules (each of the four lists empty
/// or holding pins of path certificates, of other certificates, or both).
@Suite("Path pins: the three implementations of the ATS rule agree")
struct PathPinsDifferentialTests {
    /// The certificates paths and pins are drawn from: the RSA and ECDSA families of
    /// `Vectors/chains` (made by its generate.py).
    static func pool() throws -> [Certificate] {
        var certificates: [Certificate] = []
        for family in ["rsa", "ecdsa"] {
            for name in ["leaf", "leaf-wide", "leaf-ip", "intermediate", "ica-pathlen0", "root"] {
                certificates.append(try Certificate(derEncoded: RepositoryPaths.vectorBytes("chains/\(family)/\(name).der")))
            }
        }
        return certificates
    }

    @Test("matches(_:).isSatisfied == isSatisfied(by:on:) over 4,000 seeded random paths and rules")
    func agree() throws {
        let pool = try Self.pool()
        var random = DeterministicStream(state: 0x35_9A7E_5EED)
        var satisfied = 0
        var refused = 0
        for round in 0..<4_000 {
            let length = Int(random.next() % 6) + 1
            let certificates = (0..<length).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let path = VerifiedPath(
                certificates: certificates, references: certificates.indices.map { .served(index: $0) })

            /// Up to three pins: each of a path certificate (of the side's positions when
            /// `onPath` allows) or of any certificate of the pool.
            func pick(leafSide: Bool) -> [Certificate] {
                let count = Int(random.next() % 4)
                return (0..<count).map { _ in
                    if random.next() % 2 == 0 {
                        let positions = leafSide ? 0..<1 : (certificates.count > 1 ? 1..<certificates.count : 0..<1)
                        return certificates[positions.lowerBound + Int(random.next() % UInt64(positions.count))]
                    }
                    return pool[Int(random.next() % UInt64(pool.count))]
                }
            }
            let rule = PinRule(
                domain: "example.com",
                caIdentities: pick(leafSide: false).map { SPKIPin($0) },
                leafIdentities: pick(leafSide: true).map { SPKIPin($0) },
                caCertificates: pick(leafSide: false).map { $0.fingerprint },
                leafCertificates: pick(leafSide: true).map { $0.fingerprint })

            let fast = PathPins.isSatisfied(by: rule, on: path)
            let general = PathPins(path, rule: rule).matches(rule)
            #expect(fast == general.isSatisfied, "round \(round): \(length) certificates, rule \(rule)")
            // The report's matches are each a real one, in range.
            for match in general.matches {
                #expect(match.list.isLeafList ? match.pathIndex == 0 : match.pathIndex >= 1, "round \(round)")
            }
            // The verdict's variant, which hashes only what the rule reads, lists the same
            // matches in the same order.
            let lean = PathPins.matches(rule, on: path)
            #expect(lean.matches == general.matches, "round \(round) (only what the rule reads)")
            #expect(lean.isSatisfied == fast, "round \(round) (only what the rule reads)")
            // The served-pins variant of PathPins (a path that is what was served) agrees too.
            let served = PathPins(path, rule: rule, served: certificates, servedPins: PathPins.spkiPins(of: certificates))
            #expect(served.matches(rule).isSatisfied == fast, "round \(round) (served pins)")
            if fast { satisfied += 1 } else { refused += 1 }
        }
        // Both outcomes are exercised often, so the agreement means something.
        #expect(satisfied > 400 && refused > 400, "satisfied \(satisfied), refused \(refused)")
    }
}

import Testing

import TackTestSupport
@testable import TackTrust
import TackX509

/// ``VerifiedPath`` holds one array of entries (issue 35: one allocation instead of
/// three); its parallel arrays are views of it. And ``PathPins`` takes the served
/// certificates' SPKI pins for a path that is what was served (or hashes the rest): both
/// ways give the pins hashing each certificate gives.
@Suite("Verified path: entries, their views, and the pins taken from what was served")
struct VerifiedPathTests {
    @Test("The parallel arrays of a path made from them read back unchanged, over 500 seeded random paths")
    func views() throws {
        let pool = try PathPinsDifferentialTests.pool()
        var random = DeterministicStream(state: 0x35_E47A_1E55)
        for round in 0..<500 {
            let length = Int(random.next() % 6) + 1
            let certificates = (0..<length).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let references: [CertificateReference] = (0..<length).map { position in
                random.next() % 2 == 0 ? .served(index: position) : .anchor(index: Int(random.next() % 5))
            }
            let statuses: [RevocationStatus] = random.next() % 3 == 0 ? [] : (0..<length).map { _ in
                switch random.next() % 4 {
                case 0: return .goodByResponse(response: Int(random.next() % 3))
                case 1: return .goodByRevocationList(list: Int(random.next() % 3))
                case 2: return .notChecked
                default: return .anchor
                }
            }
            let path = VerifiedPath(certificates: certificates, references: references, revocation: statuses)
            #expect(path.certificates == certificates && path.references == references, "round \(round)")
            #expect(path.revocation == statuses && path.hasRevocation == !statuses.isEmpty, "round \(round)")
            #expect(path.entries.count == length && path.leaf == certificates.first && path.anchor == certificates.last)
            let again = VerifiedPath(entries: path.entries)
            #expect(again.certificates == certificates && again.references == references && again.hasRevocation)
            #expect((again == path) == !statuses.isEmpty, "round \(round): a path without statuses differs")
        }
    }

    @Test("PathPins' SPKI pins with the served pins known equal those hashed, over 1,000 seeded random paths")
    func servedPins() throws {
        let pool = try PathPinsDifferentialTests.pool()
        var random = DeterministicStream(state: 0x35_5E2F_ED01)
        var reused = 0
        for round in 0..<1_000 {
            let length = Int(random.next() % 5) + 1
            let certificates = (0..<length).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let path = VerifiedPath(certificates: certificates, references: certificates.indices.map { .served(index: $0) })
            // What was served: the path itself (the pins reused whole), or a random bag.
            let served: [Certificate]
            if random.next() % 2 == 0 {
                served = certificates
                reused += 1
            } else {
                served = (0..<Int(random.next() % 5)).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            }
            let servedPins = served.map { SPKIPin($0) }
            let known = PathPins(path, rule: nil, served: served, servedPins: servedPins)
            #expect(known.spki == certificates.map { SPKIPin($0) }, "round \(round)")
            #expect(known.spki == PathPins(path, rule: nil).spki, "round \(round)")
        }
        #expect(reused > 300, "reused \(reused)")
    }
}

// The known-answer image: the groups of the Embedded known-answer program
// (Tests/Embedded/Program and Generated, shared, not copied: the script compiles
// those files with this one in place of their hosted Main.swift), then the
// firmware use case; built with -D TACK_TLS_REPLAY, also the tls group (one
// recorded TLS 1.3 handshake), whose first replay is measured. SHA-256 runs on the
// portable path (a Cortex-M4 has no SHA instructions).

import TackDigest

@main
struct BareMetalKnownAnswers {
    static func main() {
        var tally = Tally()
        report("\(architecture): Tack core known answers (Int is \(Int.bitWidth) bits)")
        checkSHA2(.portable, &tally)
        tally.endGroup("sha2")
        checkDER(&tally)
        tally.endGroup("der")
        checkTimes(&tally)
        tally.endGroup("time")
        checkCertificateGroups(&tally)
        #if TACK_TLS_REPLAY
        // One recorded TLS 1.3 handshake (scripts/baremetal-check.sh passes the flag and
        // the flight); its first replay is measured as a verdict is.
        var handshake: VerdictCost? = nil
        checkTLSReplay(&tally) { replay in handshake = measure(replay).1 }
        tally.endGroup("tls")
        if let handshake {
            report("\(architecture) tls13 measured: instructions \(handshake.instructions) allocations \(handshake.allocations) heap \(handshake.heapBytes) stack \(handshake.stackBytes)")
        }
        #endif
        let costs = runUseCase(&tally)
        reportCosts(costs)
        report("\(architecture): \(tally.passed) passed, \(tally.failed) failed")
        semihostingExit(tally.failed == 0 ? 0 : 1)
    }
}

// The known-answer image: the groups of the Embedded known-answer program
// (Tests/Embedded/Program and Generated, shared, not copied: the script compiles
// those files with this one in place of their hosted Main.swift), then the
// firmware use case. SHA-256 runs on the portable path (a Cortex-M4 has no
// SHA instructions).

import TackSHA2

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
        let costs = runUseCase(&tally)
        reportCosts(costs)
        report("\(architecture): \(tally.passed) passed, \(tally.failed) failed")
        semihostingExit(tally.failed == 0 ? 0 : 1)
    }
}

// The firmware image: the use case alone (Tests/BareMetal/UseCase), the image
// whose size is the flash budget's "verify an RSA-2048 or P-256 chain and check
// pins". Built by scripts/baremetal-check.sh, run under qemu-system-arm.


@main
struct Firmware {
    static func main() {
        var tally = Tally()
        report("\(architecture): Tack firmware use case (verify a chain, check pins)")
        let costs = runUseCase(&tally)
        reportCosts(costs)
        report("\(architecture): \(tally.passed) passed, \(tally.failed) failed")
        semihostingExit(tally.failed == 0 ? 0 : 1)
    }
}

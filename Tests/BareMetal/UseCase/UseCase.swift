// The firmware use case: an update client checks its server's certificate chain
// and pins. One anchor and one NSPinnedDomains-style rule are loaded once; each
// verdict then parses the chain as served (DER, leaf first), builds and validates
// the path for the host at a fixed time, and checks the pin rule. Run for the
// RSA-2048 and the P-256 variant of Vectors/chains; the first verdict of each is
// measured (instructions, allocations, heap and stack), then the answers that
// must fail are checked too.

import TackTrust
import TackX509

/// One variant's inputs (UseCaseVectors.swift, generated from Vectors/chains).
struct UseCaseChain {
    let name: StaticString
    let root: [UInt8]
    let intermediate: [UInt8]
    let leaf: [UInt8]
    /// Vectors/chains' leaf-bad-signature.der is the leaf with this one byte of its
    /// signature changed (the generator checks it).
    let badSignatureOffset: Int
    let badSignatureByte: UInt8
    let intermediatePin: StaticString
    let rootPin: StaticString
    let leafPin: StaticString
}

/// 2025-06-01T00:00:00Z: inside every validity period of the example chains
/// (Vectors/chains/manifest.txt uses the same instant).
let useCaseTime: Int64 = 1_748_736_000
let useCaseHost = "example.com"

/// What one verdict cost.
struct VerdictCost {
    var allocations = 0
    var heapBytes = 0
    var stackBytes = 0
    var ticks: UInt32 = 0
    /// QEMU's `-icount shift=0` makes one instruction one nanosecond of virtual
    /// time; the timer ticks at 25 MHz, every 40 ns: 40 instructions a tick.
    var instructions: Int { Int(ticks) &* 40 }
}

/// Runs `verdict` once with the heap's high-water mark reset, the stack painted
/// and the timer started, and returns its answer and cost.
@inline(never)
func measure(_ verdict: () -> Bool) -> (Bool, VerdictCost) {
    Stack.paint()
    let stackPointer = Stack.approximatePointer()
    Heap.resetPeak()
    let before = Heap.statistics
    verdictBegin()
    CycleTimer.start()
    let answer = verdict()
    let ticks = CycleTimer.ticks()
    verdictEnd()
    let after = Heap.statistics
    var cost = VerdictCost()
    cost.ticks = ticks
    cost.allocations = after.allocations &- before.allocations
    cost.heapBytes = after.peakBytesInUse &- before.bytesInUse
    cost.stackBytes = Int(bitPattern: stackPointer &- Stack.lowestTouched())
    return (answer, cost)
}

extension Line.Interpolation {
    /// A pin outcome by its code, from static text: the use case's lines then make
    /// no `String` (whose growth code the image would link for them alone).
    mutating func appendInterpolation(_ outcome: PinOutcome) {
        switch outcome {
        case .notEvaluated: appendLiteral("not_evaluated")
        case .notPinned: appendLiteral("not_pinned")
        case .satisfied: appendLiteral("satisfied")
        case .failed: appendLiteral("failed")
        case .failedReportOnly: appendLiteral("failed_report_only")
        case .ruleExpired: appendLiteral("rule_expired")
        }
    }
}

func pins(_ texts: [StaticString]) -> [SPKIPin] {
    var out: [SPKIPin] = []
    for text in texts { if let pin = try? SPKIPin(text.description) { out.append(pin) } }
    return out
}

/// The use case over both variants; returns the measured cost of each.
func runUseCase(_ tally: inout Tally) -> [(StaticString, VerdictCost)] {
    var costs: [(StaticString, VerdictCost)] = []
    let calibration = CycleTimer.calibrate()
    report("cortex-m4 timer: 2000001 instructions in \(calibration) ticks (40 instructions a tick expected)")
    tally.check(calibration >= 50_000 && calibration <= 50_010, "the timer does not count 40 instructions a tick: run with -icount shift=0")
    for variant in useCaseChains {
        let name = variant.name
        // Loaded once: the anchor, the options, the pin rule (a CA pin on the
        // intermediate with the root as the backup, NSPinnedCAIdentities).
        guard let anchor = try? Certificate(derEncoded: variant.root) else {
            tally.check(false, "use case \(name): the anchor does not parse")
            continue
        }
        guard let host = try? PeerHost(useCaseHost), let other = try? PeerHost("example.org") else {
            tally.check(false, "use case \(name): the host does not parse")
            continue
        }
        let evaluator = TrustEvaluator(anchors: AnchorStore([anchor]))
        let caPins = pins([variant.intermediatePin, variant.rootPin])
        tally.check(caPins.count == 2, "use case \(name): a pin does not parse")
        let policy = PinPolicy(rules: [PinRule(domain: useCaseHost, caIdentities: caPins)])
        let served = [variant.leaf, variant.intermediate]

        // The measured verdict: trusted, and the pin rule satisfied.
        var outcome = PinOutcome.notEvaluated
        let (trusted, cost) = measure {
            let decision = evaluator.evaluate(servedChain: served, host: host, at: useCaseTime, pinning: policy)
            outcome = decision.details.pins.outcome
            return decision.isTrusted
        }
        tally.check(trusted && outcome == .satisfied, "use case \(name): trusted \(trusted), \(outcome); expected trusted, pins hold")
        report("cortex-m4 verdict \(name): trusted \(trusted), \(outcome); \(cost.instructions) instructions (\(cost.ticks) ticks), \(cost.allocations) allocations, heap \(cost.heapBytes) bytes, stack \(cost.stackBytes) bytes")
        costs.append((variant.name, cost))

        // The same verdict again: the one-time set-up (curve constants) is done, so
        // this is the steady state a device sees on every connection.
        let (again, second) = measure {
            evaluator.evaluate(servedChain: served, host: host, at: useCaseTime, pinning: policy).isTrusted
        }
        tally.check(again, "use case \(name): the second verdict is not trusted")
        report("cortex-m4 verdict \(name) (again): \(second.instructions) instructions, \(second.allocations) allocations, heap \(second.heapBytes) bytes, stack \(second.stackBytes) bytes")

        // Answers that must fail. A pin rule naming only the leaf's key in the CA
        // list: the chain is valid, the pins refuse it.
        let wrongPolicy = PinPolicy(rules: [PinRule(domain: useCaseHost, caIdentities: pins([variant.leafPin]), waivesBackupPin: true)])
        let refused = evaluator.evaluate(servedChain: served, host: host, at: useCaseTime, pinning: wrongPolicy)
        var pinMismatch = false
        if case .pinMismatch = refused { pinMismatch = true }
        tally.check(pinMismatch && refused.details.pins.outcome == .failed && !refused.isTrusted,
                    "use case \(name): a wrong pin gives \(refused.details.pins.outcome), expected failed")
        // A leaf whose signature does not verify.
        var badLeaf = variant.leaf
        guard badLeaf.indices.contains(variant.badSignatureOffset) else {
            tally.check(false, "use case \(name): the bad signature's offset is outside the leaf")
            continue
        }
        badLeaf[variant.badSignatureOffset] = variant.badSignatureByte
        let forged = evaluator.evaluate(servedChain: [badLeaf, variant.intermediate], host: host, at: useCaseTime, pinning: policy)
        tally.check(!forged.isTrusted && forged.details.pins.outcome == .notEvaluated,
                    "use case \(name): a bad signature is trusted \(forged.isTrusted)")
        // Another host: the leaf's names do not cover it and no rule applies.
        let otherHost = evaluator.evaluate(servedChain: served, host: other, at: useCaseTime, pinning: policy)
        tally.check(!otherHost.isTrusted && otherHost.details.pins.outcome == .notEvaluated,
                    "use case \(name): example.org is trusted \(otherHost.isTrusted)")
        // One second after the leaf's notAfter (2026-01-01T00:00:00Z).
        let late = evaluator.evaluate(servedChain: served, host: host, at: 1_767_225_601, pinning: policy)
        tally.check(!late.isTrusted, "use case \(name): trusted after its leaf expired")
        // Hard-fail revocation with no status supplied: refused, and in a build
        // without the OCSP trait (the pinning image) because the check is not built.
        let hardFail = TrustEvaluator(anchors: AnchorStore([anchor]), options: TrustOptions(revocationPolicy: .hardFail))
            .evaluate(servedChain: served, host: host, at: useCaseTime, pinning: policy)
        var refusedAsExpected = false
        #if TACK_OCSP
        if case .untrusted(let failure, _) = hardFail, case .missingRevocationStatus = failure.reason { refusedAsExpected = true }
        #else
        if case .untrusted(let failure, _) = hardFail, case .notBuilt(.ocsp) = failure.reason { refusedAsExpected = true }
        #endif
        tally.check(refusedAsExpected, "use case \(name): hard-fail revocation without status is not refused as expected (trusted \(hardFail.isTrusted))")
        tally.endGroup(variant.name)
    }
    return costs
}

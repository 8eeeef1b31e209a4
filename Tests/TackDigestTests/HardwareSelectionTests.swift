import Foundation
import Testing
import TackTestSupport

@testable import TackDigest

@Suite("SHA-256 implementation selection")
struct HardwareSelectionTests {
    /// The CPU flags Linux reports in /proc/cpuinfo, or nil elsewhere.
    static func linuxCPUFlags() -> Set<String>? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
        else { return nil }
        return Set(line.split(separator: " ").map(String.init))
    }

    @Test("The hardware path is available exactly where it is compiled in and the CPU has SHA-NI and SSSE3")
    func availabilityMatchesCPU() throws {
        #if TACK_HARDWARE_SHA && arch(x86_64) && os(Linux)
            let flags = try #require(Self.linuxCPUFlags())
            let cpuHasIt = flags.contains("sha_ni") && flags.contains("ssse3")
            #expect(SHA2Implementation.hardware.isAvailable == cpuHasIt)
            #expect(SHA2Implementation.bestAvailable == (cpuHasIt ? .hardware : .portable))
        #elseif TACK_HARDWARE_SHA && arch(arm64) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
            // Every Apple arm64 CPU has the ARMv8 SHA-256 instructions.
            #expect(SHA2Implementation.hardware.isAvailable)
            #expect(SHA2Implementation.bestAvailable == .hardware)
        #elseif !TACK_HARDWARE_SHA || !arch(x86_64)
            // Includes Linux arm64: the core cannot ask the C library (getauxval).
            #expect(!SHA2Implementation.hardware.isAvailable)
            #expect(SHA2Implementation.bestAvailable == .portable)
        #endif
        #expect(SHA2Implementation.portable.isAvailable)
    }

    @Test("A hasher reports the implementation it runs; an unavailable one falls back to portable")
    func hasherReportsImplementation() {
        #expect(SHA256(implementation: .portable).implementation == .portable)
        #expect(SHA224(implementation: .portable).implementation == .portable)
        let hardware = SHA256(implementation: .hardware).implementation
        #expect(hardware == (SHA2Implementation.hardware.isAvailable ? .hardware : .portable))
        #expect(SHA256().implementation == SHA2Implementation.bestAvailable)
    }

    /// Without SHA-NI, `.bestAvailable` is the portable path itself, so the comparison
    /// would prove nothing: the test is then a visible skip, not a pass.
    @Test("Both paths agree on many multi-block messages of random lengths",
          .enabled(if: SHA2Implementation.hardware.isAvailable,
                   "this CPU (or build) has no SHA-NI path: there is only the portable path to compare"),
          arguments: [1, 2, 3])
    func pathsAgree(seed: UInt64) {
        var generator = DeterministicStream(state: seed)
        for _ in 0..<200 {
            let count = Int(generator.next() % 2000)
            let message = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            var portable = SHA256(implementation: .portable)
            var best = SHA256(implementation: .bestAvailable)
            portable.update(message)
            best.update(message)
            #expect(portable.finalize() == best.finalize())
        }
    }
}

// The Embedded Swift test program: runs the core's known answers on the CPU it
// was built for and prints, last, `<arch>: N passed, N failed`. Built and run
// under user-mode QEMU by scripts/embedded-check.sh (see Tests/Embedded/README.md).
//
// The core modules import nothing. The few C library functions this program
// itself calls are declared here with @_extern(c) and come from the cross C
// library at link time (the Embedded runtime's own putchar/posix_memalign/free
// are resolved the same way).
//
// Built with -D CORE_ONLY, the program needs only TackDER and TackDigest and
// leaves out the certificate, signature, integer, chain, pin, OCSP, AES and PKCS #12 groups
// (a quick run on a new target). The tls group (TLSChecks.swift) is compiled only with
// -D TACK_TLS_REPLAY and the flight the script generates (aarch64).

import TackDER
import TackDigest

/// C `exit` (Never cannot cross the C boundary; it does not return).
@_extern(c, "exit")
func cExit(_ status: Int32)

/// C `fflush`; `nil` flushes every output stream. `print` goes through the C
/// library's `putchar`, whose stdout is fully buffered when it is a pipe (as in
/// CI): without a flush after each line, a trap would take the lines before it
/// with it, and the log would show nothing but the signal.
@_extern(c, "fflush")
func cFflush(_ stream: OpaquePointer?) -> Int32

#if hasFeature(Embedded) && !CORE_ONLY
/// C `strtod`.
@_extern(c, "strtod")
func cStrtod(_ text: UnsafePointer<CChar>, _ end: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Double

/// The Embedded Swift standard library's `Double(String)` calls
/// `_swift_stdlib_strtod_clocale(text, &result)`, which returns the end of the
/// number (NULL when it is out of range) and which the platform supplies, as it
/// supplies `putchar` (the full Swift runtime has it; the Embedded one does not).
/// TackTrust's property-list reader uses `Double(String)` for `<real>` (its value
/// is never used for a decision), so a firmware image that links TackTrust needs it:
/// here it forwards to the C library's `strtod`, whose locale is the C locale (this
/// program never calls setlocale). Overflow to ±HUGE_VAL is not reported as an
/// error here; nothing this program checks parses a real.
@_cdecl("_swift_stdlib_strtod_clocale")
func swiftStdlibStrtod(_ text: UnsafePointer<CChar>, _ result: UnsafeMutablePointer<Double>) -> UnsafePointer<CChar>? {
    var end: UnsafeMutablePointer<CChar>? = nil
    result.pointee = cStrtod(text, &end)
    return end.map { UnsafePointer($0) }
}
#endif

#if hasFeature(Embedded) && arch(arm)
/// C `ceil`, which the standard library's hash tables call (`_HashTable.scale(forCapacity:)`,
/// for TackTrust's sets) where the CPU has no rounding instruction. The armv7 objects
/// are soft-float EABI and the Linux C library hard-float, so libm's `ceil` would read
/// its argument from the wrong registers: the program supplies its own, compiled with
/// the objects' ABI (exact: every Double of magnitude 2^52 or more is an integer).
@_cdecl("ceil")
func softFloatCeil(_ x: Double) -> Double {
    guard x.magnitude < 4_503_599_627_370_496 else { return x }  // 2^52; also NaN and ±inf
    let truncated = Double(Int64(x))
    return truncated < x ? truncated + 1 : truncated
}
#endif

/// Prints a line and flushes it at once.
func report(_ line: Line) {
    print(String(decoding: line.bytes, as: UTF8.self))
    _ = cFflush(nil)
}

#if arch(arm64)
@_extern(c, "getauxval")
func cGetauxval(_ type: UInt) -> UInt

/// AT_HWCAP (Linux include/uapi/linux/auxvec.h) and HWCAP_SHA2
/// (arch/arm64/include/uapi/asm/hwcap.h, bit 6).
let atHWCAP: UInt = 16
let hwcapSHA2: UInt = 1 << 6
/// HWCAP_SHA1 (bit 5).
let hwcapSHA1: UInt = 1 << 5
#endif

/// The architecture name the last line starts with.
#if arch(arm64)
let architecture: StaticString = "aarch64"
#elseif arch(arm)
let architecture: StaticString = "armv7"
#elseif arch(riscv64)
let architecture: StaticString = "riscv64"
#elseif arch(x86_64)
let architecture: StaticString = "x86_64"
#else
let architecture: StaticString = "unknown"
#endif

@main
struct EmbeddedKnownAnswers {
    static func main() {
        var tally = Tally()
        report("\(architecture): Tack core known answers (Int is \(Int.bitWidth) bits)")

        // SHA-2 on every compression path this build and CPU can run.
        var implementations: [SHA2Implementation] = [.portable]
        #if arch(arm64)
        let cpuHasSHA2 = cGetauxval(atHWCAP) & hwcapSHA2 != 0
        report("\(architecture) cpu: getauxval(AT_HWCAP) HWCAP_SHA2 \(cpuHasSHA2 ? "set" : "clear")")
        // The build may assume the extension (TACK_ASSUME_ARMV8_SHA2); then the
        // CPU must really have it, or the hardware path would fault.
        tally.check(!SHA2Implementation.hardware.isAvailable || cpuHasSHA2,
                    "the build assumes the ARMv8 SHA2 instructions but this CPU lacks them")
        if SHA2Implementation.hardware.isAvailable && cpuHasSHA2 {
            implementations.append(.hardware)
        }
        #else
        if SHA2Implementation.hardware.isAvailable { implementations.append(.hardware) }
        #endif
        for implementation in implementations {
            report("\(architecture) sha256: \(describe(implementation)) path")
            checkSHA2(implementation, &tally)
        }
        if implementations.count > 1 { checkSHA256PathsAgree(&tally) }
        tally.endGroup("sha2")

        checkDER(&tally)
        tally.endGroup("der")
        checkTimes(&tally)
        tally.endGroup("time")

        // SHA-1 on the paths this build and CPU can run (on aarch64 the build's
        // sha2 target feature includes the ARMv8 SHA-1 instructions: HWCAP_SHA1).
        var sha1Implementations: [SHA2Implementation] = [.portable]
        #if arch(arm64)
        let cpuHasSHA1 = cGetauxval(atHWCAP) & hwcapSHA1 != 0
        tally.check(!SHA1.hardwareIsAvailable || cpuHasSHA1,
                    "the build assumes the ARMv8 SHA-1 instructions but this CPU lacks them")
        if SHA1.hardwareIsAvailable && cpuHasSHA1 { sha1Implementations.append(.hardware) }
        #else
        if SHA1.hardwareIsAvailable { sha1Implementations.append(.hardware) }
        #endif
        for implementation in sha1Implementations {
            report("\(architecture) sha1: \(implementation == .portable ? "portable" : "hardware") path")
            checkSHA1(implementation, &tally)
        }
        tally.endGroup("sha1")
        checkHMAC(&tally)
        tally.endGroup("hmac")
        checkPBKDF2(&tally)
        tally.endGroup("pbkdf2")
        checkPKCS12KDF(&tally)
        tally.endGroup("pkcs12kdf")
        #if !CORE_ONLY
        checkCertificateGroups(&tally)
        checkOCSP(&tally)
        tally.endGroup("ocsp")
        checkAES(&tally)
        tally.endGroup("aes")
        checkKeyExchange(&tally)
        tally.endGroup("kx")
        checkPKCS12(&tally)
        tally.endGroup("pkcs12")
        #endif
        #if TACK_TLS_REPLAY
        checkTLSReplay(&tally)
        tally.endGroup("tls")
        #endif

        report("\(architecture): \(tally.passed) passed, \(tally.failed) failed")
        cExit(tally.failed == 0 ? 0 : 1)
    }

    static func describe(_ implementation: SHA2Implementation) -> String {
        switch implementation {
        case .portable: return "portable"
        case .hardware:
            #if arch(arm64)
            return "hardware (ARMv8 SHA2)"
            #else
            return "hardware (x86-64 SHA extensions)"
            #endif
        }
    }
}

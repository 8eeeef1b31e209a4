// The rest of what the core and the Embedded standard library take from the
// platform: the stack-protector canary and its failure handler, the random
// bytes that seed Hasher, and the standard library's decimal-to-Double hook.

/// `-fstack-protector` (swiftc's default) checks a canary word,
/// `__stack_chk_guard` (a constant in cortex-m4.ld's .rodata: this board model
/// has no random source, so the canary catches accidental overwrites, not an
/// attacker), and calls this when it was overwritten.
@_cdecl("__stack_chk_fail")
public func stackCheckFailed() {
    for byte in "cortex-m4: FAIL: stack smashing detected\n".utf8 { semihostingWrite(byte) }
    semihostingExit(4)
}

/// The Embedded standard library seeds `Hasher` (Set and Dictionary) with
/// `arc4random_buf`. QEMU's MPS2 has no random source: the bytes come from a
/// fixed-seed generator (SplitMix64), so hash tables are deterministic from run to
/// run. A product must supply its TRNG here: a predictable seed lets a peer who
/// chooses names (DNS names, for one) make the core's hash tables degrade.
@_cdecl("arc4random_buf")
public func randomBytes(_ buffer: UnsafeMutableRawPointer, _ count: Int) {
    var index = 0
    while index < count {
        randomState &+= 0x9E37_79B9_7F4A_7C15
        var z = randomState
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        var byteIndex = 0
        while byteIndex < 8 && index < count {
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: z >> 56), toByteOffset: index, as: UInt8.self)
            z = z << 8
            byteIndex &+= 1
            index &+= 1
        }
    }
}

nonisolated(unsafe) var randomState: UInt64 = 0x5441_434B_4D34_0001  // "TACKM4"

/// `Double(String)` in the Embedded standard library calls this (the full runtime
/// defines it; the Embedded one leaves it to the platform). Only TackTrust's
/// property-list reader reaches it (`<real>`, whose value decides nothing). This
/// image refuses every number (returns NULL, "not a number"), so a property
/// list with a `<real>` is reported as unreadable rather than read wrongly.
@_cdecl("_swift_stdlib_strtod_clocale")
public func decimalToDouble(_ text: UnsafePointer<CChar>, _ result: UnsafeMutablePointer<Double>) -> UnsafePointer<CChar>? {
    nil
}

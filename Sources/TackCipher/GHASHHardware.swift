// GHASH on x86-64 PCLMULQDQ (Intel, "Carry-Less Multiplication Instruction and
// its Usage for Computing the GCM Mode", white paper 323640, 2010): the three
// 64 × 64-bit carry-less products of a Karatsuba step in one instruction each,
// eight blocks aggregated per reduction (X·H⁸ ⊕ B₁·H⁷ ⊕ … ⊕ B₇·H, one fold of
// the 255-bit sum by ``ghashReduce``, shared with the portable path), then the
// last blocks one at a time.
//
// How Swift reaches the instruction without C: Clang's `_mm_clmulepi64_si128`
// is a macro the importer skips, and `@_silgen_name("llvm.x86.pclmulqdq")`
// passes the selector as a Swift `Int8` the backend cannot select; but the
// compiler's `Builtin` module (opened to this module by `-enable-builtin-module`,
// with the `pclmul` target feature, both passed by Package.swift with the AES
// flags) names the LLVM intrinsic directly, and a literal selector reaches it
// as the constant operand it needs (checked at -O and -Onone).
//
// Constant time: PCLMULQDQ's latency does not depend on its operands; no
// branch or address depends on H or the data (the loop bounds are lengths).
// Held to the portable multiplication by the seeded differential test
// `ghashHardwareMatchesPortable` (Tests/TackCipherTests/AESGCMTests.swift);
// measured by tack-bench's `aes128gcm-16k` and `aes256gcm-16k`.

#if TACK_HARDWARE_AES && arch(x86_64)
import Builtin

/// Whether this CPU has PCLMULQDQ (CPUID.(EAX=1):ECX bit 1, Intel SDM Vol. 2A; the
/// flags are read once, with AES-NI's, by `cpuidLeaf1ECX` in AESHardware.swift).
let hardwareCarrylessIsAvailable: Bool = cpuidLeaf1ECX & (1 << 1) != 0

/// The carry-less product of the low words of `a` and `b` (selector 0x00), as (low, high).
@inline(__always)
private func clmulLow(_ a: SIMD2<UInt64>, _ b: SIMD2<UInt64>) -> SIMD2<UInt64> {
    let selector: Int8 = 0x00
    return unsafeBitCast(
        Builtin.int_x86_pclmulqdq(
            unsafeBitCast(a, to: Builtin.Vec2xInt64.self), unsafeBitCast(b, to: Builtin.Vec2xInt64.self), selector._value),
        to: SIMD2<UInt64>.self)
}

/// The carry-less product of the high words of `a` and `b` (selector 0x11), as (low, high).
@inline(__always)
private func clmulHigh(_ a: SIMD2<UInt64>, _ b: SIMD2<UInt64>) -> SIMD2<UInt64> {
    let selector: Int8 = 0x11
    return unsafeBitCast(
        Builtin.int_x86_pclmulqdq(
            unsafeBitCast(a, to: Builtin.Vec2xInt64.self), unsafeBitCast(b, to: Builtin.Vec2xInt64.self), selector._value),
        to: SIMD2<UInt64>.self)
}

/// A power of H laid out for PCLMULQDQ: (low, high) words and, for Karatsuba's
/// middle product, low ⊕ high in the low word.
struct GHASHHardwareOperand {
    var words: SIMD2<UInt64>
    var sum: SIMD2<UInt64>

    init(_ b: GHASHBlock) {
        words = SIMD2(b.low, b.high)
        sum = SIMD2(b.low ^ b.high, 0)
    }
}

/// The unreduced 255-bit sum of products Σ Xᵢ·Yᵢ as Karatsuba's three parts.
private struct GHASHHardwareSum {
    var low = SIMD2<UInt64>()
    var high = SIMD2<UInt64>()
    var middle = SIMD2<UInt64>()

    /// Adds x·y.
    @inline(__always)
    mutating func add(_ x: GHASHBlock, _ y: GHASHHardwareOperand) {
        let words = SIMD2(x.low, x.high)
        low ^= clmulLow(words, y.words)
        high ^= clmulHigh(words, y.words)
        middle ^= clmulLow(SIMD2(x.low ^ x.high, 0), y.sum)
    }

    /// The sum, reduced: Karatsuba's middle term recovered, then the shift and
    /// fold of ``ghashReduce``.
    @inline(__always)
    func reduced() -> GHASHBlock {
        let middle = self.middle ^ low ^ high
        return ghashReduce(high[1], high[0] ^ middle[1], low[1] ^ middle[0], low[0])
    }
}

extension GHASHKey {
    /// `absorb` on PCLMULQDQ: eight blocks per reduction with H⁸ … H, then
    /// the rest (at most seven) one at a time with H: one aggregated body, as
    /// AES-NI's eight-block loop and scalar tail (AESHardware.swift). A
    /// four-block step between them went (issue 30): it copied the eight-block
    /// body for the 4 to 7 blocks before a message's end only.
    func absorbHardware(_ state: inout GHASHBlock, _ blocks: UnsafePointer<UInt8>, count: Int) {
        let (h1, h2, h3, h4) = hardwarePowers
        let (h5, h6, h7, h8) = hardwareHighPowers
        var x = state
        var index = 0
        while count - index >= 8 {
            let p = blocks + 16 * index
            var sum = GHASHHardwareSum()
            sum.add(x ^ GHASHBlock(p), h8)
            sum.add(GHASHBlock(p + 16), h7)
            sum.add(GHASHBlock(p + 32), h6)
            sum.add(GHASHBlock(p + 48), h5)
            sum.add(GHASHBlock(p + 64), h4)
            sum.add(GHASHBlock(p + 80), h3)
            sum.add(GHASHBlock(p + 96), h2)
            sum.add(GHASHBlock(p + 112), h1)
            x = sum.reduced()
            index += 8
        }
        while index < count {
            var sum = GHASHHardwareSum()
            sum.add(x ^ GHASHBlock(blocks + 16 * index), h1)
            x = sum.reduced()
            index += 1
        }
        state = x
    }
}

#else

/// PCLMULQDQ is not compiled in (not x86-64, or the `HardwareSHA` trait is off).
let hardwareCarrylessIsAvailable = false

/// Unused placeholder of the x86-64 operand (no hardware GHASH in this build).
struct GHASHHardwareOperand {
    init(_ b: GHASHBlock) {}
}

extension GHASHKey {
    // Unreachable: GHASHKey uses it only when `usesHardware`, false in this build.
    func absorbHardware(_ state: inout GHASHBlock, _ blocks: UnsafePointer<UInt8>, count: Int) {
        preconditionFailure("no hardware GHASH in this build")
    }
}

#endif

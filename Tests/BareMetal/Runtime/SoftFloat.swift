// IEEE 754 binary64 arithmetic on bit patterns, for the soft-float helpers of
// FloatingPoint.swift. A Cortex-M4 has no double-precision unit, and the Embedded
// standard library's hash tables (`Set`, `Dictionary`: `_HashTable.scale(forCapacity:)`
// and `capacity(forScale:)`) size themselves with `Double` arithmetic, which LLVM
// lowers to `__aeabi_dmul`, `__aeabi_ddiv`, conversions, comparisons and `ceil`.
//
// Everything here works on `UInt64` bit patterns with integer operations only (a
// `Double` operation here would call the function being written). Round to nearest,
// ties to even, the only rounding mode Swift uses; subnormals are produced and
// consumed; a NaN operand gives that NaN, quieted. No C source: this file is also
// compiled for the host by `softfloat-check.swift`, which compares every function
// with the host's hardware on seeded random and boundary operands.

let signBit: UInt64 = 1 << 63
let exponentBits: UInt64 = 0x7FF << 52
let fractionBits: UInt64 = (1 << 52) - 1
let hiddenBit: UInt64 = 1 << 52
let quietBit: UInt64 = 1 << 51
let positiveInfinity: UInt64 = exponentBits
let defaultNaN: UInt64 = exponentBits | quietBit

@inline(__always) func isNaN(_ x: UInt64) -> Bool { x & ~signBit > exponentBits }
@inline(__always) func biasedExponent(_ x: UInt64) -> Int { Int(truncatingIfNeeded: (x >> 52) & 0x7FF) }

/// The NaN an operation with a NaN operand returns: the first NaN, quieted.
func propagateNaN(_ a: UInt64, _ b: UInt64) -> UInt64 {
    (isNaN(a) ? a : b) | quietBit
}

/// A subnormal's fraction (nonzero) shifted so that its leading 1 is at bit 52,
/// and the biased exponent that goes with it (1 - shift).
func normalizeSubnormal(_ fraction: UInt64) -> (exponent: Int, significand: UInt64) {
    let shift = fraction.leadingZeroBitCount &- 11
    return (1 &- shift, fraction << UInt64(shift))
}

/// `value >> distance`, with a 1 in bit 0 when a 1 was shifted out (sticky).
func shiftRightSticky(_ value: UInt64, _ distance: Int) -> UInt64 {
    if distance <= 0 { return value }
    if distance >= 63 { return value != 0 ? 1 : 0 }
    let lost = value << UInt64(64 &- distance)
    return value >> UInt64(distance) | (lost != 0 ? 1 : 0)
}

/// Rounds and packs a result: `significand` has its leading 1 at bit 62 (bits 0-9
/// are below the result's last place, bit 0 sticky), `exponent` is the result's
/// biased exponent minus 1 (the leading 1, added in, makes up the difference).
/// Overflow gives infinity; an exponent below the normal range gives a subnormal,
/// rounded once, at its own last place.
func roundAndPack(sign: UInt64, exponent: Int, significand: UInt64) -> UInt64 {
    var exponent = exponent
    var significand = significand
    if exponent < 0 {
        significand = shiftRightSticky(significand, 0 &- exponent)
        exponent = 0
    } else if exponent > 0x7FD || (exponent == 0x7FD && significand &+ 0x200 >= signBit) {
        return sign | positiveInfinity
    }
    let below = significand & 0x3FF
    var rounded = (significand &+ 0x200) >> 10
    if below == 0x200 { rounded &= ~1 }  // a tie: to even
    if rounded == 0 { exponent = 0 }
    // Added, not or-ed: a carry out of the fraction (rounding up to the next binade,
    // or a subnormal becoming normal) moves into the exponent.
    return sign &+ (UInt64(exponent) << 52) &+ rounded
}

/// An exact integer magnitude (nonzero, below 2^53) as a Double's bits.
func exactMagnitude(_ magnitude: UInt64) -> UInt64 {
    let shift = magnitude.leadingZeroBitCount &- 11
    let significand = magnitude << UInt64(shift)
    return (UInt64(1075 &- shift) << 52) | (significand & fractionBits)
}

func softFromInt32(_ value: Int32) -> UInt64 {
    if value == 0 { return 0 }
    return (value < 0 ? signBit : 0) | exactMagnitude(UInt64(value.magnitude))
}

func softFromUInt32(_ value: UInt32) -> UInt64 {
    value == 0 ? 0 : exactMagnitude(UInt64(value))
}

/// Truncation toward zero; NaN gives 0, values beyond Int32 saturate.
func softToInt32(_ x: UInt64) -> Int32 {
    if isNaN(x) { return 0 }
    let exponent = biasedExponent(x) &- 1023
    let negative = x & signBit != 0
    if exponent < 0 { return 0 }
    if exponent >= 31 { return negative ? Int32.min : Int32.max }
    let magnitude = ((x & fractionBits) | hiddenBit) >> UInt64(52 &- exponent)
    let value = Int32(truncatingIfNeeded: magnitude)
    return negative ? 0 &- value : value
}

/// -1, 0 or 1, or nil when either operand is a NaN (unordered). +0 equals -0.
func softCompare(_ a: UInt64, _ b: UInt64) -> Int? {
    if isNaN(a) || isNaN(b) { return nil }
    func key(_ x: UInt64) -> Int64 {
        let magnitude = Int64(bitPattern: x & ~signBit)
        return x & signBit != 0 ? 0 &- magnitude : magnitude
    }
    let (ka, kb) = (key(a), key(b))
    return ka < kb ? -1 : (ka == kb ? 0 : 1)
}

/// The smallest integral value not below `x` (C `ceil`).
func softCeiling(_ x: UInt64) -> UInt64 {
    let exponent = biasedExponent(x) &- 1023
    if exponent >= 52 { return isNaN(x) ? x | quietBit : x }  // integral, infinite or NaN
    if exponent < 0 {
        if x & ~signBit == 0 { return x }                         // ±0
        return x & signBit != 0 ? signBit : 0x3FF0_0000_0000_0000 // (-1, 0) → -0, (0, 1) → 1
    }
    let fraction = fractionBits >> UInt64(exponent)
    if x & fraction == 0 { return x }
    if x & signBit != 0 { return x & ~fraction }                 // negative: toward zero
    return (x &+ (hiddenBit >> UInt64(exponent))) & ~fraction    // positive: up one unit
}

/// The high and low 64 bits of `a * b`, from 32-bit halves (UMULL).
func multiplyFull(_ a: UInt64, _ b: UInt64) -> (high: UInt64, low: UInt64) {
    let (a1, a0) = (a >> 32, a & 0xFFFF_FFFF)
    let (b1, b0) = (b >> 32, b & 0xFFFF_FFFF)
    let p00 = a0 &* b0
    let p01 = a0 &* b1
    let p10 = a1 &* b0
    let p11 = a1 &* b1
    // The middle column: each term below 2^64; their sum with the carry of p00 fits
    // 66 bits, split into the low word's top half and a carry into the high word.
    let middle = (p00 >> 32) &+ (p01 & 0xFFFF_FFFF) &+ (p10 & 0xFFFF_FFFF)
    let low = (middle << 32) | (p00 & 0xFFFF_FFFF)
    let high = p11 &+ (p01 >> 32) &+ (p10 >> 32) &+ (middle >> 32)
    return (high, low)
}

/// Sign, biased exponent and significand (leading 1 at bit 52) of a finite nonzero value.
func unpack(_ x: UInt64) -> (exponent: Int, significand: UInt64) {
    let exponent = biasedExponent(x)
    if exponent == 0 { return normalizeSubnormal(x & fractionBits) }
    return (exponent, (x & fractionBits) | hiddenBit)
}

func softMultiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
    if isNaN(a) || isNaN(b) { return propagateNaN(a, b) }
    let sign = (a ^ b) & signBit
    let (magnitudeA, magnitudeB) = (a & ~signBit, b & ~signBit)
    if magnitudeA == positiveInfinity || magnitudeB == positiveInfinity {
        if magnitudeA == 0 || magnitudeB == 0 { return defaultNaN }  // ∞ × 0
        return sign | positiveInfinity
    }
    if magnitudeA == 0 || magnitudeB == 0 { return sign }
    let (exponentA, significandA) = unpack(a)
    let (exponentB, significandB) = unpack(b)
    var exponent = exponentA &+ exponentB &- 0x3FF
    // Leading 1s at bits 62 and 63: the product's is at 125 or 126 of 128, so the
    // high word's at 61 or 62.
    let product = multiplyFull(significandA << 10, significandB << 11)
    var significand = product.high | (product.low != 0 ? 1 : 0)
    if significand < (1 << 62) {
        exponent &-= 1
        significand <<= 1
    }
    return roundAndPack(sign: sign, exponent: exponent, significand: significand)
}

func softDivide(_ a: UInt64, _ b: UInt64) -> UInt64 {
    if isNaN(a) || isNaN(b) { return propagateNaN(a, b) }
    let sign = (a ^ b) & signBit
    let (magnitudeA, magnitudeB) = (a & ~signBit, b & ~signBit)
    if magnitudeA == positiveInfinity {
        return magnitudeB == positiveInfinity ? defaultNaN : sign | positiveInfinity
    }
    if magnitudeB == positiveInfinity { return sign }
    if magnitudeB == 0 { return magnitudeA == 0 ? defaultNaN : sign | positiveInfinity }
    if magnitudeA == 0 { return sign }
    let (exponentA, significandA) = unpack(a)
    let (exponentB, significandB) = unpack(b)
    var exponent = exponentA &- exponentB &+ 0x3FE
    var remainder = significandA
    if remainder < significandB {
        exponent &-= 1
        remainder <<= 1
    }
    // Restoring division, one quotient bit a step: remainder / significandB is in
    // [1, 2), so 63 steps give a quotient with its leading 1 at bit 62; what is left
    // over becomes the sticky bit. The remainder stays below 2^55.
    var quotient: UInt64 = 0
    var step = 0
    while step < 63 {
        quotient <<= 1
        if remainder >= significandB {
            remainder &-= significandB
            quotient |= 1
        }
        remainder <<= 1
        step &+= 1
    }
    if remainder != 0 { quotient |= 1 }
    return roundAndPack(sign: sign, exponent: exponent, significand: quotient)
}

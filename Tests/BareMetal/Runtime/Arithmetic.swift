// The run-time helpers LLVM calls for what a Cortex-M4 has no instruction for
// (ARM "Run-time ABI for the Arm Architecture", RTABI §4): 64-bit division and
// 64-bit shifts by a variable amount, and the AEABI names of memcpy, memmove,
// memset and memclr. A hosted build takes them from libgcc or compiler-rt; the
// toolchain ships no compiler-rt for this target, so they are written here, with
// 32-bit operations and 64-bit operations LLVM expands inline (add, subtract,
// compare, shifts by a constant), never the operation being implemented.
// Compiled with `-Xllvm -disable-loop-idiom-all` (Memory.swift says why).

// MARK: 64-bit shifts (RTABI §4.2: value in r0:r1, count in r2)

@_cdecl("__aeabi_llsl")
public func shiftLeft64(_ value: UInt64, _ count: Int32) -> UInt64 {
    let low = UInt32(truncatingIfNeeded: value)
    let high = UInt32(truncatingIfNeeded: value >> 32)
    let n = UInt32(bitPattern: count) & 63
    if n == 0 { return value }
    if n >= 32 { return UInt64(low &<< (n &- 32)) << 32 }
    return UInt64(high &<< n | low &>> (32 &- n)) << 32 | UInt64(low &<< n)
}

@_cdecl("__aeabi_llsr")
public func shiftRight64(_ value: UInt64, _ count: Int32) -> UInt64 {
    let low = UInt32(truncatingIfNeeded: value)
    let high = UInt32(truncatingIfNeeded: value >> 32)
    let n = UInt32(bitPattern: count) & 63
    if n == 0 { return value }
    if n >= 32 { return UInt64(high &>> (n &- 32)) }
    return UInt64(high &>> n) << 32 | UInt64(low &>> n | high &<< (32 &- n))
}

@_cdecl("__aeabi_lasr")
public func shiftRightArithmetic64(_ value: Int64, _ count: Int32) -> Int64 {
    let low = UInt32(truncatingIfNeeded: value)
    let high = Int32(truncatingIfNeeded: value >> 32)
    let n = UInt32(bitPattern: count) & 63
    if n == 0 { return value }
    if n >= 32 { return Int64(high &>> Int32(n &- 32)) }
    let newLow = low &>> n | UInt32(bitPattern: high) &<< (32 &- n)
    return Int64(high &>> Int32(n)) << 32 | Int64(newLow)
}

// MARK: 64-bit division (RTABI §4.3.1; the register-pair return is in Assembly.s)

/// Unsigned 64-bit division; the remainder goes to `remainder`. Divisors and
/// dividends that fit 32 bits use the core's UDIV; the rest is restoring binary
/// long division (one bit a step). Swift checks for a zero divisor before it
/// divides, so one never arrives here (the answer would be 0).
@_cdecl("tack_uldivmod")
public func unsignedDivide64(_ dividend: UInt64, _ divisor: UInt64, _ remainder: UnsafeMutablePointer<UInt64>) -> UInt64 {
    if divisor == 0 {
        remainder.pointee = 0
        return 0
    }
    if dividend >> 32 == 0 && divisor >> 32 == 0 {
        let n = UInt32(truncatingIfNeeded: dividend)
        let d = UInt32(truncatingIfNeeded: divisor)
        remainder.pointee = UInt64(n % d)
        return UInt64(n / d)
    }
    var quotient = dividend
    var rest: UInt64 = 0
    var step = 0
    while step < 64 {
        rest = rest << 1 | quotient >> 63
        quotient = quotient << 1
        if rest >= divisor {
            rest &-= divisor
            quotient |= 1
        }
        step &+= 1
    }
    remainder.pointee = rest
    return quotient
}

/// Signed 64-bit division, truncating toward zero; the remainder takes the
/// dividend's sign.
@_cdecl("tack_ldivmod")
public func signedDivide64(_ dividend: Int64, _ divisor: Int64, _ remainder: UnsafeMutablePointer<Int64>) -> Int64 {
    let n = dividend < 0 ? 0 &- UInt64(bitPattern: dividend) : UInt64(bitPattern: dividend)
    let d = divisor < 0 ? 0 &- UInt64(bitPattern: divisor) : UInt64(bitPattern: divisor)
    var rest: UInt64 = 0
    let quotient = unsignedDivide64(n, d, &rest)
    remainder.pointee = dividend < 0 ? 0 &- Int64(bitPattern: rest) : Int64(bitPattern: rest)
    return (dividend < 0) != (divisor < 0) ? 0 &- Int64(bitPattern: quotient) : Int64(bitPattern: quotient)
}

// MARK: AEABI memory functions (RTABI §4.3.4; note __aeabi_memset's argument order)

@_cdecl("__aeabi_memcpy") public func aeabiMemcpy(_ d: UnsafeMutableRawPointer, _ s: UnsafeRawPointer, _ n: Int) { copyForward(d, s, n) }
@_cdecl("__aeabi_memcpy4") public func aeabiMemcpy4(_ d: UnsafeMutableRawPointer, _ s: UnsafeRawPointer, _ n: Int) { copyForward(d, s, n) }
@_cdecl("__aeabi_memcpy8") public func aeabiMemcpy8(_ d: UnsafeMutableRawPointer, _ s: UnsafeRawPointer, _ n: Int) { copyForward(d, s, n) }
@_cdecl("__aeabi_memmove") public func aeabiMemmove(_ d: UnsafeMutableRawPointer, _ s: UnsafeRawPointer, _ n: Int) { _ = memmove(d, s, n) }
@_cdecl("__aeabi_memmove4") public func aeabiMemmove4(_ d: UnsafeMutableRawPointer, _ s: UnsafeRawPointer, _ n: Int) { _ = memmove(d, s, n) }
@_cdecl("__aeabi_memmove8") public func aeabiMemmove8(_ d: UnsafeMutableRawPointer, _ s: UnsafeRawPointer, _ n: Int) { _ = memmove(d, s, n) }
@_cdecl("__aeabi_memset") public func aeabiMemset(_ d: UnsafeMutableRawPointer, _ n: Int, _ c: Int32) { _ = memset(d, c, n) }
@_cdecl("__aeabi_memset4") public func aeabiMemset4(_ d: UnsafeMutableRawPointer, _ n: Int, _ c: Int32) { _ = memset(d, c, n) }
@_cdecl("__aeabi_memset8") public func aeabiMemset8(_ d: UnsafeMutableRawPointer, _ n: Int, _ c: Int32) { _ = memset(d, c, n) }
@_cdecl("__aeabi_memclr") public func aeabiMemclr(_ d: UnsafeMutableRawPointer, _ n: Int) { _ = memset(d, 0, n) }
@_cdecl("__aeabi_memclr4") public func aeabiMemclr4(_ d: UnsafeMutableRawPointer, _ n: Int) { _ = memset(d, 0, n) }
@_cdecl("__aeabi_memclr8") public func aeabiMemclr8(_ d: UnsafeMutableRawPointer, _ n: Int) { _ = memset(d, 0, n) }

// MARK: Double precision (RTABI §4.1.2; C `ceil`), for the standard library's hash
// tables (SoftFloat.swift). The soft-float base procedure call standard passes a
// double in a register pair, as a UInt64 is passed, so the bit patterns serve.

@_cdecl("__aeabi_dmul") public func aeabiDmul(_ a: UInt64, _ b: UInt64) -> UInt64 { softMultiply(a, b) }
@_cdecl("__aeabi_ddiv") public func aeabiDdiv(_ a: UInt64, _ b: UInt64) -> UInt64 { softDivide(a, b) }
@_cdecl("__aeabi_i2d") public func aeabiI2d(_ value: Int32) -> UInt64 { softFromInt32(value) }
@_cdecl("__aeabi_ui2d") public func aeabiUi2d(_ value: UInt32) -> UInt64 { softFromUInt32(value) }
@_cdecl("__aeabi_d2iz") public func aeabiD2iz(_ x: UInt64) -> Int32 { softToInt32(x) }
@_cdecl("__aeabi_dcmpeq") public func aeabiDcmpeq(_ a: UInt64, _ b: UInt64) -> Int32 { softCompare(a, b) == 0 ? 1 : 0 }
@_cdecl("__aeabi_dcmplt") public func aeabiDcmplt(_ a: UInt64, _ b: UInt64) -> Int32 { softCompare(a, b) == -1 ? 1 : 0 }
@_cdecl("__aeabi_dcmple") public func aeabiDcmple(_ a: UInt64, _ b: UInt64) -> Int32 { (softCompare(a, b) ?? 1) <= 0 ? 1 : 0 }
@_cdecl("__aeabi_dcmpge") public func aeabiDcmpge(_ a: UInt64, _ b: UInt64) -> Int32 { (softCompare(a, b) ?? -1) >= 0 ? 1 : 0 }
@_cdecl("__aeabi_dcmpgt") public func aeabiDcmpgt(_ a: UInt64, _ b: UInt64) -> Int32 { softCompare(a, b) == 1 ? 1 : 0 }
@_cdecl("__aeabi_dcmpun") public func aeabiDcmpun(_ a: UInt64, _ b: UInt64) -> Int32 { softCompare(a, b) == nil ? 1 : 0 }
@_cdecl("ceil") public func ceiling(_ x: UInt64) -> UInt64 { softCeiling(x) }

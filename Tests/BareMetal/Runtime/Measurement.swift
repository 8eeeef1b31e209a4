// What the use case measures on the board: time in instructions (a CMSDK APB
// timer, deterministic under `qemu-system-arm -icount`), the stack (painted and
// scanned) and the heap (Heap.swift's counters).

import _Volatile

/// CMSDK APB timer 0 of the MPS2 board (AN386: 0x4000_0000; CTRL at +0, VALUE at
/// +4, RELOAD at +8), a 32-bit down-counter clocked by the 25 MHz system clock.
let timerBase: UInt = 0x4000_0000

public enum CycleTimer {
    /// Starts the counter from 0xFFFF_FFFF (it wraps after 2^32 ticks, 171 s of
    /// the 25 MHz clock, far beyond one verdict).
    public static func start() {
        VolatileMappedRegister<UInt32>(unsafeBitPattern: timerBase).store(0)
        VolatileMappedRegister<UInt32>(unsafeBitPattern: timerBase + 8).store(0xFFFF_FFFF)
        VolatileMappedRegister<UInt32>(unsafeBitPattern: timerBase + 4).store(0xFFFF_FFFF)
        VolatileMappedRegister<UInt32>(unsafeBitPattern: timerBase).store(1)
    }

    /// Ticks since `start` (the counter counts down).
    public static func ticks() -> UInt32 {
        0xFFFF_FFFF &- VolatileMappedRegister<UInt32>(unsafeBitPattern: timerBase + 4).load()
    }
}

/// `subs; bne` n times, then `bx lr`: 2n + 1 instructions (Assembly.s).
@_extern(c, "tack_calibration_loop")
func calibrationLoop(_ n: UInt32)

extension CycleTimer {
    /// Timer ticks for a loop of 2n + 1 instructions, n = 1,000,000: 50,000 when
    /// one tick is 40 instructions (`-icount shift=0`: 1 ns an instruction; the
    /// timer's 25 MHz clock: 40 ns a tick). The timer's own start and read add a
    /// few.
    public static func calibrate() -> UInt32 {
        start()
        calibrationLoop(1_000_000)
        return ticks()
    }
}

/// Empty functions with C names around each measured verdict, where a debugger
/// can stop (trace-allocations.sh breaks on posix_memalign between them). Each
/// counts, so that the optimizer keeps the calls.
@_cdecl("tack_verdict_begin") @inline(never)
public func verdictBegin() { verdictsBegun &+= 1 }

@_cdecl("tack_verdict_end") @inline(never)
public func verdictEnd() { verdictsEnded &+= 1 }

nonisolated(unsafe) var verdictsBegun = 0
nonisolated(unsafe) var verdictsEnded = 0

/// The pattern painted over the free stack.
let stackPaint: UInt32 = 0x5AC4_5AC4

public enum Stack {
    /// The current stack pointer, near enough: the address of a local.
    @inline(never)
    public static func approximatePointer() -> UInt {
        var local: UInt32 = 0
        return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
    }

    /// Paints the stack from its bottom to a little below this call's frame.
    @inline(never)
    public static func paint() {
        let limit = (approximatePointer() &- 256) & ~3
        var address = symbolAddress(stackBottomSymbol)
        while address < limit {
            word(address).pointee = stackPaint
            address &+= 4
        }
    }

    /// The lowest address written since `paint`: the first word from the bottom
    /// that no longer holds the pattern.
    public static func lowestTouched() -> UInt {
        var address = symbolAddress(stackBottomSymbol)
        let top = symbolAddress(stackTopSymbol)
        while address < top && word(address).pointee == stackPaint { address &+= 4 }
        return address
    }

    /// The size of the stack region.
    public static var capacity: UInt { symbolAddress(stackTopSymbol) &- symbolAddress(stackBottomSymbol) }
}

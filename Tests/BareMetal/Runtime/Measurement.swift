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

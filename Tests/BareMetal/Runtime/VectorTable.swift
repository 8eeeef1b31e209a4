// The ARMv7-M vector table (ARMv7-M ARM, B1.5.2-B1.5.3), a constant tuple of
// function pointers that the compiler lays out in the `.vectors` section
// (`@section`, kept by `@used`), which cortex-m4.ld puts at address 0.
//

typealias Handler = @convention(c) () -> Void

/// Initial stack pointer, then the 15 system exceptions (0 for the reserved
/// slots). No external interrupt is enabled, so the table ends there.
@section(".vectors") @used
let vectorTable: (Handler, Handler, Handler, Handler, Handler, Handler, Handler, UInt32,
                  UInt32, UInt32, UInt32, Handler, Handler, UInt32, Handler, Handler) = (
    stackTopSymbol,           // 0: initial SP (an address, not a handler)
    resetHandler,             // 1: Reset
    faultHandler,             // 2: NMI
    faultHandler,             // 3: HardFault
    faultHandler,             // 4: MemManage
    faultHandler,             // 5: BusFault
    faultHandler,             // 6: UsageFault
    0, 0, 0, 0,               // 7-10: reserved
    unexpectedInterrupt,      // 11: SVCall
    unexpectedInterrupt,      // 12: DebugMonitor
    0,                        // 13: reserved
    unexpectedInterrupt,      // 14: PendSV
    unexpectedInterrupt       // 15: SysTick
)

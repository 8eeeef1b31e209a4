// The vector table and the reset handler, in Swift.
//
// A Cortex-M core starts by loading the stack pointer from word 0 of the vector
// table and jumping to the reset handler in word 1 (ARMv7-M ARM, B1.5.3). The
// handlers are ordinary AAPCS functions (the core stacks r0-r3, r12, lr, pc and
// xPSR itself on exception entry), so Swift functions with C names serve; the
// table is in VectorTable.swift.
//
// The linker script's symbols (`__tack_data_start` and the others, see
// cortex-m4.ld) are declared as C functions: Swift has no declaration of an
// external variable, but the address of an external function is the symbol's
// value, which is all a section boundary is. They are never called.

@_extern(c, "__tack_stack_top") public func stackTopSymbol()
@_extern(c, "__tack_stack_bottom") func stackBottomSymbol()
@_extern(c, "__tack_data_load") func dataLoadSymbol()
@_extern(c, "__tack_data_start") func dataStartSymbol()
@_extern(c, "__tack_data_end") func dataEndSymbol()
@_extern(c, "__tack_bss_start") func bssStartSymbol()
@_extern(c, "__tack_bss_end") func bssEndSymbol()
@_extern(c, "__tack_heap_start") func heapStartSymbol()
@_extern(c, "__tack_heap_end") func heapEndSymbol()

/// The address a linker-script symbol stands for.
@inline(__always)
func symbolAddress(_ symbol: @convention(c) () -> Void) -> UInt {
    UInt(bitPattern: unsafeBitCast(symbol, to: Int.self))
}

/// The program's entry: `@main` makes the compiler emit a C `main`.
@_extern(c, "main")
func programMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32

/// Turns the FPU on (Assembly.s says why it is not Swift).
@_extern(c, "tack_enable_fpu")
func enableFPU()

/// Reset: turn the FPU on, copy .data from flash to RAM, zero .bss, then run the
/// program and end the run with its status. Nothing here reads a Swift global before .data and
/// .bss are in place (the loops use only locals and the symbols' addresses).
@_cdecl("tack_reset")
public func resetHandler() {
    enableFPU()
    let load = symbolAddress(dataLoadSymbol)
    var address = symbolAddress(dataStartSymbol)
    let dataEnd = symbolAddress(dataEndSymbol)
    while address < dataEnd {
        word(address).pointee = word(load &+ (address &- symbolAddress(dataStartSymbol))).pointee
        address &+= 4
    }
    address = symbolAddress(bssStartSymbol)
    let bssEnd = symbolAddress(bssEndSymbol)
    while address < bssEnd {
        word(address).pointee = 0
        address &+= 4
    }
    let status = programMain(0, nil)
    semihostingExit(UInt32(bitPattern: status))
}

/// NMI, HardFault and the other faults: a trap in Swift (`precondition`,
/// overflow) is the `udf` instruction, a UsageFault that escalates to HardFault
/// here. Say so over semihosting and fail the run.
@_cdecl("tack_fault")
public func faultHandler() {
    for byte in "cortex-m4: FAIL: fault (a Swift trap or a bad access)\n".utf8 { semihostingWrite(byte) }
    semihostingExit(2)
}

/// Interrupts this image never enables.
@_cdecl("tack_unexpected_interrupt")
public func unexpectedInterrupt() {
    for byte in "cortex-m4: FAIL: unexpected interrupt\n".utf8 { semihostingWrite(byte) }
    semihostingExit(2)
}

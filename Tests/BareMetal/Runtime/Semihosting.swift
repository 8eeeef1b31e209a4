// Semihosting (Arm "Semihosting for AArch32 and AArch64", version 2): the debug
// channel through which this image prints and exits. Under
// `qemu-system-arm -semihosting` the host QEMU performs the calls; on a board a
// debug probe does.
//
// A call is the instruction `bkpt 0xab` with the operation in r0 and its argument
// in r1, the result coming back in r0. Swift cannot emit one instruction of its
// choosing (no inline assembly), so `tack_semihosting_call` is two lines of
// assembly in semihosting.s; everything around it is here.

/// `bkpt 0xab; bx lr` (semihosting.s): r0 = operation, r1 = argument, returns r0.
@_extern(c, "tack_semihosting_call")
func semihostingCall(_ operation: UInt32, _ argument: UnsafeRawPointer?) -> UInt32

/// The operations this image uses (the specification's numbers).
enum SemihostingOperation: UInt32 {
    /// SYS_WRITEC: one character, argument points at it.
    case writeCharacter = 0x03
    /// SYS_WRITE0: a NUL-terminated string.
    case writeString = 0x04
    /// SYS_EXIT_EXTENDED: argument points at (reason, subcode); with
    /// ADP_Stopped_ApplicationExit the subcode is the exit status.
    case exitExtended = 0x20
}

/// ADP_Stopped_ApplicationExit, the "normal exit" reason code.
let applicationExit: UInt32 = 0x20026

/// Writes one byte to the debug console.
public func semihostingWrite(_ byte: UInt8) {
    var character = byte
    _ = withUnsafePointer(to: &character) { semihostingCall(SemihostingOperation.writeCharacter.rawValue, UnsafeRawPointer($0)) }
}

/// Ends the run: QEMU exits with `status` (0 passes, anything else fails).
public func semihostingExit(_ status: UInt32) -> Never {
    var block: (UInt32, UInt32) = (applicationExit, status)
    _ = withUnsafePointer(to: &block) { semihostingCall(SemihostingOperation.exitExtended.rawValue, UnsafeRawPointer($0)) }
    // Without a debugger attached the call does nothing; stop here.
    while true {}
}

/// The Embedded Swift standard library's `print` writes through `putchar`.
@_cdecl("putchar")
public func putchar(_ character: Int32) -> Int32 {
    semihostingWrite(UInt8(truncatingIfNeeded: character))
    return character
}

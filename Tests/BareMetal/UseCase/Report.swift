// What the shared known-answer sources (Tests/Embedded/Program/Support.swift)
// expect of the platform, for the bare-metal images: `report` prints a line
// over semihosting (each byte goes out as it is written, so a fault loses
// nothing), and the name the lines start with.

let architecture: StaticString = "cortex-m4"

/// Writes a line's bytes, then a line feed, over semihosting's SYS_WRITEC.
func report(_ line: Line) {
    for byte in line.bytes { semihostingWrite(byte) }
    semihostingWrite(UInt8(ascii: "\n"))
}

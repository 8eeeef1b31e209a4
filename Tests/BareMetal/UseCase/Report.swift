// What the shared known-answer sources (Tests/Embedded/Program/Support.swift)
// expect of the platform, for the bare-metal images: `report` prints a line
// over semihosting (each character goes out as it is printed, so a fault loses
// nothing), and the name the lines start with.

let architecture = "cortex-m4"

/// Prints a line (through `print`, whose `putchar` is semihosting's SYS_WRITEC).
func report(_ line: String) {
    print(line)
}

// GHASH on the CPU's carry-less multiply instructions: not compiled in this
// build (see GHASH.swift for the portable path, which always runs).

/// Whether a carry-less multiply GHASH is compiled in and the CPU has it.
let hardwareGHASHIsAvailable = false

// Unreachable: GHASHKey uses it only when hardwareGHASHIsAvailable.
func ghashAbsorbHardware(_ state: inout GHASHBlock, _ blocks: UnsafePointer<UInt8>, count: Int, powers: UnsafePointer<UInt64>) {
    preconditionFailure("no hardware GHASH in this build")
}

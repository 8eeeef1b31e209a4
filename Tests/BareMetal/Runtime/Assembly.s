@ What Swift cannot express. The semihosting trap: Swift has no
@ inline assembly and no intrinsic for `bkpt`, so this file holds it (and the
@ register-pair returns of the AEABI run-time helpers, see Arithmetic.swift, and a
@ calibration loop of known length, see Measurement.swift, and the FPU enable).
@ Everything else of the image (vector table, reset handler, allocator, memcpy,
@ output) is Swift: Tests/BareMetal/Runtime/*.swift.
    .syntax unified
    .thumb
    .text

@ uint32_t tack_semihosting_call(uint32_t operation /* r0 */, const void *argument /* r1 */)
    .section .text.tack_semihosting_call, "ax", %progbits
    .global tack_semihosting_call
    .type tack_semihosting_call, %function
    .thumb_func
tack_semihosting_call:
    bkpt 0xab
    bx lr
    .size tack_semihosting_call, . - tack_semihosting_call

@ The AEABI 64-bit division helpers return the quotient in r0:r1 and the
@ remainder in r2:r3 (RTABI §4.3.1), a register pair a Swift (AAPCS) function
@ cannot return: a C-convention function returns a struct of that size through
@ memory. These trampolines pass a stack slot for the remainder to the Swift
@ division (Arithmetic.swift) and load it into r2:r3.
@ uint64_t tack_uldivmod(uint64_t n /* r0:r1 */, uint64_t d /* r2:r3 */, uint64_t *remainder /* [sp] */)
    .section .text.__aeabi_uldivmod, "ax", %progbits
    .global __aeabi_uldivmod
    .type __aeabi_uldivmod, %function
    .thumb_func
__aeabi_uldivmod:
    push {r4, lr}
    sub sp, sp, #16
    add r4, sp, #8
    str r4, [sp]
    bl tack_uldivmod
    ldrd r2, r3, [sp, #8]
    add sp, sp, #16
    pop {r4, pc}
    .size __aeabi_uldivmod, . - __aeabi_uldivmod

    .section .text.__aeabi_ldivmod, "ax", %progbits
    .global __aeabi_ldivmod
    .type __aeabi_ldivmod, %function
    .thumb_func
__aeabi_ldivmod:
    push {r4, lr}
    sub sp, sp, #16
    add r4, sp, #8
    str r4, [sp]
    bl tack_ldivmod
    ldrd r2, r3, [sp, #8]
    add sp, sp, #16
    pop {r4, pc}
    .size __aeabi_ldivmod, . - __aeabi_ldivmod

@ A loop of exactly 2n + 1 instructions (n > 0), to check the timer's
@ instructions-per-tick under `-icount shift=0` (Measurement.swift): Swift gives
@ no guarantee of the instructions a loop compiles to.
@ void tack_calibration_loop(uint32_t n /* r0 */)
    .section .text.tack_calibration_loop, "ax", %progbits
    .global tack_calibration_loop
    .type tack_calibration_loop, %function
    .thumb_func
tack_calibration_loop:
1:  subs r0, r0, #1
    bne 1b
    bx lr
    .size tack_calibration_loop, . - tack_calibration_loop

@ The FPU on: swiftc's armv7em code uses the Cortex-M4's FPv4-SP registers (it
@ moves doubles through d0 on their way to the soft-float helpers), and the core
@ resets with the coprocessor off, so the first such instruction is a NOCP
@ UsageFault. CPACR (0xE000ED88, ARMv7-M ARM B3.2.20) gets full access for CP10
@ and CP11, then DSB and ISB, which Swift cannot emit, make it take effect before
@ the next instruction. Called first by the reset handler (Startup.swift).
@ void tack_enable_fpu(void)
    .section .text.tack_enable_fpu, "ax", %progbits
    .global tack_enable_fpu
    .type tack_enable_fpu, %function
    .thumb_func
tack_enable_fpu:
    ldr r0, =0xE000ED88
    ldr r1, [r0]
    orr r1, r1, #0x00F00000
    str r1, [r0]
    dsb
    isb
    bx lr
    .size tack_enable_fpu, . - tack_enable_fpu
    .ltorg

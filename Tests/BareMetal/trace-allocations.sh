#!/usr/bin/env bash
# Lists what allocates during one measured verdict of firmware.elf: QEMU's GDB
# stub, gdb-multiarch breaking on posix_memalign between tack_verdict_begin and
# tack_verdict_end, a backtrace per allocation (Swift names demangled).
#
#   Tests/BareMetal/trace-allocations.sh BUILD/firmware.elf [VERDICT]
#
# VERDICT counts the measured verdicts from 1 (default 2: the RSA-2048 chain's
# second, steady-state verdict; 1 is its first, 3 and 4 the P-256 chain's). The
# image comes from `BAREMETAL_BUILD_DIR=BUILD scripts/baremetal-check.sh`.
# Needs gdb-multiarch (Debian package gdb-multiarch); not part of CI.
set -euo pipefail
ELF="$1"
VERDICT="${2:-2}"
BIN="$(dirname "$(command -v swiftc)")"
PORT=$(( 20000 + RANDOM % 20000 ))
qemu-system-arm -M mps2-an386 -nographic -monitor none -serial null \
    -semihosting-config enable=on,target=native -icount shift=0 \
    -gdb "tcp:127.0.0.1:$PORT" -S -kernel "$ELF" >/dev/null 2>&1 &
QEMU_PID=$!
trap 'kill "$QEMU_PID" 2>/dev/null || true' EXIT
sleep 1
gdb-multiarch -q -batch -nx \
    -ex "set pagination off" -ex "set confirm off" \
    -ex "target remote 127.0.0.1:$PORT" \
    -ex "break tack_verdict_begin" -ex "ignore 1 $((VERDICT - 1))" -ex "continue" \
    -ex "delete 1" \
    -ex "break tack_verdict_end" \
    -ex "break posix_memalign" \
    -ex "commands 3
silent
echo ==== allocation\n
bt 10
continue
end" \
    -ex "continue" \
    "$ELF" 2>&1 \
    | grep -E '^(====|#)' \
    | sed -E 's/ \(.*\) at .*$//; s/^#[0-9]+ +(0x[0-9a-f]+ in )?/  /' \
    | "$BIN/swift-demangle" --simplified

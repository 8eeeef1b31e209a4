#!/usr/bin/env bash
# Embedded Swift: the core modules (TackDER..TackTLS, MODULES below) compile for bare-metal
# targets, and the known-answer test program (Tests/Embedded) runs on aarch64 (with
# one recorded TLS 1.3 handshake replayed: TLS_TARGETS), 32-bit armv7 and riscv64
# under user-mode QEMU (scripts/check.sh leaves riscv64 out: Tests/Embedded/README.md).
#
#   swift package embedded-check                   # every target below
#   swift package embedded-check aarch64 armv7     # some targets
#   swift package embedded-check --jobs 1          # targets one at a time (default 2 in parallel)
#   swift package embedded-check --build-dir /tmp/emb armv7    # keep objects, rebuild what changed
#   swift package embedded-check --core-only aarch64           # program on TackDER + TackDigest only
#   swift package embedded-check --optimization -Onone aarch64 # one level for every target (default: optimization())
#   swift package embedded-check --run-objects aarch64         # run targets also build module objects
#   swift package embedded-check --swift-flags "-stats-output-dir /tmp/s"   # measure
#   swift package embedded-check --skip-missing    # skip a run target whose QEMU or cross gcc is missing
# (the command plugin, scripts/Plugins/EmbeddedCheck, runs this script with the
# package graph; the compiler is $SWIFTC, README "Environment").
#
# Targets (Tests/Embedded/README.md has the command lines spelled out):
#   armv7em   armv7em-none-none-eabi  compile only (Cortex-M4/M7 class)
#   riscv32   riscv32-none-none-eabi  compile only
#   cortex-m4 armv7em-none-none-eabi  run: scripts/baremetal-check.sh's images (armv7em's
#             objects, no C library) under qemu-system-arm
#   aarch64   aarch64-none-none-elf   run: aarch64-linux-gnu-gcc -static-pie, qemu-aarch64-static -cpu max
#   armv7     armv7-none-none-eabi    run: arm-linux-gnueabihf-gcc -static, qemu-arm-static
#   riscv64   riscv64-none-none-eabi  run: riscv64-linux-gnu-gcc -static, qemu-riscv64-static
#
# For a compile-only target each core module is compiled whole-module (at its
# optimization(), below)
# into its own object, in dependency order (-emit-module, so the next can import
# it), and its size (text + data, from llvm-size or `size`; else the object file's
# bytes) is printed. A run target builds the modules as interfaces only (see
# RUN_OBJECTS below) and compiles the test program against them into one object
# holding all the code it runs, linked with the cross C library, which supplies
# putchar, posix_memalign, free (the Embedded runtime's needs) and what the program
# declares with @_extern(c). The program's last line is `<arch>: N passed, N failed`.
# Every compile prints its CPU seconds, and every target its total.
#
# A new target is one line in each of triple, target_flags, and for a run target
# linker and emulator, plus its name in ALL_TARGETS.
# The QEMU and cross-gcc packages come from .ci/run; a run target whose tools are
# missing fails (--skip-missing skips it instead, locally).
#
# On aarch64, TackDigest is built with the ARMv8 SHA-256 path
# (-D TACK_HARDWARE_SHA; every module gets the sha2 target feature, see
# target_flags) and -D TACK_ASSUME_ARMV8_SHA2,
# the build-time statement that the CPU has the instructions (qemu -cpu max has
# them; the program checks getauxval(AT_HWCAP) before using them), so the program
# runs every SHA-256 test on both paths.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# SWIFTC, core_modules, EMBEDDED_SETTINGS, FAMILY_DEFINES, cpu_run, cpu_sum.
source "$ROOT/scripts/lib/common.sh"
JOBS=2
BUILD_DIR=""
CORE_ONLY=0
OPTIMIZATION=""
RUN_OBJECTS=0
EXTRA_SWIFT_FLAGS=""
SKIP_MISSING=0
while [ "$#" -gt 0 ]; do
    case "$1" in
        --jobs) JOBS="${2:?--jobs needs a number}"; shift 2 ;;
        --build-dir) BUILD_DIR="${2:?--build-dir needs a directory}"; shift 2 ;;
        --core-only) CORE_ONLY=1; shift ;;
        --optimization) OPTIMIZATION="${2:?--optimization needs a level}"; shift 2 ;;
        --run-objects) RUN_OBJECTS=1; shift ;;
        --swift-flags) EXTRA_SWIFT_FLAGS="${2?--swift-flags needs flags}"; shift 2 ;;
        --skip-missing) SKIP_MISSING=1; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
        -*) echo "embedded: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
ALL_TARGETS=(armv7em riscv64 riscv32 aarch64 cortex-m4 armv7)
if [ "$#" -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL_TARGETS[@]}"); fi

# The core modules, lowest first: the package graph's (scripts/lib/common.sh), so a
# new core module joins the check by being a library product in Package.swift.
read -ra MODULES <<<"$(core_modules)"
# The modules the test program imports (for the run targets): all of them, the
# chain verdicts need TackTrust; TackTLS only where the program replays the TLS
# handshake (TLS_TARGETS). --core-only builds the program with
# -D CORE_ONLY against TackDER and TackDigest alone (the sha2, der and time
# groups): a quick first run on a new target.
RUN_MODULES=("${MODULES[@]}")
# The run targets whose program replays one recorded TLS 1.3 handshake (the tls
# group, Tests/Embedded/Program/TLSChecks.swift, compiled with -D TACK_TLS_REPLAY,
# the flight Tests/Embedded/generate-tls-flight.py writes into the build directory
# from Vectors/tls/recordings, and the seeded random source of TackTestSupport):
# aarch64 here, and the Cortex-M4 known-answers image (scripts/baremetal-check.sh).
# Another run target leaves the group and TackTLS's interface out: the handshake is
# the modules below it at work, which its other groups check on that target, and
# the group costs a program about 40 CPU-s to compile.
TLS_TARGETS=(aarch64)
TLS_SUPPORT=("$ROOT/Sources/TackTestSupport/DeterministicStream.swift" "$ROOT/Sources/TackTestSupport/SeededRandomSource.swift")
replays_tls() {
    local t
    [ "$CORE_ONLY" = 1 ] && return 1
    for t in "${TLS_TARGETS[@]}"; do [ "$t" = "$1" ] && return 0; done
    return 1
}
# Embedded Swift serializes every function body into the .swiftmodule and a client
# emits into its own object the code it uses from the modules below it (TackX509's
# object holds TackDER's DERElement and DERStringKind functions, TackTrust's most of
# TackSignature's). The test program's object therefore holds all the code it runs,
# and it links without the module objects. So a run target compiles its modules as
# interfaces only (-emit-module, no object: type checking and the SIL passes before
# serialization, no LLVM), and the program with everything it calls; the module
# objects, with their sizes, come from the compile-only targets (armv7em, riscv32),
# which build every module whole. --run-objects also builds and links the
# module objects of a run target (its sizes, and code the program does not call).
# Measured (2026-12-02, all five targets, with the curve constants precomputed):
# 783 CPU-s in all, against 45-50 CPU-minutes with module objects on every target
# and the curve tables derived in global initialisers.
PROGRAM_FLAGS=()
if [ "$CORE_ONLY" = 1 ]; then
    RUN_MODULES=(TackDER TackDigest)
    PROGRAM_FLAGS=(-D CORE_ONLY)
fi

# The optimization level: -Osize, what firmware ships, except riscv32, which checks
# the other configuration an Embedded developer builds every day, the unoptimized
# (debug) one: Embedded Swift's mandatory passes (generic specialization, the
# Embedded restrictions) then do all the work, and every function of every module
# goes through the RISC-V backend. -Osize codegen is checked for 32 bits on armv7em
# (and run on Cortex-M4 and armv7) and for RISC-V on riscv64 (run). At -Onone the
# riscv32 objects took 150 CPU-s, at -Osize 380-410 (2026-12-02).
optimization() {
    if [ -n "$OPTIMIZATION" ]; then echo "$OPTIMIZATION"; return; fi
    case "$1" in
        riscv32) echo -Onone ;;
        *) echo -Osize ;;
    esac
}
# Package.swift's language settings, Embedded Swift, every optional family on, as in
# a default `swift build` (scripts/baremetal-check.sh builds the pinning image with
# none): scripts/lib/common.sh. --swift-flags: extra swiftc flags for every compile
# (measurements: -driver-time-compilation, -stats-output-dir DIR).
COMMON=("${EMBEDDED_SETTINGS[@]}" "${FAMILY_DEFINES[@]}")
# shellcheck disable=SC2206
COMMON+=($EXTRA_SWIFT_FLAGS)

triple() {
    case "$1" in
        armv7em | cortex-m4) echo armv7em-none-none-eabi ;;
        riscv32) echo riscv32-none-none-eabi ;;
        aarch64) echo aarch64-none-none-elf ;;
        armv7) echo armv7-none-none-eabi ;;
        riscv64) echo riscv64-none-none-eabi ;;
        *) echo "embedded: unknown target $1" >&2; return 1 ;;
    esac
}

# Extra compiler flags per target: function sections for the bare-metal link
# (armv7em), position-independent code for a static-pie link (aarch64), the Linux psABI for riscv64 (double-float registers, RV64GC).
# On aarch64 every module gets the sha2 target feature, not only TackDigest:
# Embedded Swift emits the code a module uses from the modules below it into
# that module's object, so TackX509 (which hashes) carries its own copy of the
# ARMv8 SHA-256 function, and LLVM cannot select the SHA256H intrinsics without
# the feature ("Cannot select: intrinsic ...aarch64.crypto.sha256h").
target_flags() {
    case "$1" in
        # Function sections: scripts/baremetal-check.sh links these objects into its
        # Cortex-M4 images with ld.lld --gc-sections (its --modules-dir).
        armv7em) echo "-Xfrontend -function-sections" ;;
        aarch64) echo "-Xcc -fPIC -Xcc -march=armv8-a+sha2" ;;
        riscv64) echo "-Xcc -mabi=lp64d -Xcc -march=rv64gc" ;;
        *) echo "" ;;
    esac
}

# module_flags TARGET MODULE: TackDigest's hardware path on aarch64.
module_flags() {
    if [ "$1" = aarch64 ] && [ "$2" = TackDigest ]; then
        echo "-D TACK_HARDWARE_SHA -D TACK_ASSUME_ARMV8_SHA2"
    fi
}

linker() {
    case "$1" in
        aarch64) echo "aarch64-linux-gnu-gcc -static-pie" ;;
        # The objects are soft-float EABI, the C library hard-float; neither passes
        # floating-point arguments across the boundary (putchar, posix_memalign, free).
        armv7) echo "arm-linux-gnueabihf-gcc -static -Wl,--no-warn-mismatch" ;;
        riscv64) echo "riscv64-linux-gnu-gcc -static" ;;
        *) echo "" ;;
    esac
}

emulator() {
    case "$1" in
        aarch64) echo "qemu-aarch64-static -cpu max" ;;
        armv7) echo "qemu-arm-static" ;;
        riscv64) echo "qemu-riscv64-static" ;;
    esac
}

# text+data of an object, from llvm-size / size (Berkeley format), else file bytes.
object_size() {
    local sizer
    for sizer in llvm-size "$(dirname "$(command -v "$SWIFTC" 2>/dev/null || echo .)")/llvm-size" size; do
        if command -v "$sizer" >/dev/null 2>&1; then
            "$sizer" "$1" 2>/dev/null | awk 'NR == 2 { print $1 + $2 " (text " $1 ", data " $2 ")"; ok = 1 } END { exit !ok }' && return
        fi
    done
    echo "$(wc -c <"$1" | tr -d ' ') (object file)"
}

# The CPU seconds of the compiles behind the objects in DIR (a kept object counts
# what it cost when it was built).
cpu_total() {
    cpu_sum "$1"/*.cpu
}

# --build-dir keeps the objects between runs (for local iteration): a module is
# then recompiled only when one of its sources, or a module below it, is newer
# than its object. By default everything is built in a scratch directory.
if [ -n "$BUILD_DIR" ]; then
    mkdir -p "$BUILD_DIR"
    SCRATCH="$(cd "$BUILD_DIR" && pwd)"
else
    SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/tack-embedded.XXXXXX")"
    trap 'rm -rf "$SCRATCH"' EXIT
fi

# Vectors compiled into the program must match Vectors/.
python3 "$ROOT/Tests/Embedded/generate-vectors.py" --check
# The recorded TLS flight of the tls group, as Swift, from the recording files as
# they are now (rewritten only when it changed, so a kept program stays current).
mkdir -p "$SCRATCH/tls-flight"
python3 "$ROOT/Tests/Embedded/generate-tls-flight.py" "$SCRATCH/tls-flight/TLSFlight.swift"

# module_donor TARGET: the target whose modules a run target imports instead of
# building its own, or nothing. armv7 (the QEMU run, ARMv7-A) imports armv7em's
# (the compile-only Cortex-M target): a run target's modules are interfaces only,
# serialized SIL in which the two triples do not differ (32-bit little-endian ARM,
# AAPCS layouts, `arch(arm)` and `os(none)` alike); instruction set and float ABI
# are chosen when the program is compiled, which emits all the code it runs for
# armv7-none-none-eabi. Measured (2026-12-02): 98 CPU-s of module builds saved.
# The program's known answers are the check that the modules serve it.
module_donor() {
    case "$1" in
        armv7 | cortex-m4) echo armv7em ;;
        *) echo "" ;;
    esac
}

# build_donor TARGET: brings TARGET's module donor up to date (kept if current);
# the donor's own lines are printed by its own job, so here only on failure.
build_donor() {
    local log="$SCRATCH/$1.donor.out"
    build_target "$(module_donor "$1")" >"$log" 2>&1 || { cat "$log"; return 1; }
}

# build_target TARGET: compiles the modules (and for a run target, the program,
# links and runs it). Output goes to $SCRATCH/TARGET/log; exit status is the result.
build_target() {
    if [ "$1" = cortex-m4 ]; then
        if ! command -v qemu-system-arm >/dev/null && [ "$SKIP_MISSING" = 1 ]; then
            echo "embedded: cortex-m4 skipped (missing qemu-system-arm)"
            return 0
        fi
        # scripts/baremetal-check.sh's images link the armv7em objects (same triple
        # and flags, function sections), brought up to date first.
        build_donor cortex-m4 || return 1
        "$ROOT/scripts/baremetal-check.sh" --modules-dir "$SCRATCH/$(module_donor cortex-m4)" --build-dir "$SCRATCH/cortex-m4"
        return
    fi
    local target="$1" out="$SCRATCH/$1" t
    t="$(triple "$target")" || return 1
    mkdir -p "$out"
    local run=0
    [ -n "$(linker "$target")" ] && run=1
    if [ "$run" = 1 ]; then
        local tool missing=()
        for tool in $(linker "$target" | cut -d' ' -f1) $(emulator "$target" | cut -d' ' -f1); do
            command -v "$tool" >/dev/null || missing+=("$tool")
        done
        if [ "${#missing[@]}" -gt 0 ]; then
            if [ "$SKIP_MISSING" = 1 ]; then
                echo "embedded: $target skipped (missing ${missing[*]})"
                return 0
            fi
            echo "embedded: $target FAILED: missing ${missing[*]} (.ci/run installs qemu-user-static and the cross gcc packages)"
            return 1
        fi
    fi
    local objects=() module start sources stale=0 modules=("${MODULES[@]}")
    [ "$run" = 1 ] && modules=("${RUN_MODULES[@]}")
    if [ "$run" = 1 ] && ! replays_tls "$target"; then
        for module in "${!modules[@]}"; do [ "${modules[$module]}" = TackTLS ] && unset "modules[$module]"; done
        modules=("${modules[@]}")
    fi
    # A run target whose modules another target builds (module_donor) imports
    # those: the donor's modules are brought up to date first (kept if current).
    local donor="" module_dir="$out"
    if [ "$run" = 1 ] && [ "$RUN_OBJECTS" = 0 ] && [ "$CORE_ONLY" != 1 ]; then
        donor="$(module_donor "$target")"
    fi
    if [ -n "$donor" ]; then
        echo "embedded: $target imports the $donor modules (same architecture and word size)"
        build_donor "$target" || return 1
        module_dir="$SCRATCH/$donor"
        modules=()
    fi
    # A run target's modules are interfaces only (see RUN_OBJECTS): the program's
    # object holds all the code it runs.
    local object_flags=() product=o
    if [ "$run" = 1 ] && [ "$RUN_OBJECTS" = 0 ]; then product=swiftmodule; fi
    for module in "${modules[@]}"; do
        mapfile -t sources < <(find "$ROOT/Sources/$module" -name '*.swift' 2>/dev/null | LC_ALL=C sort)
        if [ "${#sources[@]}" -eq 0 ]; then
            echo "embedded: $target $module skipped (no sources)"
            continue
        fi
        # The stamp, not the object, dates the last good compile: swiftc leaves an
        # output whose contents did not change untouched. Package.swift holds the
        # trait list that the compile conditions come from.
        if [ "$stale" = 0 ] && [ -f "$out/$module.$product" ] && [ -f "$out/$module.stamp" ] \
            && [ -z "$(find "${sources[@]}" "${BASH_SOURCE[0]}" "$ROOT/scripts/lib/common.sh" "$ROOT/Package.swift" -newer "$out/$module.stamp" 2>/dev/null)" ]; then
            if [ "$product" = o ]; then
                printf 'embedded: %-8s %-14s %s bytes (kept)\n' "$target" "$module" "$(object_size "$out/$module.o")"
                objects+=("$out/$module.o")
            else
                printf 'embedded: %-8s %-14s module (kept)\n' "$target" "$module"
            fi
            continue
        fi
        stale=1
        start=$(date +%s)
        object_flags=()
        [ "$product" = o ] && object_flags=(-c -o "$out/$module.o")
        # shellcheck disable=SC2046
        if ! cpu_run "$out/$module.cpu" "$SWIFTC" -target "$t" "${COMMON[@]}" "$(optimization "$target")" $(target_flags "$target") $(module_flags "$target" "$module") \
            -module-name "$module" -package-name tack -I "$out" \
            -emit-module -emit-module-path "$out/$module.swiftmodule" \
            "${object_flags[@]}" "${sources[@]}" >"$out/$module.log" 2>&1; then
            echo "embedded: $target $module FAILED"
            cat "$out/$module.log"
            return 1
        fi
        touch "$out/$module.stamp"
        if [ "$product" = o ]; then
            printf 'embedded: %-8s %-14s %s bytes, %s s, %s CPU-s\n' "$target" "$module" "$(object_size "$out/$module.o")" \
                "$(( $(date +%s) - start ))" "$(cat "$out/$module.cpu")"
            objects+=("$out/$module.o")
        else
            printf 'embedded: %-8s %-14s module, %s s, %s CPU-s\n' "$target" "$module" \
                "$(( $(date +%s) - start ))" "$(cat "$out/$module.cpu")"
        fi
        # Warnings are not failures here (swift build enforces none), but show them.
        grep -E 'warning:' "$out/$module.log" || true
    done
    if [ "$run" = 0 ]; then
        echo "embedded: $target compiled; $(cpu_total "$out") CPU-s in all"
        return 0
    fi

    start=$(date +%s)
    mapfile -t sources < <(find "$ROOT/Tests/Embedded/Program" "$ROOT/Tests/Embedded/Generated" -name '*.swift' | LC_ALL=C sort)
    local program_flags=("${PROGRAM_FLAGS[@]}")
    if replays_tls "$target"; then
        sources+=("$SCRATCH/tls-flight/TLSFlight.swift" "${TLS_SUPPORT[@]}")
        program_flags+=(-D TACK_TLS_REPLAY)
    fi
    # shellcheck disable=SC2046
    if ! cpu_run "$out/program.cpu" "$SWIFTC" -target "$t" "${COMMON[@]}" "$(optimization "$target")" $(target_flags "$target") -enable-experimental-feature Extern \
        "${program_flags[@]}" -module-name EmbeddedKnownAnswers -I "$module_dir" \
        -c -o "$out/program.o" "${sources[@]}" >"$out/program.log" 2>&1; then
        echo "embedded: $target test program FAILED to compile"
        cat "$out/program.log"
        return 1
    fi
    # The core's String comparisons (Unicode canonical equivalence) and Character
    # handling need the Embedded standard library's Unicode data tables.
    local tables
    tables="$(dirname "$(command -v "$SWIFTC")")/../lib/swift/embedded/$t/libswiftUnicodeDataTables.a"
    if [ "$target" = riscv64 ]; then
        # The toolchain's riscv64 tables are marked soft-float and GNU ld refuses
        # to mix them with the lp64d objects the Linux C library needs. They are
        # lookup tables and integer-only functions (no floating-point argument
        # crosses them), so a copy marked double-float (ELF e_flags
        # EF_RISCV_FLOAT_ABI_DOUBLE, 0x4) links as it is.
        rm -rf "$out/tables" && mkdir -p "$out/tables"
        (cd "$out/tables" && riscv64-linux-gnu-ar x "$tables" && python3 -c '
import glob, struct
for name in glob.glob("*.o"):
    data = bytearray(open(name, "rb").read())
    flags = struct.unpack_from("<I", data, 48)[0]
    struct.pack_into("<I", data, 48, (flags & ~0x6) | 0x4)
    open(name, "wb").write(data)
' && riscv64-linux-gnu-ar rcs ../libswiftUnicodeDataTables-lp64d.a ./*.o) || return 1
        tables="$out/libswiftUnicodeDataTables-lp64d.a"
    fi
    # -lm: where the CPU has no rounding instruction (riscv64, armv7), LLVM lowers
    # the `ceil` of the standard library's hash tables (_HashTable.scale(forCapacity:),
    # for TackTrust's sets) to a call, another symbol the platform supplies. On armv7
    # the program defines it (soft-float ABI, see Main.swift), so libm's is not used.
    # shellcheck disable=SC2046
    if ! $(linker "$target") -o "$out/known-answers" "$out/program.o" "${objects[@]}" "$tables" -lm >"$out/link.log" 2>&1; then
        echo "embedded: $target test program FAILED to link"
        cat "$out/link.log"
        return 1
    fi
    echo "embedded: $target test program built ($(( $(date +%s) - start )) s, $(cat "$out/program.cpu") CPU-s to compile); running under $(emulator "$target")"
    # shellcheck disable=SC2046
    echo "embedded: $target compiled and linked; $(cpu_total "$out") CPU-s in all"
    $(emulator "$target") "$out/known-answers"
}

# Targets run $JOBS at a time, in the order given, a new one as soon as any
# running one ends (wait -n); each one's output is printed whole when it ends. A
# target with a module donor (armv7, cortex-m4: armv7em) starts only once the
# donor, if it is running, has ended: give the donor first and the longest
# targets early, and the queue keeps both cores busy to the end.
declare -A running=()  # pid -> target
failed=0
finish_one() {
    local pid="" status=0
    wait -n -p pid "${!running[@]}" || status=$?
    [ -n "$pid" ] || { failed=1; return; }
    if [ "$status" -ne 0 ]; then failed=1; fi
    cat "$SCRATCH/${running[$pid]}.out"
    unset "running[$pid]"
}
is_running() {
    local pid
    for pid in "${!running[@]}"; do [ "${running[$pid]}" = "$1" ] && return 0; done
    return 1
}
for target in "${TARGETS[@]}"; do
    triple "$target" >/dev/null || exit 1
    donor="$(module_donor "$target")"
    while [ -n "$donor" ] && is_running "$donor"; do finish_one; done
    while [ "${#running[@]}" -ge "$JOBS" ]; do finish_one; done
    build_target "$target" >"$SCRATCH/$target.out" 2>&1 &
    running[$!]="$target"
done
while [ "${#running[@]}" -gt 0 ]; do finish_one; done
if [ "$failed" -ne 0 ]; then echo "embedded: FAILED"; fi
exit "$failed"

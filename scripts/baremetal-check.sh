#!/usr/bin/env bash
# Bare-metal Cortex-M4: the core modules (TackDER..TackTrust, TackFormats among them) as Embedded Swift
# for armv7em-none-none-eabi, linked with the toolchain's ld.lld and
# Tests/BareMetal/cortex-m4.ld into images with no C library and no C source, run
# under `qemu-system-arm -M mps2-an386 -semihosting -icount shift=0`.
#
#   swift package baremetal-check
#   swift package baremetal-check --build-dir /tmp/bm   # keep objects, rebuild what changed
#   swift package baremetal-check --firmware-traits P384,Ed25519
#       # the firmware image with these of Package.swift's optional families (its
#       # traits, read by scripts/traits.py); default: none, the pinning image
#   Other options: --flash-budget BYTES, --ram-budget BYTES (below), --timeout
#   SECONDS (per QEMU run, default 1800), --modules-dir DIR (link DIR's module
#   objects instead of compiling them: scripts/embedded-check.sh's armv7em objects,
#   which its cortex-m4 target passes). The command plugin
#   (scripts/Plugins/BaremetalCheck) runs this script with the package graph; the
#   compiler is $SWIFTC (README, "Environment").
#
# Three images, from the same runtime (Tests/BareMetal/Runtime: vector table, reset,
# heap, memcpy, semihosting, in Swift, plus Assembly.s for the `bkpt` and the AEABI
# division returns):
#   known-answers.elf  Tests/Embedded's known-answer groups (Program and Generated,
#                      shared with scripts/embedded-check.sh), the tls group (one
#                      recorded TLS 1.3 handshake, Vectors/tls/recordings, generated
#                      into the build directory) and the use case, every optional
#                      family on
#   firmware.elf       the pinning image: the use case alone (verify the RSA-2048 and
#                      P-256 example chains for their host at a fixed time against one
#                      anchor and check a pin rule), with only the families it needs
#                      (none of the optional ones), its modules as bitcode linked
#                      with full LTO; its size is the flash figure
#   firmware-full.elf  the same program, every optional family on (the full image)
# All must exit 0 (semihosting SYS_EXIT_EXTENDED). The last lines are:
#   cortex-m4: N passed, N failed              (all images together)
#   cortex-m4 flash: N bytes                   (firmware.elf: text + rodata + data)
#   cortex-m4 ram: N bytes                     (peak heap + peak stack of one verdict)
#   cortex-m4 allocations per verdict: N
#   cortex-m4 instructions per verdict: rsa2048 N, p256 N
#   cortex-m4 full image flash: N bytes        (firmware-full.elf)
#   cortex-m4 tls13 handshake: instructions N, ram N bytes
#       (known-answers.elf: one recorded TLS 1.3 handshake replayed, trust decision
#       included; heap high-water + painted stack; the run fails without it)
# (ram, allocations: the larger of the two variants' first verdicts.) The run fails
# when firmware.elf's flash exceeds --flash-budget or its RAM --ram-budget
# (65536). The default flash budget is issue 36's target, 262144 (256 KiB), which
# the pinning image meets since its sixth round (7 December 2026: 252,228 B); the
# run also says how much room is left. Before those lines it prints each use-case image's
# flash by module from the linker map (scripts/flash-map.py).
#
# Modules are compiled with -function-sections so that ld.lld --gc-sections keeps
# only what an image reaches, and every image is linked with --icf=all (identical
# code folding); Tests/BareMetal/README.md, "Linking for size", has the figures.
# Tools: swiftc, clang (as the assembler),
# ld.lld, llvm-objdump, llvm-nm, swift-demangle from the Swift toolchain; qemu-system-arm (Debian
# package qemu-system-arm, installed by .ci/run).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# SWIFTC, module_closure, EMBEDDED_SETTINGS, FAMILY_DEFINES, cpu_run, cpu_sum.
source "$ROOT/scripts/lib/common.sh"
BUILD_DIR=""
MODULES_DIR=""
FIRMWARE_TRAITS=""
FLASH_BUDGET=""
RAM_BUDGET=65536
TIMEOUT=1800
while [ "$#" -gt 0 ]; do
    case "$1" in
        --build-dir) BUILD_DIR="${2:?--build-dir needs a directory}"; shift 2 ;;
        --modules-dir) MODULES_DIR="${2:?--modules-dir needs a directory}"; shift 2 ;;
        --firmware-traits) FIRMWARE_TRAITS="${2?--firmware-traits needs a list}"; shift 2 ;;
        --flash-budget) FLASH_BUDGET="${2:?--flash-budget needs bytes}"; shift 2 ;;
        --ram-budget) RAM_BUDGET="${2:?--ram-budget needs bytes}"; shift 2 ;;
        --timeout) TIMEOUT="${2:?--timeout needs seconds}"; shift 2 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
        *) echo "baremetal: unknown argument $1" >&2; exit 2 ;;
    esac
done
BIN="$(dirname "$(command -v "$SWIFTC")")"
BM="$ROOT/Tests/BareMetal"
TRIPLE=armv7em-none-none-eabi
# The use case's module (a pin rule's verdict on a chain) and every core module it
# depends on, lowest first, from the package graph (scripts/lib/common.sh).
read -ra MODULES <<<"$(module_closure TackTrust)"
# What known-answers.elf links beside them for its tls group (one recorded TLS 1.3
# handshake, Tests/Embedded/Program/TLSChecks.swift): the rest of TackTLS's
# closure in the package graph (TackCipher's record protection, TackPKCS12, which
# Package.swift names for client identities, and TackTLS). Built with the full
# set's defines; the firmware images do not link them.
TLS_MODULES=()
for module in $(module_closure TackTLS); do
    case " ${MODULES[*]} " in *" $module "*) ;; *) TLS_MODULES+=("$module") ;; esac
done
# The full module set (known-answers.elf, firmware-full.elf) in the package graph's
# order, the order embedded-check compiles them in: the staleness check below treats
# every module before one as below it.
FULL_SET=()
for module in $(core_modules); do
    case " ${MODULES[*]} ${TLS_MODULES[*]} " in *" $module "*) FULL_SET+=("$module") ;; esac
done
# The optional families (Package.swift's traits): every one on for the module set
# that known-answers.elf and firmware-full.elf link; --firmware-traits's
# (default none) for firmware.elf's.
firmware_defines="$(python3 "$ROOT/scripts/traits.py" defines --traits "$FIRMWARE_TRAITS")"
FULL_FLAGS=("${FAMILY_DEFINES[@]}")
read -ra FIRMWARE_FLAGS <<<"$firmware_defines"
FLASH_TARGET=262144
FLASH_BUDGET="${FLASH_BUDGET:-$FLASH_TARGET}"
# The Embedded settings scripts/embedded-check.sh compiles the modules these images
# link with (scripts/lib/common.sh), for the Cortex-M4, at -Osize, one section per
# function.
COMMON=(
    -target "$TRIPLE"
    "${EMBEDDED_SETTINGS[@]}"
    -Osize
    -Xfrontend -function-sections
)

command -v qemu-system-arm >/dev/null || { echo "baremetal: FAILED: qemu-system-arm missing (.ci/run installs Debian's qemu-system-arm)"; exit 1; }

if [ -n "$BUILD_DIR" ]; then
    mkdir -p "$BUILD_DIR"
    OUT="$(cd "$BUILD_DIR" && pwd)"
else
    OUT="$(mktemp -d "${TMPDIR:-/tmp}/tack-baremetal.XXXXXX")"
    trap 'rm -rf "$OUT"' EXIT
fi

python3 "$ROOT/Tests/Embedded/generate-vectors.py" --check
# The recorded TLS flight, as Swift, from the recording files as they are now
# (rewritten only when it changed).
python3 "$ROOT/Tests/Embedded/generate-tls-flight.py" "$OUT/TLSFlight.swift"
python3 "$BM/generate-use-case.py" "$OUT/UseCaseVectors.swift.new"
cmp -s "$OUT/UseCaseVectors.swift.new" "$OUT/UseCaseVectors.swift" 2>/dev/null \
    || mv "$OUT/UseCaseVectors.swift.new" "$OUT/UseCaseVectors.swift"
rm -f "$OUT/UseCaseVectors.swift.new"

# The soft-float helpers (Runtime/SoftFloat.swift: the hash tables' Double
# arithmetic, which a Cortex-M4 has no unit for) against the host's hardware.
if [ "$OUT/softfloat-check" -nt "$BM/Runtime/SoftFloat.swift" ] && [ "$OUT/softfloat-check" -nt "$BM/softfloat-check.swift" ]; then
    echo 0 >"$OUT/softfloat.cpu"
elif ! cpu_run "$OUT/softfloat.cpu" "$SWIFTC" -O -parse-as-library "$BM/Runtime/SoftFloat.swift" "$BM/softfloat-check.swift" \
    -o "$OUT/softfloat-check" >"$OUT/softfloat.log" 2>&1; then
    echo "baremetal: softfloat-check FAILED to compile"
    cat "$OUT/softfloat.log"
    exit 1
fi
"$OUT/softfloat-check" || { echo "baremetal: FAILED: the soft-float helpers differ from the host's arithmetic"; exit 1; }
echo "baremetal: stage softfloat-check: $(cat "$OUT/softfloat.cpu") CPU-s to compile (0: kept)"

# build_modules DIR FLAGS...: the core modules into DIR, lowest first; a module
# is recompiled when one of its sources, a module below it or the compiler
# command changed (the stamp dates the last good compile).
# BUILD_SET names the list of modules to build (default MODULES).
build_modules() {
    local dir="$1" module sources start stale=0 below=()
    local -n list="${BUILD_SET:-MODULES}"
    shift
    mkdir -p "$dir"
    if [ "$(cat "$dir/flags" 2>/dev/null)" != "$SWIFTC ${COMMON[*]} $*" ]; then stale=1; fi
    echo "$SWIFTC ${COMMON[*]} $*" >"$dir/flags"
    for module in "${list[@]}"; do
        mapfile -t sources < <(find "$ROOT/Sources/$module" -name '*.swift' | LC_ALL=C sort)
        if [ "$stale" = 0 ] && [ -f "$dir/$module.o" ] && [ -f "$dir/$module.stamp" ] \
            && [ -z "$(find -L "${sources[@]}" "${below[@]}" -newer "$dir/$module.stamp")" ]; then
            below+=("$dir/$module.o")
            continue
        fi
        stale=1
        start=$(date +%s)
        # shellcheck disable=SC2068
        if ! cpu_run "$dir/$module.cpu" "$SWIFTC" "${COMMON[@]}" $@ -module-name "$module" -package-name tack -I "$dir" \
            -emit-module -emit-module-path "$dir/$module.swiftmodule" \
            -c -o "$dir/$module.o" "${sources[@]}" >"$dir/$module.log" 2>&1; then
            echo "baremetal: $module FAILED to compile ($*)"
            cat "$dir/$module.log"
            return 1
        fi
        touch "$dir/$module.stamp"
        cat "$dir/$module.cpu" >>"$OUT/stage.cpu"
        below+=("$dir/$module.o")
        echo "baremetal: compiled $module${*:+ ($*)} in $(( $(date +%s) - start )) s, $(cat "$dir/$module.cpu") CPU-s"
        grep -E 'warning:' "$dir/$module.log" || true
    done
}

# shared_modules DIR: links DIR's module objects and interfaces into
# $OUT/modules-shared when they are what build_modules would make: every module of FULL_SET, for
# this triple (the interface names it), compiled with -function-sections (the
# object has a .text.* section per function), none older than a source of its
# module or an interface below it (by embedded-check's stamp of the compile when
# there is one, else by the object). Otherwise says why and fails.
shared_modules() {
    local dir="$1" module sources compiled below=()
    for module in "${FULL_SET[@]}"; do
        mapfile -t sources < <(find "$ROOT/Sources/$module" -name '*.swift' | LC_ALL=C sort)
        if [ ! -f "$dir/$module.o" ] || [ ! -f "$dir/$module.swiftmodule" ]; then
            echo "baremetal: --modules-dir $dir has no $module.o and $module.swiftmodule"; return 1
        fi
        if ! grep -aq "$TRIPLE" "$dir/$module.swiftmodule"; then
            echo "baremetal: --modules-dir $dir: $module is not built for $TRIPLE"; return 1
        fi
        # (grep -c reads all: -q would end the pipe early, and pipefail fail it)
        if [ "$("$BIN/llvm-objdump" -h "$dir/$module.o" | grep -cE ' \.text\.[^ ]')" = 0 ]; then
            echo "baremetal: --modules-dir $dir: $module.o has no function sections (compile with -Xfrontend -function-sections)"; return 1
        fi
        # embedded-check's stamp dates the last good compile when there is one: swiftc
        # leaves an output whose contents did not change untouched, so after an
        # incremental rebuild the object can be older than a recompiled interface below.
        compiled="$dir/$module.o"
        [ -f "$dir/$module.stamp" ] && compiled="$dir/$module.stamp"
        if [ -n "$(find -L "${sources[@]}" "${below[@]}" -newer "$compiled")" ]; then
            echo "baremetal: --modules-dir $dir: $module.o is older than its sources or a module below it"; return 1
        fi
        below+=("$dir/$module.swiftmodule")
    done
    mkdir -p "$OUT/modules-shared"
    for module in "${FULL_SET[@]}"; do
        ln -sf "$(cd "$dir" && pwd)/$module.o" "$OUT/modules-shared/$module.o"
        ln -sf "$(cd "$dir" && pwd)/$module.swiftmodule" "$OUT/modules-shared/$module.swiftmodule"
    done
}

# The default module set: --modules-dir's (scripts/embedded-check.sh's
# armv7em objects, compiled with the same flags; Tests/BareMetal/README.md has the
# command), else compiled here.
stage=$(date +%s)
: >"$OUT/stage.cpu"
if [ -n "$MODULES_DIR" ]; then
    shared_modules "$MODULES_DIR" || exit 1
    MODULES_OUT="$OUT/modules-shared"
    echo "baremetal: modules from $MODULES_DIR (not compiled here)"
else
    MODULES_OUT="$OUT/modules"
    BUILD_SET=FULL_SET build_modules "$MODULES_OUT" "${FULL_FLAGS[@]}"
fi
# The pinning set: every module as LLVM bitcode (-lto=llvm-full), with only the
# firmware's traits, for firmware.elf's link-time optimisation (below).
FIRMWARE_MODULES="$OUT/modules-firmware"
build_modules "$FIRMWARE_MODULES" "${FIRMWARE_FLAGS[@]}" -lto=llvm-full
echo "baremetal: stage modules: $(( $(date +%s) - stage )) s, $(cpu_sum "$OUT/stage.cpu") CPU-s (modules compiled in this run)"

# Each trait off builds: for every optional family, the modules whose sources name
# its compile condition (or that of a family that needs it) are type-checked as
# Embedded Swift with every other family on, against the full module set's
# interfaces (the traits change no declaration those modules export). The pinning
# image above compiles them with every family off; this covers each one alone.
stage=$(date +%s)
: >"$OUT/traits.cpu"
while read -r trait; do
    defines="$(python3 "$ROOT/scripts/traits.py" defines --without "$trait")"
    read -ra flags <<<"$defines"
    left_out="$(comm -23 <(printf '%s\n' "${FULL_FLAGS[@]}" | grep -v '^-D$' | sort) \
        <(printf '%s\n' "${flags[@]}" | grep -v '^-D$' | sort) | paste -sd'|' -)"
    for module in "${MODULES[@]}"; do
        mapfile -t sources < <(find "$ROOT/Sources/$module" -name '*.swift' | LC_ALL=C sort)
        grep -qwE "$left_out" "${sources[@]}" || continue
        if ! cpu_run "$OUT/traits.$trait.$module.cpu" "$SWIFTC" "${COMMON[@]}" "${flags[@]}" -module-name "$module" -package-name tack \
            -I "$MODULES_OUT" -typecheck "${sources[@]}" >"$OUT/traits.$trait.$module.log" 2>&1; then
            echo "baremetal: $module does not build with the $trait trait off"
            cat "$OUT/traits.$trait.$module.log"
            exit 1
        fi
        cat "$OUT/traits.$trait.$module.cpu" >>"$OUT/traits.cpu"
        echo "baremetal: $module builds with the $trait trait off ($(cat "$OUT/traits.$trait.$module.cpu") CPU-s)"
    done
done < <(python3 "$ROOT/scripts/traits.py" names)
echo "baremetal: stage traits: $(( $(date +%s) - stage )) s, $(cpu_sum "$OUT/traits.cpu") CPU-s"

# The assembly (Assembly.s says why each part is not Swift); clang assembles it.
"$BIN/clang" --target=armv7em-none-eabi -mthumb -c -o "$OUT/assembly.o" "$BM/Runtime/Assembly.s"

# The runtime is compiled into each image's program module (Tests/BareMetal/README.md
# says why), with loop-idiom recognition off so that memcpy and memset do not
# become calls of themselves.
mapfile -t RUNTIME < <(find "$BM/Runtime" "$BM/UseCase" -name '*.swift' | LC_ALL=C sort)
mapfile -t PROGRAM < <(find "$ROOT/Tests/Embedded/Program" "$ROOT/Tests/Embedded/Generated" -name '*.swift' ! -name Main.swift | LC_ALL=C sort)
TABLES="$BIN/../lib/swift/embedded/$TRIPLE/libswiftUnicodeDataTables.a"

# image NAME MODULE-DIR "DEFINES" SOURCES...: compile (with the module set's
# defines), link NAME.elf (and NAME.map) with MODULE-DIR's objects of MODULES
# (and of TLS_MODULES when the defines say TACK_TLS_REPLAY).
# Every image is linked with identical code folding (--icf=all: functions whose
# code is the same byte for byte, such as one generic specialised for two classes,
# kept once; nothing here compares function addresses, and every image's answers
# are checked folded). With LTO=1 the
# module objects are bitcode (the pinning set) and the link optimises them as one
# module (full LTO: inlining, dead-code and constant propagation across the
# modules, the machine outliner over all of it); they come before the program,
# whose object stays native code (it defines the runtime: memcpy, the AEABI
# helpers, which LTO would otherwise drop before code generation calls them), so
# that a function both define is the bitcode's, optimised with its callers.
# The program is compiled by swiftc to bitcode and by clang from that to the
# object, with one section per global as well as per function (-fdata-sections;
# swiftc has no such option) and the static relocation model: Embedded Swift
# re-emits into the program the static data of every module it imports (the P-256
# table, the SHA-256 constants, the OIDs), and swiftc's one .data.rel.ro section
# for all of it was kept whole by --gc-sections and copied into RAM at reset
# (14,944 B of flash and RAM in the pinning image, 9.4 KB of it unused copies).
# Per global, the unused copies go and the used constants stay in flash (.rodata).
# clang only generates code (-disable-llvm-optzns): the IR is swiftc's, optimised
# as before; re-optimising it at -Os or -Oz gave 430 and 320 B more.
image() {
    local name="$1" dir="$2" flags="$3" m objects=() linked=("${MODULES[@]}")
    shift 3
    [[ " $flags " == *" TACK_TLS_REPLAY "* ]] && linked+=("${TLS_MODULES[@]}")
    for m in "${linked[@]}"; do objects+=("$dir/$m.o"); done
    # The program is compiled again when a source or a module it imports changed,
    # or it was compiled against another module set or with other switches.
    local start key
    start=$(date +%s)
    key="$SWIFTC ${COMMON[*]} $flags -I $dir $* (bitcode, clang -fdata-sections)"
    if [ -f "$OUT/$name.o" ] && [ "$(cat "$OUT/$name.key" 2>/dev/null)" = "$key" ] \
        && [ -z "$(find -L "$@" "$dir"/*.swiftmodule -newer "$OUT/$name.o")" ]; then
        echo 0 >"$OUT/$name.cpu"
    # shellcheck disable=SC2086
    elif ! rm -f "$OUT/$name.key" || ! cpu_run "$OUT/$name.cpu" "$SWIFTC" "${COMMON[@]}" $flags \
        -enable-experimental-feature Extern -Xllvm -disable-loop-idiom-all \
        -module-name "$(echo "$name" | sed -E 's/(^|-)([a-z])/\U\2/g')" -I "$dir" \
        -lto=llvm-full -c -o "$OUT/$name.bc" "$@" >"$OUT/$name.log" 2>&1 \
        || ! cpu_run "$OUT/$name.codegen.cpu" "$BIN/clang" --target="$TRIPLE" -mcpu=cortex-m4 -Os \
        -Xclang -disable-llvm-optzns -ffunction-sections -fdata-sections -mllvm -disable-post-ra \
        -Wno-override-module -c -o "$OUT/$name.o" "$OUT/$name.bc" >>"$OUT/$name.log" 2>&1; then
        echo "baremetal: $name FAILED to compile"
        cat "$OUT/$name.log"
        return 1
    else
        # One figure for the program: swiftc's and clang's CPU-s.
        awk '{ s += $1 } END { printf "%.1f\n", s }' "$OUT/$name.cpu" "$OUT/$name.codegen.cpu" >"$OUT/$name.cpu.sum" \
            && mv "$OUT/$name.cpu.sum" "$OUT/$name.cpu"
    fi
    echo "$key" >"$OUT/$name.key"
    grep -E 'warning:' "$OUT/$name.log" || true
    local inputs=("$OUT/$name.o" "$OUT/assembly.o" "${objects[@]}")
    [ "${LTO:-0}" = 1 ] && inputs=("${objects[@]}" "$OUT/$name.o" "$OUT/assembly.o")
    if ! cpu_run "$OUT/$name.link.cpu" "$BIN/ld.lld" -T "$BM/cortex-m4.ld" --gc-sections --icf=all -Map "$OUT/$name.map" -o "$OUT/$name.elf" \
        "${inputs[@]}" "$TABLES" >"$OUT/$name.link.log" 2>&1; then
        echo "baremetal: $name FAILED to link"
        cat "$OUT/$name.link.log"
        return 1
    fi
    echo "baremetal: $name.elf compiled and linked in $(( $(date +%s) - start )) s, $(cat "$OUT/$name.cpu") + $(cat "$OUT/$name.link.cpu") CPU-s (0: program kept)"
}
start=$(date +%s)
# The images compile side by side (each writes only its own files), so the
# step keeps both cores busy; each one's messages are printed when all end.
IMAGES=(firmware firmware-full known-answers)
FIRMWARE_PROGRAM=("${RUNTIME[@]}" "$BM/Firmware/Main.swift" "$ROOT/Tests/Embedded/Program/Support.swift" "$OUT/UseCaseVectors.swift")
LTO=1 image firmware "$FIRMWARE_MODULES" "${FIRMWARE_FLAGS[*]}" "${FIRMWARE_PROGRAM[@]}" >"$OUT/firmware.image.log" 2>&1 &
pids=($!)
image firmware-full "$MODULES_OUT" "${FULL_FLAGS[*]}" "${FIRMWARE_PROGRAM[@]}" >"$OUT/firmware-full.image.log" 2>&1 &
pids+=($!)
# known-answers.elf also replays the recorded TLS 1.3 handshake (the tls group, with
# the seeded random source of TackTestSupport).
image known-answers "$MODULES_OUT" "${FULL_FLAGS[*]} -D TACK_TLS_REPLAY" "${RUNTIME[@]}" "$BM/KnownAnswers/Main.swift" \
    "${PROGRAM[@]}" "$OUT/UseCaseVectors.swift" "$OUT/TLSFlight.swift" \
    "$ROOT/Sources/TackTestSupport/DeterministicStream.swift" "$ROOT/Sources/TackTestSupport/SeededRandomSource.swift" \
    >"$OUT/known-answers.image.log" 2>&1 &
pids+=($!)
images_failed=0
for pid in "${pids[@]}"; do wait "$pid" || images_failed=1; done
for name in "${IMAGES[@]}"; do cat "$OUT/$name.image.log"; done
[ "$images_failed" = 0 ] || exit 1
echo "baremetal: stage images: $(( $(date +%s) - start )) s, $(cpu_sum "$OUT"/{firmware,firmware-full,known-answers}{,.link}.cpu) CPU-s"

# flash: every allocated section that is not NOBITS (vectors, text, exception
# index, rodata, GOT, .data's initial values).
flash_bytes() {
    sections "$1" | python3 -c 'import sys; print(sum(int(l.split()[1]) for l in sys.stdin if l.split()[2] != "BSS"))'
}

# sections ELF: "name bytes TYPE" for each allocated section (llvm-objdump -h).
sections() {
    "$BIN/llvm-objdump" -h "$1" | python3 -c '
import sys
for line in sys.stdin:
    f = line.split()
    if len(f) == 6 and f[5] in ("TEXT", "DATA", "BSS"):
        print(f[1], int(f[2], 16), f[5])'
}

for name in "${IMAGES[@]}"; do
    echo "baremetal: $name.elf flash $(flash_bytes "$OUT/$name.elf") bytes; sections:"
    sections "$OUT/$name.elf" | while read -r section bytes kind; do
        printf 'baremetal:   %-12s %9d bytes (%s)\n' "$section" "$bytes" "$kind"
    done
done
# Each module's share of the two use-case images' flash, from the linker map: every
# input section kept, owned by the module its Swift symbol's mangled name names
# (Embedded Swift emits what a client uses of a module into the client's object, so
# per-object sums would credit TackTrust's generic code to the program).
for name in firmware firmware-full; do
    echo "baremetal: $name.elf flash by module (scripts/flash-map.py, after --gc-sections):"
    python3 "$ROOT/scripts/flash-map.py" "$OUT/$name.map" --prefix 'baremetal:   ' \
        --symbols "$([ "$name" = firmware ] && echo 20 || echo 0)"
done

# run NAME: the image under QEMU; its output goes to NAME.out and is printed.
QEMU=(qemu-system-arm -M mps2-an386 -nographic -monitor none -serial null
      -semihosting-config enable=on,target=native -icount shift=0)
run() {
    local status=0
    local start
    start=$(date +%s)
    cpu_run "$OUT/$1.run.cpu" timeout "$TIMEOUT" "${QEMU[@]}" -kernel "$OUT/$1.elf" >"$OUT/$1.out" 2>&1 || status=$?
    sed 's/^/  /' "$OUT/$1.out"
    echo "baremetal: $1.elf exited with status $status after $(( $(date +%s) - start )) s, $(cat "$OUT/$1.run.cpu" 2>/dev/null || echo ?) CPU-s under QEMU"
    return "$status"
}
failed=0
for name in "${IMAGES[@]}"; do run "$name" || failed=1; done

# The figures.
passed_sum=0
failed_sum=0
for name in "${IMAGES[@]}"; do
    line="$(grep -E '^cortex-m4: [0-9]+ passed, [0-9]+ failed$' "$OUT/$name.out" | tail -1 || true)"
    if [ -z "$line" ]; then
        echo "baremetal: $name.elf printed no result line"
        failed=1
        failed_sum=$((failed_sum + 1))
        continue
    fi
    passed_sum=$((passed_sum + $(echo "$line" | awk '{ print $2 }')))
    failed_sum=$((failed_sum + $(echo "$line" | awk '{ print $4 }')))
done
measured="$(grep '^cortex-m4 measured:' "$OUT/firmware.out" | tail -1 || true)"
figure() {  # figure VARIANT FIELD
    echo "$measured" | tr ';' '\n' | awk -v v="$1" -v f="$2" '{ for (i = 1; i <= NF; i++) if ($i == v) for (j = i; j < NF; j++) if ($j == f) { print $(j + 1); exit } }'
}
ram=0
allocations=0
for variant in rsa2048 p256; do
    total=$(( $(figure "$variant" heap || echo 0) + $(figure "$variant" stack || echo 0) ))
    [ "$total" -gt "$ram" ] && ram=$total
    count=$(figure "$variant" allocations || echo 0)
    [ "${count:-0}" -gt "$allocations" ] && allocations=$count
done
# The TLS handshake of known-answers.elf's tls group (its first replay, measured as
# a verdict is: instructions, heap high-water + painted stack).
tls="$(grep '^cortex-m4 tls13 measured:' "$OUT/known-answers.out" | tail -1 || true)"
tls_field() { echo "$tls" | awk -v f="$1" '{ for (i = 1; i < NF; i++) if ($i == f) { print $(i + 1); exit } }'; }
tls_instructions="$(tls_field instructions)"
tls_ram=$(( $(tls_field heap || echo 0) + $(tls_field stack || echo 0) ))
if [ -z "$tls_instructions" ] || [ "$tls_instructions" = 0 ]; then
    echo "baremetal: FAILED: known-answers.elf measured no TLS 1.3 handshake"
    failed=1
fi
flash=$(flash_bytes "$OUT/firmware.elf")
if [ "$flash" -gt "$FLASH_TARGET" ]; then
    echo "baremetal: firmware.elf needs $flash bytes of flash: $((flash - FLASH_TARGET)) over issue 36's target of $FLASH_TARGET (enforced: $FLASH_BUDGET)"
else
    echo "baremetal: firmware.elf needs $flash bytes of flash: $((FLASH_TARGET - flash)) under issue 36's target of $FLASH_TARGET (enforced: $FLASH_BUDGET)"
fi
if [ "$flash" -gt "$FLASH_BUDGET" ]; then
    echo "baremetal: FAILED: firmware.elf needs $flash bytes of flash, over the budget of $FLASH_BUDGET"
    failed=1
fi
if [ "$ram" -gt "$RAM_BUDGET" ]; then
    echo "baremetal: FAILED: a verdict of firmware.elf needs $ram bytes of RAM, over the budget of $RAM_BUDGET"
    failed=1
fi
[ "$failed" = 0 ] || echo "baremetal: FAILED"
echo "cortex-m4: $passed_sum passed, $failed_sum failed"
echo "cortex-m4 flash: $flash bytes"
echo "cortex-m4 ram: $ram bytes"
echo "cortex-m4 allocations per verdict: $allocations"
echo "cortex-m4 instructions per verdict: rsa2048 $(figure rsa2048 instructions), p256 $(figure p256 instructions)"
echo "cortex-m4 full image flash: $(flash_bytes "$OUT/firmware-full.elf") bytes"
echo "cortex-m4 tls13 handshake: instructions ${tls_instructions:-?}, ram $tls_ram bytes"
exit "$failed"

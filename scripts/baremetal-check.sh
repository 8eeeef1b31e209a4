#!/usr/bin/env bash
# Bare-metal Cortex-M4: the core modules (TackDER..TackTrust, TackFormats among them) as Embedded Swift
# for armv7em-none-none-eabi, linked with the toolchain's ld.lld and
# Tests/BareMetal/cortex-m4.ld into images with no C library and no C source, run
# under `qemu-system-arm -M mps2-an386 -semihosting -icount shift=0`.
#
#   scripts/baremetal-check.sh
#   BAREMETAL_BUILD_DIR=/tmp/bm scripts/baremetal-check.sh   # keep objects, rebuild what changed
#   BAREMETAL_FIRMWARE_FLAGS="-D TACK_NO_P384 ..." scripts/baremetal-check.sh
#       # build the firmware image's modules with these switches (a second module set;
#       # Tests/BareMetal/README.md lists the switches); default: none
#
# Two images, from the same runtime (Tests/BareMetal/Runtime: vector table, reset,
# heap, memcpy, semihosting, in Swift, plus Assembly.s for the `bkpt` and the AEABI
# division returns):
#   known-answers.elf  Tests/Embedded's known-answer groups (Program and Generated,
#                      shared with scripts/embedded-check.sh) and the use case
#   firmware.elf       the use case alone: verify the RSA-2048 and P-256 example
#                      chains for their host at a fixed time against one anchor and
#                      check a pin rule; its size is the flash figure
# Both must exit 0 (semihosting SYS_EXIT_EXTENDED). The last lines are:
#   cortex-m4: N passed, N failed              (both images together)
#   cortex-m4 flash: N bytes                   (firmware.elf: text + rodata + data)
#   cortex-m4 ram: N bytes                     (peak heap + peak stack of one verdict)
#   cortex-m4 allocations per verdict: N
#   cortex-m4 instructions per verdict: rsa2048 N, p256 N
# (ram, allocations: the larger of the two variants' first verdicts.)
#
# Modules are compiled with -function-sections so that ld.lld --gc-sections keeps
# only what an image reaches; scripts/embedded-check.sh's objects are compiled
# without it, so they are not reused. Tools: swiftc, clang (as the assembler),
# ld.lld, llvm-objdump, llvm-nm, swift-demangle from the Swift toolchain; qemu-system-arm (Debian
# package qemu-system-arm, installed by .ci/run).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SWIFTC="${SWIFTC:-swiftc}"
BIN="$(dirname "$(command -v "$SWIFTC")")"
BM="$ROOT/Tests/BareMetal"
TRIPLE=armv7em-none-none-eabi
MODULES=(TackDER TackFormats TackSHA2 TackX509 TackSignature TackTrust)
FIRMWARE_FLAGS="${BAREMETAL_FIRMWARE_FLAGS:-}"
COMMON=(
    -target "$TRIPLE"
    -enable-experimental-feature Embedded
    -wmo -parse-as-library -Osize
    -swift-version 6
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature InternalImportsByDefault
    -Xfrontend -function-sections
)
# Without LLVM's post-RA scheduler, as scripts/embedded-check.sh compiles the
# modules these images link (its COMMON says why; same switch).
if [ "${EMBEDDED_POST_RA_SCHEDULING:-0}" != 1 ]; then COMMON+=(-Xllvm -disable-post-ra); fi

command -v qemu-system-arm >/dev/null || { echo "baremetal: FAILED: qemu-system-arm missing (.ci/run installs Debian's qemu-system-arm)"; exit 1; }

if [ -n "${BAREMETAL_BUILD_DIR:-}" ]; then
    mkdir -p "$BAREMETAL_BUILD_DIR"
    OUT="$(cd "$BAREMETAL_BUILD_DIR" && pwd)"
else
    OUT="$(mktemp -d "${TMPDIR:-/tmp}/tack-baremetal.XXXXXX")"
    trap 'rm -rf "$OUT"' EXIT
fi

python3 "$ROOT/Tests/Embedded/generate-vectors.py" --check
python3 "$BM/generate-use-case.py" "$OUT/UseCaseVectors.swift.new"
cmp -s "$OUT/UseCaseVectors.swift.new" "$OUT/UseCaseVectors.swift" 2>/dev/null \
    || mv "$OUT/UseCaseVectors.swift.new" "$OUT/UseCaseVectors.swift"
rm -f "$OUT/UseCaseVectors.swift.new"

# cpu_run FILE CMD...: runs CMD and writes its CPU seconds (user + system) to
# FILE (0 without /usr/bin/time); each stage prints its total.
cpu_run() {
    local file="$1"; shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%U %S' -o "$file.raw" "$@" || { local status=$?; rm -f "$file.raw"; return "$status"; }
        awk '{ printf "%.1f\n", $1 + $2 }' "$file.raw" >"$file" && rm -f "$file.raw"
    else
        "$@" && echo 0 >"$file"
    fi
}
cpu_sum() {  # cpu_sum FILE...: the total of the CPU files that exist
    cat "$@" 2>/dev/null | awk '{ total += $1 } END { printf "%.1f\n", total }'
}

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
# With BASE set (the default module set), a module whose sources name none of the
# -D switches in FLAGS, and that sits below every module that does, is taken
# from BASE instead of being compiled again.
build_modules() {
    local dir="$1" module sources start stale=0 switches reuse=0 below=()
    shift
    mkdir -p "$dir"
    switches="$(echo "$*" | { grep -oE 'TACK_[A-Z0-9_]+' || true; } | paste -sd'|' -)"  # none: grep finds nothing
    [ -n "${BASE:-}" ] && [ -n "$switches" ] && reuse=1
    if [ "$(cat "$dir/flags" 2>/dev/null)" != "$SWIFTC ${COMMON[*]} $*" ]; then stale=1; fi
    echo "$SWIFTC ${COMMON[*]} $*" >"$dir/flags"
    for module in "${MODULES[@]}"; do
        mapfile -t sources < <(find "$ROOT/Sources/$module" -name '*.swift' | LC_ALL=C sort)
        if [ "$reuse" = 1 ] && ! grep -qE "$switches" "${sources[@]}"; then
            ln -sf "$BASE/$module.o" "$dir/$module.o"
            ln -sf "$BASE/$module.swiftmodule" "$dir/$module.swiftmodule"
            below+=("$dir/$module.o")
            continue
        fi
        reuse=0
        if [ "$stale" = 0 ] && [ -f "$dir/$module.o" ] && [ -f "$dir/$module.stamp" ] \
            && [ -z "$(find -L "${sources[@]}" "${below[@]}" -newer "$dir/$module.stamp")" ]; then
            below+=("$dir/$module.o")
            continue
        fi
        stale=1
        start=$(date +%s)
        # shellcheck disable=SC2068
        if ! cpu_run "$dir/$module.cpu" "$SWIFTC" "${COMMON[@]}" $@ -module-name "$module" -I "$dir" \
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
# $OUT/modules-shared when they are what build_modules would make: all five, for
# this triple (the interface names it), compiled with -function-sections (the
# object has a .text.* section per function), none older than a source of its
# module or an interface below it. Otherwise says why and fails.
shared_modules() {
    local dir="$1" module sources below=()
    for module in "${MODULES[@]}"; do
        mapfile -t sources < <(find "$ROOT/Sources/$module" -name '*.swift' | LC_ALL=C sort)
        if [ ! -f "$dir/$module.o" ] || [ ! -f "$dir/$module.swiftmodule" ]; then
            echo "baremetal: BAREMETAL_MODULES_DIR=$dir has no $module.o and $module.swiftmodule"; return 1
        fi
        if ! grep -aq "$TRIPLE" "$dir/$module.swiftmodule"; then
            echo "baremetal: BAREMETAL_MODULES_DIR=$dir: $module is not built for $TRIPLE"; return 1
        fi
        # (grep -c reads all: -q would end the pipe early, and pipefail fail it)
        if [ "$("$BIN/llvm-objdump" -h "$dir/$module.o" | grep -cE ' \.text\.[^ ]')" = 0 ]; then
            echo "baremetal: BAREMETAL_MODULES_DIR=$dir: $module.o has no function sections (compile with -Xfrontend -function-sections)"; return 1
        fi
        if [ -n "$(find -L "${sources[@]}" "${below[@]}" -newer "$dir/$module.o")" ]; then
            echo "baremetal: BAREMETAL_MODULES_DIR=$dir: $module.o is older than its sources or a module below it"; return 1
        fi
        below+=("$dir/$module.swiftmodule")
    done
    mkdir -p "$OUT/modules-shared"
    for module in "${MODULES[@]}"; do
        ln -sf "$(cd "$dir" && pwd)/$module.o" "$OUT/modules-shared/$module.o"
        ln -sf "$(cd "$dir" && pwd)/$module.swiftmodule" "$OUT/modules-shared/$module.swiftmodule"
    done
}

# The default module set: BAREMETAL_MODULES_DIR's (scripts/embedded-check.sh's
# armv7em objects, compiled with the same flags; Tests/BareMetal/README.md has the
# command), else compiled here.
stage=$(date +%s)
: >"$OUT/stage.cpu"
if [ -n "${BAREMETAL_MODULES_DIR:-}" ]; then
    shared_modules "$BAREMETAL_MODULES_DIR" || exit 1
    MODULES_OUT="$OUT/modules-shared"
    echo "baremetal: modules from $BAREMETAL_MODULES_DIR (not compiled here)"
else
    MODULES_OUT="$OUT/modules"
    build_modules "$MODULES_OUT"
fi
FIRMWARE_MODULES="$MODULES_OUT"
if [ -n "$FIRMWARE_FLAGS" ]; then
    FIRMWARE_MODULES="$OUT/modules-firmware"
    # shellcheck disable=SC2086
    BASE="$MODULES_OUT" build_modules "$FIRMWARE_MODULES" $FIRMWARE_FLAGS
fi
echo "baremetal: stage modules: $(( $(date +%s) - stage )) s, $(cpu_sum "$OUT/stage.cpu") CPU-s (modules compiled in this run)"

# The assembly (Assembly.s says why each part is not Swift); clang assembles it.
"$BIN/clang" --target=armv7em-none-eabi -mthumb -c -o "$OUT/assembly.o" "$BM/Runtime/Assembly.s"

# The runtime is compiled into each image's program module (Tests/BareMetal/README.md
# says why), with loop-idiom recognition off so that memcpy and memset do not
# become calls of themselves.
mapfile -t RUNTIME < <(find "$BM/Runtime" "$BM/UseCase" -name '*.swift' | LC_ALL=C sort)
mapfile -t PROGRAM < <(find "$ROOT/Tests/Embedded/Program" "$ROOT/Tests/Embedded/Generated" -name '*.swift' ! -name Main.swift | LC_ALL=C sort)
TABLES="$BIN/../lib/swift/embedded/$TRIPLE/libswiftUnicodeDataTables.a"

# image NAME MODULE-DIR SOURCES...: compile, link NAME.elf (and NAME.map).
image() {
    local name="$1" dir="$2" m objects=()
    shift 2
    for m in "${MODULES[@]}"; do objects+=("$dir/$m.o"); done
    # The program is compiled again when a source or a module it imports changed,
    # or it was compiled against another module set or with other switches.
    local start flags key
    start=$(date +%s)
    flags="$( [ "$dir" = "$MODULES_OUT" ] || echo "$FIRMWARE_FLAGS" )"
    key="$SWIFTC ${COMMON[*]} $flags -I $dir $*"
    if [ -f "$OUT/$name.o" ] && [ "$(cat "$OUT/$name.key" 2>/dev/null)" = "$key" ] \
        && [ -z "$(find -L "$@" "$dir"/*.swiftmodule -newer "$OUT/$name.o")" ]; then
        echo 0 >"$OUT/$name.cpu"
    # shellcheck disable=SC2086
    elif ! rm -f "$OUT/$name.key" || ! cpu_run "$OUT/$name.cpu" "$SWIFTC" "${COMMON[@]}" $flags \
        -enable-experimental-feature Extern -Xllvm -disable-loop-idiom-all \
        -module-name "$(echo "$name" | sed -E 's/(^|-)([a-z])/\U\2/g')" -I "$dir" \
        -c -o "$OUT/$name.o" "$@" >"$OUT/$name.log" 2>&1; then
        echo "baremetal: $name FAILED to compile"
        cat "$OUT/$name.log"
        return 1
    fi
    echo "$key" >"$OUT/$name.key"
    grep -E 'warning:' "$OUT/$name.log" || true
    if ! cpu_run "$OUT/$name.link.cpu" "$BIN/ld.lld" -T "$BM/cortex-m4.ld" --gc-sections -Map "$OUT/$name.map" -o "$OUT/$name.elf" \
        "$OUT/$name.o" "$OUT/assembly.o" "${objects[@]}" "$TABLES" >"$OUT/$name.link.log" 2>&1; then
        echo "baremetal: $name FAILED to link"
        cat "$OUT/$name.link.log"
        return 1
    fi
    echo "baremetal: $name.elf compiled and linked in $(( $(date +%s) - start )) s, $(cat "$OUT/$name.cpu") + $(cat "$OUT/$name.link.cpu") CPU-s (0: program kept)"
}
start=$(date +%s)
# The two images compile side by side (each writes only its own files), so the
# step keeps both cores busy; each one's messages are printed when both end.
image firmware "$FIRMWARE_MODULES" "${RUNTIME[@]}" "$BM/Firmware/Main.swift" \
    "$ROOT/Tests/Embedded/Program/Support.swift" "$OUT/UseCaseVectors.swift" >"$OUT/firmware.image.log" 2>&1 &
firmware_pid=$!
image known-answers "$MODULES_OUT" "${RUNTIME[@]}" "$BM/KnownAnswers/Main.swift" \
    "${PROGRAM[@]}" "$OUT/UseCaseVectors.swift" >"$OUT/known-answers.image.log" 2>&1 &
known_answers_pid=$!
images_failed=0
wait "$firmware_pid" || images_failed=1
wait "$known_answers_pid" || images_failed=1
cat "$OUT/firmware.image.log" "$OUT/known-answers.image.log"
[ "$images_failed" = 0 ] || exit 1
echo "baremetal: stage images: $(( $(date +%s) - start )) s, $(cpu_sum "$OUT"/{firmware,known-answers}{,.link}.cpu) CPU-s"

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

# Each module's share of an image's flash: the sizes of the image's symbols (llvm-nm
# -S), summed by the module their mangled name belongs to. Embedded Swift emits
# what a client uses of a module into the client's object, so the link map's
# per-object sums would credit TackTrust's code to the program; the names do not.
# Section padding and unnamed constants are in no symbol ("unattributed").
contributions() {
    "$BIN/llvm-nm" -S --radix=d "$1" | python3 -c '
import collections, re, sys
size = collections.Counter()
for line in sys.stdin:
    f = line.split()
    if len(f) != 4 or f[2].lower() not in "trd":
        continue
    name, n = f[3], int(f[1])
    m = re.match(r"\$[es](\d+)([A-Za-z_]\w*)", name)
    if m:
        owner = m.group(2)[:int(m.group(1))]
    elif re.match(r"\$[es]s", name) or name.startswith(("$e", "$s")):
        owner = "Swift standard library"
    elif name.startswith("_ZL") or "swift_stdlib" in name:
        owner = "Unicode data tables"
    else:
        owner = "C-named (Runtime/, Assembly.s)"
    size[owner] += n
total = int(sys.argv[1])
for owner, n in size.most_common():
    print(f"baremetal:   {owner:<36} {n:>9} bytes")
rest = "(unattributed)"
print(f"baremetal:   {rest:<36} {total - sum(size.values()):>9} bytes")
' "$(flash_bytes "$1")"
}

for name in firmware known-answers; do
    echo "baremetal: $name.elf flash $(flash_bytes "$OUT/$name.elf") bytes; sections:"
    sections "$OUT/$name.elf" | while read -r section bytes kind; do
        printf 'baremetal:   %-12s %9d bytes (%s)\n' "$section" "$bytes" "$kind"
    done
done
echo "baremetal: firmware.elf flash by module (symbols' mangled names, after --gc-sections):"
contributions "$OUT/firmware.elf"
echo "baremetal: firmware.elf largest symbols (llvm-nm --size-sort):"
"$BIN/llvm-nm" --size-sort -S --radix=d "$OUT/firmware.elf" | tail -20 | tac \
    | while read -r _ size _ symbol; do
        printf 'baremetal:   %7d %s\n' "$((10#$size))" "$("$BIN/swift-demangle" --simplified "$symbol" 2>/dev/null | cut -c1-150 || echo "$symbol")"
    done

# run NAME: the image under QEMU; its output goes to NAME.out and is printed.
QEMU=(qemu-system-arm -M mps2-an386 -nographic -monitor none -serial null
      -semihosting-config enable=on,target=native -icount shift=0)
run() {
    local status=0
    local start
    start=$(date +%s)
    cpu_run "$OUT/$1.run.cpu" timeout "${BAREMETAL_TIMEOUT:-1800}" "${QEMU[@]}" -kernel "$OUT/$1.elf" >"$OUT/$1.out" 2>&1 || status=$?
    sed 's/^/  /' "$OUT/$1.out"
    echo "baremetal: $1.elf exited with status $status after $(( $(date +%s) - start )) s, $(cat "$OUT/$1.run.cpu" 2>/dev/null || echo ?) CPU-s under QEMU"
    return "$status"
}
failed=0
run firmware || failed=1
run known-answers || failed=1

# The figures.
passed_sum=0
failed_sum=0
for name in firmware known-answers; do
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
[ "$failed" = 0 ] || echo "baremetal: FAILED"
echo "cortex-m4: $passed_sum passed, $failed_sum failed"
echo "cortex-m4 flash: $(flash_bytes "$OUT/firmware.elf") bytes"
echo "cortex-m4 ram: $ram bytes"
echo "cortex-m4 allocations per verdict: $allocations"
echo "cortex-m4 instructions per verdict: rsa2048 $(figure rsa2048 instructions), p256 $(figure p256 instructions)"
exit "$failed"

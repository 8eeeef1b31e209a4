#!/usr/bin/env bash
# Builds a libFuzzer binary for a Tack fuzz target and runs it for a while.
#
#   swift package fuzz TARGET [SECONDS]    # one target, default 30 s
#   swift package fuzz all [SECONDS]       # every target whose harness exists
#   swift package fuzz --optimization -Onone all 3   # scripts/check.sh's smoke
#   swift package fuzz --list              # the targets
#   scripts/fuzz.sh --build NAME MODULES HARNESS   # only build .fuzz/build/fuzz-NAME
#   scripts/fuzz.sh --seeds                # the seed directories
# (`swift package --allow-writing-to-package-directory fuzz ...` where SwiftPM asks:
# the corpora go to .fuzz/.)
#
# A target is a harness file under Tests/Fuzz/ (not a SwiftPM target) that
# imports Tack modules and defines LLVMFuzzerTestOneInput. The script compiles
# the modules the target needs, plus everything they depend on (the package
# graph's core modules, scripts/lib/common.sh, so Package.swift stays the one
# source of the graph), with swiftc -sanitize=fuzzer,address -O, links the harness against
# them (checking that the binary carries the AddressSanitizer runtime), and runs libFuzzer over a working corpus in .fuzz/<target>/corpus
# (git-ignored) and the seeds of the SEEDS directories below (.fuzz/seeds). The corpus is kept
# between runs, so long local runs build on earlier ones.
#
# Exit status: 0 if no run crashed, leaked, timed out or ran out of memory;
# non-zero otherwise, with the reproducer kept in .fuzz/<target>/artifacts/
# (rerun it with `.fuzz/build/fuzz-<target> <file>`). Each crash found should
# become a file in Vectors/ and a regression test.
#
# Run it as `swift package fuzz ...` (the command plugin, scripts/Plugins/Fuzz, passes
# the package graph); options (below, before the command): --optimization LEVEL,
# --libfuzzer-flags "FLAGS". The compiler is $SWIFTC (README, "Environment").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# SWIFTC, module_closure (the package graph's core modules), SWIFT_SETTINGS, FAMILY_DEFINES.
source "$ROOT/scripts/lib/common.sh"

# The targets: name, the modules it needs (comma-separated, or `none`; their
# dependencies are added automatically), harness file. A new target is one line. The harness
# may be followed by other source files compiled into the same program (comma-
# separated, no spaces): the way to reach internal code of the `tack` CLI, which
# is an executable, not a module a harness can import.
TARGETS="
pem  TackDER  Tests/Fuzz/FuzzPEM.swift
der  TackDER  Tests/Fuzz/FuzzDER.swift
certificate  TackX509  Tests/Fuzz/FuzzCertificate.swift
spki  TackX509  Tests/Fuzz/FuzzSPKI.swift
extensions  TackX509  Tests/Fuzz/FuzzExtensions.swift
crl  TackX509  Tests/Fuzz/FuzzCRL.swift
ocsp  TackTrust  Tests/Fuzz/FuzzOCSP.swift
chain  TackTrust  Tests/Fuzz/FuzzChainBuilder.swift
policy  TackTrust  Tests/Fuzz/FuzzPinPolicy.swift
ct  TackTrust  Tests/Fuzz/FuzzCT.swift
plist  TackFormats  Tests/Fuzz/FuzzPropertyList.swift
swiftlex  none  Tests/Fuzz/FuzzSwiftLexer.swift,Sources/tack/SwiftLexer.swift
privatekey  TackSignature  Tests/Fuzz/FuzzPrivateKey.swift
pkcs12  TackPKCS12  Tests/Fuzz/FuzzPKCS12.swift
aesgcm  TackCipher  Tests/Fuzz/FuzzAESGCM.swift
chachapoly  TackCipher  Tests/Fuzz/FuzzChaChaPoly.swift
tls  TackTLS  Tests/Fuzz/FuzzTLSClient.swift,Sources/TackTestSupport/DeterministicStream.swift,Sources/TackTestSupport/SeededRandomSource.swift
"

# Seed directories, flattened into .fuzz/seeds, which every run reads beside its corpus.
SEEDS=(Vectors/ocsp/responses Vectors/pkcs12 Vectors/private-keys Vectors/der Vectors/pem Vectors/certs/malformed Vectors/chains/fuzz-seeds Vectors/policies Vectors/plists Vectors/lint
       Vectors/differential/seeds Vectors/ct/tls Vectors/ct/loglists Vectors/tls/fuzz-seeds)

# Same language settings as Package.swift, plus the sanitizers. -O keeps the
# arithmetic overflow checks and the bounds checks of Array and ArraySlice
# subscripts, but NOT those of UnsafeBufferPointer and UnsafeRawBufferPointer
# subscripts, which are debug-only (_debugPrecondition) and compiled out of any
# optimized build; the DER reader works on such buffers. Out-of-bounds accesses
# through them are caught by AddressSanitizer instead: every module and the
# harness are compiled with -sanitize=address, so each heap allocation (the
# input copy libFuzzer passes, every Array the code builds) is fenced by
# poisoned redzones and any access to one aborts the run. ASan misses an
# access that lands inside another live allocation; for line-by-line checks,
# replay an input under `swift test` (debug build), where the pointer checks run,
# or build with --optimization -Onone. Line tables (-gline-tables-only) are
# what the sanitizer reports need; full -g at -Onone makes the driver add a
# module-wrapping job whose output collides with the module's object.
# Options, before the command: --optimization LEVEL (default -O; scripts/check.sh's
# smoke uses -Onone, which compiles in half the CPU time and keeps the
# UnsafeBufferPointer bounds checks) and --libfuzzer-flags "FLAGS" (extra libFuzzer
# flags, for example "-jobs=2 -dict=FILE").
OPTIMIZATION=-O
LIBFUZZER_FLAGS=""
while [ "$#" -gt 0 ]; do
    case "$1" in
        --optimization) OPTIMIZATION="${2:?--optimization needs a level}"; shift 2 ;;
        --libfuzzer-flags) LIBFUZZER_FLAGS="${2?--libfuzzer-flags needs flags}"; shift 2 ;;
        *) break ;;
    esac
done
COMMON=(
    -sanitize=fuzzer,address "$OPTIMIZATION" -gline-tables-only
    -parse-as-library
    "${SWIFT_SETTINGS[@]}"
    "${FAMILY_DEFINES[@]}"
)

die() { echo "fuzz: $*" >&2; exit 2; }

list_targets() { echo "$TARGETS" | awk 'NF == 3 { print $1 "\t" $2 "\t" $3 }'; }

BUILD="$ROOT/.fuzz/build"
mkdir -p "$BUILD"
BUILT=" "  # modules already compiled by this invocation

# Compiles one module unless .fuzz/build already holds it built from the same
# sources, flags, compiler and dependencies: the stamp is a SHA-256 over those,
# the dependencies' stamps included (the closure is visited lowest first), so a
# change anywhere below rebuilds everything above. `fuzz.sh all` and then
# scripts/differential.sh therefore compile each module once.
STAMPS=""  # the stamps of the modules visited so far, in order
build_module() {
    local module="$1"
    case "$BUILT" in *" $module "*) return 0 ;; esac
    local sources stamp
    mapfile -t sources < <(find "Sources/$module" -name '*.swift' | LC_ALL=C sort)
    [ "${#sources[@]}" -gt 0 ] || die "no sources for module $module"
    stamp="$( { printf '%s\n' "${COMMON[@]}" "$STAMPS"; "$SWIFTC" --version 2>&1; sha256sum "${sources[@]}"; } | sha256sum | cut -d' ' -f1)"
    if [ -f "$BUILD/$module.o" ] && [ -f "$BUILD/$module.swiftmodule" ] \
        && [ "$(cat "$BUILD/$module.stamp" 2>/dev/null)" = "$stamp" ]; then
        echo "fuzz: $module up to date"
    else
        echo "fuzz: compiling $module (${#sources[@]} files)"
        rm -f "$BUILD/$module.stamp"
        # TackCipher's hardware AES and GHASH, as Package.swift builds it on x86-64 (the
        # aesgcm target compares it with the portable path).
        local extra=()
        if [ "$module" = TackCipher ] && [ "$(uname -m)" = x86_64 ]; then
            extra=(-D TACK_HARDWARE_AES -Xcc -Xclang -Xcc -target-feature -Xcc -Xclang -Xcc +aes
                   -Xcc -Xclang -Xcc -target-feature -Xcc -Xclang -Xcc +pclmul -enable-builtin-module)
        fi
        "$SWIFTC" "${COMMON[@]}" "${extra[@]}" -wmo -module-name "$module" -package-name tack -I "$BUILD" \
            -emit-module -emit-module-path "$BUILD/$module.swiftmodule" \
            -c -o "$BUILD/$module.o" "${sources[@]}" || die "compiling $module failed"
        echo "$stamp" >"$BUILD/$module.stamp"
    fi
    STAMPS="$STAMPS$module=$stamp "
    BUILT="$BUILT$module "
}

# Compiles the modules of a harness and links it into $BUILD/fuzz-NAME.
build_harness() {
    local name="$1" modules="$2" harness="$3"
    local closure objects=() module files
    IFS=, read -ra files <<<"$harness"
    closure=""
    if [ "$modules" != none ]; then
        closure="$(module_closure "$modules")" || die "cannot resolve the modules of $name"
    fi
    for module in $closure; do
        build_module "$module"
        objects+=("$BUILD/$module.o")
    done
    local binary="$BUILD/fuzz-$name"
    echo "fuzz: linking $binary ($harness + $closure)"
    # ld.gold warns about ASan's local symbols; the warnings are harmless noise.
    "$SWIFTC" "${COMMON[@]}" -I "$BUILD" "${files[@]}" "${objects[@]}" -o "$binary" \
        2> >(grep -v "Cannot export local symbol '__asan" >&2) || die "linking $name failed"
    # Every target runs under AddressSanitizer: refuse a binary without its runtime.
    # (awk reads all of nm's output: grep -q would exit early and, under pipefail,
    # fail the pipeline through nm's SIGPIPE.)
    nm "$binary" 2>/dev/null | awk '$NF == "__asan_init" { found = 1 } END { exit !found }' \
        || die "$binary lacks the AddressSanitizer runtime (__asan_init); check COMMON"
}

# The SEEDS files, flattened into one directory once per invocation; libFuzzer
# reads it beside the target's working corpus (its first directory, where new
# inputs go), so the seeds are not copied into every target's corpus.
SEED_DIR="$ROOT/.fuzz/seeds"
SEEDS_READY=0
prepare_seeds() {
    [ "$SEEDS_READY" = 1 ] && return 0
    rm -rf "$SEED_DIR" && mkdir -p "$SEED_DIR"
    local dir file name
    for dir in "${SEEDS[@]}"; do
        [ -d "$dir" ] || continue
        while IFS= read -r file; do
            name="${file#./}"; name="${name//\//_}"; name="${name// /_}"
            cp "$file" "$SEED_DIR/seed-$name"
        done < <(find "$dir" -type f ! -name 'README*' ! -name '*.sh' ! -name '*.py')
    done
    SEEDS_READY=1
}

run_target() {
    local name="$1" seconds="$2" line modules harness
    line="$(list_targets | awk -v n="$name" '$1 == n')"
    [ -n "$line" ] || die "unknown target '$name' (see --list)"
    modules="$(echo "$line" | cut -f2)"
    harness="$(echo "$line" | cut -f3)"
    [ -f "${harness%%,*}" ] || die "target $name: harness ${harness%%,*} does not exist yet"

    build_harness "$name" "$modules" "$harness"
    local binary="$BUILD/fuzz-$name"

    local work="$ROOT/.fuzz/$name"
    local corpus="$work/corpus" artifacts="$work/artifacts" log="$work/last-run.log"
    mkdir -p "$corpus" "$artifacts"
    prepare_seeds

    echo "fuzz: running $name for $seconds s over $(find "$corpus" -type f | wc -l | tr -d ' ') corpus files" \
        "and $(find "$SEED_DIR" -type f | wc -l | tr -d ' ') seeds"
    # An optional libFuzzer dictionary next to the harness: FuzzPEM.swift → pem.dict.
    local dict=() dictfile
    dictfile="$(dirname "${harness%%,*}")/$name.dict"
    if [ -f "$dictfile" ]; then dict=(-dict="$dictfile"); fi
    local status=0
    # shellcheck disable=SC2086
    "$binary" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$artifacts/" "${dict[@]}" $LIBFUZZER_FLAGS \
        "$corpus" "$SEED_DIR" >"$log" 2>&1 || status=$?

    local runs rate
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log"
        echo "fuzz: $name FAILED (exit $status); reproducers in $artifacts:"
        ls -1 "$artifacts"
        return 1
    fi
    echo "fuzz: $name ok: ${runs:-?} executions in $seconds s, ${rate:-?} exec/s," \
        "corpus $(find "$corpus" -type f | wc -l | tr -d ' ') files, no crash (log: ${log#"$ROOT"/})"
}

case "${1:-}" in
    "" | -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    --list)
        list_targets
        exit 0
        ;;
    --seeds)
        # The seed directories (scripts/differential.sh reads them from here).
        printf '%s\n' "${SEEDS[@]}"
        exit 0
        ;;
    --build)
        # Build only: a harness that is not a fuzz target (scripts/differential.sh's
        # verdict program) or a target to replay inputs with. Prints the binary.
        [ "$#" -eq 4 ] || die "usage: fuzz.sh --build NAME MODULES HARNESS"
        [ -f "${4%%,*}" ] || die "harness ${4%%,*} does not exist"
        build_harness "$2" "$3" "$4" >&2
        echo "$BUILD/fuzz-$2"
        exit 0
        ;;
esac

target="$1"
seconds="${2:-30}"
[[ "$seconds" =~ ^[0-9]+$ ]] || die "SECONDS must be a whole number, got '$seconds'"

if [ "$target" = all ]; then
    failed=0
    while IFS=$'\t' read -r name _ harness; do
        if [ -f "${harness%%,*}" ]; then
            run_target "$name" "$seconds" || failed=1
        else
            echo "fuzz: $name skipped ($harness does not exist yet)"
        fi
    done < <(list_targets)
    exit "$failed"
fi
run_target "$target" "$seconds"

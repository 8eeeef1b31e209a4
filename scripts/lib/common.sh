# shellcheck shell=bash
# What scripts/embedded-check.sh, baremetal-check.sh and fuzz.sh share, written
# once: the package's core modules in dependency order, the Swift settings of
# Package.swift for a direct swiftc, the Embedded Swift flags, and the CPU-time
# accounting of each compile. Sourced (`source "$ROOT/scripts/lib/common.sh"`,
# with ROOT set); it defines functions and arrays and runs nothing else.

SWIFTC="${SWIFTC:-swiftc}"

# The core modules, lowest first, as `Module:Dependency,...` words: the package
# graph's library targets, each after its dependencies. The command plugins
# (`swift package embedded-check`, ...: scripts/Plugins) pass it in
# TACK_MODULE_GRAPH from the graph SwiftPM gives them; a script run directly (as
# scripts/differential.sh runs fuzz.sh) reads the same graph from
# `swift package dump-package`. Package.swift is the one description either way.
module_graph() {
    if [ -n "${TACK_MODULE_GRAPH:-}" ]; then
        echo "$TACK_MODULE_GRAPH"
        return
    fi
    (cd "$ROOT" && swift package dump-package 2>/dev/null) | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = [t["name"] for t in package["targets"]]
dependencies = {t["name"]: [d[k][0] for d in t["dependencies"] for k in ("byName", "target") if k in d]
                for t in package["targets"]}
core = []
for product in package["products"]:
    if "library" in product["type"]:
        core += [t for t in product["targets"] if t not in core]
ordered = []
def visit(name):
    if name in core and name not in ordered:
        for dependency in dependencies[name]:
            visit(dependency)
        ordered.append(name)
for name in targets:
    visit(name)
print(" ".join(n + ":" + ",".join(d for d in dependencies[n] if d in core) for n in ordered))
'
}

# core_modules: every core module, lowest first (one line, space-separated).
core_modules() {
    module_graph | tr ' ' '\n' | cut -d: -f1 | paste -sd' ' -
}

# module_closure NAME[,NAME...]: those modules and every core module they depend
# on, lowest first; fails on a name that is not a core module.
module_closure() {
    module_graph | python3 -c '
import sys
graph = [word.split(":") for word in sys.stdin.read().split()]
dependencies = {name: [d for d in deps.split(",") if d] for name, deps in graph}
wanted = set()
def add(name):
    if name not in dependencies:
        sys.exit("unknown core module " + name)
    if name not in wanted:
        wanted.add(name)
        for dependency in dependencies[name]:
            add(dependency)
for name in sys.argv[1].split(","):
    add(name)
print(" ".join(name for name, _ in graph if name in wanted))
' "$1"
}

# The language settings of Package.swift's strictSettings, and every optional
# family (trait) on, as a default `swift build` compiles (scripts/traits.py reads
# the trait table from Package.swift).
SWIFT_SETTINGS=(
    -swift-version 6
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature InternalImportsByDefault
)
families="$(python3 "$ROOT/scripts/traits.py" defines)"
read -ra FAMILY_DEFINES <<<"$families"
unset families

# Embedded Swift, whole-module, as a library, without LLVM's post-RA list
# scheduler (its last pass, which only reorders instructions): on armv7em it was
# 28% of LLVM's time for TackSignature (clang -ftime-report on the module's
# bitcode, 2026-12-02) and the module's compile went from 68 to 57 CPU-s, its text
# 503,857 -> 503,707 bytes; instruction counts do not change, and every compile of
# a target (modules, programs, the Cortex-M4 images) is the same.
EMBEDDED_SETTINGS=(
    -enable-experimental-feature Embedded
    -wmo -parse-as-library
    "${SWIFT_SETTINGS[@]}"
    -Xllvm -disable-post-ra
)

# cpu_run FILE CMD...: runs CMD and writes its CPU seconds (user + system, children
# included) to FILE, so each compile reports its cost on a shared machine where wall
# time says little. Without /usr/bin/time the file says 0.
cpu_run() {
    local file="$1"; shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%U %S' -o "$file.raw" "$@" || { local status=$?; rm -f "$file.raw"; return "$status"; }
        awk '{ printf "%.1f\n", $1 + $2 }' "$file.raw" >"$file" && rm -f "$file.raw"
    else
        "$@" && echo 0 >"$file"
    fi
}

# cpu_sum FILE...: the total of the CPU files that exist.
cpu_sum() {
    cat "$@" 2>/dev/null | awk '{ total += $1 } END { printf "%.1f\n", total }'
}

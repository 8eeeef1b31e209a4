#!/usr/bin/env python3
"""Who keeps a function in a bare-metal image: walks the image's call graph up from
every function whose symbol contains PATTERN, through direct calls and branches
(`bl`, `b`, `cbz`, ... as llvm-objdump disassembles them for the Cortex-M4; a branch
into the middle of a function is not a call), until it reaches a
function of one of Tack's modules or the program (a caller a change can remove),
or DEPTH levels.

    scripts/flash-callers.py /tmp/bm/firmware.elf _StringBreadcrumbs
    scripts/flash-callers.py /tmp/bm/firmware.elf 'Hasher' --depth 8 --size

Calls through a function pointer or a witness table are not seen: a function
listed with no caller is reached that way (or is the entry point). Symbols are
printed mangled, cut to --width characters; pipe through swift-demangle to read
them. With --size each line starts with the function's size in bytes (from the
symbol table).
"""
import argparse
import collections
import re
import shutil
import subprocess
import sys

OWNED = re.compile(r"^\$e\d+(Tack[A-Za-z0-9]+|Firmware|KnownAnswers)")
# A branch to a function's start only: a target inside a function (`<f+0x1c>`) is
# alignment padding decoded as an instruction or a jump within the function, not a call.
BRANCH = re.compile(r"\b(?:bl|blx|b|b\.w|b[a-z]{2}(?:\.w)?|cbn?z)\s+(?:r\d+, )?0x[0-9a-f]+ <([^>+]+)>")
HEADER = re.compile(r"^[0-9a-f]+ <(.*)>:")


def tool(name):
    # The Swift toolchain's own first (it disassembles what its compiler emits).
    found = shutil.which(name, path="/opt/swift/usr/bin") or shutil.which(name)
    if not found:
        sys.exit(f"flash-callers: {name} not found (the Swift toolchain has it)")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("elf")
    parser.add_argument("pattern")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--width", type=int, default=150)
    parser.add_argument("--size", action="store_true")
    args = parser.parse_args()

    listing = subprocess.run([tool("llvm-objdump"), "-d", "--no-show-raw-insn", "--mcpu=cortex-m4", args.elf],
                             capture_output=True, text=True, check=True).stdout
    callers = collections.defaultdict(set)
    current = None
    for line in listing.splitlines():
        header = HEADER.match(line)
        if header:
            current = header.group(1)
            continue
        branch = BRANCH.search(line)
        if branch and current and branch.group(1) != current:
            callers[branch.group(1)].add(current)

    sizes = {}
    if args.size:
        table = subprocess.run([tool("llvm-nm"), "-S", args.elf], capture_output=True, text=True, check=True).stdout
        for line in table.splitlines():
            fields = line.split(maxsplit=3)
            if len(fields) == 4:
                sizes[fields[3]] = int(fields[1], 16)

    def show(symbol, depth):
        size = f"{sizes.get(symbol, 0):6} " if args.size else ""
        print(f"{size}{'  ' * depth}{'<- ' if depth else ''}{symbol[:args.width]}")

    roots = sorted({s for s in set(callers) | {c for cs in callers.values() for c in cs} if args.pattern in s})
    if not roots:
        sys.exit(f"flash-callers: no function of {args.elf} contains {args.pattern!r}")
    for root in roots:
        show(root, 0)
        seen = {root}

        def up(symbol, depth):
            for caller in sorted(callers.get(symbol, ())):
                if caller in seen:
                    continue
                seen.add(caller)
                show(caller, depth)
                if not OWNED.match(caller) and depth < args.depth:
                    up(caller, depth + 1)

        up(root, 1)


if __name__ == "__main__":
    main()

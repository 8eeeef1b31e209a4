#!/usr/bin/env python3
"""The package's optional-family traits, read from Package.swift's `optionalFamilies` table.

The scripts that call swiftc directly use this so that the compile conditions have one
description (Package.swift) and not two copies:

    scripts/traits.py defines                  # every family on (a default build): -D TACK_P384 ...
    scripts/traits.py defines --traits ""      # none of them (the pinning image)
    scripts/traits.py defines --traits P384    # P384 alone (and what it enables)
    scripts/traits.py defines --without P384   # every family but P384 (and those that enable it)
    scripts/traits.py list                     # name, condition, description, a line each
    scripts/traits.py names                    # the names, a line each

A name that is not a trait fails (status 2), as does a table that cannot be read.
"""
import argparse
import os
import re
import sys

ENTRY = re.compile(r'^\s*\("(\w+)",\s*"(\w+)",\s*\[([^\]]*)\],\s*"((?:[^"\\]|\\.)*)"\),\s*$')


def families(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^let optionalFamilies:[^\n]*= \[\n(.*?)^\]", text, re.M | re.S)
    if not m:
        sys.exit(f"traits: no `let optionalFamilies` table in {path}")
    table = []
    for line in m.group(1).splitlines():
        if not line.strip():
            continue
        e = ENTRY.match(line)
        if not e:
            sys.exit(f"traits: cannot read this entry of {path}: {line.strip()}")
        enables = re.findall(r'"(\w+)"', e.group(3))
        table.append((e.group(1), e.group(2), enables, e.group(4)))
    if not table:
        sys.exit(f"traits: the optionalFamilies table of {path} is empty")
    return table


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["defines", "list", "names"])
    parser.add_argument("--traits", help="comma-separated: only these families (and those they enable)")
    parser.add_argument("--without", help="comma-separated: every family but these")
    parser.add_argument("--package", default=os.path.join(root, "Package.swift"))
    args = parser.parse_args()
    table = families(args.package)
    names = {name for name, _, _, _ in table}

    def parse(value):
        chosen = [n for n in (value or "").split(",") if n]
        unknown = [n for n in chosen if n not in names]
        if unknown:
            print(f"traits: not a trait of {args.package}: {', '.join(unknown)}", file=sys.stderr)
            sys.exit(2)
        return set(chosen)

    if args.traits is not None:
        on = parse(args.traits)
        changed = True
        while changed:  # what the chosen ones enable, transitively (as SwiftPM does)
            before = len(on)
            for name, _, enables, _ in table:
                if name in on:
                    on.update(enables)
            changed = len(on) != before
    else:
        on = set(names)
    # Leaving a family out leaves out what enables it too (Ed25519 needs SHA512).
    without = parse(args.without)
    changed = True
    while changed:
        before = len(without)
        without.update(n for n, _, enables, _ in table if set(enables) & without)
        changed = len(without) != before
    on -= without

    if args.mode == "defines":
        print(" ".join(f"-D {condition}" for name, condition, _, _ in table if name in on))
    elif args.mode == "names":
        print("\n".join(name for name, _, _, _ in table if name in on))
    else:
        for name, condition, enables, description in table:
            if name in on:
                also = f" (enables {', '.join(enables)})" if enables else ""
                print(f"{name}\t{condition}\t{description}{also}")


if __name__ == "__main__":
    main()

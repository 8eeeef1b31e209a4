#!/usr/bin/env python3
"""Flash of a bare-metal image by owner, from the linker map (ld.lld -Map, or GNU ld -Map).

    scripts/flash-map.py firmware.map                 # the per-module table
    scripts/flash-map.py firmware.map --objects       # by input object instead
    scripts/flash-map.py firmware.map --symbols 20    # and the 20 largest input sections
    scripts/flash-map.py firmware.map --markdown      # the table as Markdown (README)

Every input section the linker kept in a flash output section (every allocated
section but .bss/.noinit/.stack/.heap) is counted once, as text (.text, .vectors,
.ARM.exidx, .got), rodata (.rodata) or data (.data: its initial values live in
flash). Its owner is the module of the first Swift symbol it holds (from the mangled
name: `$e` and `$s` manglings name the module first), because Embedded Swift emits
what a client uses of a module into the client's object: counted by object, TackTrust's
generic code would be credited to the program. Sections with no Swift symbol: the
Unicode data tables (libswiftUnicodeDataTables.a), the C-named runtime functions, and
the compiler's unnamed constants (string literals: `<internal>`), by object. In an
image linked with LTO (ld.lld's `<output>.lto.o`), the machine outliner's
`OUTLINED_FUNCTION_n` and the function merger's `.Lanon.*` are code shared by
functions of any module: one row of their own.
Swift emits no data sections: each object's statically initialised data is one
`.data.rel.ro` (kept whole when any of it is reached), credited to the object's module
(the program's to the program). Alignment padding between sections is listed apart,
so that the total equals the image's flash figure.
"""
import argparse
import collections
import re
import sys

FLASH_OUTPUT = re.compile(r"^\.(vectors|text|ARM\.exidx|got|rodata|data)\b")
KIND = {"text": "text", "vectors": "text", "ARM.exidx": "text", "got": "text", "rodata": "rodata", "data": "data"}


def module_of(symbol):
    """The module that a Swift mangled name belongs to, or None."""
    m = re.match(r"^(?:\.L[\w.]*?)?\$[es](\d+)([A-Za-z_]\w*)", symbol)
    if m and len(m.group(2)) >= int(m.group(1)):
        name = m.group(2)[: int(m.group(1))]
        return "Firmware (program, runtime)" if name in ("Firmware", "FirmwareFull", "KnownAnswers") else name
    if re.match(r"^(?:\.L[\w.]*?)?\$[es][sS]", symbol):  # module `s`, or a standard substitution: Sa, SS, ST...
        return "Swift standard library"
    return None


def owner_of_object(path):
    if "libswiftUnicodeDataTables" in path:
        return "Unicode data tables"
    if path.startswith("<internal>"):
        return "unnamed constants (string literals)"
    if path.endswith("assembly.o"):
        return "Firmware (program, runtime)"
    return None


def parse_lld(lines):
    """Yields (output, object, section, size, symbols) for each input section of an lld map."""
    column = lines[0].index("Out") if lines and "Out" in lines[0] else 33
    output = None
    current = None
    for line in lines[1:]:
        fields = line.split(None, 4)
        if len(fields) < 5 or not re.fullmatch(r"[0-9a-f]+", fields[0]):
            continue
        text = line.strip().split(None, 4)[4]
        depth = len(line) - len(text) - column  # Out at 0, In at 8, Symbol at 16
        if current is not None and depth < 16:
            yield current
            current = None
        if depth < 8:
            output = text
        elif depth < 16:
            m = re.match(r"^(.*):\((.*)\)$", text)
            if m:
                current = [output, m.group(1), m.group(2), int(fields[2], 16), []]
        elif current is not None and text not in ("$t", "$d", "$a"):
            current[4].append(text)
    if current is not None:
        yield current


def parse_gnu(lines):
    """Yields (output, object, section, size, symbols) for a GNU ld map's memory map."""
    output = None
    current = None
    pending = None
    for line in lines:
        m = re.match(r"^(\.[\w.]+)\s+0x[0-9a-f]+\s+0x[0-9a-f]+", line) or re.match(r"^(\.[\w.]+)\s*$", line)
        if m and not line.startswith(" "):
            output = m.group(1)
            continue
        m = re.match(r"^ (\.[^\s]+)\s*$", line)
        if m:
            pending = m.group(1)
            continue
        m = re.match(r"^ ?(\.[^\s]+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
        if m and (m.group(1) or pending):
            if current is not None:
                yield current
            current = [output, m.group(4), m.group(1) or pending, int(m.group(3), 16), []]
            pending = None
            continue
        m = re.match(r"^\s+0x[0-9a-f]+\s+(\S+)$", line)
        if m and current is not None:
            current[4].append(m.group(1))
    if current is not None:
        yield current


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map")
    parser.add_argument("--objects", action="store_true", help="group by input object")
    parser.add_argument("--symbols", type=int, default=0, help="list the N largest input sections")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--prefix", default="")
    args = parser.parse_args()
    with open(args.map, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    gnu = any(line.startswith("Memory Configuration") for line in lines[:50])
    sections = list((parse_gnu if gnu else parse_lld)(lines))

    table = collections.defaultdict(collections.Counter)
    biggest = []
    output_sizes = collections.Counter()
    for output, obj, section, size, symbols in sections:
        m = FLASH_OUTPUT.match(output or "")
        if not m or size == 0:
            continue
        kind = KIND[m.group(1)]
        output_sizes[output] += size
        if args.objects:
            owner = obj.rsplit("/", 1)[-1]
        else:
            owner = owner_of_object(obj)
            base = obj.rsplit("/", 1)[-1]
            if owner is None and section in (".data.rel.ro", ".data", ".rodata") and re.fullmatch(r"Tack\w+\.o", base):
                # Swift has no data sections: a module's statically initialised data is
                # one section, kept whole, whatever its first symbol; the object's.
                owner = base[:-2]
            if owner is None and base.endswith(".lto.o") and re.match(r"\.text\.(OUTLINED_FUNCTION|\.Lanon\.)", section):
                owner = "outlined and merged sequences (LTO)"
            if owner is None:
                names = symbols + [section.split(".", 2)[-1]]
                owner = next((module_of(s) for s in names if module_of(s)), None)
            if owner is None:
                # The machine outliner's OUTLINED_FUNCTION_n belong to the object's module.
                base = obj.rsplit("/", 1)[-1]
                if re.fullmatch(r"Tack\w+\.o", base):
                    owner = base[:-2]
                elif section.startswith(".text.OUTLINED_FUNCTION"):
                    owner = "Firmware (program, runtime)"
                else:
                    owner = "C-named runtime (Runtime/, Assembly.s)"
        table[owner][kind] += size
        biggest.append((size, symbols[0] if symbols else f"{obj.rsplit('/', 1)[-1]}:({section})", owner))

    # The output sections' own sizes include the padding between input sections.
    totals = collections.Counter()
    if not gnu:
        column = lines[0].index("Out") if lines and "Out" in lines[0] else 33
        for line in lines[1:]:
            fields = line.split()
            if len(fields) == 5 and re.fullmatch(r"[0-9a-f]+", fields[0]) and FLASH_OUTPUT.match(fields[4]) \
                    and len(line) - len(fields[4]) == column:
                totals[fields[4]] = int(fields[2], 16)
    else:
        for line in lines:
            m = re.match(r"^(\.[\w.]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)", line)
            if m and FLASH_OUTPUT.match(m.group(1)):
                totals[m.group(1)] = int(m.group(2), 16)
    flash = sum(totals.values())
    padding = flash - sum(sum(c.values()) for c in table.values())

    rows = sorted(table.items(), key=lambda item: -sum(item[1].values()))
    p = args.prefix
    if args.markdown:
        print("| Owner | text | rodata | data | flash |")
        print("|---|---:|---:|---:|---:|")
        for owner, c in rows:
            print(f"| {owner} | {c['text']:,} | {c['rodata']:,} | {c['data']:,} | {sum(c.values()):,} |")
        print(f"| alignment padding | | | | {padding:,} |")
        print(f"| **total** | | | | **{flash:,}** |")
    else:
        print(f"{p}{'owner':<40} {'text':>9} {'rodata':>8} {'data':>7} {'flash':>9}")
        for owner, c in rows:
            print(f"{p}{owner:<40} {c['text']:>9} {c['rodata']:>8} {c['data']:>7} {sum(c.values()):>9}")
        print(f"{p}{'alignment padding':<40} {'':>9} {'':>8} {'':>7} {padding:>9}")
        print(f"{p}{'total':<40} {'':>9} {'':>8} {'':>7} {flash:>9}")
    if args.symbols:
        print(f"{p}largest input sections:")
        for size, name, owner in sorted(biggest, reverse=True)[: args.symbols]:
            print(f"{p}{size:>9} {name[:140]}")


if __name__ == "__main__":
    sys.exit(main())

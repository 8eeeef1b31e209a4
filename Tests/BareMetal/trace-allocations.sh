#!/usr/bin/env bash
# Lists what allocates during one measured verdict of firmware.elf, counted per
# call site: QEMU's GDB stub, gdb-multiarch breaking on posix_memalign between
# the verdict markers (tack_verdict_begin, tack_verdict_end), and at each
# allocation the stack's words read back to the innermost function of a core
# module (TackDER .. TackTrust) they return into.
#
#   Tests/BareMetal/trace-allocations.sh BUILD/firmware.elf [VERDICT]
#
# VERDICT counts the measured verdicts from 1 (default 1: the RSA-2048 chain's
# first; 2 is its second, steady-state verdict, 3 and 4 the P-256 chain's). The
# image comes from `swift package baremetal-check --build-dir BUILD`.
# The Embedded objects carry no unwind tables and the image no debug information,
# so gdb's `bt` stops at posix_memalign; the stack scan is a heuristic instead (a
# stale return address left in a frame can be taken for a caller), good for
# counting sites, not for proving a single one.
# Needs gdb-multiarch (Debian package gdb-multiarch); not part of CI.
set -euo pipefail
ELF="$1"
VERDICT="${2:-1}"
BIN="$(dirname "$(command -v swiftc)")"
PORT=$(( 20000 + RANDOM % 20000 ))
WORK="$(mktemp -d)"
# The functions' addresses: by C name, else by the Swift name (the linked image
# keeps only the Swift symbol of some @_cdecl functions at that address).
address() {  # address C-NAME SWIFT-NAME-PART
    "$BIN/llvm-nm" "$ELF" | awk -v c="$1" -v s="$2" '!found && ($3 == c || index($3, s)) { print "0x" $1; found = 1 }'
}
BEGIN_AT="$(address tack_verdict_begin 12verdictBeginyyF)"
END_AT="$(address tack_verdict_end 10verdictEndyyF)"
ALLOC_AT="$(address posix_memalign 13posixMemalign)"
[ -n "$BEGIN_AT" ] && [ -n "$END_AT" ] && [ -n "$ALLOC_AT" ] || { echo "trace-allocations: markers not found in $ELF" >&2; exit 1; }
cat >"$WORK/commands.gdb" <<EOF
set pagination off
set confirm off
target remote 127.0.0.1:$PORT
break *$BEGIN_AT
ignore 1 $((VERDICT - 1))
continue
delete 1
break *$END_AT
break *$ALLOC_AT
commands 3
silent
echo ==== allocation\\n
p/x \$lr
x/192wx \$sp
continue
end
continue
EOF
qemu-system-arm -M mps2-an386 -nographic -monitor none -serial null \
    -semihosting-config enable=on,target=native -icount shift=0 \
    -gdb "tcp:127.0.0.1:$PORT" -S -kernel "$ELF" >/dev/null 2>&1 &
QEMU_PID=$!
trap 'kill "$QEMU_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
sleep 1
gdb-multiarch -q -batch -nx -x "$WORK/commands.gdb" "$ELF" >"$WORK/trace.txt" 2>&1 || true
"$BIN/llvm-nm" -n -S "$ELF" >"$WORK/symbols.txt"
python3 - "$WORK/symbols.txt" "$WORK/trace.txt" "$VERDICT" <<'PY' | "$BIN/swift-demangle" --simplified | cut -c1-200
import bisect, collections, re, sys
symbols = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 4 and f[2] in "tT":
        symbols.append((int(f[0], 16), int(f[1], 16), f[3]))
starts = [s[0] for s in symbols]
def function(address):
    i = bisect.bisect_right(starts, address) - 1
    if i >= 0 and symbols[i][0] <= address < symbols[i][0] + symbols[i][1]:
        return symbols[i][2]
    return None
core = re.compile(r"\$e(7TackDER|8TackDigest|8TackX509|13TackSignature|9TackTrust)")
sites = collections.Counter()
allocations = open(sys.argv[2]).read().split("==== allocation")[1:]
for block in allocations:
    lr = re.search(r"= (0x[0-9a-f]+)", block)
    words = [int(w, 16) for w in re.findall(r"\t(0x[0-9a-f]{8})", block)]
    # Thumb return addresses have bit 0 set.
    chain = [function(w & ~1) for w in ([int(lr.group(1), 16)] if lr else []) + [w for w in words if w & 1]]
    ours = [f for f in chain if f and core.match(f)]
    sites[ours[0] if ours else "(no core function on the stack)"] += 1
print(f"{len(allocations)} allocations in measured verdict {sys.argv[3]}, by the innermost core function on the stack:")
for site, count in sites.most_common():
    print(f"{count:4d}  {site}")
PY

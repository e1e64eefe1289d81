#!/usr/bin/env python3
"""Which functions of an executable built with -g carry which lines of a .pc
file (objdump's decoded line table, nm's function addresses).

  debug_lines.py EXE PC_FILE
prints, for each line of PC_FILE marked with a comment `// @NAME`, the
functions whose code carries that line: `@NAME: f g`, sorted."""
import bisect
import re
import subprocess
import sys

exe, pc = sys.argv[1:3]
base = pc.rsplit("/", 1)[-1]
marks = {}
for n, line in enumerate(open(pc, encoding="utf-8"), 1):
    m = re.search(r"// @(\w+)", line)
    if m:
        marks[n] = m.group(1)

syms = []
for line in subprocess.run(["nm", exe], capture_output=True, text=True, check=True).stdout.split("\n"):
    parts = line.split()
    if len(parts) == 3 and parts[1] in "tT":
        syms.append((int(parts[0], 16), parts[2]))
syms.sort()
addrs = [a for a, _ in syms]

found = {n: set() for n in marks}
out = subprocess.run(["objdump", "--dwarf=decodedline", exe], capture_output=True, text=True,
                     check=True).stdout
for line in out.split("\n"):
    parts = line.split()
    if len(parts) >= 3 and parts[0] == base and parts[1].isdigit() and parts[2].startswith("0x"):
        n, addr = int(parts[1]), int(parts[2], 16)
        if n in found:
            k = bisect.bisect_right(addrs, addr) - 1
            if k >= 0:
                found[n].add(syms[k][1])
for n in sorted(marks):
    print("@%s: %s" % (marks[n], " ".join(sorted(found[n]))))

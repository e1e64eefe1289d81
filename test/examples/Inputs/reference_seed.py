#!/usr/bin/env python3
"""docs/reference.md ("PARC_SCHED and PARC_SEED") shows a program, last.pc,
and what it prints at one processor, with and without PARC_SCHED=random and
a PARC_SEED.  At one processor the order is a function of the seed, so this
builds the program the page shows and runs every such command it quotes
(not the one without a seed, whose seed comes from the clock), comparing
the output line by line (trailing blanks aside).

  reference_seed.py REFERENCE_MD "PARCC [OPTIONS]" TMP_DIR
prints "N runs checked, M differ" and the differences."""
import os
import re
import shlex
import subprocess
import sys

ref, parcc, tmp = sys.argv[1:4]
text = open(ref, encoding="utf-8").read()
a = text.index("### PARC_SCHED and PARC_SEED")
block = re.search(r"^```console\n(.*?)^```$", text[a:], re.M | re.S).group(1)
lines = block.split("\n")
start = lines.index("$ cat last.pc") + 1
end = next(i for i in range(start, len(lines)) if lines[i].startswith("$ "))
os.makedirs(tmp, exist_ok=True)
with open(os.path.join(tmp, "last.pc"), "w") as f:
    f.write("\n".join(lines[start:end]) + "\n")
subprocess.run(shlex.split(parcc) + ["last.pc", "-o", "last"], cwd=tmp, check=True)
base = {k: v for k, v in os.environ.items() if not k.startswith("PARC_")}
runs = bad = 0
for i in range(end, len(lines)):
    m = re.match(r"\$ ((?:PARC_\w+=\w+ )+)\./last$", lines[i])
    if not m or "PARC_NPROCS=1" not in m.group(1):
        continue
    env = dict(base, **dict(v.split("=") for v in m.group(1).split()))
    if env.get("PARC_SCHED") == "random" and "PARC_SEED" not in env:
        continue
    want = []
    for l in lines[i + 1:]:
        if l.startswith("$ "):
            break
        want.append(l.rstrip())
    r = subprocess.run([os.path.join(tmp, "last")], env=env, capture_output=True, text=True)
    got = [l.rstrip() for l in r.stdout.split("\n")[:-1]]
    runs += 1
    if got != want:
        bad += 1
        print("%s: the page shows %r, the program prints %r" % (lines[i], want, got))
print("%d runs checked, %d differ" % (runs, bad))

#!/usr/bin/env python3
"""docs/guide.md also shows fragments (the classic mistakes of section 3, a
split into blocks, a pbreak search):
```c blocks that are not whole programs.  Each must still be valid PARC:
it is put into a function, after declarations of the names the fragments
use, and parcc must accept it (-fsyntax-only) without a warning.

  guide_fragments.py GUIDE_MD "PARCC [OPTIONS]" TMPDIR
prints "N fragments checked, M rejected or warned about" and parcc's messages.
"""
import os
import re
import shlex
import subprocess
import sys

PRELUDE = """#include <stdio.h>
extern int f(int);
extern int compute(void);
int a[100];
int x, y;
#define N 1000000
#define BLOCK 10000
int v[N];
long where, n;
double part[64];
"""

guide, parcc, tmp = sys.argv[1:4]
text = open(guide, encoding="utf-8").read()
frags = [b for b in re.findall(r"^```c\n(.*?)^```$", text, re.M | re.S) if "main(" not in b]
os.makedirs(tmp, exist_ok=True)
bad = 0
for n, frag in enumerate(frags):
    path = os.path.join(tmp, "fragment%d.pc" % n)
    with open(path, "w") as out:
        out.write(PRELUDE + "void fragment%d(void)\n{\n%s}\n" % (n, frag))
    r = subprocess.run(shlex.split(parcc) + ["-fsyntax-only", path], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        bad += 1
        print("fragment %d is not accepted silently:\n%s%s" % (n, frag, r.stderr))
print("%d fragments checked, %d rejected or warned about" % (len(frags), bad))

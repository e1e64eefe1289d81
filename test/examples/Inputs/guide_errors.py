#!/usr/bin/env python3
"""docs/guide.md, section 11, quotes parcc's compile-time messages.  Each
quoted `error:` and `note:` text (after FILE:LINE:COL:) must be one that
parcc really prints for one of the inputs in ERRORS_DIR (Inputs/errors).

  guide_errors.py GUIDE_MD "PARCC [OPTIONS]" ERRORS_DIR
prints "N quoted messages checked, M not printed by parcc" and the missing ones.
"""
import os
import re
import shlex
import subprocess
import sys

guide, parcc, errors = sys.argv[1:4]
text = open(guide, encoding="utf-8").read()
a = text.index("## 11. ")
b = text.index("\n## 12. ", a)
section = text[a:b]
real = set()
out = ""
for name in sorted(os.listdir(errors)):
    if name.endswith(".pc"):
        r = subprocess.run(shlex.split(parcc) + ["-fsyntax-only", os.path.join(errors, name)],
                           capture_output=True, text=True)
        if r.returncode == 0:
            print("parcc accepted %s" % name)
        out += r.stderr
for line in out.split("\n"):
    m = re.match(r"\S+:\d+:\d+: ((?:error|note): .*)$", line.rstrip("\n"))
    if m:
        real.add(m.group(1))
quoted = []
for block in re.findall(r"```console\n(.*?)\n```", section, re.S):
    for line in block.split("\n"):
        m = re.match(r"[^\s:$]+\.pc:\d+:\d+: ((?:error|note): .*)$", line)
        if m:
            quoted.append(m.group(1))
missing = [q for q in quoted if q not in real]
for q in missing:
    print("not printed by parcc: " + q)
print("%d quoted messages checked, %d not printed by parcc" % (len(quoted), len(missing)))

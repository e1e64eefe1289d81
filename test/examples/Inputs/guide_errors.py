#!/usr/bin/env python3
"""docs/guide.md, section 11, quotes parcc's messages.  Each quoted
`FILE:LINE:COL: error: ...` or `note:` line must be, position included, one
that parcc prints for the program FILE in ERRORS_DIR (Inputs/errors, each of
which parcc must reject); each quoted `parc: error: FILE:...` line must be
what the program FILE of RUN_DIR (Inputs/run-errors), compiled and run
without arguments, prints on standard error, with exit status 1, after the
output the guide shows above it.

  guide_errors.py GUIDE_MD "PARCC [OPTIONS]" ERRORS_DIR RUN_DIR TMP_DIR
prints "N quoted messages checked, M not printed by parcc" and the missing ones.
"""
import os
import re
import shlex
import subprocess
import sys

guide, parcc, errors, runs, tmp = sys.argv[1:6]
parcc = shlex.split(parcc)
text = open(guide, encoding="utf-8").read()
a = text.index("## 11. ")
b = text.index("\n## 12. ", a)
section = text[a:b]
real = set()
for name in sorted(os.listdir(errors)):
    if name.endswith(".pc"):
        # Run in ERRORS_DIR so that parcc names the file as the guide does.
        r = subprocess.run(parcc + ["-fsyntax-only", name], cwd=errors,
                           capture_output=True, text=True)
        if r.returncode == 0:
            print("parcc accepted %s" % name)
        for line in r.stderr.split("\n"):
            if re.match(r"\S+\.pc:\d+:\d+: (?:error|note): ", line):
                real.add(line.rstrip("\n"))
quoted = []
missing = []
for block in re.findall(r"```console\n(.*?)\n```", section, re.S):
    lines = block.split("\n")
    for line in lines:
        if re.match(r"[^\s:$]+\.pc:\d+:\d+: (?:error|note): ", line):
            quoted.append(line)
            if line not in real:
                missing.append(line)
    m = re.match(r"parc: error: ([\w.-]+\.pc):", lines[-1])
    if m:
        # A run-time error: the program's output, then the message.
        quoted.append(lines[-1])
        exe = os.path.join(tmp, m.group(1)[:-3])
        c = subprocess.run(parcc + [m.group(1), "-o", exe], cwd=runs,
                           capture_output=True, text=True)
        r = subprocess.run([exe], capture_output=True, text=True) if c.returncode == 0 else None
        shown = [l for l in lines[:-1] if not l.startswith("$ ")]
        if (r is None or r.returncode != 1 or r.stderr != lines[-1] + "\n"
                or r.stdout.split("\n")[:-1] != shown):
            missing.append(lines[-1])
for q in missing:
    print("not printed by parcc: " + q)
print("%d quoted messages checked, %d not printed by parcc" % (len(quoted), len(missing)))

#!/usr/bin/env python3
"""docs/reference.md quotes what a bad environment variable and a bad parcc
command line print.  This checks every such quote against the real thing:

- each `parc: error: PARC_VAR=VALUE: reason` it quotes, and each row of the
  "| Value | Message |" tables under a "### PARC_VAR" heading, is what a
  PARC program prints on standard error for that value, exiting with 2;
- each "$ parcc ARGS" line of a console block that is followed by
  `parcc: error: ...` lines makes parcc print exactly those lines and exit
  with 1 (run in TMP_DIR, where prog.pc is a valid program).

  reference_errors.py REFERENCE_MD "PARCC [OPTIONS]" PROGRAM_PC TMP_DIR
prints "N quoted messages checked, M wrong" and the wrong ones.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

ref, parcc, program, tmp = sys.argv[1:5]
parcc = shlex.split(parcc)
text = open(ref, encoding="utf-8").read()
os.makedirs(tmp, exist_ok=True)
shutil.copy(program, os.path.join(tmp, "prog.pc"))
exe = os.path.join(tmp, "prog")
subprocess.run(parcc + ["prog.pc", "-o", "prog"], cwd=tmp, check=True)

# Environment variables: (variable, value, reason).
env_cases = set()
for m in re.finditer(r"parc: error: (PARC_[A-Z_]+)=([^:`\n]*): ([^`\n]+)", text):
    env_cases.add((m.group(1), m.group(2), m.group(3)))
for sec in re.finditer(r"^### (PARC_[A-Z_]+)\n(.*?)(?=^### |\Z)", text, re.M | re.S):
    var = sec.group(1)
    for row in re.finditer(r"^\| (.+?) \| `([^`]+)` \|$", sec.group(2), re.M):
        if row.group(1) == "Value":
            continue
        for value in re.findall(r"empty|`[^`]*`", row.group(1)):
            env_cases.add((var, "" if value == "empty" else value[1:-1], row.group(2)))

base = {k: v for k, v in os.environ.items() if not k.startswith("PARC_")}
checked = 0
wrong = []
for var, value, reason in sorted(env_cases):
    checked += 1
    want = "parc: error: %s=%s: %s\n" % (var, value, reason)
    r = subprocess.run([exe], env=dict(base, **{var: value}), capture_output=True, text=True)
    if r.returncode != 2 or r.stderr != want:
        wrong.append("%s=%r: status %d, %r" % (var, value, r.returncode, r.stderr))

# parcc's own errors after "$ parcc ..." lines.
for block in re.findall(r"^```console\n(.*?)^```$", text, re.M | re.S):
    lines = block.split("\n")
    for i, line in enumerate(lines):
        if not line.startswith("$ parcc") or "#" in line:
            continue
        want = []
        for follow in lines[i + 1:]:
            if not follow.startswith("parcc: error: "):
                break
            want.append(follow)
        if not want:
            continue
        checked += 1
        r = subprocess.run(parcc + shlex.split(line[len("$ parcc"):]), cwd=tmp,
                           capture_output=True, text=True)
        if r.returncode != 1 or r.stderr.split("\n")[:-1] != want:
            wrong.append("%s: status %d, %r" % (line, r.returncode, r.stderr))

for w in wrong:
    print("wrong: " + w)
print("%d quoted messages checked, %d wrong" % (checked, len(wrong)))

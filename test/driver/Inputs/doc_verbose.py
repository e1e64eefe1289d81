#!/usr/bin/env python3
"""docs/reference.md shows what `parcc -v -O2 -g counter.pc -o counter`
prints (its own lines: the back-end commands).  This runs that command on the tour's counter.pc in TMP_DIR and
compares the two, once the parts that differ from machine to machine are
replaced: the back-end compiler's path, the temporary directory, the
runtime's -I and -L directories, -lnuma (present only with libnuma), and
what a sanitizer build of the suite adds.

  doc_verbose.py REFERENCE_MD "PARCC [OPTIONS]" COUNTER_PC TMP_DIR
prints "same" or both versions."""
import os
import re
import shlex
import shutil
import subprocess
import sys

ref, parcc, counter, tmp = sys.argv[1:5]
cmd = "$ parcc -v -O2 -g counter.pc -o counter"
lines = open(ref, encoding="utf-8").read().split("\n")
start = lines.index(cmd) + 1
end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
doc = lines[start:end]
os.makedirs(tmp, exist_ok=True)
shutil.copy(counter, os.path.join(tmp, "counter.pc"))
r = subprocess.run(shlex.split(parcc) + shlex.split(cmd[len("$ parcc"):]), cwd=tmp,
                   capture_output=True, text=True)
real = (r.stdout + r.stderr).split("\n")[:-1]
# parcc's own lines are the back-end commands it runs; the back end, given
# -v too, shows its stages after each (cc1, as, collect2), which the
# reference leaves out.
if real:
    back_end = real[0].split()[0]
    real = [l for l in real if l.split()[:1] == [back_end]]


def norm(line):
    words = line.split()
    out = ["CC"]  # the back end, as named by PARCC_CC or --cc
    for w in words[1:]:
        if w == "-lnuma" or w.startswith("-fsanitize"):
            continue
        w = re.sub(r"/\S*?/parcc-[\w-]+/", "TMP/", w)
        w = re.sub(r"^-I\S*$", "-IRUNTIME", w)
        w = re.sub(r"^-L\S*$", "-LRUNTIME", w)
        w = re.sub(r"^-lparc-[at]san$", "-lparc", w)  # a sanitizer build's runtime
        out.append(w)
    return " ".join(out)


a = [norm(l) for l in doc]
b = [norm(l) for l in real]
if a == b and r.returncode == 0:
    print("same")
else:
    print("reference.md:\n  " + "\n  ".join(a))
    print("parcc (status %d):\n  %s" % (r.returncode, "\n  ".join(b)))

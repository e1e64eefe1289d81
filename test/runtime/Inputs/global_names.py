"""The global symbols that the runtime's archives define, against the names
that parc.h and parc_abi.h declare (test/runtime/global_names.test).

usage: global_names.py INCLUDE_DIR LIB_DIR

Checks every LIB_DIR/libparc*.a with nm.  A global name is expected when it
is one of the headers' parc_ identifiers (in their code, not their comments),
or one of the few that are not the runtime's own: stdio.c's printf family
(weak, so that a program's own printf wins), the compiler's weak pointer to
the personality routine (DW.ref.*, one COMDAT copy per program), and
AddressSanitizer's ODR indicators of the ABI's variables (__odr_asan.NAME).
Prints one line per archive and one per unexpected name."""
import os
import re
import subprocess
import sys

inc, libdir = sys.argv[1:3]

abi = set()
for h in ("parc.h", "parc_abi.h"):
    with open(os.path.join(inc, h)) as f:
        code = f.read()
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    code = re.sub(r"//[^\n]*", " ", code)
    abi.update(n for n in re.findall(r"\b[A-Za-z_]\w*\b", code) if n.startswith("parc_"))

# stdio.c: libc's names, weak.
stdio = {"printf", "fprintf", "vprintf", "vfprintf", "__printf_chk", "__fprintf_chk", "__vprintf_chk"}


def expected(kind, name):
    if name in abi:
        return True
    if name in stdio or name.startswith("DW.ref."):
        return kind in "WV"  # weak
    if name.startswith("__odr_asan."):
        return name[len("__odr_asan."):] in abi
    return False


archives = sorted(f for f in os.listdir(libdir) if re.fullmatch(r"libparc(-[a-z]+)?\.a", f))
bad = 0
for a in archives:
    out = subprocess.run(["nm", "-g", "--defined-only", os.path.join(libdir, a)],
                         check=True, capture_output=True, text=True).stdout
    names = [line.split()[1:] for line in out.splitlines() if len(line.split()) == 3]
    wrong = sorted(n for k, n in names if not expected(k, n))
    print("%s: %d globals, %d unexpected" % (a, len(names), len(wrong)))
    for n in wrong:
        print("%s: unexpected global %s" % (a, n))
    bad += len(wrong)
print("archives: %d, unexpected globals: %d" % (len(archives), bad))

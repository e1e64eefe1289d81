"""Every name that parc_abi.h declares (the list parcc reads from the
header when it is built, compiler/tool/parcc-abi-names.cpp) is refused by
parcc in user code and listed in docs/reference.md, "Reserved names"
(test/diag/abi_names_all.test).

usage: abi_names_all.py ABI_NAMES_INC REFERENCE_MD PARCC WORKDIR"""
import os
import re
import subprocess
import sys

inc, reference, parcc, work = sys.argv[1:5]
with open(inc) as f:
    names = re.findall(r'^"(\w+)",$', f.read(), flags=re.M)

with open(reference) as f:
    doc = f.read()
section = doc[doc.index("#### Reserved names"):]
section = section[:section.index("```")]
listed = set(re.findall(r"`(\w+)`", section))
print("names: %d" % len(names))
print("not in reference.md:", *[n for n in names if n not in listed])

# One file-scope declaration of each name: parcc reports each one.
os.makedirs(work, exist_ok=True)
src = os.path.join(work, "all_names.c")
with open(src, "w") as f:
    for n in names:
        f.write("int %s;\n" % n)
out = subprocess.run([parcc, "-fsyntax-only", "-ferror-limit=0", src], capture_output=True, text=True).stderr
refused = set(re.findall(r"error: '(\w+)' is a name of parc_abi.h", out))
print("not refused by parcc:", *[n for n in names if n not in refused])

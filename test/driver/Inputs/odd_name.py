"""Compiles and runs a PARC program whose file name holds a newline and a
tab, and one with an error, with the parcc of argv[1] in directory argv[2]."""
import os
import subprocess
import sys

parcc, out = sys.argv[1].split(), sys.argv[2]
os.makedirs(out, exist_ok=True)
src = os.path.join(out, "new\nline\tname.pc")
with open(src, "w") as f:
    f.write("#include <stdio.h>\nint main(void)\n{\n    int a[4];\n"
            "    parfor int i; 0; 3; 1; a[i] = i * i; epar\n"
            "    printf(\"%d %s\\n\", a[3], __FILE__);\n    return 0;\n}\n")
exe = os.path.join(out, "odd")
r = subprocess.run(parcc + [src, "-o", exe], capture_output=True, text=True)
print("compile:", r.returncode, repr(r.stderr))
if r.returncode == 0:
    print("run:", repr(subprocess.run([exe], capture_output=True, text=True).stdout))
bad = os.path.join(out, "bad\nname.pc")
with open(bad, "w") as f:
    f.write("int main(void)\n{\n    parfor int i; 0; 3; 1; pbreak epar\n    return 0;\n}\n")
r = subprocess.run(parcc + ["-fsyntax-only", bad], capture_output=True, text=True)
print("error:", r.returncode, repr(r.stderr.splitlines()[0] if r.stderr else ""))

# gdb -batch -x gdb_step.py PROG: from a breakpoint on the construct's line
# (gdb_step.pc:5), `step` until the program is on another line of
# gdb_step.pc; prints the number of steps, where they ended and every file
# they went through (test/driver/gdb_step.test).
import gdb

gdb.execute("break gdb_step.pc:5")
gdb.execute("run")
gdb.execute("delete")
steps, files, line = 0, [], 0
while steps < 5000:
    gdb.execute("step", to_string=True)
    steps += 1
    sal = gdb.selected_frame().find_sal()
    name = sal.symtab.filename.split("/")[-1] if sal.symtab else "?"
    if name not in files:
        files.append(name)
    line = sal.line
    if name == "gdb_step.pc" and line != 5:
        break
print("steps: %d, at line %d" % (steps, line))
print("files:", *sorted(files))

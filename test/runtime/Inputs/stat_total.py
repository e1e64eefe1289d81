"""Reads a program's output with PARC_STATS=1 from stdin and prints its
lines other than the statistics, then whether the total of one statistic
is below a bound: `stat_total.py NAME BOUND` prints "NAME below BOUND" or
"NAME at least BOUND (VALUE)"."""
import sys

name, bound = sys.argv[1], int(sys.argv[2])
total = None
for line in sys.stdin:
    if not line.startswith("parc: stats:"):
        sys.stdout.write(line)
        continue
    if " total " in line:
        for field in line.split():
            if field.startswith(name + "="):
                total = int(field.split("=", 1)[1])
if total is None:
    print("no total for %s" % name)
elif total < bound:
    print("%s below %d" % (name, bound))
else:
    print("%s at least %d (%d)" % (name, bound, total))

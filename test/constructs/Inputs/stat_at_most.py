"""Reads PARC_STATS=1 output on stdin and checks that a field of the
'total' line is at most a limit: stat_at_most.py FIELD LIMIT.  With the
output of several runs, the smallest of their values is checked, so that
one run slowed by other programs on the machine does not fail the test."""
import re
import sys

field, limit = sys.argv[1], int(sys.argv[2])
values = []
for line in sys.stdin:
    if line.startswith("parc: stats: total "):
        m = re.search(r"\b%s=(\d+)" % re.escape(field), line)
        if not m:
            sys.exit("no %s= in: %s" % (field, line.strip()))
        values.append(int(m.group(1)))
if not values:
    sys.exit("no 'parc: stats: total' line")
value = min(values)
print("%s=%d (at most %d)" % (field, value, limit))
sys.exit(0 if value <= limit else 1)

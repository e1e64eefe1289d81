"""Reads PARC_STATS=1 output on stdin and checks that a field of the
'total' line is at most a limit: stat_at_most.py FIELD LIMIT."""
import re
import sys

field, limit = sys.argv[1], int(sys.argv[2])
for line in sys.stdin:
    if line.startswith("parc: stats: total "):
        m = re.search(r"\b%s=(\d+)" % re.escape(field), line)
        if not m:
            sys.exit("no %s= in: %s" % (field, line.strip()))
        value = int(m.group(1))
        print("%s=%d (at most %d)" % (field, value, limit))
        sys.exit(0 if value <= limit else 1)
sys.exit("no 'parc: stats: total' line")

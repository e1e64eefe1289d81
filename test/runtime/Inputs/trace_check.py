"""trace_check.py TRACE STATS: cross-checks a PARC_TRACE file against the
PARC_STATS report of the same run (block and resume events against
blocked= and resumed=), and the thread_name metadata of every processor."""
import json
import re
import sys

trace = json.load(open(sys.argv[1]))
stats = open(sys.argv[2]).read()
total = re.search(r"parc: stats: total procs=(\d+) .* blocked=(\d+) resumed=(\d+)", stats)
P, blocked, resumed = (int(x) for x in total.groups())
ev = trace["traceEvents"]
blocks = sum(1 for e in ev if e.get("cat") == "block")
resumes = sum(1 for e in ev if e.get("cat") == "resume")
ok = True
if blocks != blocked:
    print("blocks: trace %d, stats %d" % (blocks, blocked)); ok = False
if resumes != resumed:
    print("resumes: trace %d, stats %d" % (resumes, resumed)); ok = False
if ok:
    print("blocks match stats, resumes match stats")
names = [e for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"]
if len(names) == P and trace["otherData"]["nprocs"] == P and all(
        re.match(r"processor \d+ \(cpu -?\d+, node \d+\)$", e["args"]["name"]) for e in names):
    print("processors named %d" % P)
sys.exit(0 if ok else 1)

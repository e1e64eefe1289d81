"""trace_check.py TRACE [STATS]: independent checks of a PARC_TRACE file.

Prints, per site, how many distinct activities have a segment 0 and whether
any appears twice ("SITE: N activities, each once"), without relying on
parc-trace.  With STATS (the PARC_STATS report of the same run), also
compares the block and resume events with blocked= and resumed=, and checks
the thread_name metadata of every processor."""
import collections
import json
import re
import sys

trace = json.load(open(sys.argv[1]))
ev = trace["traceEvents"]
ok = True
seen = collections.defaultdict(collections.Counter)
for e in ev:
    if e.get("ph") == "X" and e["args"]["segment"] == 0:
        a = e["args"]
        seen[a["site"]][(a["execution"], a["index"])] += 1
for site in sorted(seen):
    c = seen[site]
    twice = sum(1 for v in c.values() if v > 1)
    print("%s: %d activities, %s" % (site, len(c), "each once" if not twice else "%d twice" % twice))
    ok &= not twice
if len(sys.argv) > 2:
    stats = open(sys.argv[2]).read()
    total = re.search(r"parc: stats: total procs=(\d+) .* blocked=(\d+) resumed=(\d+)", stats)
    P, blocked, resumed = (int(x) for x in total.groups())
    blocks = sum(1 for e in ev if e.get("cat") == "block")
    resumes = sum(1 for e in ev if e.get("cat") == "resume")
    if blocks != blocked:
        print("blocks: trace %d, stats %d" % (blocks, blocked)); ok = False
    if resumes != resumed:
        print("resumes: trace %d, stats %d" % (resumes, resumed)); ok = False
    if blocks == blocked and resumes == resumed:
        print("blocks match stats, resumes match stats")
    names = [e for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"]
    if len(names) == P and trace["otherData"]["nprocs"] == P and all(
            re.match(r"processor \d+ \(cpu -?\d+, node -?\d+\)$", e["args"]["name"]) for e in names):
        print("processors named %d" % P)
sys.exit(0 if ok else 1)
